/**
 * Bulk semantic search (POST /v1/search/semantic-bulk): 1–SEMANTIC_BULK_MAX_SEARCHES searches, each with its
 * fields on top of `defaults`, run one after the other, each succeeding or failing alone; the request is one call.
 */
import { ServiceError, validationError } from '../errors.js';
import { listField } from '../list-field.js';
import { parseStandardConcept, type SearchFilters } from '../search/search-filters.js';
import type { QueryEnhancement } from './semantic-query.js';
import { SEMANTIC_DEFAULT_THRESHOLD, SEMANTIC_MAX_PAGE_SIZE, semanticSearch, type SemanticResult, type SemanticSearchContext } from './semantic-search.js';

export const SEMANTIC_BULK_MAX_SEARCHES = 25;
export const SEMANTIC_BULK_DEFAULT_PAGE_SIZE = 20;

/** Fields accepted per search and in `defaults`. Lists may be arrays or comma-joined strings. */
export interface SemanticBulkFields {
  threshold?: number;
  page_size?: number;
  vocabulary_ids?: string[] | string;
  domain_ids?: string[] | string;
  standard_concept?: string;
  concept_class_id?: string[] | string;
  /** Alias of concept_class_id (the keyword-search spelling). */
  concept_class_ids?: string[] | string;
}

export interface SemanticBulkItem extends SemanticBulkFields {
  search_id?: string | number;
  query?: unknown;
}

export interface SemanticBulkBody {
  searches: SemanticBulkItem[];
  defaults?: SemanticBulkFields;
}

export interface SemanticBulkOutcome {
  search_id: string;
  query: string;
  status: 'completed' | 'failed';
  results: SemanticResult[];
  error?: string;
  error_code?: string;
  similarity_threshold?: number;
  result_count: number;
  /** Milliseconds this search took. */
  duration: number;
  query_enhancement?: QueryEnhancement;
}

export interface SemanticBulkResult {
  results: SemanticBulkOutcome[];
  total_searches: number;
  completed_count: number;
  failed_count: number;
  /** Milliseconds for the whole request. */
  total_duration: number;
}

interface BulkItemSettings {
  threshold: number;
  pageSize: number;
  filters: SearchFilters;
}

function settingsOf(item: SemanticBulkItem, defaults: SemanticBulkFields): BulkItemSettings {
  const merged: SemanticBulkFields = { ...defaults };
  for (const [k, v] of Object.entries(item)) if (v !== undefined && k !== 'search_id' && k !== 'query') (merged as Record<string, unknown>)[k] = v;
  const threshold = merged.threshold ?? SEMANTIC_DEFAULT_THRESHOLD;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    throw validationError(`'threshold' must be a number from 0 to 1 (got ${JSON.stringify(merged.threshold)}).`, { parameter: 'threshold' });
  }
  const pageSize = merged.page_size ?? SEMANTIC_BULK_DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > SEMANTIC_MAX_PAGE_SIZE) {
    throw validationError(`'page_size' must be an integer from 1 to ${SEMANTIC_MAX_PAGE_SIZE} (got ${JSON.stringify(merged.page_size)}).`, {
      parameter: 'page_size',
    });
  }
  if (merged.standard_concept !== undefined && typeof merged.standard_concept !== 'string') {
    throw validationError(`'standard_concept' must be a string: S, C, N or all.`, { parameter: 'standard_concept' });
  }
  return {
    threshold,
    pageSize,
    filters: {
      vocabularyIds: listField(merged.vocabulary_ids, 'vocabulary_ids'),
      domainIds: listField(merged.domain_ids, 'domain_ids'),
      conceptClassIds: listField(merged.concept_class_id, 'concept_class_id') ?? listField(merged.concept_class_ids, 'concept_class_ids'),
      standardConcepts: parseStandardConcept(merged.standard_concept),
    },
  };
}

export async function semanticBulkSearch(ctx: SemanticSearchContext, body: SemanticBulkBody): Promise<SemanticBulkResult> {
  const started = performance.now();
  const defaults = body.defaults ?? {};
  const results: SemanticBulkOutcome[] = [];
  for (const [i, item] of body.searches.entries()) {
    const itemStarted = performance.now();
    const searchId = item.search_id === undefined || item.search_id === null ? String(i + 1) : String(item.search_id);
    const query = typeof item.query === 'string' ? item.query : '';
    try {
      const settings = settingsOf(item, defaults);
      const found = await semanticSearch(ctx, { query: item.query, filters: settings.filters, threshold: settings.threshold, page: 1, pageSize: settings.pageSize });
      results.push({
        search_id: searchId,
        query,
        status: 'completed',
        results: found.results,
        similarity_threshold: settings.threshold,
        result_count: found.results.length,
        duration: performance.now() - itemStarted,
        query_enhancement: found.enhancement,
      });
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      results.push({
        search_id: searchId,
        query,
        status: 'failed',
        results: [],
        error: err.message,
        error_code: err.code,
        result_count: 0,
        duration: performance.now() - itemStarted,
      });
    }
  }
  const completed = results.filter((r) => r.status === 'completed').length;
  return {
    results,
    total_searches: results.length,
    completed_count: completed,
    failed_count: results.length - completed,
    total_duration: performance.now() - started,
  };
}
