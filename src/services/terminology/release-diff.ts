/**
 * CodeSystem/$diff as domain logic: what changed for one code between two loaded releases. The
 * concept is read in each release (./code-system-concept.ts: a concept_id in the OMOP system, a
 * concept_code in a vocabulary's system) and compared:
 * - added: absent in the earlier release, present in the later one;
 * - deprecated: valid (invalid_reason empty) before and invalid (D or U) or absent after;
 * - reinstated: invalid before and valid after;
 * - renamed: concept_name differs; re-domained: domain_id differs;
 * - remapped: the set of valid `Maps to` targets (concept_ids) the caller may see differs.
 */
import type { AccessPolicy } from '../access-policy.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { notFound, validationError } from '../errors.js';
import { MAPS_TO } from '../mappings/concept-mappings.js';
import { codeOfConcept, conceptCodeSystem, conceptOfCode, assertSystemVisible, unknownSystemMessage } from './code-system-concept.js';

export const DIFF_CHANGE_TYPES = ['added', 'deprecated', 'reinstated', 'renamed', 're-domained', 'remapped'] as const;
export type DiffChangeType = (typeof DIFF_CHANGE_TYPES)[number];

export interface ReleaseChange {
  code: string;
  display: string;
  type: DiffChangeType;
  /** The value in the earlier release ('' when there was none). */
  from: string;
  /** The value in the later release ('' when there is none). */
  to: string;
}

/** Most `Maps to` targets read per concept and release. */
const MAPS_TO_LIMIT = 1000;

/** The valid `Maps to` targets the caller may see, as sorted concept_ids. */
function mapsToTargets(store: ReleaseStore, policy: AccessPolicy, concept: ConceptRecord): string {
  return store.concepts
    .related(concept.concept_id, [MAPS_TO], MAPS_TO_LIMIT)
    .flatMap((l) => (policy.canSee(l.concept.vocabulary_id) ? [l.concept.concept_id] : []))
    .sort((a, b) => a - b)
    .join(' ');
}

const validity = (c: ConceptRecord | undefined) => (c === undefined ? '' : (c.invalid_reason ?? 'valid'));

/** The changes of one code from release `before` to release `after` (404 when neither release has it). */
export function diffCode(before: ReleaseStore, after: ReleaseStore, policy: AccessPolicy, systemUri: string, code: string): ReleaseChange[] {
  const system = conceptCodeSystem(systemUri);
  if (!system) throw notFound(unknownSystemMessage(systemUri));
  assertSystemVisible(policy, system);
  const old = conceptOfCode(before, system, code, 'exact');
  const now = conceptOfCode(after, system, code, 'exact');
  const concept = now ?? old;
  if (concept === undefined) throw notFound(`Code '${code}' is not in system '${systemUri}' in either release.`);
  policy.assertVisible(concept.vocabulary_id);
  const change = (type: DiffChangeType, from: string, to: string): ReleaseChange => ({
    code: codeOfConcept(system, concept),
    display: concept.concept_name,
    type,
    from,
    to,
  });
  if (old === undefined) return [change('added', '', now!.concept_name)];
  const changes: ReleaseChange[] = [];
  const wasValid = old.invalid_reason === null;
  const isValid = now !== undefined && now.invalid_reason === null;
  if (wasValid && !isValid) changes.push(change('deprecated', validity(old), validity(now)));
  if (!wasValid && isValid) changes.push(change('reinstated', validity(old), validity(now)));
  if (now === undefined) return changes;
  if (old.concept_name !== now.concept_name) changes.push(change('renamed', old.concept_name, now.concept_name));
  if (old.domain_id !== now.domain_id) changes.push(change('re-domained', old.domain_id, now.domain_id));
  const oldTargets = mapsToTargets(before, policy, old);
  const newTargets = mapsToTargets(after, policy, now);
  if (oldTargets !== newTargets) changes.push(change('remapped', oldTargets, newTargets));
  return changes;
}

/** Required `code` until the whole-vocabulary comparison is served. */
export function requireDiffCode(code: string | undefined): string {
  if (code === undefined || code === '') {
    throw validationError("Parameter 'code' is required: CodeSystem/$diff compares one code (a whole vocabulary is not yet served).", { parameter: 'code' });
  }
  return code;
}
