/**
 * Resolves a concept-set expression by the rules of circe (OHDSI's reference resolver behind WebAPI and ATLAS; rules
 * and departures in docs/concept-sets.md), reading ids in bulk pages into sorted Int32Arrays that are filtered in memory
 * (validity, licence) and merged, with a yield to the event loop between pages.
 */
import type { ConceptRecord } from '../../store/records.js';
import type { DescendantCursor } from '../../store/concept-set-store.js';
import type { ReleaseView } from '../release-view.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { ConceptSetExpression, ConceptSetItem } from './expression-formats.js';

/**
 * What resolution needs of the caller's view of a release. The request-scoped release view satisfies it as it is; a
 * route builds one with a single adapter function (concept-set-routes.ts `conceptSetScope`).
 */
/** What resolution reads: the request's release view (store, label, the caller's licences). */
export type ConceptSetScope = ReleaseView;

/** Descendant ids read per store call: one synchronous slice is one page. */
export const DESCENDANT_PAGE = 50_000;
/** Valid concept ids read per store call while the release's valid-id index is built. */
export const VALID_ID_PAGE = 100_000;
/** Targets per 'Maps to' store call. */
export const MAPPED_TARGET_CHUNK = 2_000;

export type ItemStatus = 'resolved' | 'unknown' | 'restricted';

/** How one item took part: its status, the size of its own expansion, and for excluded items how many included concepts it removed. */
export interface ItemOutcome {
  index: number;
  item: ConceptSetItem;
  status: ItemStatus;
  /** The item's concept when it exists and the caller may see it. */
  concept?: ConceptRecord;
  /** Concepts the item's own expansion holds (itself, descendants, mapped sources). */
  concepts: number;
  /** Excluded items: included concepts this item removes (another exclusion may remove some of them too). */
  removed?: number;
}

export interface Resolution {
  /** The resolved concept ids, ascending, distinct. */
  ids: Int32Array;
  items: ItemOutcome[];
  /** Concepts of the included items that the exclusions removed. */
  excludedRemoved: number;
  /** The union of the excluded items' expansions, ascending (items subsumed by another one left out when not counted). */
  excludedIds: Int32Array;
  /** The longest run of work between two yields to the event loop, in ms. */
  longestSliceMs: number;
}

/** Yields to the event loop and measures the synchronous slices in between. */
export class SliceClock {
  longest = 0;
  private start = performance.now();

  async yield(): Promise<void> {
    this.longest = Math.max(this.longest, performance.now() - this.start);
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.start = performance.now();
  }

  finish(): number {
    this.longest = Math.max(this.longest, performance.now() - this.start);
    return this.longest;
  }
}

/** Sorted distinct copy of the ids. */
export function sortedDistinct(ids: Int32Array): Int32Array {
  const sorted = ids.slice().sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i]!;
  return sorted.slice(0, n);
}

function concat(parts: readonly Int32Array[]): Int32Array {
  const out = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** a ∪ b for sorted distinct arrays. */
export function union(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length);
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) (out[n++] = x), i++;
    else if (y < x) (out[n++] = y), j++;
    else (out[n++] = x), i++, j++;
  }
  while (i < a.length) out[n++] = a[i++]!;
  while (j < b.length) out[n++] = b[j++]!;
  return out.slice(0, n);
}

/** The union of sorted distinct arrays, merged pairwise (smallest first) with a yield between merges. */
async function unionAll(parts: readonly Int32Array[], clock: SliceClock): Promise<Int32Array> {
  const queue = [...parts].sort((p, q) => p.length - q.length);
  if (queue.length === 0) return new Int32Array(0);
  while (queue.length > 1) {
    const merged = union(queue.shift()!, queue.shift()!);
    let at = queue.findIndex((p) => p.length > merged.length);
    if (at < 0) at = queue.length;
    queue.splice(at, 0, merged);
    await clock.yield();
  }
  return queue[0]!;
}

/** a − b for sorted distinct arrays. */
export function difference(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length);
  let n = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const v = a[i]!;
    while (j < b.length && b[j]! < v) j++;
    if (j >= b.length || b[j] !== v) out[n++] = v;
  }
  return out.slice(0, n);
}

/** a ∩ b for sorted distinct arrays. */
export function intersection(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.slice(0, n);
}

/**
 * The in-memory filters of one release: its valid concept ids (built at the first concept-set request of the release,
 * 4 bytes per valid concept, about 16 MB at full size) and the ids of each set of hidden vocabularies.
 */
interface ReleaseFilters {
  valid: Promise<Int32Array>;
  hidden: Map<string, Int32Array>;
}

const filtersByStore = new WeakMap<ReleaseStore, ReleaseFilters>();

