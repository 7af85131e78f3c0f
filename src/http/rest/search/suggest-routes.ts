/**
 * Autocomplete: GET /v1/search/suggest ({query, suggestions:[{suggestion: Concept, …}]}) and
 * GET /v1/concepts/suggest (the flat shape: {suggestions:[…], query}).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ReleaseView } from '../../../services/release-view.js';
import { SUGGEST_PAGINATION_DESCRIPTION, suggestConcepts } from '../../../services/search/suggest.js';
import { okPage } from '../../plumbing/envelope.js';
import { paginationMeta, readPage } from '../../plumbing/pagination.js';
import { Envelope, PageQuery, ReleaseQuery, STANDARD_ERRORS } from '../../plumbing/schemas.js';
import { SUGGEST_QUERY_DESCRIPTION } from './search-descriptions.js';
import { csv, filtersOf, SearchConceptSchema } from './search-schemas.js';

export function registerSuggestRoutes(app: FastifyInstance): void {
  const SuggestQuery = Type.Object({
    query: Type.String({ description: SUGGEST_QUERY_DESCRIPTION }),
    vocabulary_ids: csv('Comma-separated vocabulary ids.'),
    vocabularies: csv('Alias of vocabulary_ids.'),
    domains: csv('Comma-separated domain ids.'),
    domain_ids: csv('Alias of domains.'),
    concept_class_ids: csv('Comma-separated concept class ids.'),
    standard_concept: Type.Optional(Type.String({ description: 'S, C, N or all.' })),
    ...PageQuery,
    ...ReleaseQuery,
  });
  type SuggestQuerystring = { query?: string; vocabulary_ids?: string; vocabularies?: string; domains?: string; domain_ids?: string; concept_class_ids?: string; standard_concept?: string; page?: number; page_size?: number };

  const runSuggest = (request: { query: SuggestQuerystring; view: ReleaseView }) => {
    const page = readPage(request.query, { defaultPageSize: 10, maxPageSize: 100 });
    const result = suggestConcepts(request.view, {
      query: request.query.query,
      filters: filtersOf(request.query),
      page: page.page,
      pageSize: page.pageSize,
    });
    return { result, pagination: paginationMeta(page, result.totalItems), totalMeta: { total_is_exact: result.totalIsExact } };
  };

  app.get<{ Querystring: SuggestQuerystring }>(
    '/v1/search/suggest',
    {
      schema: {
        tags: ['Search'],
        summary: 'Autocomplete',
        description: `Ranked like keyword search; \`data.suggestions[].suggestion\` is the concept (the shape the OMOPHub clients read on this path). ${SUGGEST_PAGINATION_DESCRIPTION}`,
        querystring: SuggestQuery,
        response: {
          200: Envelope(
            Type.Object({
              query: Type.String(),
              suggestions: Type.Array(Type.Object({ suggestion: SearchConceptSchema, match_score: Type.Number(), match_type: Type.String() })),
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const { result, pagination, totalMeta } = runSuggest(request);
      return okPage(
        request,
        { query: result.query, suggestions: result.items.map((c) => ({ suggestion: c, match_score: c.match_score, match_type: c.match_type })) },
        pagination,
        totalMeta,
      );
    },
  );

  app.get<{ Querystring: SuggestQuerystring }>(
    '/v1/concepts/suggest',
    {
      schema: {
        tags: ['Search'],
        summary: 'Concept suggestions (flat shape)',
        description:
          'Same suggestions as /v1/search/suggest in the flat shape the OMOPHub clients read on this path: each suggestion carries the concept fields and ' +
          `\`suggestion\` (the concept name). ${SUGGEST_PAGINATION_DESCRIPTION}`,
        querystring: SuggestQuery,
        response: {
          200: Envelope(
            Type.Object({
              suggestions: Type.Array(
                Type.Object(
                  {
                    concept_id: Type.Integer(),
                    concept_name: Type.String(),
                    concept_code: Type.String(),
                    vocabulary_id: Type.String(),
                    domain_id: Type.String(),
                    suggestion: Type.String(),
                    match_type: Type.String(),
                    match_score: Type.Number(),
                  },
                  { additionalProperties: true },
                ),
              ),
              query: Type.String(),
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const { result, pagination, totalMeta } = runSuggest(request);
      return okPage(request, { suggestions: result.items.map((c) => ({ ...c, suggestion: c.concept_name })), query: result.query }, pagination, totalMeta);
    },
  );
}
