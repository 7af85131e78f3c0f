/** POST /v1/concepts/relationships/batch (E6): 1–100 relationship queries, each answered or failed on its own. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { MAX_TRAVERSAL_DEPTH } from '../../services/related/concept-traversal.js';
import { BATCH_RELATED_DEFAULT_PAGE_SIZE, RELATED_DEFAULT_MIN_SCORE, RELATED_DEPTH, RELATED_MAX_PAGE_SIZE } from '../../services/related/related-concepts.js';
import {
  BATCH_MAX_QUERIES,
  BATCH_OPERATIONS,
  BATCH_PARAMS,
  BATCH_RELATIONSHIPS_LIMIT,
  type RelationshipBatchQuery,
} from '../../services/related/relationship-batch.js';
import { SCORING_DESCRIPTION } from '../../services/related/relationship-scoring.js';
import { TRAVERSE_DEFAULT_MAX_DEPTH, TRAVERSE_DEFAULT_MIN_SCORE } from '../../services/related/traversal-result.js';
import { sendOkJson } from '../plumbing/envelope.js';
import { Envelope, Nullable, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';
import { jsonStringifySerializer, ScoredFields, TRAVERSAL_BUDGET_DESCRIPTION } from './related-routes.js';
import { computeHeavyJson } from '../plumbing/heavy-work.js';

const AnyRecord = Type.Object({}, { additionalProperties: true });

const TraversalResultSchema = Type.Object({
  starting_concepts: Type.Array(Type.Integer()),
  discovered_concepts: Type.Array(
    Type.Object({ concept_id: Type.Integer(), concept_name: Type.String(), vocabulary_id: Type.String(), ...ScoredFields }),
  ),
  relationship_paths: Type.Array(AnyRecord, { maxItems: 0 }),
  traversal_stats: Type.Object({
    total_concepts_discovered: Type.Integer(),
    max_depth_reached: Type.Integer(),
    total_relationships_explored: Type.Integer(),
    unique_relationship_types: Type.Array(Type.String()),
    limits_reached: Type.Array(Type.String(), { description: 'Budgets that cut the walk short: links_per_concept, max_concepts, time_budget.' }),
  }),
});

const BatchItemSchema = Type.Object({
  query_id: Type.String(),
  concept_id: Type.Integer(),
  operation: Nullable(Type.String()),
  success: Type.Boolean(),
  data: Type.Union([Type.Array(AnyRecord), TraversalResultSchema, Type.Null()], {
    description: 'relationships: array of relationship records; related: array of related-concept records; traverse: traversal result; null on failure.',
  }),
  total_count: Type.Optional(Type.Integer({ description: '`relationships` only: how many relationships match.' })),
  error: Type.Optional(Type.String()),
  error_code: Type.Optional(Type.String()),
});

const DESCRIPTION =
  `1–${BATCH_MAX_QUERIES} queries, answered in input order in a bare array; the whole batch is one call against the rate limit and quota. ` +
  'Each query is checked and answered on its own (Errors rule 6): an unknown or missing operation, a params field its operation does not allow ' +
  '(`include_paths` and `breadth_first` are never accepted; `relationship_ids` and its deprecated alias `relationship_types` never together), a value ' +
  'out of range, or an unknown or licence-restricted concept gives that item `success: false`, `data: null`, a string `error` and an `error_code`; ' +
  'the other queries still run. A body that is not `{queries: [...]}` with 1–100 queries each carrying query_id and concept_id is a 400 for the request. ' +
  `Operations and params: relationships (${BATCH_PARAMS.relationships.join(', ')}; booleans default false) → the first ${BATCH_RELATIONSHIPS_LIMIT} ` +
  'relationship records as GET /v1/concepts/{concept_id}/relationships orders them, with `total_count`; ' +
  `related (${BATCH_PARAMS.related.join(', ')}; page_size default ${BATCH_RELATED_DEFAULT_PAGE_SIZE}, 1–${RELATED_MAX_PAGE_SIZE}; min_score default ${RELATED_DEFAULT_MIN_SCORE}, 0–1) → ` +
  `related-concept records within ${RELATED_DEPTH} relationships, best score first; ` +
  `traverse (${BATCH_PARAMS.traverse.join(', ')}; max_depth default ${TRAVERSE_DEFAULT_MAX_DEPTH}, 1–${MAX_TRAVERSAL_DEPTH}; min_score default ${TRAVERSE_DEFAULT_MIN_SCORE}) → ` +
  'a traversal result: discovered_concepts by distance then score, relationship_paths empty, traversal_stats counting exactly the relationships read ' +
  '(to concepts this key may see) and naming in limits_reached every budget that cut the walk short. ' +
  SCORING_DESCRIPTION +
  ' ' +
  TRAVERSAL_BUDGET_DESCRIPTION;

export function registerRelationshipBatchRoutes(app: FastifyInstance): void {
  // A batch is up to ~100 ms of CPU and its answer up to ~2 MB of JSON: both are made on a worker thread
  // (src/threads/worker-pool.ts), the event loop only writes the text.
  app.post<{ Body: { queries: RelationshipBatchQuery[] } }>(
    '/v1/concepts/relationships/batch',
    {
      schema: {
        tags: ['Relationships'],
        summary: 'Batch relationship queries (E6)',
        description: DESCRIPTION,
        body: Type.Object({
          queries: Type.Array(
            Type.Object(
              {
                query_id: Type.String({ description: 'Identifies the query in the answer.' }),
                concept_id: Type.Integer({ minimum: 0 }),
                operation: Type.Optional(Type.String({ description: `One of ${BATCH_OPERATIONS.join(', ')} (checked per query).` })),
                params: Type.Optional(Type.Unknown({ description: 'Object of the fields the operation allows (checked per query).' })),
              },
              { additionalProperties: true },
            ),
            { minItems: 1, maxItems: BATCH_MAX_QUERIES },
          ),
        }),
        querystring: Type.Object(ReleaseQuery),
        response: { 200: Envelope(Type.Array(BatchItemSchema)), ...STANDARD_ERRORS },
      },
      // The response schema documents the answer; JSON.stringify writes it (the union for `data`
      // makes the compiled serializer test every record against each branch).
      serializerCompiler: jsonStringifySerializer,
    },
    async (request, reply) => {
      return sendOkJson(request, reply, await computeHeavyJson(request, 'relationshipBatch', request.view, request.body.queries));
    },
  );
}
