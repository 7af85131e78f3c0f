/** POST /v1/search/bulk: 1–BULK_MAX_SEARCHES searches in one call (data: bare array), spread over helper threads when idle. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { bulkSearch, BULK_MAX_SEARCHES, type BulkSearchFields, type BulkSearchItem } from '../../../services/search/bulk-search.js';
import type { BulkSearchPool } from '../../../threads/bulk-search-pool.js';
import { TurnQueue } from '../../../threads/turn-queue.js';
import { ok } from '../../plumbing/envelope.js';
import { Envelope, ReleaseQuery, STANDARD_ERRORS } from '../../plumbing/schemas.js';
import { BULK_SEARCH_DESCRIPTION } from './search-descriptions.js';
import { BulkOnlyFields, FiltersBody, SearchConceptSchema } from './search-schemas.js';

/** `bulkSearchPool` spreads bulk searches over helper threads when the server has nothing else to do. */
export function registerBulkSearchRoute(app: FastifyInstance, bulkSearchPool: BulkSearchPool | undefined): void {
  // Bulk searches take their turns on the event loop, in arrival order (see TurnQueue).
  const bulkSearchTurns = new TurnQueue();
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
    async (request) =>
      ok(
        request,
        (await bulkSearchTurns.run(
          (waiting) =>
            bulkSearchPool
              ? bulkSearchPool.run(request.view, request.body, { otherRequests: waiting })
              : bulkSearch(request.view, request.body),
          () => request.socket.destroyed, // the client has gone: nobody would read the answer
        )) ?? [],
      ),
  );
}
