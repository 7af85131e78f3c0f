/** Schemas and query readers shared by the search routes: the search-result concept, filters in a query string or a body. */
import { Type } from 'typebox';
import type { SortBy } from '../../../services/search/keyword-search.js';
import { parseStandardConcept } from '../../../services/search/search-filters.js';
import { csvList } from '../../plumbing/query-values.js';
import { ConceptSchema } from '../../plumbing/schemas.js';

export const SearchConceptSchema = Type.Intersect([
  ConceptSchema,
  Type.Object(
    {
      match_score: Type.Number({ minimum: 0, maximum: 1 }),
      match_type: Type.Union([Type.Literal('exact'), Type.Literal('partial')]),
      synonyms: Type.Optional(Type.Array(Type.Object({ concept_synonym_name: Type.String(), language_concept_id: Type.Integer() }))),
    },
    { additionalProperties: true },
  ),
]);

export const csv = (description: string) => Type.Optional(Type.String({ description }));

export const FilterQuery = {
  vocabulary_ids: csv('Comma-separated vocabulary ids, e.g. SNOMED,ICD10CM.'),
  vocabularies: csv('Alias of vocabulary_ids.'),
  domain_ids: csv('Comma-separated domain ids, e.g. Condition,Drug. Naming Meas Value turns the demotion of non-clinical classes off and ranks on text relevance alone.'),
  concept_class_ids: csv('Comma-separated concept class ids (names may contain spaces). Naming a demoted class turns the demotion off and ranks on text relevance alone.'),
  standard_concept: Type.Optional(Type.String({ description: 'S (standard), C (classification), N (non-standard), or all. A comma list is accepted.' })),
  include_invalid: Type.Optional(Type.Boolean({ description: 'Also return deprecated or replaced concepts, ranked after every valid text match (default false).' })),
};

export type SearchQuerystring = {
  query?: string;
  vocabulary_ids?: string;
  vocabularies?: string;
  domain_ids?: string;
  concept_class_ids?: string;
  standard_concept?: string;
  include_invalid?: boolean;
  include_synonyms?: boolean;
  exact_match?: boolean;
  min_score?: number;
  sort_by?: SortBy;
  sort_order?: 'asc' | 'desc';
  page?: number;
  page_size?: number;
};

export function filtersOf(q: { vocabulary_ids?: string; vocabularies?: string; domain_ids?: string; domains?: string; concept_class_ids?: string; standard_concept?: string; include_invalid?: boolean }) {
  return {
    vocabularyIds: csvList(q.vocabulary_ids) ?? csvList(q.vocabularies),
    domainIds: csvList(q.domain_ids) ?? csvList(q.domains),
    conceptClassIds: csvList(q.concept_class_ids),
    standardConcepts: parseStandardConcept(q.standard_concept),
    includeInvalid: q.include_invalid === true,
  };
}

export const FiltersBody = {
  vocabulary_ids: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  domain_ids: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  concept_class_ids: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  standard_concept: Type.Optional(Type.String()),
  include_invalid: Type.Optional(Type.Boolean()),
  include_synonyms: Type.Optional(Type.Boolean()),
  exact_match: Type.Optional(Type.Boolean()),
  page_size: Type.Optional(Type.Integer()),
};

export const BulkOnlyFields = {
  include_total: Type.Optional(Type.Boolean({ description: "Also count each search's total_results (default false; counting a common query costs more than its first page)." })),
};
