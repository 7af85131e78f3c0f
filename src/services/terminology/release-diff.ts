/**
 * CodeSystem/$diff as domain logic for one code: the concept is read in each of two loaded releases and compared
 * as added, deprecated, reinstated, renamed, re-domained or remapped.
 */
import type { ReleaseView } from '../release-view.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { notFound, validationError } from '../errors.js';
import { MAPS_TO } from '../mappings/concept-mappings.js';
import {
  assertSystemVisible,
  codeOfConcept,
  conceptCodeSystem,
  conceptOfCode,
  unknownSystemMessage,
  type ConceptCodeSystem,
} from './code-system-concept.js';

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

/** A `Maps to` target of a concept: its concept_id and vocabulary. */
export interface MapsToTarget {
  id: number;
  vocabularyId: string;
}

/** The value compared for `remapped`: the first MAPS_TO_LIMIT targets by concept_id, those the caller may see, as sorted concept_ids. */
export function visibleTargets(targets: readonly MapsToTarget[], view: ReleaseView): string {
  // Most concepts have one target (a standard concept maps to itself): no sorting, no arrays.
  if (targets.length <= 1) return targets.length === 1 && view.canSee(targets[0]!.vocabularyId) ? String(targets[0]!.id) : '';
  return [...targets]
    .sort((a, b) => a.id - b.id)
    .slice(0, MAPS_TO_LIMIT)
    .flatMap((t) => (view.canSee(t.vocabularyId) ? [t.id] : []))
    .join(' ');
}

/** The valid `Maps to` targets the caller may see, as sorted concept_ids. */
function mapsToTargets(view: ReleaseView, concept: ConceptRecord): string {
  const targets = view.store.concepts.related(concept.concept_id, [MAPS_TO], MAPS_TO_LIMIT).map((l) => ({ id: l.concept.concept_id, vocabularyId: l.concept.vocabulary_id }));
  return visibleTargets(targets, view);
}

/** The `remapped` value of a concept in the earlier (`before`) or later (`after`) release (visibleTargets). */
export type MapsToReader = (release: 'before' | 'after', concept: ConceptRecord) => string;

const validity = (c: ConceptRecord | undefined) => (c === undefined ? '' : (c.invalid_reason ?? 'valid'));

/** Change types to report: every type, or the ones a caller asked for. */
export type DiffChangeTypes = ReadonlySet<DiffChangeType>;
export const ALL_DIFF_CHANGE_TYPES: DiffChangeTypes = new Set(DIFF_CHANGE_TYPES);

/**
 * The changes, among `types`, from `old` (the concept in the earlier release, or undefined) to `now`
 * (in the later one, or undefined) of one code of `system`: the rules of the header, shared by the
 * one-code diff and the whole-system walk (./code-system-diff.ts). At least one of the two is
 * defined; the caller has checked the licence. `Maps to` targets are read (through `mapsTo`) only
 * when `remapped` is one of the types and the concept is in both releases.
 */
export function conceptChanges(
  before: ReleaseStore,
  after: ReleaseStore,
  view: ReleaseView,
  system: ConceptCodeSystem,
  old: ConceptRecord | undefined,
  now: ConceptRecord | undefined,
  types: DiffChangeTypes = ALL_DIFF_CHANGE_TYPES,
  /** How targets are read (the walk reads them for many concepts at once); default one read per concept and release. */
  mapsTo: MapsToReader = (release, concept) => mapsToTargets(view.onRelease(release === 'before' ? before : after), concept),
): ReleaseChange[] {
  const concept = (now ?? old)!;
  const changes: ReleaseChange[] = [];
  const change = (type: DiffChangeType, from: string, to: string) => {
    if (types.has(type)) changes.push({ code: codeOfConcept(system, concept), display: concept.concept_name, type, from, to });
  };
  if (old === undefined) {
    change('added', '', now!.concept_name);
    return changes;
  }
  const wasValid = old.invalid_reason === null;
  const isValid = now !== undefined && now.invalid_reason === null;
  if (wasValid && !isValid) change('deprecated', validity(old), validity(now));
  if (!wasValid && isValid) change('reinstated', validity(old), validity(now));
  if (now === undefined) return changes;
  if (old.concept_name !== now.concept_name) change('renamed', old.concept_name, now.concept_name);
  if (old.domain_id !== now.domain_id) change('re-domained', old.domain_id, now.domain_id);
  if (types.has('remapped')) {
    const oldTargets = mapsTo('before', old);
    const newTargets = mapsTo('after', now);
    if (oldTargets !== newTargets) change('remapped', oldTargets, newTargets);
  }
  return changes;
}

/** The changes, among `types`, of one code from release `before` to release `after` (404 when neither release has it). */
export function diffCode(
  beforeView: ReleaseView,
  /** The later release, seen with the caller's licence rules (they apply to both). */
  view: ReleaseView,
  systemUri: string,
  code: string,
  types: DiffChangeTypes = ALL_DIFF_CHANGE_TYPES,
): ReleaseChange[] {
  const [before, after] = [beforeView.store, view.store];
  const system = conceptCodeSystem(systemUri);
  if (!system) throw notFound(unknownSystemMessage(systemUri));
  assertSystemVisible(view, system);
  const old = conceptOfCode(before, system, code, 'exact');
  const now = conceptOfCode(after, system, code, 'exact');
  const concept = now ?? old;
  if (concept === undefined) throw notFound(`Code '${code}' is not in system '${systemUri}' in either release.`);
  view.assertVisible(concept.vocabulary_id);
  return conceptChanges(before, after, view, system, old, now, types);
}

/**
 * The change types of a `type` parameter: each value one type or a comma-separated list of them;
 * none given means every type. An unknown type is a 400 naming `type`.
 */
export function diffChangeTypes(values: readonly string[]): DiffChangeTypes {
  const named = values.flatMap((v) => v.split(',')).map((v) => v.trim());
  if (named.length === 0) return ALL_DIFF_CHANGE_TYPES;
  for (const type of named) {
    if (!(DIFF_CHANGE_TYPES as readonly string[]).includes(type)) {
      throw validationError(`Parameter 'type': unknown change type '${type}'; the types are ${DIFF_CHANGE_TYPES.join(', ')}.`, { parameter: 'type' });
    }
  }
  return new Set(named as DiffChangeType[]);
}
