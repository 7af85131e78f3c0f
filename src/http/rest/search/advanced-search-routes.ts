/** POST /v1/search/advanced (and the legacy /v1/concepts/search/advanced): body filters and relationship_filters. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { advancedSearch, type AdvancedSearchBody } from '../../../services/search/advanced-search.js';
import { okPage } from '../../plumbing/envelope.js';
import { paginationMeta } from '../../plumbing/pagination.js';
import { Envelope, ReleaseQuery, STANDARD_ERRORS } from '../../plumbing/schemas.js';
import { ADVANCED_SEARCH_DESCRIPTION } from './search-descriptions.js';
import { FiltersBody, SearchConceptSchema } from './search-schemas.js';

export function registerAdvancedSearchRoutes(app: FastifyInstance): void {
  for (const path of ['/v1/search/advanced', '/v1/concepts/search/advanced']) {
    app.post<{ Body: AdvancedSearchBody }>(
      path,
      {
        schema: {
          tags: ['Search'],
          summary: path === '/v1/search/advanced' ? 'Advanced search' : 'Advanced search (legacy path)',
          description: ADVANCED_SEARCH_DESCRIPTION,
          body: Type.Object(
            {
              query: Type.String({ description: 'Text, code or concept_id, as in keyword search (required).' }),
              ...FiltersBody,
              standard_concepts_only: Type.Optional(Type.Boolean()),
              relationship_filters: Type.Optional(
                Type.Array(
                  Type.Object(
                    {
                      relationship_id: Type.String(),
                      target_concept_id: Type.Optional(Type.Integer()),
                      direction: Type.Optional(Type.String()),
                    },
                    { additionalProperties: true },
                  ),
                ),
              ),
              page: Type.Optional(Type.Integer({ minimum: 1 })),
              limit: Type.Optional(Type.Integer({ minimum: 1 })),
              offset: Type.Optional(Type.Integer({ minimum: 0 })),
              vocabularies: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
              domains: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
              concept_classes: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
            },
            { additionalProperties: true },
          ),
          querystring: Type.Object(ReleaseQuery),
          response: {
            200: Envelope(
              Type.Object(
                {
                  concepts: Type.Array(SearchConceptSchema),
                  facets: Type.Object({}, { additionalProperties: true }),
                  search_metadata: Type.Object({}, { additionalProperties: true }),
                },
                { additionalProperties: true },
              ),
            ),
            ...STANDARD_ERRORS,
          },
        },
      },
      async (request) => {
        const result = advancedSearch(request.view, request.body ?? {});
        const page = { page: result.page, pageSize: result.pageSize, offset: (result.page - 1) * result.pageSize };
        return okPage(
          request,
          { concepts: result.concepts, facets: result.facets, search_metadata: result.search_metadata },
          paginationMeta(page, result.search_metadata.total_results),
          { search: { query: result.search_metadata.query, total_results: result.search_metadata.total_results, filters_applied: result.search_metadata.filters_applied } },
        );
      },
    );
  }
}
