/** GET /v1/concepts/{concept_id}, GET /v1/concepts/by-code/{vocabulary_id}/{concept_code} and POST /v1/concepts/batch. */
import type { FastifyInstance, FastifySchema } from 'fastify';
import { Type } from 'typebox';
import { BATCH_MAX_CONCEPTS, getConceptBatch } from '../../services/concepts/concept-batch.js';
import { getConceptByCode, getConceptById } from '../../services/concepts/concept-lookup.js';
import { ok } from '../plumbing/envelope.js';
import { ConceptSchema, Envelope, ErrorEnvelope, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

const LookupFlags = {
  include_synonyms: Type.Optional(Type.Boolean({ description: 'Add the published synonyms.' })),
  include_relationships: Type.Optional(Type.Boolean({ description: "Add `relationships.parents` ('Is a') and `relationships.children` ('Subsumes'), up to 100 each." })),
  include_hierarchy: Type.Optional(Type.Boolean({ description: 'Add `hierarchy.ancestors` and `hierarchy.descendants` from CONCEPT_ANCESTOR, nearest first, up to 100 each.' })),
  ...ReleaseQuery,
};

const ConceptDetailSchema = Type.Intersect([
  ConceptSchema,
  Type.Object(
    {
      vocabulary_name: Type.Union([Type.String(), Type.Null()]),
      is_valid: Type.Boolean(),
      is_standard: Type.Boolean(),
      is_classification: Type.Boolean(),
    },
    { additionalProperties: true },
  ),
]);

interface BatchBody {
  concept_ids: number[];
  include_relationships?: boolean;
  include_synonyms?: boolean;
  include_mappings?: boolean;
  vocabulary_filter?: string[];
  standard_only?: boolean;
}

const responses = { 200: Envelope(ConceptDetailSchema), ...STANDARD_ERRORS, 404: ErrorEnvelope };

const VocabularyIdParam = Type.String({ minLength: 1, description: 'Vocabulary id, e.g. ICD10CM' });
const ConceptCodeParam = Type.String({ minLength: 1, description: 'Concept code, percent-encoded, e.g. E11.9, A%2FB%2012 for "A/B 12"' });

/**
 * The by-code route matches the code as the rest of the path (a wildcard), so that codes with
 * slashes round-trip however a client encodes them; the document names it {concept_code}.
 */
function documentByCodeRoute({ schema, url }: { schema: FastifySchema; url: string }) {
  return {
    url: url.replace(/\*$/, ':concept_code'),
    schema: { ...schema, params: Type.Object({ vocabulary_id: VocabularyIdParam, concept_code: ConceptCodeParam }) },
  };
}

export function registerConceptRoutes(app: FastifyInstance): void {
  app.get<{ Params: { concept_id: number }; Querystring: Record<string, boolean | string | undefined> }>(
    '/v1/concepts/:concept_id',
    {
      schema: {
        tags: ['Concepts'],
        summary: 'Get a concept by concept_id',
        params: Type.Object({ concept_id: Type.Integer({ minimum: 0, description: 'OMOP concept_id' }) }),
        querystring: Type.Object(LookupFlags),
        response: responses,
      },
    },
    async (request) => {
      const detail = getConceptById(request.view, request.params.concept_id, request.query);
      return ok(request, detail);
    },
  );

  app.get<{ Params: { vocabulary_id: string; '*': string }; Querystring: Record<string, boolean | string | undefined> }>(
    '/v1/concepts/by-code/:vocabulary_id/*',
    {
      schema: {
        tags: ['Concepts'],
        summary: 'Get a concept by vocabulary and code',
        description:
          'The code is the rest of the path, percent-encoded; codes containing dots, slashes or spaces round-trip (E11.9, 2345-7, a/b).',
        params: Type.Object({ vocabulary_id: VocabularyIdParam, '*': ConceptCodeParam }),
        querystring: Type.Object(LookupFlags),
        response: responses,
      },
      config: { swaggerTransform: documentByCodeRoute },
    },
    async (request) => {
      const detail = getConceptByCode(
        request.view,
        request.params.vocabulary_id,
        request.params['*'],
        request.query,
      );
      return ok(request, detail);
    },
  );

  app.post<{ Body: BatchBody; Querystring: Record<string, string | undefined> }>(
    '/v1/concepts/batch',
    {
      schema: {
        tags: ['Concepts'],
        summary: 'Get up to 100 concepts by id',
        description:
          `1–${BATCH_MAX_CONCEPTS} concept ids (0 or more than ${BATCH_MAX_CONCEPTS} → 400). Each found concept is described as GET /v1/concepts/{concept_id} ` +
          'describes it, in the order of `concept_ids` (a repeated id is answered once). `include_mappings` adds `mappings`: its valid ' +
          "'Maps to' targets (up to 100). An id that is not answered does not fail the request: it is listed in `failed_concepts` with a `reason` starting " +
          'with `not_found` (unknown), `vocabulary_restricted` (hidden from this key by licence rules) or `filtered` (outside `vocabulary_filter`, or not ' +
          "standard while `standard_only` is true). `standard_only` defaults to **true** (the hosted service's documented default; the Python and R clients " +
          "send it): only concepts whose standard_concept is 'S' are returned unless it is false. `summary` counts distinct ids: total = found + failed.",
        body: Type.Object({
          concept_ids: Type.Array(Type.Integer({ minimum: 0 }), {
            minItems: 1,
            maxItems: BATCH_MAX_CONCEPTS,
            description: `1–${BATCH_MAX_CONCEPTS} OMOP concept ids.`,
          }),
          include_relationships: Type.Optional(Type.Boolean({ description: "Add `relationships.parents` ('Is a') and `relationships.children` ('Subsumes'), up to 100 each." })),
          include_synonyms: Type.Optional(Type.Boolean({ description: 'Add the published synonyms.' })),
          include_mappings: Type.Optional(Type.Boolean({ description: "Add `mappings`: the valid 'Maps to' targets, up to 100." })),
          vocabulary_filter: Type.Optional(Type.Array(Type.String(), { description: 'Answer only concepts of these vocabularies; others are listed as failed.' })),
          standard_only: Type.Optional(Type.Boolean({ description: "Answer only standard concepts ('S'); default true." })),
        }),
        querystring: Type.Object(ReleaseQuery),
        response: {
          200: Envelope(
            Type.Object({
              concepts: Type.Array(ConceptDetailSchema),
              failed_concepts: Type.Array(Type.Object({ concept_id: Type.Integer(), reason: Type.String() })),
              summary: Type.Object({ total: Type.Integer(), found: Type.Integer(), failed: Type.Integer() }),
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const body = request.body;
      const result = getConceptBatch(request.view, {
        conceptIds: body.concept_ids,
        includeRelationships: body.include_relationships,
        includeSynonyms: body.include_synonyms,
        includeMappings: body.include_mappings,
        vocabularyFilter: body.vocabulary_filter,
        standardOnly: body.standard_only,
      });
      return ok(request, result);
    },
  );
}
