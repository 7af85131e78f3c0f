/**
 * Keyword search (E4), the public entry points: one search, or a batch of searches (bulk search) that share their
 * index round trips.
 */
import type { ReleaseView } from '../release-view.js';
import { ServiceError } from '../errors.js';
import type { ConceptRecord, SynonymRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { exactLookupRequest } from './exact-tiers.js';
import type { ParsedQuery, QueryRules } from './query-parser.js';
import { materialise, prepareSearch, rankPage, type PreparedSearch, type RankedPage } from './ranked-page.js';
import { cachedResult, rememberResult, resultCacheEnabled } from './result-cache.js';
import type { SearchFilters } from './search-filters.js';

export type SortBy = 'relevance' | 'name' | 'concept_name' | 'code' | 'concept_code' | 'date' | 'vocabulary_id' | 'concept_id';

export interface KeywordSearchRequest {
  query: string | undefined;
  filters?: SearchFilters;
  page?: number;
  pageSize?: number;
  includeSynonyms?: boolean;
  exactMatch?: boolean;
  minScore?: number;
  sortBy?: SortBy;
  sortOrder?: 'asc' | 'desc';
  /** false skips total_results (autocomplete). Default true. */
  countTotal?: boolean;
  /** Treat the query's last word as a prefix too (autocomplete). */
  prefixLastToken?: boolean;
  queryRules?: QueryRules;
  /** Read exactly these rows of the ranked list instead of page/pageSize. */
  window?: { offset: number; limit: number };
}

export type MatchType = 'exact' | 'partial';

/** A concept search record (E4 "Concept (search result record)"). */
export interface ConceptSearchRecord extends ConceptRecord {
  match_score: number;
  match_type: MatchType;
  synonyms?: SynonymRecord[];
}

export interface KeywordSearchResult {
  query: ParsedQuery;
  items: ConceptSearchRecord[];
  /** null when not counted (countTotal false). */
  total: number | null;
  page: number;
  pageSize: number;
  filtersApplied: Record<string, unknown>;
}

export function searchConcepts(view: ReleaseView, request: KeywordSearchRequest): KeywordSearchResult {
  const [outcome] = searchConceptsBatch(view, [request]);
  if (outcome!.error) throw outcome!.error;
  return outcome!.result!;
}

/** One search of a batch: its result or the error it failed with, and the milliseconds it took. */
export interface BatchSearchOutcome {
  result?: KeywordSearchResult;
  error?: ServiceError;
  /** Time spent on this search alone plus an equal share of the batch's shared index reads. */
  ms: number;
}

/**
 * Several keyword searches at once (bulk search); each succeeds or fails alone. The searches share
 * their index round trips: the exact lookups (identifiers, exact names and synonyms) of all of them
 * are fetched together first, and the concepts of all their pages together last, so a batch of n
 * costs much less than n single searches.
 */
export function searchConceptsBatch(view: ReleaseView, requests: readonly KeywordSearchRequest[]): BatchSearchOutcome[] {
  const search = view.store.search;
  const cacheResults = resultCacheEnabled();
  const outcomes: BatchSearchOutcome[] = requests.map(() => ({ ms: 0 }));
  const hidden = view.hiddenVocabularyIds().sort();
  const cacheKeys = requests.map((r) => (cacheResults ? JSON.stringify([r, hidden]) : ''));
  let clock = process.hrtime.bigint();
  /** Milliseconds since the last call (charged to one search, or shared). */
  const lap = () => {
    const now = process.hrtime.bigint();
    const ms = Number(now - clock) / 1e6;
    clock = now;
    return ms;
  };
  const fail = (i: number, err: unknown) => {
    if (!(err instanceof ServiceError)) throw err;
    outcomes[i]!.error = err;
  };
  // 1. cached results, then parse and validate the rest
  const prepared: Array<{ index: number; search: PreparedSearch }> = [];
  requests.forEach((request, i) => {
    const cached = cacheResults ? cachedResult(search, cacheKeys[i]!) : undefined;
    if (cached) outcomes[i]!.result = cached;
    else {
      try {
        prepared.push({ index: i, search: prepareSearch(view, request) });
      } catch (err) {
        fail(i, err);
      }
    }
    outcomes[i]!.ms += lap();
  });
  // 2. the exact lookups of every search together, then each search's ranked page
  const lookups = search.exactLookups(prepared.map((p) => exactLookupRequest(p.search.parsed)));
  let shared = lap();
  const ranked: Array<{ index: number; page: RankedPage }> = [];
  for (const p of prepared) {
    try {
      ranked.push({ index: p.index, page: rankPage(search, lookups, p.search) });
    } catch (err) {
      fail(p.index, err);
    }
    outcomes[p.index]!.ms += lap();
  }
  // 3. the concepts of every page together, then each result
  const missing = new Set<number>();
  for (const r of ranked) for (const placed of r.page.window) if (!r.page.conceptsByRank.has(placed.rank)) missing.add(placed.rank);
  const fetched = new Map<number, ConceptRecord>();
  for (const h of search.hitsByRank([...missing])) fetched.set(h.rank, h.concept);
  shared += lap();
  for (const r of ranked) {
    const result = materialise(search, r.page, fetched);
    outcomes[r.index]!.result = result;
    if (cacheResults) rememberResult(search, cacheKeys[r.index]!, result);
    outcomes[r.index]!.ms += lap();
  }
  for (const p of prepared) outcomes[p.index]!.ms += shared / prepared.length;
  return outcomes;
}

