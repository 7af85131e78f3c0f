/**
 * WHERE A CONCEPT SET IS RESOLVED, by the rules of circe (OHDSI's reference resolver behind WebAPI and ATLAS): an item
 * gives its own concept (even if invalid), its valid descendants when includeDescendants, and the sources of valid
 * 'Maps to' rows into those when includeMapped; the result is the union of the included items minus the union of the
 * excluded ones. Ids are read in bulk pages from the store into sorted Int32Arrays and merged, yielding to the event
 * loop between pages, so a set of hundreds of thousands of concepts never blocks the server for long.
 *
 * Departures, both invisible on an Athena release: an id absent from CONCEPT never appears (circe's mapped-source
 * query does not join CONCEPT); concepts of vocabularies hidden from the caller never appear, and an item naming one is
 * left out of the expression and listed as restricted (so its exclusions cannot reveal the hidden hierarchy either).
 */
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { ConceptSetExpression, ConceptSetItem } from './expression-formats.js';

/**
 * What resolution needs of the caller's view of a release. The request-scoped release view satisfies it as it is; a
 * route builds one with a single adapter function (concept-set-routes.ts `conceptSetScope`).
 */
export interface ConceptSetScope {
  readonly store: ReleaseStore;
  readonly label: string;
  canSee(vocabularyId: string): boolean;
  hiddenVocabularyIds(): readonly string[];
}

/** Descendant ids read per store call: one synchronous slice is one page (≈ 10–20 ms at full size). */
export const DESCENDANT_PAGE = 20_000;
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

/** All valid, visible descendants of one concept, ascending, a page per slice. */
async function validDescendants(scope: ConceptSetScope, conceptId: number, clock: SliceClock): Promise<Int32Array> {
  const pages: Int32Array[] = [];
  const hidden = scope.hiddenVocabularyIds();
  let after = -1;
  for (;;) {
    const page = scope.store.conceptSets.validDescendantIds(conceptId, after, DESCENDANT_PAGE, hidden);
    pages.push(page.ids);
    if (page.next === undefined) break;
    after = page.next;
    await clock.yield();
  }
  return pages.length === 1 ? pages[0]! : concat(pages);
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

/** One item's expansion, sorted distinct: itself, its valid descendants, and the sources mapped into those. */
async function expandItem(scope: ConceptSetScope, item: ConceptSetItem, clock: SliceClock): Promise<Int32Array> {
  const self = Int32Array.of(item.conceptId);
  const base = item.includeDescendants ? sortedDistinct(concat([self, await validDescendants(scope, item.conceptId, clock)])) : self;
  if (!item.includeMapped) return base;
  const mapped = await mappedSources(scope, base, clock);
  return sortedDistinct(concat([base, mapped]));
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

/** Resolves an expression against the caller's view of a release. */
export async function resolveExpression(scope: ConceptSetScope, expression: ConceptSetExpression, clock = new SliceClock()): Promise<Resolution> {
  const items = classifyItems(scope, expression.items);
  const included: Int32Array[] = [];
  const excluded: Array<{ outcome: ItemOutcome; ids: Int32Array }> = [];
  // Expansions are memoised per (concept, flags): a repeated item is read once.
  const memo = new Map<string, Int32Array>();
  for (const outcome of items) {
    if (outcome.status !== 'resolved') continue;
    const { item } = outcome;
    const key = `${item.conceptId}:${item.includeDescendants}:${item.includeMapped}`;
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
  const include = sortedDistinct(concat(included));
  let ids = include;
  if (excluded.length) {
    await clock.yield();
    for (const e of excluded) e.outcome.removed = intersection(include, e.ids).length;
    ids = difference(include, sortedDistinct(concat(excluded.map((e) => e.ids))));
  }
  return { ids, items, excludedRemoved: include.length - ids.length, longestSliceMs: clock.finish() };
}
