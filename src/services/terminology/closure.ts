/**
 * The subsumption closure of a set of codes (E11, ConceptMap/$closure), computed statelessly per request: every
 * pair (A, B) of the supplied codes where A's concept is a proper ancestor of B's, by one primary-key probe per
 * ordered pair.
 */
import type { ReleaseView } from '../release-view.js';
import { validationError } from '../errors.js';
import { nearestKnownSystem } from '../fhir/code-system-uris.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { assertSystemVisible, conceptOfCode, terminologySystem } from './code-system-concept.js';

/** Spec E11 / Limits: 1 to 50 `concept` parameters per request. */
export const MAX_CLOSURE_CONCEPTS = 50;

/** A supplied coding as the operation received it (system and code may be missing: that is checked here). */
export interface ClosureInput {
  system?: string;
  code?: string;
}

/** A supplied coding, trimmed, as it is echoed. */
export interface ClosureCoding {
  system: string;
  code: string;
}

/** `ancestor` subsumes `descendant`: its concept is a proper ancestor of the descendant's in CONCEPT_ANCESTOR. */
export interface SubsumptionPair {
  ancestor: ClosureCoding;
  descendant: ClosureCoding;
}

/** A supplied coding with the concept it names. */
interface PlacedCoding {
  coding: ClosureCoding;
  conceptId: number;
}

function requiredText(value: string | undefined, field: 'system' | 'code', position: number, total: number): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') {
    throw validationError(`Parameter 'concept' ${position} of ${total} has no ${field}: every concept is a valueCoding with system and code (spec E11).`, {
      parameter: 'concept',
      position,
      missing: field,
    });
  }
  return text;
}

/** The codings checked and trimmed, each once (see the header's input rules). */
function checkedCodings(inputs: readonly ClosureInput[]): ClosureCoding[] {
  if (inputs.length === 0 || inputs.length > MAX_CLOSURE_CONCEPTS) {
    throw validationError(
      `ConceptMap/$closure takes 1 to ${MAX_CLOSURE_CONCEPTS} 'concept' parameters (valueCoding with system and code); ${inputs.length === 0 ? 'none were' : `${inputs.length} were`} given.`,
      { parameter: 'concept', count: inputs.length, min: 1, max: MAX_CLOSURE_CONCEPTS },
    );
  }
  const seen = new Set<string>();
  const codings: ClosureCoding[] = [];
  inputs.forEach((input, i) => {
    const coding = { system: requiredText(input.system, 'system', i + 1, inputs.length), code: requiredText(input.code, 'code', i + 1, inputs.length) };
    const key = `${coding.system}\u0000${coding.code}`;
    if (!seen.has(key)) {
      seen.add(key);
      codings.push(coding);
    }
  });
  return codings;
}

/** The supplied codings whose concepts the release holds (403 for licensed content the key may not read). */
function placeCodings(view: ReleaseView, codings: readonly ClosureCoding[]): PlacedCoding[] {
  const placed: PlacedCoding[] = [];
  for (const coding of codings) {
    const system = terminologySystem(coding.system);
    if (!system) {
      const suggestion = nearestKnownSystem(coding.system);
      throw validationError(
        `Parameter 'concept' has a code system the server does not know: '${coding.system}'.${suggestion ? ` Did you mean '${suggestion}'?` : ''}`,
        { parameter: 'concept', system: coding.system, ...(suggestion ? { suggestion } : {}) },
      );
    }
    assertSystemVisible(view, system);
    const concept = conceptOfCode(view.store, system, coding.code, 'normalised');
    if (!concept) continue;
    view.assertVisible(concept.vocabulary_id);
    placed.push({ coding, conceptId: concept.concept_id });
  }
  return placed;
}

/** All subsumption pairs among the supplied codes (see the header for the rules and the order). */
export function subsumptionClosure(view: ReleaseView, inputs: readonly ClosureInput[]): SubsumptionPair[] {
  const placed = placeCodings(view, checkedCodings(inputs));
  const concepts = [...new Set(placed.map((p) => p.conceptId))];
  /** "ancestor>descendant" for every ordered pair of distinct supplied concepts with a CONCEPT_ANCESTOR row. */
  const subsumes = new Set<string>();
  for (const ancestor of concepts) {
    for (const descendant of concepts) {
      if (ancestor !== descendant && view.store.hierarchy.isAncestor(ancestor, descendant)) subsumes.add(`${ancestor}>${descendant}`);
    }
  }
  const pairs: SubsumptionPair[] = [];
  for (const ancestor of placed) {
    for (const descendant of placed) {
      if (subsumes.has(`${ancestor.conceptId}>${descendant.conceptId}`)) pairs.push({ ancestor: ancestor.coding, descendant: descendant.coding });
    }
  }
  return pairs;
}
