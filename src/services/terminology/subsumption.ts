/**
 * CodeSystem/$subsumes as domain logic: how two codes of one system relate in CONCEPT_ANCESTOR, each direction one
 * primary-key lookup; an unknown system, version or code is a 404, never `not-subsumed`.
 */
import type { ReleaseView } from '../release-view.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { requireCodeSystem, requireConcept } from './code-system-concept.js';

/** http://hl7.org/fhir/ValueSet/concept-subsumption-outcome. */
export type SubsumptionOutcome = 'equivalent' | 'subsumes' | 'subsumed-by' | 'not-subsumed';

export interface SubsumptionRequest {
  system: string;
  version?: string;
  codeA: string;
  codeB: string;
}

export function subsumption(view: ReleaseView, releaseVersion: string, request: SubsumptionRequest): SubsumptionOutcome {
  const codeSystem = requireCodeSystem(view, request.system, request.version, releaseVersion);
  const a = requireConcept(view, codeSystem, request.codeA, releaseVersion).concept_id;
  const b = requireConcept(view, codeSystem, request.codeB, releaseVersion).concept_id;
  if (a === b) return 'equivalent';
  if (view.store.hierarchy.isAncestor(a, b)) return 'subsumes';
  if (view.store.hierarchy.isAncestor(b, a)) return 'subsumed-by';
  return 'not-subsumed';
}
