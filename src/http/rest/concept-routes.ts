/** GET /v1/concepts/{concept_id} and GET /v1/concepts/by-code/{vocabulary_id}/{concept_code}. */
import type { FastifyInstance, FastifySchema } from 'fastify';
import { Type } from 'typebox';
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
      const detail = getConceptById(request.release.store, request.caller.policy, request.params.concept_id, request.query);
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
        request.release.store,
        request.caller.policy,
        request.params.vocabulary_id,
        request.params['*'],
        request.query,
      );
      return ok(request, detail);
    },
  );
}
