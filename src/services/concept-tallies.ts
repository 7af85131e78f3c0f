/**
 * Concept counts from the load-time concept summary (MetadataStore.conceptSummary): one place that
 * applies the licence rules to it and adds its rows up, for the vocabulary, domain and concept-class
 * endpoints. Never reads CONCEPT.
 */
import type { ReleaseView } from './release-view.js';
import type { ConceptSummaryRecord, ReleaseStore } from '../store/release-store.js';

export interface ConceptTally {
  total: number;
  /** standard_concept 'S'. */
  standard: number;
  /** standard_concept 'C'. */
  classification: number;
  /** invalid_reason set ('D' or 'U'). */
  invalid: number;
  /** Earliest and latest valid_start_date and latest valid_end_date (YYYY-MM-DD); null without concepts. */
  earliestStart: string | null;
  latestStart: string | null;
  latestEnd: string | null;
}

/** Summary rows of the vocabularies this caller may see (CPT4 only when validated, never GPI/MedDRA). */
export function visibleSummary(view: ReleaseView): ConceptSummaryRecord[] {
  return view.visible(view.store.metadata.conceptSummary());
}

export function emptyTally(): ConceptTally {
  return { total: 0, standard: 0, classification: 0, invalid: 0, earliestStart: null, latestStart: null, latestEnd: null };
}

function add(tally: ConceptTally, row: ConceptSummaryRecord): void {
  tally.total += row.concept_count;
  if (row.standard_concept === 'S') tally.standard += row.concept_count;
  if (row.standard_concept === 'C') tally.classification += row.concept_count;
  if (row.is_invalid) tally.invalid += row.concept_count;
  if (tally.earliestStart === null || row.earliest_start_date < tally.earliestStart) tally.earliestStart = row.earliest_start_date;
  if (tally.latestStart === null || row.latest_start_date > tally.latestStart) tally.latestStart = row.latest_start_date;
  if (tally.latestEnd === null || row.latest_end_date > tally.latestEnd) tally.latestEnd = row.latest_end_date;
}

export function tally(rows: readonly ConceptSummaryRecord[]): ConceptTally {
  const result = emptyTally();
  for (const row of rows) add(result, row);
  return result;
}

/** Tallies per key (e.g. per domain_id), in first-seen order. */
export function tallyBy(rows: readonly ConceptSummaryRecord[], key: (row: ConceptSummaryRecord) => string): Map<string, ConceptTally> {
  const result = new Map<string, ConceptTally>();
  for (const row of rows) {
    const k = key(row);
    let t = result.get(k);
    if (!t) result.set(k, (t = emptyTally()));
    add(t, row);
  }
  return result;
}

/** Orders ids by code point (as SQLite's BINARY collation does): cheap and locale-independent. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorts [key, tally] pairs by concept count (largest first), then key. */
export function byCountThenKey(a: [string, ConceptTally], b: [string, ConceptTally]): number {
  return b[1].total - a[1].total || compareIds(a[0], b[0]);
}
