/**
 * The concept-set answers of the REST surface over resolve.ts: a page of resolved concepts with its summary, all ids
 * (capped), the source codes mapped into a set, the comparison of two sets and the smallest equivalent expression.
 * Lists are in concept_id order; a page is read from the store by id after resolution.
 */
import { briefConcept, type ConceptBrief } from '../concepts/concept-brief.js';
import type { ConceptRecord } from '../../store/records.js';
import { ServiceError } from '../errors.js';
import { itemReference, toAtlasJson, type ConceptSetExpression, type ItemReference } from './expression-formats.js';
import {
  difference,
  intersection,
  mappedSources,
  resolveExpression,
  SliceClock,
  subsumedItems,
  type ConceptSetScope,
  type ItemOutcome,
  type Resolution,
} from './resolve.js';

/** Most ids one ids_only answer lists (about 5 MB of JSON); a larger set is 422 too_costly (page the concept list instead). */
export const MAX_IDS_ONLY = 500_000;
/** Facet rows read per store call for a summary. */
const SUMMARY_CHUNK = 5_000;

export interface PageWindow {
  offset: number;
  limit: number;
}

export interface ItemSummary extends ItemReference {
  status: ItemOutcome['status'];
  /** Concepts of the item's own expansion. */
  concepts: number;
  /** Excluded items: included concepts it removed. */
  removed?: number;
}

export interface ResolutionSummary {
  total: number;
  standard: number;
  non_standard: number;
  classification: number;
  by_domain: Record<string, number>;
  by_vocabulary: Record<string, number>;
  /** Included concepts the exclusions removed. */
  excluded_removed: number;
  /** Indexes of the items whose own expansion is empty (unknown or restricted concept). */
  items_matching_nothing: number[];
  items: ItemSummary[];
}

export interface ItemProblem {
  index: number;
  concept_id: number;
  reason: string;
}

export interface ResolvedPage {
  concepts: ConceptRecord[];
  summary: ResolutionSummary;
  unknown_concepts: ItemProblem[];
  restricted_items: ItemProblem[];
  timing: { longest_synchronous_slice_ms: number };
}

function problems(scope: ConceptSetScope, items: readonly ItemOutcome[]): Pick<ResolvedPage, 'unknown_concepts' | 'restricted_items'> {
  return {
    unknown_concepts: items
      .filter((o) => o.status === 'unknown')
      .map((o) => ({ index: o.index, concept_id: o.item.conceptId, reason: `not_found: concept ${o.item.conceptId} is not in release ${scope.label}` })),
    restricted_items: items
      .filter((o) => o.status === 'restricted')
      .map((o) => ({ index: o.index, concept_id: o.item.conceptId, reason: 'vocabulary_restricted: this key may not see the vocabulary of this concept; the item was left out' })),
  };
}

function itemSummaries(items: readonly ItemOutcome[]): ItemSummary[] {
  return items.map((o) => ({
    ...itemReference(o.item, o.index),
    status: o.status,
    concepts: o.concepts,
    ...(o.item.isExcluded && o.status === 'resolved' ? { removed: o.removed ?? 0 } : {}),
  }));
}

/** Counts of the resolved set by standard flag, domain and vocabulary, read in chunks between yields. */
async function summarize(scope: ConceptSetScope, resolution: Resolution, clock: SliceClock): Promise<ResolutionSummary> {
  const summary: ResolutionSummary = {
    total: resolution.ids.length,
    standard: 0,
    non_standard: 0,
    classification: 0,
    by_domain: {},
    by_vocabulary: {},
    excluded_removed: resolution.excludedRemoved,
    items_matching_nothing: resolution.items.filter((o) => o.concepts === 0).map((o) => o.index),
    items: itemSummaries(resolution.items),
  };
  for (let start = 0; start < resolution.ids.length; start += SUMMARY_CHUNK) {
    const facets = scope.store.conceptSets.facets(resolution.ids.subarray(start, start + SUMMARY_CHUNK));
    for (let i = 0; i < facets.ids.length; i++) {
      const flag = facets.standardConcepts[i];
      if (flag === 'S') summary.standard++;
      else if (flag === 'C') summary.classification++;
      else summary.non_standard++;
      summary.by_domain[facets.domainIds[i]!] = (summary.by_domain[facets.domainIds[i]!] ?? 0) + 1;
      summary.by_vocabulary[facets.vocabularyIds[i]!] = (summary.by_vocabulary[facets.vocabularyIds[i]!] ?? 0) + 1;
    }
    if (start + SUMMARY_CHUNK < resolution.ids.length) await clock.yield();
  }
  summary.by_domain = sortedKeys(summary.by_domain);
  summary.by_vocabulary = sortedKeys(summary.by_vocabulary);
  return summary;
}

