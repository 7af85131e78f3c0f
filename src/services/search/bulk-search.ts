/**
 * Bulk keyword search (POST /v1/search/bulk): 1–50 searches, each with its own filters on top of
 * `defaults`; each search succeeds or fails alone (a bad query or a restricted vocabulary fails that
 * item only). The whole request is one call for rate limiting and quota (it is one HTTP request).
 */
import type { ReleaseView } from '../release-view.js';
import { ServiceError, validationError } from '../errors.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { searchConceptsBatch, type ConceptSearchRecord, type KeywordSearchRequest } from './keyword-search.js';
import { parseStandardConcept, type SearchFilters } from './search-filters.js';
import { listField } from '../list-field.js';

export const BULK_MAX_SEARCHES = 50;
export const BULK_DEFAULT_PAGE_SIZE = 20;
export const BULK_MAX_PAGE_SIZE = 200;

/** Filter fields accepted per search and in `defaults`. Lists may be arrays or comma-joined strings. */
export interface BulkSearchFields {
  vocabulary_ids?: string[] | string;
  domain_ids?: string[] | string;
  concept_class_ids?: string[] | string;
  standard_concept?: string;
  include_invalid?: boolean;
  include_synonyms?: boolean;
  exact_match?: boolean;
  page_size?: number;
  /**
   * Count each search's total_results (default false: the bulk contract carries no totals, and
   * counting a common query's matches costs more than finding its first page).
   */
  include_total?: boolean;
}

export interface BulkSearchItem extends BulkSearchFields {
  search_id?: string | number;
  query?: string;
}

export interface BulkSearchOutcome {
  search_id: string;
  query: string;
  status: 'completed' | 'failed';
  results: ConceptSearchRecord[];
  total_results?: number;
  error?: string;
  error_code?: string;
  duration: number;
}

export function filtersFrom(fields: BulkSearchFields): SearchFilters {
  return {
    vocabularyIds: listField(fields.vocabulary_ids, 'vocabulary_ids'),
    domainIds: listField(fields.domain_ids, 'domain_ids'),
    conceptClassIds: listField(fields.concept_class_ids, 'concept_class_ids'),
    standardConcepts: parseStandardConcept(fields.standard_concept),
    includeInvalid: fields.include_invalid === true,
  };
}

/** The search request of one bulk item, or the validation error that fails it. */
function requestOf(item: BulkSearchItem, defaults: BulkSearchFields): KeywordSearchRequest {
  if (typeof item !== 'object' || item === null) throw validationError('Each search must be an object with a query.');
  const merged: BulkSearchFields = { ...defaults };
  for (const [k, v] of Object.entries(item)) if (v !== undefined && k !== 'search_id' && k !== 'query') (merged as Record<string, unknown>)[k] = v;
  const pageSize = merged.page_size ?? BULK_DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > BULK_MAX_PAGE_SIZE) {
    throw validationError(`page_size must be an integer from 1 to ${BULK_MAX_PAGE_SIZE} (got ${String(merged.page_size)}).`);
  }
  return {
    query: typeof item.query === 'string' ? item.query : '',
    filters: filtersFrom(merged),
    page: 1,
    pageSize,
    includeSynonyms: merged.include_synonyms === true,
    exactMatch: merged.exact_match === true,
    countTotal: merged.include_total === true,
  };
}

export interface BulkSearchBody {
  searches?: BulkSearchItem[];
  defaults?: BulkSearchFields;
}

/** 400 unless `searches` holds 1–BULK_MAX_SEARCHES searches. */
export function checkBulkBody(body: BulkSearchBody): BulkSearchItem[] {
  const searches = body.searches;
  if (!Array.isArray(searches) || searches.length < 1 || searches.length > BULK_MAX_SEARCHES) {
    throw validationError(`'searches' must be an array of 1 to ${BULK_MAX_SEARCHES} searches.`, { parameter: 'searches' });
  }
  return searches;
}

/**
 * Runs a bulk search in this thread. `firstIndex` is the position of `searches[0]` in the whole
 * request (for default search ids when a request is split between threads, see src/threads/bulk-search-parts.ts).
 */
export function bulkSearch(view: ReleaseView, body: BulkSearchBody, firstIndex = 0): BulkSearchOutcome[] {
  const searches = checkBulkBody(body);
  const defaults = body.defaults ?? {};
  const requests: Array<KeywordSearchRequest | ServiceError> = searches.map((item) => {
    try {
      return requestOf(item, defaults);
    } catch (err) {
      if (err instanceof ServiceError) return err;
      throw err;
    }
  });
  const batch = searchConceptsBatch(
    view,
    requests.filter((r): r is KeywordSearchRequest => !(r instanceof ServiceError)),
  );
  let next = 0;
  const outcomes = requests.map((r) => (r instanceof ServiceError ? { error: r, ms: 0 } : batch[next++]!));
  return searches.map((item, i) => {
    const searchId = item?.search_id === undefined || item?.search_id === null ? String(firstIndex + i + 1) : String(item.search_id);
    const query = typeof item?.query === 'string' ? item.query : '';
    const outcome = outcomes[i]!;
    if (!outcome.result) {
      return { search_id: searchId, query, status: 'failed', results: [], error: outcome.error?.message, error_code: outcome.error?.code, duration: outcome.ms };
    }
    return {
      search_id: searchId,
      query,
      status: 'completed',
      results: outcome.result.items,
      total_results: outcome.result.total ?? undefined,
      duration: outcome.ms,
    };
  });
}
