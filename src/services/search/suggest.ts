/**
 * Autocomplete (GET /v1/search/suggest, GET /v1/concepts/suggest): the keyword search ranking with
 * the last word also matched as a word prefix (so "diab" and even "di" complete), without counting
 * the total — a page is read and one more item tells whether there is a next page.
 */
import type { AccessPolicy } from '../access-policy.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { searchConcepts, type ConceptSearchRecord } from './keyword-search.js';
import type { SearchFilters } from './search-filters.js';

export const SUGGEST_MIN_LENGTH = 2;
export const SUGGEST_MAX_LENGTH = 100;

export interface SuggestRequest {
  query: string | undefined;
  filters?: SearchFilters;
  page?: number;
  pageSize?: number;
}

export interface SuggestResult {
  query: string;
  items: ConceptSearchRecord[];
  page: number;
  pageSize: number;
  hasNext: boolean;
}

export function suggestConcepts(store: ReleaseStore, policy: AccessPolicy, request: SuggestRequest): SuggestResult {
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? 10;
  // One extra row tells whether a next page exists; offset arithmetic keeps pages aligned.
  const result = searchConcepts(store, policy, {
    query: request.query,
    filters: request.filters,
    window: { offset: (page - 1) * pageSize, limit: pageSize + 1 },
    countTotal: false,
    prefixLastToken: true,
    queryRules: { minLength: SUGGEST_MIN_LENGTH, maxLength: SUGGEST_MAX_LENGTH },
  });
  return {
    query: result.query.text,
    items: result.items.slice(0, pageSize),
    page,
    pageSize,
    hasNext: result.items.length > pageSize,
  };
}
