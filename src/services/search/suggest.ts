/**
 * Autocomplete (GET /v1/search/suggest): keyword search with the last word also matched as a prefix, reading one
 * item beyond the page instead of counting every match, so totals are exact or explicitly lower bounds, never
 * invented.
 */
import type { ReleaseView } from '../release-view.js';
import { validationError } from '../errors.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { searchConcepts, type ConceptSearchRecord } from './keyword-search.js';
import type { SearchFilters } from './search-filters.js';

export const SUGGEST_MIN_LENGTH = 2;
export const SUGGEST_MAX_LENGTH = 100;
/** Autocomplete serves at most the best this many suggestions (pages deeper are rejected). */
export const SUGGEST_MAX_DEPTH = 1000;

/** What meta.pagination means on the suggest routes (OpenAPI descriptions). */
export const SUGGEST_PAGINATION_DESCRIPTION =
  `Suggestions are not all counted: \`meta.pagination.total_items\` is exact when \`meta.total_is_exact\` is true ` +
  `(on the last page and past the end); while there is a next page it is a lower bound (the suggestions up to this page plus one), ` +
  `so \`has_next\` is what to page by. Only the best ${SUGGEST_MAX_DEPTH} suggestions are served: a page starting deeper is a 400.`;

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
  /** See the module comment: exact when totalIsExact, otherwise a lower bound. */
  totalItems: number;
  totalIsExact: boolean;
}

export function suggestConcepts(view: ReleaseView, request: SuggestRequest): SuggestResult {
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? 10;
  const offset = (page - 1) * pageSize;
  if (offset >= SUGGEST_MAX_DEPTH) {
    throw validationError(
      `Invalid query parameter 'page': suggest serves the best ${SUGGEST_MAX_DEPTH} suggestions and page ${page} would start at suggestion ${offset + 1} ((page − 1) × page_size must be below ${SUGGEST_MAX_DEPTH}).`,
      { parameter: 'page', location: 'querystring', reason: 'too deep' },
    );
  }
  const suggestWindow = (windowOffset: number, limit: number) =>
    searchConcepts(view, {
      query: request.query,
      filters: request.filters,
      window: { offset: windowOffset, limit },
      countTotal: false,
      prefixLastToken: true,
      queryRules: { minLength: SUGGEST_MIN_LENGTH, maxLength: SUGGEST_MAX_LENGTH },
    });
  // The page, cut at the served depth, and one row more: it tells whether more suggestions exist.
  const servedHere = Math.min(pageSize, SUGGEST_MAX_DEPTH - offset);
  const result = suggestWindow(offset, servedHere + 1);
  const items = result.items.slice(0, servedHere);
  const more = result.items.length > servedHere;
  const hasNext = more && offset + servedHere < SUGGEST_MAX_DEPTH;
  // With more suggestions but no next page (the depth is reached), the served ones are the lower bound.
  let totalItems = offset + items.length + (hasNext ? 1 : 0);
  if (items.length === 0 && offset > 0) {
    // Past the end: count what there is (fewer than `offset`, so within the served depth).
    totalItems = suggestWindow(0, offset).items.length;
  }
  return { query: result.query.text, items, page, pageSize, hasNext, totalItems, totalIsExact: !more };
}
