/**
 * GET /v1/vocabularies/{vocabulary_id}/concepts: a vocabulary's concepts browsed by code, name or id, or with
 * `search` the E4 keyword search restricted to that vocabulary, optionally with each concept's parents and
 * children.
 */
import type { ReleaseView } from '../release-view.js';
import { relativesOf, type ConceptDetail } from '../concepts/concept-lookup.js';
import { requireVocabulary } from '../vocabularies/vocabulary-catalog.js';
import type { ConceptRecord, SynonymRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { searchConcepts, type ConceptSearchRecord, type SortBy } from './keyword-search.js';
import type { StandardFlag } from './search-filters.js';
import { briefConcept } from '../concepts/concept-brief.js';

/** Page size ceiling when relationships are attached (the route clamps to it). */
export const RELATIONSHIPS_MAX_PAGE_SIZE = 100;

export type VocabularyConceptSort = 'name' | 'concept_name' | 'concept_id' | 'concept_code' | 'code';

export interface VocabularyConceptsRequest {
  vocabularyId: string;
  search?: string;
  standardConcepts?: StandardFlag[];
  includeInvalid?: boolean;
  includeSynonyms?: boolean;
  includeRelationships?: boolean;
  sortBy?: VocabularyConceptSort;
  sortOrder?: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

export interface VocabularyConceptRecord extends ConceptRecord {
  match_score?: number;
  match_type?: string;
  synonyms?: SynonymRecord[];
  relationships?: ConceptDetail['relationships'];
}

export function listVocabularyConcepts(
  view: ReleaseView,
  request: VocabularyConceptsRequest,
): { items: VocabularyConceptRecord[]; total: number } {
  const page = findVocabularyConcepts(view, request);
  if (request.includeRelationships) {
    const relatives = relativesOf(view, page.items.map((item) => item.concept_id));
    for (const item of page.items) item.relationships = relatives.get(item.concept_id);
  }
  return page;
}

function findVocabularyConcepts(
  view: ReleaseView,
  request: VocabularyConceptsRequest,
): { items: VocabularyConceptRecord[]; total: number } {
  requireVocabulary(view, request.vocabularyId);
  if (request.search !== undefined && request.search.trim() !== '') {
    const sortBy: SortBy | undefined =
      request.sortBy === 'name' ? 'concept_name' : request.sortBy === 'code' ? 'concept_code' : (request.sortBy as SortBy | undefined);
    const result = searchConcepts(view, {
      query: request.search,
      queryRules: { parameter: 'search' },
      filters: { vocabularyIds: [request.vocabularyId], standardConcepts: request.standardConcepts, includeInvalid: request.includeInvalid },
      page: request.page,
      pageSize: request.pageSize,
      includeSynonyms: request.includeSynonyms,
      sortBy,
      sortOrder: request.sortOrder,
    });
    return { items: result.items as ConceptSearchRecord[], total: result.total ?? result.items.length };
  }
  const search = view.store.search;
  const sortBy = request.sortBy === 'name' || request.sortBy === 'concept_name' ? 'concept_name' : request.sortBy === 'concept_id' ? 'concept_id' : 'concept_code';
  const { concepts, total } = search.browseVocabulary({
    vocabularyId: request.vocabularyId,
    standardConcepts: request.standardConcepts,
    includeInvalid: request.includeInvalid ?? false,
    sortBy,
    descending: request.sortOrder === 'desc',
    offset: (request.page - 1) * request.pageSize,
    limit: request.pageSize,
  });
  const items: VocabularyConceptRecord[] = concepts.map((c) => ({
    ...briefConcept(c),
    invalid_reason: c.invalid_reason,
    valid_start_date: c.valid_start_date,
    valid_end_date: c.valid_end_date,
  }));
  if (request.includeSynonyms && items.length) {
    const synonyms = search.synonymsOf(items.map((i) => i.concept_id));
    for (const item of items) item.synonyms = synonyms.get(item.concept_id) ?? [];
  }
  return { items, total };
}
