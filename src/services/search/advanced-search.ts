/**
 * Advanced search (POST /v1/search/advanced): keyword search with body filters, `standard_concepts_only` and
 * `relationship_filters`, the latter applied while reading the ranked list over at most RELATIONSHIP_SCAN_LIMIT
 * results.
 */
import type { ReleaseView } from '../release-view.js';
import { validationError } from '../errors.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { filtersFrom, type BulkSearchFields } from './bulk-search.js';
import { facetsOf, type SearchFacets } from './facets.js';
import { searchConcepts, type ConceptSearchRecord } from './keyword-search.js';
import { relationshipTypeIndex } from '../concepts/relationship-types.js';

export const RELATIONSHIP_SCAN_LIMIT = 20000;
export const ADVANCED_MAX_PAGE_SIZE = 1000;
/** Facets of an advanced search cover this many top results. */
export const ADVANCED_FACET_WINDOW = 1000;

export interface RelationshipFilter {
  relationship_id: string;
  target_concept_id?: number;
  direction?: 'forward' | 'reverse';
}

export interface AdvancedSearchBody extends BulkSearchFields {
  query?: string;
  standard_concepts_only?: boolean;
  relationship_filters?: RelationshipFilter[];
  page?: number;
  page_size?: number;
  /** Legacy body fields. */
  limit?: number;
  offset?: number;
  vocabularies?: string[] | string;
  domains?: string[] | string;
  concept_classes?: string[] | string;
}

export interface AdvancedSearchResult {
  concepts: ConceptSearchRecord[];
  facets: SearchFacets;
  search_metadata: {
    query: string;
    total_results: number;
    total_is_exact: boolean;
    processing_time_ms: number;
    filters_applied: Record<string, unknown>;
  };
  page: number;
  pageSize: number;
}

function hasRelationship(store: ReleaseStore, conceptId: number, filter: RelationshipFilter, reverseOf: (id: string) => string): boolean {
  const relationshipId = filter.direction === 'reverse' ? reverseOf(filter.relationship_id) : filter.relationship_id;
  const links = store.concepts.related(conceptId, [relationshipId], filter.target_concept_id === undefined ? 1 : 100000);
  return filter.target_concept_id === undefined ? links.length > 0 : links.some((l) => l.concept.concept_id === filter.target_concept_id);
}

export function advancedSearch(view: ReleaseView, body: AdvancedSearchBody): AdvancedSearchResult {
  const started = process.hrtime.bigint();
  const pageSize = body.page_size ?? body.limit ?? 20;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > ADVANCED_MAX_PAGE_SIZE) {
    throw validationError(`page_size must be an integer from 1 to ${ADVANCED_MAX_PAGE_SIZE}.`, { parameter: 'page_size' });
  }
  const page = body.page ?? (body.offset !== undefined ? Math.floor(body.offset / pageSize) + 1 : 1);
  if (!Number.isInteger(page) || page < 1) throw validationError('page must be an integer ≥ 1.', { parameter: 'page' });
  const filters = filtersFrom({
    ...body,
    vocabulary_ids: body.vocabulary_ids ?? body.vocabularies,
    domain_ids: body.domain_ids ?? body.domains,
    concept_class_ids: body.concept_class_ids ?? body.concept_classes,
    standard_concept: body.standard_concepts_only ? 'S' : body.standard_concept,
  });
  const relationshipFilters = (body.relationship_filters ?? []).filter((f) => f && typeof f.relationship_id === 'string' && f.relationship_id);
  for (const f of relationshipFilters) {
    if (f.direction !== undefined && f.direction !== 'forward' && f.direction !== 'reverse') {
      throw validationError(`relationship_filters[].direction must be 'forward' or 'reverse'.`, { parameter: 'relationship_filters' });
    }
  }
  const offset = (page - 1) * pageSize;
  const base = {
    query: body.query,
    filters,
    includeSynonyms: body.include_synonyms === true,
    exactMatch: body.exact_match === true,
  };

  let items: ConceptSearchRecord[];
  let total: number;
  let exact = true;
  let facetItems: ConceptSearchRecord[];
  let queryText: string;
  let filtersApplied: Record<string, unknown>;
  if (relationshipFilters.length === 0) {
    const result = searchConcepts(view, { ...base, window: { offset, limit: pageSize } });
    items = result.items;
    total = result.total ?? 0;
    queryText = result.query.text;
    filtersApplied = result.filtersApplied;
    facetItems =
      offset === 0 && pageSize >= ADVANCED_FACET_WINDOW
        ? items
        : searchConcepts(view, { ...base, window: { offset: 0, limit: ADVANCED_FACET_WINDOW } }).items;
  } else {
    const reverseOf = (id: string) => relationshipTypeIndex(view.store).get(id)?.reverse_relationship_id ?? id;
    const kept: ConceptSearchRecord[] = [];
    const chunk = 500;
    let scanned = 0;
    let exhausted = false;
    queryText = '';
    filtersApplied = {};
    while (scanned < RELATIONSHIP_SCAN_LIMIT) {
      const result = searchConcepts(view, { ...base, window: { offset: scanned, limit: chunk }, countTotal: scanned === 0 });
      queryText = result.query.text;
      filtersApplied = { ...result.filtersApplied, relationship_filters: relationshipFilters };
      for (const item of result.items) {
        if (relationshipFilters.every((f) => hasRelationship(view.store, item.concept_id, f, reverseOf))) kept.push(item);
      }
      scanned += result.items.length;
      if (result.items.length < chunk) {
        exhausted = true;
        break;
      }
    }
    total = kept.length;
    exact = exhausted;
    items = kept.slice(offset, offset + pageSize);
    facetItems = kept.slice(0, ADVANCED_FACET_WINDOW);
  }
  return {
    concepts: items,
    facets: facetsOf(view.store, facetItems),
    search_metadata: {
      query: queryText,
      total_results: total,
      total_is_exact: exact,
      processing_time_ms: Number(process.hrtime.bigint() - started) / 1e6,
      filters_applied: filtersApplied,
    },
    page,
    pageSize,
  };
}
