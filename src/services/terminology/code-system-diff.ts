/**
 * CodeSystem/$diff over a whole code system: the changes between two loaded releases for every code, by a keyset
 * walk of both releases merged on (concept_code, concept_id), paged by an opaque cursor with bounded work per
 * page.
 */
import type { LicenceRules } from '../../licences/licence-rules.js';
import type { ReleaseView } from '../release-view.js';
import { notFound, validationError } from '../errors.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ConceptCodePosition, ReleaseStore } from '../../store/release-store.js';
import { assertSystemVisible, conceptCodeSystem, unknownSystemMessage, type ConceptCodeSystem } from './code-system-concept.js';
import { MAPS_TO } from '../mappings/concept-mappings.js';
import {
  ALL_DIFF_CHANGE_TYPES,
  DIFF_CHANGE_TYPES,
  conceptChanges,
  visibleTargets,
  type DiffChangeType,
  type DiffChangeTypes,
  type MapsToReader,
  type MapsToTarget,
  type ReleaseChange,
} from './release-diff.js';

/**
 * Most concepts a page reads per release. At full scale (4.9M concepts, warm cache) a page of 2,500
 * with `Maps to` compared takes p50 20 ms / p95 41 ms in the service (5,000: 41 / 63 ms); without
 * remapped 10 / 13 ms. Through HTTP (bench/scenarios/fhir-diff-system.ts, a release diffed with
 * itself, so every page reads its whole budget): p50 20 ms, p95 41 ms, p99 48 ms (no remapped: 11 / 17 / 22 ms).
 */
export const SCAN_BUDGET = 2500;
export const DEFAULT_DIFF_PAGE_SIZE = 100;
export const MAX_DIFF_PAGE_SIZE = 1000;

export interface CodeSystemDiffRequest {
  /** Changes per page (1–1000; default 100). */
  count?: number;
  /** The `next` of the previous page; undefined for the first page. */
  cursor?: string;
  types?: DiffChangeTypes;
}

export interface CodeSystemDiffPage {
  changes: ReleaseChange[];
  /** Per requested type (in DIFF_CHANGE_TYPES order): changes found so far in the walk, this page included. */
  counts: Array<{ type: DiffChangeType; count: number }>;
  /** The cursor of the next page; undefined on the last page (whose counts are the system's totals). */
  next: string | undefined;
  /** Keys (codes) walked in this page, concepts left out for the licence included. */
  scanned: number;
}

/** A walk position: a key of the merge, (concept_code, concept_id) or, in the OMOP system, concept_id alone (a concept is its own key). */
type Key = Pick<ConceptRecord, 'concept_code' | 'concept_id'>;

/** How one kind of code system is walked. */
interface Walk {
  /** Key spaces walked in turn (a vocabulary's system: one per vocabulary id). */
  lanes: number;
  read(store: ReleaseStore, lane: number, after: Key | undefined, limit: number): ConceptRecord[];
  /** The concept with exactly this key in this lane, if the release has it. */
  at(store: ReleaseStore, lane: number, key: Key): ConceptRecord | undefined;
  compare(a: Key, b: Key): number;
  /** Whether the caller may see the key's concept (its later version when it has one). */
  visible(concept: ConceptRecord): boolean;
}

const positionOf = (key: Key | undefined): ConceptCodePosition | undefined =>
  key === undefined ? undefined : { code: key.concept_code, conceptId: key.concept_id };

