/** GET /v1/vocabularies/{vocabulary_id}/concepts — browse a vocabulary, or keyword-search inside it (`search`). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { parseStandardConcept } from '../../services/search/search-filters.js';
import { listVocabularyConcepts, RELATIONSHIPS_MAX_PAGE_SIZE, type VocabularyConceptSort } from '../../services/search/vocabulary-concepts.js';
import { okPage } from '../plumbing/envelope.js';
import { paginationMeta, readPage } from '../plumbing/pagination.js';
import { ConceptSchema, Envelope, ErrorEnvelope, PageQuery, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

export const VOCABULARY_CONCEPTS_MAX_PAGE_SIZE = 1000;

interface Querystring {
  search?: string;
  standard_concept?: string;
  include_invalid?: boolean;
  include_synonyms?: boolean;
  include_relationships?: boolean;
  sort_by?: VocabularyConceptSort;
  sort_order?: 'asc' | 'desc';
  page?: number;
  page_size?: number;
}

export function registerVocabularyConceptRoutes(app: FastifyInstance): void {
  app.get<{ Params: { vocabulary_id: string }; Querystring: Querystring }>(
    '/v1/vocabularies/:vocabulary_id/concepts',
    {
      schema: {
        tags: ['Vocabularies'],
        summary: "A vocabulary's concepts",
        description:
          'Without `search`: the concepts of the vocabulary sorted by sort_by (concept_code by default; name, concept_name, concept_id, code). ' +
          'With `search`: keyword search restricted to this vocabulary, ranked as GET /v1/search/concepts (same query rules), unless sort_by is given. ' +
          `page_size: default 20, at most ${VOCABULARY_CONCEPTS_MAX_PAGE_SIZE} (${RELATIONSHIPS_MAX_PAGE_SIZE} with include_relationships). Unknown vocabulary → 404 vocabulary_not_found.`,
        params: Type.Object({ vocabulary_id: Type.String({ minLength: 1 }) }),
        querystring: Type.Object({
          search: Type.Optional(Type.String({ description: 'Keyword search inside the vocabulary (3–500 characters or a whole-query abbreviation).' })),
          standard_concept: Type.Optional(Type.String({ description: 'S, C, N or all (default all).' })),
          include_invalid: Type.Optional(Type.Boolean()),
          include_synonyms: Type.Optional(Type.Boolean()),
          include_relationships: Type.Optional(
            Type.Boolean({
              description: `Add to each concept \`relationships.parents\` ('Is a') and \`relationships.children\` ('Subsumes'), up to 100 each, as GET /v1/concepts/{concept_id} does; page_size is then at most ${RELATIONSHIPS_MAX_PAGE_SIZE}.`,
            }),
          ),
          sort_by: Type.Optional(
            Type.Union([Type.Literal('name'), Type.Literal('concept_name'), Type.Literal('concept_id'), Type.Literal('concept_code'), Type.Literal('code')]),
          ),
          sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
          ...PageQuery,
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Array(ConceptSchema)), ...STANDARD_ERRORS, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const q = request.query;
      const page = readPage(q, { maxPageSize: q.include_relationships ? RELATIONSHIPS_MAX_PAGE_SIZE : VOCABULARY_CONCEPTS_MAX_PAGE_SIZE });
      const { items, total } = listVocabularyConcepts(request.view, {
        vocabularyId: request.params.vocabulary_id,
        search: q.search,
        standardConcepts: parseStandardConcept(q.standard_concept),
        includeInvalid: q.include_invalid,
        includeSynonyms: q.include_synonyms,
        includeRelationships: q.include_relationships,
        sortBy: q.sort_by,
        sortOrder: q.sort_order,
        page: page.page,
        pageSize: page.pageSize,
      });
      return okPage(request, items, paginationMeta(page, total), q.search ? { search: { query: q.search.trim(), total_results: total } } : undefined);
    },
  );
}