const sortedKeys = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The concepts with these ids (ascending ids in, same order out). */
function recordsInOrder(scope: ConceptSetScope, ids: ArrayLike<number>): ConceptRecord[] {
  const list = Array.from(ids);
  const found = new Map(scope.store.concepts.byIds(list).map((c) => [c.concept_id, c]));
  return list.map((id) => found.get(id)).filter((c): c is ConceptRecord => c !== undefined);
}

/** POST /v1/concept-sets/resolve: a page of the resolved concepts (concept_id order) with the summary of the whole set. */
export async function resolveConceptSetPage(scope: ConceptSetScope, expression: ConceptSetExpression, page: PageWindow): Promise<ResolvedPage> {
  const clock = new SliceClock();
  const resolution = await resolveExpression(scope, expression, clock);
  const summary = await summarize(scope, resolution, clock);
  const concepts = recordsInOrder(scope, resolution.ids.subarray(page.offset, page.offset + page.limit));
  return { concepts, summary, ...problems(scope, resolution.items), timing: { longest_synchronous_slice_ms: round(clock.finish()) } };
}

const round = (ms: number) => Math.round(ms * 100) / 100;

export interface ResolvedIds {
  concept_ids: number[];
  total: number;
  unknown_concepts: ItemProblem[];
  restricted_items: ItemProblem[];
  timing: { longest_synchronous_slice_ms: number };
}

/** ?ids_only=true: every resolved id ascending (WebAPI's resolveConceptSetExpression), at most MAX_IDS_ONLY. */
export async function resolveConceptSetIds(scope: ConceptSetScope, expression: ConceptSetExpression, maxIds = MAX_IDS_ONLY): Promise<ResolvedIds> {
  const clock = new SliceClock();
  const resolution = await resolveExpression(scope, expression, clock, { itemCounts: false });
  if (resolution.ids.length > maxIds) {
    throw new ServiceError(
      422,
      'too_costly',
      `The set resolves to ${resolution.ids.length} concepts; ids_only answers at most MAX_IDS_ONLY = ${maxIds} ids. Page the concept list instead (ids_only=false).`,
      { total: resolution.ids.length, limit: maxIds, parameter: 'ids_only' },
    );
  }
  return {
    concept_ids: Array.from(resolution.ids),
    total: resolution.ids.length,
    ...problems(scope, resolution.items),
    timing: { longest_synchronous_slice_ms: round(clock.finish()) },
  };
}

export interface SourceCode extends ConceptBrief {
  invalid_reason: ConceptRecord['invalid_reason'];
  /** The concepts of the set it maps to, ascending. */
  maps_to_concept_ids: number[];
}

export interface SourceCodesPage {
  source_codes: SourceCode[];
  total: number;
  unknown_concepts: ItemProblem[];
  restricted_items: ItemProblem[];
}

/**
 * POST /v1/concept-sets/included-source-codes: the non-standard concepts (standard_concept not 'S') with a valid
 * 'Maps to' row into the resolved set (ATLAS' "included source codes"), in concept_id order.
 */
export async function includedSourceCodes(scope: ConceptSetScope, expression: ConceptSetExpression, page: PageWindow): Promise<SourceCodesPage> {
  const clock = new SliceClock();
  const resolution = await resolveExpression(scope, expression, clock, { itemCounts: false });
  const sources = await mappedSources(scope, resolution.ids, clock);
  // Keep the non-standard ones, reading their flags in chunks.
  const nonStandard: number[] = [];
  for (let start = 0; start < sources.length; start += SUMMARY_CHUNK) {
    const facets = scope.store.conceptSets.facets(sources.subarray(start, start + SUMMARY_CHUNK));
    for (let i = 0; i < facets.ids.length; i++) if (facets.standardConcepts[i] !== 'S') nonStandard.push(facets.ids[i]!);
    if (start + SUMMARY_CHUNK < sources.length) await clock.yield();
  }
  nonStandard.sort((a, b) => a - b);
  const pageIds = nonStandard.slice(page.offset, page.offset + page.limit);
  const records = recordsInOrder(scope, pageIds);
  const rows = scope.store.conceptSets.mapsToInto(Int32Array.from(resolution.ids), scope.hiddenVocabularyIds());
  const wanted = new Set(pageIds);
  const targets = new Map<number, number[]>();
  for (let i = 0; i < rows.sources.length; i++) {
    const s = rows.sources[i]!;
    if (!wanted.has(s)) continue;
    const list = targets.get(s) ?? [];
    list.push(rows.targets[i]!);
    targets.set(s, list);
  }
  const source_codes = records.map((c) => ({
    ...briefConcept(c),
    invalid_reason: c.invalid_reason,
    maps_to_concept_ids: [...new Set(targets.get(c.concept_id) ?? [])].sort((a, b) => a - b),
  }));
  return { source_codes, total: nonStandard.length, ...problems(scope, resolution.items) };
}