/**
 * SQLite BINARY order of two texts: their UTF-8 bytes, which is code point order. UTF-16 units
 * order the same except surrogates (D800–DFFF, code points above FFFF), which sort after E000–FFFF
 * in code point order: moved above them at the first difference (no allocation per comparison).
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x < 0xe000 ? x + 0x2000 : x - 0x800;
      y = y < 0xe000 ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

function walkOf(system: ConceptCodeSystem, view: ReleaseView): Walk {
  if (system.kind === 'omop-concept-id') {
    return {
      lanes: 1,
      read: (store, _lane, after, limit) => store.concepts.inIdOrder(after?.concept_id ?? -1, limit),
      at: (store, _lane, key) => store.concepts.byId(key.concept_id),
      compare: (a, b) => a.concept_id - b.concept_id,
      visible: (c) => view.canSee(c.vocabulary_id),
    };
  }
  const ids = system.vocabularyIds;
  return {
    lanes: ids.length,
    read: (store, lane, after, limit) => store.concepts.inCodeOrder(ids[lane]!, positionOf(after), limit),
    at: (store, lane, key) => {
      const c = store.concepts.byId(key.concept_id);
      return c && c.vocabulary_id === ids[lane] && c.concept_code === key.concept_code ? c : undefined;
    },
    compare: (a, b) => compareUtf8(a.concept_code, b.concept_code) || a.concept_id - b.concept_id,
    visible: () => true,
  };
}

/** What a cursor belongs to: a cursor is only valid for the same comparison. */
interface Comparison {
  /** The system's canonical URI. */
  s: string;
  /** Build ids (manifest build_id) of the earlier and the later release. */
  f: string;
  t: string;
  /** The change types asked for, in DIFF_CHANGE_TYPES order. */
  y: string[];
  /** The vocabularies the caller may not see, sorted (they change what the OMOP walk and remaps show). */
  h: string[];
}

interface WalkState {
  lane: number;
  /** Last key fully or partly given; undefined at the start of the lane. */
  after: Key | undefined;
  /** Changes of `after` already given (> 0 when the key was split across pages). */
  taken: number;
  counts: number[];
}

/** The cursor's JSON: the comparison, then the state (lane, code and concept_id of `after` or nulls, taken, counts by DIFF_CHANGE_TYPES). */
interface CursorJson extends Comparison {
  l: number;
  c: string | null;
  i: number | null;
  k: number;
  n: number[];
}

function encodeCursor(comparison: Comparison, state: WalkState): string {
  const json: CursorJson = {
    ...comparison,
    l: state.lane,
    c: state.after?.concept_code ?? null,
    i: state.after?.concept_id ?? null,
    k: state.taken,
    n: state.counts,
  };
  return Buffer.from(JSON.stringify(json), 'utf8').toString('base64url');
}

const CURSOR_MALFORMED = "Parameter 'cursor' is not a cursor of CodeSystem/$diff: pass the `next` of the previous page unchanged.";
const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const sameList = (a: unknown, b: readonly string[]) => Array.isArray(a) && a.length === b.length && a.every((v, i) => v === b[i]);

function decodeCursor(cursor: string, comparison: Comparison, lanes: number): WalkState {
  let json: Partial<CursorJson>;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorJson>;
  } catch {
    throw validationError(CURSOR_MALFORMED, { parameter: 'cursor' });
  }
  const positioned =
    json !== null &&
    typeof json === 'object' &&
    isCount(json.l) &&
    json.l < lanes &&
    isCount(json.k) &&
    Array.isArray(json.n) &&
    json.n.length === DIFF_CHANGE_TYPES.length &&
    json.n.every(isCount) &&
    ((json.c === null && json.i === null && json.k === 0) || (typeof json.c === 'string' && Number.isSafeInteger(json.i)));
  if (!positioned) throw validationError(CURSOR_MALFORMED, { parameter: 'cursor' });
  if (json.s !== comparison.s || json.f !== comparison.f || json.t !== comparison.t || !sameList(json.y, comparison.y) || !sameList(json.h, comparison.h)) {
    throw validationError(
      "Parameter 'cursor' belongs to another comparison (system, fromVersion/toVersion, type or licence differ): start again without 'cursor'.",
      { parameter: 'cursor' },
    );
  }
  return {
    lane: json.l!,
    after: json.c === null ? undefined : { concept_code: json.c!, concept_id: json.i! },
    taken: json.k!,
    counts: json.n!,
  };
}

/** What a cursor of this caller's walk of `system` between these two releases, for these types, must match. */
function comparisonOf(system: ConceptCodeSystem, fromBuildId: string, toBuildId: string, licences: Pick<LicenceRules, 'hiddenVocabularyIds'>, types: DiffChangeTypes): Comparison {
  return {
    s: system.canonical,
    f: fromBuildId,
    t: toBuildId,
    y: DIFF_CHANGE_TYPES.filter((t) => types.has(t)),
    h: licences.hiddenVocabularyIds().sort(),
  };
}