function filtersOf(store: ReleaseStore, clock: SliceClock): ReleaseFilters {
  let filters = filtersByStore.get(store);
  if (!filters) {
    const valid = readValidIds(store, clock);
    filters = { valid, hidden: new Map() };
    filtersByStore.set(store, filters);
    valid.catch(() => filtersByStore.delete(store));
  }
  return filters;
}

/** Every valid concept id of the release, ascending, read a page per slice. */
async function readValidIds(store: ReleaseStore, clock: SliceClock): Promise<Int32Array> {
  const pages: Int32Array[] = [];
  let after = -1;
  for (;;) {
    const page = store.conceptSets.validConceptIds(after, VALID_ID_PAGE);
    pages.push(page.ids);
    if (page.next === undefined) break;
    after = page.next;
    await clock.yield();
  }
  return concat(pages);
}

/** Every valid concept id of the scope's release, ascending (the cached index resolution filters descendants with). */
export async function validConceptIds(scope: ConceptSetScope, clock = new SliceClock()): Promise<Int32Array> {
  return filtersOf(scope.store, clock).valid;
}

/** Sorted ids of the caller's hidden vocabularies (cached per release and list). */
function hiddenIdsOf(scope: ConceptSetScope, filters: ReleaseFilters): Int32Array {
  const hidden = [...scope.hiddenVocabularyIds()].sort();
  const key = hidden.join('\u0000');
  let ids = filters.hidden.get(key);
  if (!ids) {
    ids = scope.store.conceptSets.vocabularyConceptIds(hidden);
    filters.hidden.set(key, ids);
  }
  return ids;
}

/** The first index at or after `from` whose value is ≥ v (galloping search in a sorted array). */
function gallop(sorted: Int32Array, v: number, from: number): number {
  let step = 1;
  let lo = from;
  let hi = from;
  while (hi < sorted.length && sorted[hi]! < v) {
    lo = hi + 1;
    hi += step;
    step *= 2;
  }
  if (hi > sorted.length) hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of v in a sorted array, or -1. */
export function indexOfSorted(sorted: Int32Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo] === v ? lo : -1;
}

/** The ids (sorted distinct) that are in `valid` and not in `hidden`. */
function keepValidVisible(ids: Int32Array, valid: Int32Array, hidden: Int32Array): Int32Array {
  const out = new Int32Array(ids.length);
  let n = 0;
  let i = 0;
  let j = 0;
  for (let k = 0; k < ids.length; k++) {
    const v = ids[k]!;
    i = gallop(valid, v, i);
    if (i >= valid.length) break;
    if (valid[i] !== v) continue;
    if (hidden.length) {
      j = gallop(hidden, v, j);
      if (j < hidden.length && hidden[j] === v) continue;
    }
    out[n++] = v;
  }
  return out.slice(0, n);
}

/** All valid, visible descendants of one concept (present in CONCEPT), ascending, a page per slice. */
async function validDescendants(scope: ConceptSetScope, conceptId: number, clock: SliceClock): Promise<Int32Array> {
  const filters = filtersOf(scope.store, clock);
  const valid = await filters.valid;
  const pages: Int32Array[] = [];
  let after: DescendantCursor | undefined;
  for (;;) {
    const page = scope.store.conceptSets.descendantIds(conceptId, after, DESCENDANT_PAGE);
    pages.push(page.ids);
    if (page.next === undefined) break;
    after = page.next;
    await clock.yield();
  }
  const all = pages.length === 1 ? pages[0]! : concat(pages);
  return keepValidVisible(all.sort(), valid, hiddenIdsOf(scope, filters));
}

/** Sources of valid 'Maps to' rows into these targets (visible sources present in CONCEPT), sorted distinct. */
export async function mappedSources(scope: ConceptSetScope, targets: Int32Array, clock: SliceClock): Promise<Int32Array> {
  const parts: Int32Array[] = [];
  const hidden = scope.hiddenVocabularyIds();
  for (let start = 0; start < targets.length; start += MAPPED_TARGET_CHUNK) {
    parts.push(scope.store.conceptSets.mapsToInto(targets.subarray(start, start + MAPPED_TARGET_CHUNK), hidden).sources);
    if (start + MAPPED_TARGET_CHUNK < targets.length) await clock.yield();
  }
  return sortedDistinct(concat(parts));
}

/** One item's expansion, sorted distinct: itself, its valid descendants, and the sources mapped into those (only the sources when mappedOnly). */
async function expandItem(scope: ConceptSetScope, item: ConceptSetItem, clock: SliceClock): Promise<Int32Array> {
  const self = Int32Array.of(item.conceptId);
  const base = item.includeDescendants ? union(self, await validDescendants(scope, item.conceptId, clock)) : self;
  if (item.mappedOnly) return mappedSources(scope, base, clock);
  if (!item.includeMapped) return base;
  return union(base, await mappedSources(scope, base, clock));
}