export interface ComparePart {
  count: number;
  concept_ids: number[];
}

export interface Comparison {
  only_in_a: ComparePart;
  only_in_b: ComparePart;
  in_both: ComparePart;
  a: { total: number; unknown_concepts: ItemProblem[]; restricted_items: ItemProblem[] };
  b: { total: number; unknown_concepts: ItemProblem[]; restricted_items: ItemProblem[] };
}

/** POST /v1/concept-sets/compare: the three parts of two resolved sets, each counted and paged by the same window. */
export async function compareConceptSets(scope: ConceptSetScope, a: ConceptSetExpression, b: ConceptSetExpression, page: PageWindow): Promise<Comparison> {
  const clock = new SliceClock();
  const ra = await resolveExpression(scope, a, clock, { itemCounts: false });
  const rb = await resolveExpression(scope, b, clock, { itemCounts: false });
  const part = (ids: Int32Array): ComparePart => ({ count: ids.length, concept_ids: Array.from(ids.subarray(page.offset, page.offset + page.limit)) });
  return {
    only_in_a: part(difference(ra.ids, rb.ids)),
    only_in_b: part(difference(rb.ids, ra.ids)),
    in_both: part(intersection(ra.ids, rb.ids)),
    a: { total: ra.ids.length, ...problems(scope, ra.items) },
    b: { total: rb.ids.length, ...problems(scope, rb.items) },
  };
}

export interface RemovedItem extends ItemReference {
  reason: string;
  /** The index of the item that makes it redundant, when one does. */
  subsumed_by?: number;
}

export interface Optimization {
  expression: { items: Array<Record<string, unknown>> };
  removed_items: RemovedItem[];
  kept: number;
  /** The optimised expression was resolved too and gives exactly the same concepts (always true; the check is made on every call). */
  same_resolution: boolean;
  total: number;
}

/**
 * POST /v1/concept-sets/optimize: drops items that match nothing, items subsumed by another item of the same side
 * (an included or excluded item with descendants above them), and excluded items that remove nothing; then checks that
 * the optimised expression resolves to the same concepts.
 */
export async function optimizeConceptSet(scope: ConceptSetScope, expression: ConceptSetExpression): Promise<Optimization> {
  const clock = new SliceClock();
  const resolution = await resolveExpression(scope, expression, clock);
  const outcomes = resolution.items;
  const removed = new Map<number, RemovedItem>();
  for (const x of outcomes) {
    if (x.status === 'unknown') removed.set(x.index, { ...itemReference(x.item, x.index), reason: `matches nothing: concept ${x.item.conceptId} is not in release ${scope.label}` });
  }
  const live = outcomes.filter((o) => o.status === 'resolved');
  for (const [index, by] of subsumedItems(scope, outcomes)) {
    const x = outcomes[index]!;
    removed.set(x.index, {
      ...itemReference(x.item, x.index),
      subsumed_by: by.index,
      reason:
        by.item.conceptId === x.item.conceptId
          ? `duplicate: item ${by.index} names the same concept with the same or more flags`
          : `subsumed: concept ${x.item.conceptId} is a valid descendant of concept ${by.item.conceptId}, which item ${by.index} ${x.item.isExcluded ? 'excludes' : 'includes'} with its descendants${x.item.includeMapped ? ' and mapped concepts' : ''}`,
    });
  }
  for (const x of live) {
    if (x.item.isExcluded && !removed.has(x.index) && x.removed === 0) {
      removed.set(x.index, { ...itemReference(x.item, x.index), reason: 'removes nothing: no concept of its expansion is in the included set' });
    }
  }
  const keptItems = expression.items.filter((_, i) => !removed.has(i));
  const check = await resolveExpression(scope, { ...expression, items: keptItems }, clock);
  const same = check.ids.length === resolution.ids.length && check.ids.every((v, i) => v === resolution.ids[i]);
  if (!same) {
    throw new ServiceError(500, 'internal_server_error', 'The optimised expression did not resolve to the same concepts as the original one (a defect; please report the expression).');
  }
  return {
    expression: toAtlasJson(keptItems),
    removed_items: [...removed.values()].sort((p, q) => p.index - q.index),
    kept: keptItems.length,
    same_resolution: same,
    total: resolution.ids.length,
  };
}