/**
 * A cursor resuming the walk between two builds (manifest build_id) just after a concept (its
 * vocabulary's index in the system, its code and concept_id), with no change counted yet: for
 * benchmarks that start deep in a walk without walking there (the page itself is a real one).
 */
export function codeSystemDiffCursorAfter(
  fromBuildId: string,
  toBuildId: string,
  licences: LicenceRules,
  system: ConceptCodeSystem,
  position: { lane: number; code: string; conceptId: number },
  types: DiffChangeTypes = ALL_DIFF_CHANGE_TYPES,
): string {
  return encodeCursor(comparisonOf(system, fromBuildId, toBuildId, licences, types), {
    lane: position.lane,
    after: { concept_code: position.code, concept_id: position.conceptId },
    taken: 0,
    counts: DIFF_CHANGE_TYPES.map(() => 0),
  });
}

/** `count` of a page: 1–1000, default 100; a 400 naming `count` otherwise. */
function pageSize(count: number | undefined): number {
  if (count === undefined) return DEFAULT_DIFF_PAGE_SIZE;
  if (!Number.isInteger(count) || count < 1 || count > MAX_DIFF_PAGE_SIZE) {
    throw validationError(`Parameter 'count' must be an integer from 1 to ${MAX_DIFF_PAGE_SIZE}, not ${count}.`, { parameter: 'count' });
  }
  return count;
}

/**
 * One page of the diff of a whole code system from release `before` to release `after` (see the
 * header). `scanBudget` is the most concepts read per release (tests make it small).
 */
export function diffCodeSystem(
  beforeView: ReleaseView,
  /** The later release, seen with the caller's licence rules (they apply to both). */
  view: ReleaseView,
  systemUri: string,
  request: CodeSystemDiffRequest = {},
  scanBudget: number = SCAN_BUDGET,
): CodeSystemDiffPage {
  const system = conceptCodeSystem(systemUri);
  if (!system) throw notFound(unknownSystemMessage(systemUri));
  const [before, after] = [beforeView.store, view.store];
  assertSystemVisible(view, system);
  const count = pageSize(request.count);
  const types = request.types ?? ALL_DIFF_CHANGE_TYPES;
  const walk = walkOf(system, view);
  const comparison = comparisonOf(system, before.manifest.build_id, after.manifest.build_id, view, types);
  const state: WalkState =
    request.cursor !== undefined
      ? decodeCursor(request.cursor, comparison, walk.lanes)
      : { lane: 0, after: undefined, taken: 0, counts: DIFF_CHANGE_TYPES.map(() => 0) };
  const changes: ReleaseChange[] = [];
  let scanned = 0;

  /** Compares one key; false when the page is full before all of the key's changes fit (the key is then split). */
  const compareKey = (pair: Pair, skip: number, mapsTo?: MapsToReader): boolean => {
    scanned++;
    state.after = pair.key;
    state.taken = 0;
    if (!pair.visible) return true;
    const all = conceptChanges(before, after, view, system, pair.old, pair.now, types, mapsTo);
    if (all.length <= skip) return true;
    const found = skip === 0 ? all : all.slice(skip);
    const room = count - changes.length;
    const given = found.slice(0, room);
    changes.push(...given);
    for (const change of given) state.counts[DIFF_CHANGE_TYPES.indexOf(change.type)]!++;
    if (found.length <= room) return true;
    state.taken = skip + room;
    return false;
  };
  const pairOf = (key: Key, old: ConceptRecord | undefined, now: ConceptRecord | undefined): Pair => {
    const concept = now ?? old;
    return { key, old, now, visible: concept !== undefined && walk.visible(concept) };
  };

  const page = (done: boolean): CodeSystemDiffPage => ({
    changes,
    counts: comparison.y.map((type) => ({ type: type as DiffChangeType, count: state.counts[DIFF_CHANGE_TYPES.indexOf(type as DiffChangeType)]! })),
    next: done ? undefined : encodeCursor(comparison, state),
    scanned,
  });

  // A key split across pages: its remaining changes first.
  if (state.taken > 0 && state.after !== undefined) {
    const key = state.after;
    if (!compareKey(pairOf(key, walk.at(before, state.lane, key), walk.at(after, state.lane, key)), state.taken)) return page(false);
  }

  let readLeft = Math.max(1, scanBudget);
  while (state.lane < walk.lanes && readLeft > 0 && changes.length < count) {
    const limit = readLeft;
    const olds = walk.read(before, state.lane, state.after, limit);
    const nows = walk.read(after, state.lane, state.after, limit);
    readLeft -= Math.max(olds.length, nows.length);
    const merged = mergeReads(walk, olds, nows, limit, pairOf);
    let compared = 0;
    while (compared < merged.pairs.length && changes.length < count) {
      const chunk = merged.pairs.slice(compared, compared + TARGETS_CHUNK);
      const mapsTo = types.has('remapped') ? prefetchMapsTo(before, after, view, chunk) : undefined;
      for (const pair of chunk) {
        if (!compareKey(pair, 0, mapsTo)) return page(false);
        compared++;
        if (changes.length >= count) break;
      }
    }
    if (merged.complete && compared === merged.pairs.length) {
      state.lane++;
      state.after = undefined;
    }
  }
  return page(state.lane >= walk.lanes);
}

