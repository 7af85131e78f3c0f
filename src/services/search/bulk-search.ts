/**
 * Bulk keyword search (POST /v1/search/bulk): 1–50 searches, each with its own filters on top of
 * `defaults`; each search succeeds or fails alone (a bad query or a restricted vocabulary fails that
 * item only). The whole request is one call for rate limiting and quota (it is one HTTP request).
 */
import type { AccessPolicy } from '../access-policy.js';
import { ServiceError, validationError } from '../errors.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { searchConcepts, type ConceptSearchRecord } from './keyword-search.js';
import { parseStandardConcept, type SearchFilters } from './search-filters.js';

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

export function listField(value: string[] | string | undefined, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!items || items.some((v) => typeof v !== 'string')) throw validationError(`'${name}' must be an array of strings or a comma-separated string.`);
  const cleaned = items.map((v) => v.trim()).filter((v) => v.length > 0);
  return cleaned.length ? cleaned : undefined;
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

function runOne(store: ReleaseStore, policy: AccessPolicy, item: BulkSearchItem, defaults: BulkSearchFields, index: number): BulkSearchOutcome {
  const started = process.hrtime.bigint();
  const searchId = item.search_id === undefined || item.search_id === null ? String(index + 1) : String(item.search_id);
  const query = typeof item.query === 'string' ? item.query : '';
  try {
    if (typeof item !== 'object' || item === null) throw validationError('Each search must be an object with a query.');
    const merged: BulkSearchFields = { ...defaults };
    for (const [k, v] of Object.entries(item)) if (v !== undefined && k !== 'search_id' && k !== 'query') (merged as Record<string, unknown>)[k] = v;
    const pageSize = merged.page_size ?? BULK_DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > BULK_MAX_PAGE_SIZE) {
      throw validationError(`page_size must be an integer from 1 to ${BULK_MAX_PAGE_SIZE} (got ${String(merged.page_size)}).`);
    }
    const result = searchConcepts(store, policy, {
      query,
      filters: filtersFrom(merged),
      page: 1,
      pageSize,
      includeSynonyms: merged.include_synonyms === true,
      exactMatch: merged.exact_match === true,
      countTotal: merged.include_total === true,
    });
    return {
      search_id: searchId,
      query,
      status: 'completed',
      results: result.items,
      total_results: result.total ?? undefined,
      duration: Number(process.hrtime.bigint() - started) / 1e6,
    };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    return {
      search_id: searchId,
      query,
      status: 'failed',
      results: [],
      error: err.message,
      error_code: err.code,
      duration: Number(process.hrtime.bigint() - started) / 1e6,
    };
  }
}

export function bulkSearch(
  store: ReleaseStore,
  policy: AccessPolicy,
  body: { searches?: BulkSearchItem[]; defaults?: BulkSearchFields },
): BulkSearchOutcome[] {
  const searches = body.searches;
  if (!Array.isArray(searches) || searches.length < 1 || searches.length > BULK_MAX_SEARCHES) {
    throw validationError(`'searches' must be an array of 1 to ${BULK_MAX_SEARCHES} searches.`, { parameter: 'searches' });
  }
  const defaults = body.defaults ?? {};
  return searches.map((item, i) => runOne(store, policy, item, defaults, i));
}
