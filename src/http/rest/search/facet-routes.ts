/** GET /v1/search/facets (and the legacy /v1/concepts/search/facets): facet counts of a keyword search. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { searchFacets } from '../../../services/search/facets.js';
import { ok } from '../../plumbing/envelope.js';
import { Envelope, ReleaseQuery, STANDARD_ERRORS } from '../../plumbing/schemas.js';
import { FACETS_DESCRIPTION } from './search-descriptions.js';
import { csv, FilterQuery, filtersOf, type SearchQuerystring } from './search-schemas.js';

export function registerFacetRoutes(app: FastifyInstance): void {
  const FacetValueSchema = Type.Object({ value: Type.String(), count: Type.Integer(), label: Type.Optional(Type.String()) }, { additionalProperties: true });
  for (const path of ['/v1/search/facets', '/v1/concepts/search/facets']) {
    app.get<{ Querystring: SearchQuerystring & { domains?: string } }>(
      path,
      {
        schema: {
          tags: ['Search'],
          summary: path === '/v1/search/facets' ? 'Facet counts of a keyword search' : 'Facet counts (legacy path)',
          description: FACETS_DESCRIPTION,
          querystring: Type.Object({ query: Type.String({ description: 'Text, code or concept_id, as in keyword search.' }), ...FilterQuery, domains: csv('Alias of domain_ids.'), ...ReleaseQuery }),
          response: {
            200: Envelope(
              Type.Object({
                query: Type.String(),
                facets: Type.Object({
                  vocabularies: Type.Array(FacetValueSchema),
                  domains: Type.Array(FacetValueSchema),
                  concept_classes: Type.Array(FacetValueSchema),
                  standard_concepts: Type.Array(FacetValueSchema),
                }),
                total_results: Type.Integer(),
                counted_results: Type.Integer(),
                complete: Type.Boolean(),
              }),
            ),
            ...STANDARD_ERRORS,
          },
        },
      },
      async (request) => ok(request, searchFacets(request.view, { query: request.query.query, filters: filtersOf(request.query) })),
    );
  }
}