/** A key of the merge with its concept in each release (undefined where the release lacks it). */
interface Pair {
  key: Key;
  old: ConceptRecord | undefined;
  now: ConceptRecord | undefined;
  /** Whether the caller may see it (the OMOP system leaves hidden vocabularies out). */
  visible: boolean;
}

/** Keys whose `Maps to` targets are read in one statement per release. */
const TARGETS_CHUNK = 256;

/**
 * The keys of two reads of one lane from the same position, merged in walk order, up to the smaller
 * last key of the reads that came back full (beyond it one release may have keys not read yet);
 * `complete` when neither read was full: the lane ends here.
 */
function mergeReads(
  walk: Walk,
  olds: ConceptRecord[],
  nows: ConceptRecord[],
  limit: number,
  pairOf: (key: Key, old: ConceptRecord | undefined, now: ConceptRecord | undefined) => Pair,
): { pairs: Pair[]; complete: boolean } {
  const bounds: Key[] = [olds, nows].filter((rows) => rows.length === limit).map((rows) => rows[rows.length - 1]!);
  const bound = bounds.length === 0 ? undefined : bounds.reduce((a, b) => (walk.compare(a, b) <= 0 ? a : b));
  const pairs: Pair[] = [];
  let i = 0;
  let j = 0;
  for (;;) {
    const oldKey = olds[i];
    const nowKey = nows[j];
    const order = oldKey && nowKey ? walk.compare(oldKey, nowKey) : oldKey ? -1 : 1;
    const key = order <= 0 ? oldKey : nowKey;
    if (key === undefined || (bound !== undefined && walk.compare(key, bound) > 0)) break;
    pairs.push(pairOf(key, order <= 0 ? olds[i++] : undefined, order >= 0 ? nows[j++] : undefined));
  }
  return { pairs, complete: bound === undefined };
}

/** The `Maps to` values of the visible keys in both releases of a chunk, read in one statement per release. */
function prefetchMapsTo(before: ReleaseStore, after: ReleaseStore, view: ReleaseView, chunk: readonly Pair[]): MapsToReader {
  const ids = chunk.flatMap((p) => (p.visible && p.old && p.now ? [p.now.concept_id] : []));
  const read = (store: ReleaseStore): Map<number, MapsToTarget[]> => {
    const bySource = new Map<number, MapsToTarget[]>();
    for (const t of store.concepts.targetsOf(ids, MAPS_TO)) {
      const target = { id: t.target_id, vocabularyId: t.target_vocabulary_id };
      const list = bySource.get(t.source_id);
      if (list) list.push(target);
      else bySource.set(t.source_id, [target]);
    }
    return bySource;
  };
  const targets = { before: read(before), after: read(after) };
  return (release, concept) => visibleTargets(targets[release].get(concept.concept_id) ?? [], view);
}
