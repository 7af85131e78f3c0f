/** POST /v1/search/bulk: 1–BULK_MAX_SEARCHES searches in one call (data: bare array), on the worker threads (split across idle ones). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { BULK_MAX_SEARCHES, type BulkSearchFields, type BulkSearchItem } from '../../../services/search/bulk-search.js';
import { pooledBulkSearchJson } from '../../../threads/bulk-search-parts.js';
import { heavyRunOptions } from '../../plumbing/heavy-work.js';
import { sendOkJson } from '../../plumbing/envelope.js';
import { Envelope, ReleaseQuery, STANDARD_ERRORS } from '../../plumbing/schemas.js';
import { BULK_SEARCH_DESCRIPTION } from './search-descriptions.js';
import { BulkOnlyFields, FiltersBody, SearchConceptSchema } from './search-schemas.js';

export function registerBulkSearchRoute(app: FastifyInstance): void {
  app.post<{ Body: { searches: BulkSearchItem[]; defaults?: BulkSearchFields } }>(
    '/v1/search/bulk',
    {
      schema: {
        tags: ['Search'],
        summary: 'Bulk keyword search',
        description: BULK_SEARCH_DESCRIPTION,
        body: Type.Object({
          searches: Type.Array(
            Type.Object(
              { search_id: Type.Optional(Type.Union([Type.String(), Type.Integer()])), query: Type.Optional(Type.String()), ...FiltersBody, ...BulkOnlyFields },
              { additionalProperties: true },
            ),
            { minItems: 1, maxItems: BULK_MAX_SEARCHES },
          ),
          defaults: Type.Optional(Type.Object({ ...FiltersBody, ...BulkOnlyFields }, { additionalProperties: true })),
        }),
        querystring: Type.Object(ReleaseQuery),
        response: {
          200: Envelope(
            Type.Array(
              Type.Object(
                {
                  search_id: Type.String(),
                  query: Type.String(),
                  status: Type.Union([Type.Literal('completed'), Type.Literal('failed')]),
                  results: Type.Array(SearchConceptSchema),
                  total_results: Type.Optional(Type.Integer()),
                  error: Type.Optional(Type.String()),
                  error_code: Type.Optional(Type.String()),
                  duration: Type.Number(),
                },
                { additionalProperties: true },
              ),
            ),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    // The answer's JSON is made on the threads (the response schema documents it: every object in it but a synonym
    // takes additional properties, and a synonym record has exactly the schema's two fields, so it is what the schema
    // serialiser would write).
    async (request, reply) => {
      return sendOkJson(request, reply, await pooledBulkSearchJson(request.server.workerPool, request.view, request.body, heavyRunOptions(request)));
    },
  );
}
