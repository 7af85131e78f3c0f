/** GET /v1/search/concepts: keyword search (data: Concept[]; meta.search, meta.pagination). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { searchConcepts } from '../../../services/search/keyword-search.js';
import { okPage } from '../../plumbing/envelope.js';
import { paginationMeta, readPage } from '../../plumbing/pagination.js';
import { Envelope, PageQuery, ReleaseQuery, STANDARD_ERRORS } from '../../plumbing/schemas.js';
import { KEYWORD_SEARCH_DESCRIPTION, SORT_BY_DESCRIPTION } from './search-descriptions.js';
import { FilterQuery, filtersOf, SearchConceptSchema, type SearchQuerystring } from './search-schemas.js';

export function registerKeywordSearchRoute(app: FastifyInstance): void {
  app.get<{ Querystring: SearchQuerystring }>(
    '/v1/search/concepts',
    {
      schema: {
        tags: ['Search'],
        summary: 'Keyword search',
        description: KEYWORD_SEARCH_DESCRIPTION,
        querystring: Type.Object({
          query: Type.String({ description: 'Text, code or concept_id to search for.' }),
          ...FilterQuery,
          include_synonyms: Type.Optional(Type.Boolean({ description: "Add each result's synonyms (synonyms are searched regardless)." })),
          exact_match: Type.Optional(Type.Boolean({ description: 'Only concepts whose id, code, name or a published synonym equals the query (case-insensitive).' })),
          min_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Only results with match_score ≥ this.' })),
          sort_by: Type.Optional(
            Type.Union(['relevance', 'name', 'concept_name', 'code', 'concept_code', 'date', 'vocabulary_id', 'concept_id'].map((v) => Type.Literal(v)), {
              description: SORT_BY_DESCRIPTION,
            }),
          ),
          sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
          ...PageQuery,
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Array(SearchConceptSchema)), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const page = readPage(q);
      const result = searchConcepts(request.view, {
        query: q.query,
        filters: filtersOf(q),
        page: page.page,
        pageSize: page.pageSize,
        includeSynonyms: q.include_synonyms,
        exactMatch: q.exact_match,
        minScore: q.min_score,
        sortBy: q.sort_by,
        sortOrder: q.sort_order,
      });
      const total = result.total ?? 0;
      return okPage(request, result.items, paginationMeta(page, total), {
        search: { query: result.query.text, total_results: total, filters_applied: result.filtersApplied },
      });
    },
  );
}
