/**
 * CodeSystem/$subsumes as domain logic: how two codes of one code system relate in the OMOP
 * hierarchy. The hierarchy is CONCEPT_ANCESTOR (the code system's hierarchyMeaning is `Is a`, closed
 * transitively by OHDSI when the release was built), so each direction is one primary-key lookup
 * (HierarchyStore.isAncestor): A subsumes B when A is an ancestor of B, A is subsumed by B when B is
 * an ancestor of A, the same concept is equivalent, anything else is not-subsumed.
 *
 * FHIR: "if the server is unable to determine the relationship between the codes, then it returns an
 * error" — so an unknown system, version or code is a 404, never `not-subsumed`; a concept of a
 * vocabulary the caller may not see is a 403.
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