/** Status of every item: unknown (not in CONCEPT), restricted (hidden vocabulary) or resolved. */
export function classifyItems(scope: ConceptSetScope, items: readonly ConceptSetItem[]): ItemOutcome[] {
  const found = new Map(scope.store.concepts.byIds([...new Set(items.map((i) => i.conceptId))]).map((c) => [c.concept_id, c]));
  return items.map((item, index): ItemOutcome => {
    const concept = found.get(item.conceptId);
    if (!concept) return { index, item, status: 'unknown', concepts: 0 };
    if (!scope.canSee(concept.vocabulary_id)) return { index, item, status: 'restricted', concepts: 0 };
    return { index, item, status: 'resolved', concept, concepts: 0 };
  });
}

/**
 * Whether item `x` adds nothing to item `y` (both on the same side): y includes descendants, x's concept is one of them
 * and valid (an invalid one is not among y's descendants), and x maps only if y maps; or x and y name the same concept
 * and x's flags are a subset of y's.
 */
export function subsumes(scope: ConceptSetScope, y: ItemOutcome, x: ItemOutcome): boolean {
  const a = y.item;
  const b = x.item;
  if (y.status !== 'resolved' || x.status !== 'resolved' || a.isExcluded !== b.isExcluded) return false;
  if (a.mappedOnly || b.mappedOnly) return a.mappedOnly === b.mappedOnly && a.conceptId === b.conceptId && (!b.includeDescendants || a.includeDescendants);
  if (b.includeMapped && !a.includeMapped) return false;
  if (a.conceptId === b.conceptId) return !b.includeDescendants || a.includeDescendants;
  return a.includeDescendants && x.concept!.invalid_reason === null && scope.store.hierarchy.isAncestor(a.conceptId, b.conceptId);
}

/** For each resolved item that another one subsumes, the index of an item that does and that is not itself dropped. */
export function subsumedItems(scope: ConceptSetScope, items: readonly ItemOutcome[]): Map<number, ItemOutcome> {
  const dropped = new Map<number, ItemOutcome>();
  const live = items.filter((o) => o.status === 'resolved');
  for (const x of live) {
    // Two items that subsume each other (the same concept and flags): the first one stays.
    const by = live.find((y) => y !== x && !dropped.has(y.index) && subsumes(scope, y, x) && (!subsumes(scope, x, y) || y.index < x.index));
    if (by) dropped.set(x.index, by);
  }
  return dropped;
}

export interface ResolveOptions {
  /**
   * Count each item's own expansion (ItemOutcome.concepts, removed); default true. Without counts, items subsumed by
   * another item are not read at all (the ids answer is the same).
   */
  itemCounts?: boolean;
}

/**
 * Resolves an expression against the caller's view of a release: an item gives its own concept (even if invalid), its
 * valid descendants when includeDescendants, and the sources of valid 'Maps to' rows into those when includeMapped;
 * the result is the union of the included items minus the union of the excluded ones. Departures, invisible on an
 * Athena release: an id absent from CONCEPT never appears (circe's mapped-source query does not join CONCEPT), and
 * an item naming a concept of a vocabulary hidden from the caller is left out (listed as restricted), so that its
 * exclusions cannot reveal the hidden hierarchy either.
 */
export async function resolveExpression(
  scope: ConceptSetScope,
  expression: ConceptSetExpression,
  clock = new SliceClock(),
  options: ResolveOptions = {},
): Promise<Resolution> {
  const itemCounts = options.itemCounts ?? true;
  const items = classifyItems(scope, expression.items);
  const skipped = itemCounts ? new Map<number, ItemOutcome>() : subsumedItems(scope, items);
  const included: Int32Array[] = [];
  const excluded: Array<{ outcome: ItemOutcome; ids: Int32Array }> = [];
  // Expansions are memoised per (concept, flags): a repeated item is read once.
  const memo = new Map<string, Int32Array>();
  for (const outcome of items) {
    if (outcome.status !== 'resolved' || skipped.has(outcome.index)) continue;
    const { item } = outcome;
    const key = `${item.conceptId}:${item.includeDescendants}:${item.includeMapped}:${item.mappedOnly === true}`;
    let ids = memo.get(key);
    if (!ids) {
      ids = await expandItem(scope, item, clock);
      memo.set(key, ids);
      await clock.yield();
    }
    outcome.concepts = ids.length;
    if (item.isExcluded) excluded.push({ outcome, ids });
    else included.push(ids);
  }
  const include = await unionAll(included, clock);
  let ids = include;
  let excludedIds: Int32Array = new Int32Array(0);
  if (excluded.length) {
    await clock.yield();
    if (itemCounts) for (const e of excluded) e.outcome.removed = intersection(include, e.ids).length;
    excludedIds = await unionAll(excluded.map((e) => e.ids), clock);
    ids = difference(include, excludedIds);
  }
  return { ids, items, excludedRemoved: include.length - ids.length, excludedIds, longestSliceMs: clock.finish() };
}
