/**
 * Search facets (GET /v1/search/facets, also in advanced search): counts by vocabulary, domain, concept class and
 * standard flag over the first FACET_WINDOW keyword-search results, the response saying whether that covers them
 * all.
 */
import type { ReleaseView } from '../release-view.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { searchConcepts, type ConceptSearchRecord, type KeywordSearchRequest, type KeywordSearchResult } from './keyword-search.js';
import type { SearchFilters } from './search-filters.js';

export const FACET_WINDOW = 5000;
/**
 * Results the browser's search page counts its facets over: the page answers in one ranked window (results and
 * facets together), and 1,000 keeps a common query's page near 10 ms at 4.9M concepts where 5,000 took ~100 ms.
 */
export const PAGE_FACET_WINDOW = 1000;

export interface FacetValue {
  value: string;
  count: number;
  label?: string;
}

export interface SearchFacets {
  vocabularies: Array<FacetValue & { vocabulary_id: string }>;
  domains: Array<FacetValue & { domain_id: string }>;
  concept_classes: Array<FacetValue & { concept_class_id: string }>;
  standard_concepts: Array<FacetValue & { standard_concept: string }>;
}

export interface FacetsResult {
  query: string;
  facets: SearchFacets;
  total_results: number;
  /** Number of top results the counts cover. */
  counted_results: number;
  complete: boolean;
}

/** The fields facets count (a keyword or a semantic result, or any concept record). */
export type FacetedConcept = Pick<ConceptSearchRecord, 'vocabulary_id' | 'domain_id' | 'concept_class_id' | 'standard_concept'>;

function tally<K extends string>(items: readonly FacetedConcept[], key: (c: FacetedConcept) => string, field: K, label?: (v: string) => string | undefined) {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([value, count]) => {
      const l = label?.(value);
      return { [field]: value, value, count, ...(l ? { label: l } : {}) } as FacetValue & Record<K, string>;
    });
}

export function facetsOf(store: ReleaseStore, items: readonly FacetedConcept[]): SearchFacets {
  const vocabName = (v: string) => store.metadata.vocabulary(v)?.vocabulary_name;
  const stdLabel = (s: string) => ({ S: 'Standard', C: 'Classification', N: 'Non-standard' })[s];
  return {
    vocabularies: tally(items, (c) => c.vocabulary_id, 'vocabulary_id', vocabName),
    domains: tally(items, (c) => c.domain_id, 'domain_id'),
    concept_classes: tally(items, (c) => c.concept_class_id, 'concept_class_id'),
    standard_concepts: tally(items, (c) => c.standard_concept ?? 'N', 'standard_concept', stdLabel),
  };
}

export function searchFacets(
  view: ReleaseView,
  request: { query: string | undefined; filters?: SearchFilters; window?: number },
): FacetsResult {
  const window = request.window ?? FACET_WINDOW;
  const result = searchConcepts(view, { query: request.query, filters: request.filters, window: { offset: 0, limit: window } });
  const total = result.total ?? result.items.length;
  return {
    query: result.query.text,
    facets: facetsOf(view.store, result.items),
    total_results: total,
    counted_results: result.items.length,
    complete: result.items.length >= total,
  };
}

/**
 * A page of keyword results and the facet counts over the best `facetWindow` results, from one ranked window when the
 * page lies inside it (the first pages: one search instead of two), else from two searches.
 */
export function searchPageWithFacets(
  view: ReleaseView,
  request: Pick<KeywordSearchRequest, 'query' | 'filters' | 'queryRules'> & { page: number; pageSize: number; facetWindow: number },
): { page: KeywordSearchResult; facets: FacetsResult } {
  const { query, filters, queryRules, page, pageSize, facetWindow } = request;
  const offset = (page - 1) * pageSize;
  const facetsOver = (ranked: KeywordSearchResult): FacetsResult => {
    const counted = ranked.items.slice(0, facetWindow);
    const total = ranked.total ?? counted.length;
    return { query: ranked.query.text, facets: facetsOf(view.store, counted), total_results: total, counted_results: counted.length, complete: counted.length >= total };
  };
  if (offset + pageSize <= facetWindow) {
    const ranked = searchConcepts(view, { query, filters, queryRules, window: { offset: 0, limit: facetWindow } });
    return { page: { ...ranked, items: ranked.items.slice(offset, offset + pageSize), page, pageSize }, facets: facetsOver(ranked) };
  }
  const results = searchConcepts(view, { query, filters, queryRules, page, pageSize });
  return { page: results, facets: facetsOver(searchConcepts(view, { query, filters, queryRules, window: { offset: 0, limit: facetWindow } })) };
}
