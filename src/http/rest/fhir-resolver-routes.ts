/**
 * The FHIR-to-OMOP resolver routes (E7): thin adapters from HTTP to src/services/fhir-resolver for one coding, a
 * batch and a CodeableConcept; the body is validated here, the input rules are the service's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { ADMINISTRATIVE_SYSTEMS } from '../../services/fhir-resolver/administrative-concept-maps.js';
import { OMOP_CONCEPT_SYSTEM } from '../../services/fhir/code-system-uris.js';
import { CODEABLE_CONCEPT_MAX_CODINGS, resolveCodeableConcept, VOCABULARY_PREFERENCE } from '../../services/fhir-resolver/resolve-codeable-concept.js';
import { resolveBatch, RESOLVE_BATCH_MAX } from '../../services/fhir-resolver/resolve-batch.js';
import { resolveCoding } from '../../services/fhir-resolver/resolve-coding.js';
import { SEMANTIC_MEDIUM_SIMILARITY } from '../../services/fhir-resolver/resolution-quality.js';
import {
  RECOMMENDATIONS_DEFAULT_LIMIT,
  RECOMMENDATIONS_MAX_LIMIT,
  RESOURCE_TYPES,
  type CodingInput,
  type OnUnmapped,
  type ResolveOptions,
  type ResourceType,
} from '../../services/fhir-resolver/resolution.js';
import { ok } from '../plumbing/envelope.js';
import { ConceptBriefFields, Envelope, ErrorEnvelope, Nullable, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';
import { resolverContextOf } from './semantic-context.js';

const RESOLVER_ERRORS = { ...STANDARD_ERRORS, 404: ErrorEnvelope };

// ---------------------------------------------------------------------------------------------
// Request schemas
// ---------------------------------------------------------------------------------------------

const CodingFields = {
  system: Type.Optional(Type.String({ maxLength: 2048, description: `FHIR code-system URI (THO canonical, an alias or urn:oid; ${OMOP_CONCEPT_SYSTEM} takes an OMOP concept_id as the code).` })),
  code: Type.Optional(Type.String({ maxLength: 256, description: 'The code; required with system or vocabulary_id.' })),
  display: Type.Optional(Type.String({ maxLength: 1000, description: 'Display text: the fallback when the code is not found, or the sole input (meaning-based match).' })),
  vocabulary_id: Type.Optional(Type.String({ maxLength: 64, description: 'OMOP vocabulary id instead of system, e.g. ICD10CM.' })),
  concept_map_id: Type.Optional(
    Type.String({ maxLength: 64, description: 'Administrative codes mapped by two IG ConceptMaps (allergy-intolerance categories): IntoleranceType instead of the default AllergyType.' }),
  ),
};

const CodingSchema = Type.Object({
  ...CodingFields,
  user_selected: Type.Optional(Type.Boolean({ description: 'FHIR Coding.userSelected (CodeableConcept preference).' })),
  userSelected: Type.Optional(Type.Boolean({ description: 'Alias of user_selected.' })),
});

type CodingBody = CodingInput & { userSelected?: boolean };

const OptionFields = {
  resource_type: Type.Optional(
    Type.Union(
      RESOURCE_TYPES.map((t) => Type.Literal(t)),
      { description: 'FHIR resource type the coding comes from (advisory): sets domain_resource_alignment and the domains the display fallback searches.' },
    ),
  ),
  include_recommendations: Type.Optional(Type.Boolean({ description: 'Add recommendations (default false).' })),
  recommendations_limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: RECOMMENDATIONS_MAX_LIMIT, description: `At most this many recommendations (1–${RECOMMENDATIONS_MAX_LIMIT}, default ${RECOMMENDATIONS_DEFAULT_LIMIT}).` }),
  ),
  include_quality: Type.Optional(Type.Boolean({ description: 'Add mapping_quality (default false).' })),
  on_unmapped: Type.Optional(
    Type.Union([Type.Literal('error'), Type.Literal('sentinel')], {
      description: 'error (default): 404 concept_not_found when nothing is found; sentinel: a resolution whose standard concept is concept_id 0.',
    }),
  ),
};

interface OptionBody {
  resource_type?: ResourceType;
  include_recommendations?: boolean;
  recommendations_limit?: number;
  include_quality?: boolean;
  on_unmapped?: OnUnmapped;
}

const ResolveBody = Type.Object({
  ...CodingFields,
  coding: Type.Optional(Type.Object(CodingFields, { description: 'A nested FHIR Coding (the Node client\'s form); its fields fill those not given at the top level.' })),
  ...OptionFields,
});

type ResolveBodyType = CodingBody & OptionBody & { coding?: CodingInput };

const BatchBody = Type.Object({
  codings: Type.Array(CodingSchema, { minItems: 1, maxItems: RESOLVE_BATCH_MAX, description: `1–${RESOLVE_BATCH_MAX} codings.` }),
  ...OptionFields,
});

const CodeableConceptBody = Type.Object({
  coding: Type.Array(CodingSchema, { minItems: 1, maxItems: CODEABLE_CONCEPT_MAX_CODINGS, description: `1–${CODEABLE_CONCEPT_MAX_CODINGS} codings.` }),
  text: Type.Optional(Type.String({ maxLength: 1000, description: 'CodeableConcept.text: resolved by meaning when no coding resolves.' })),
  ...OptionFields,
});

// ---------------------------------------------------------------------------------------------
// Response schemas
// ---------------------------------------------------------------------------------------------

const ResolvedConceptSchema = Type.Object(ConceptBriefFields);

const SourceConceptSchema = Type.Object({
  ...ConceptBriefFields,
  vocabulary_id: Nullable(Type.String()),
  domain_id: Nullable(Type.String()),
  concept_class_id: Nullable(Type.String()),
});

const ResolutionSchema = Type.Object({
  vocabulary_id: Nullable(Type.String()),
  source_concept: SourceConceptSchema,
  standard_concept: ResolvedConceptSchema,
  mapping_type: Type.Union(['direct', 'mapped', 'semantic_match', 'unmapped'].map((t) => Type.Literal(t))),
  relationship_id: Type.Optional(Type.String()),
  similarity_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  target_table: Nullable(Type.String()),
  target_field: Type.Optional(Type.String()),
  domain_resource_alignment: Type.Union(['aligned', 'misaligned', 'not_checked'].map((t) => Type.Literal(t))),
  alignment_note: Type.Optional(Type.String()),
  mapping_quality: Type.Optional(Type.Union(['high', 'medium', 'low', 'manual_review'].map((t) => Type.Literal(t)))),
  quality_note: Nullable(Type.String()),
  recommendations: Type.Optional(
    Type.Array(Type.Object({ ...ConceptBriefFields, relationship_id: Type.String(), similarity_score: Type.Optional(Type.Number()) })),
  ),
  value_as_concept: Type.Optional(ResolvedConceptSchema),
  value_target_field: Type.Optional(Type.String()),
  alternative_standard_concepts: Type.Optional(Type.Array(Type.Object({ ...ConceptBriefFields, target_table: Nullable(Type.String()) }))),
  concept_map_id: Type.Optional(Type.String()),
  concept_map_url: Type.Optional(Type.String()),
  mapping_note: Type.Optional(Type.String()),
});

const InputEchoSchema = Type.Object({
  system: Nullable(Type.String()),
  code: Nullable(Type.String()),
  display: Nullable(Type.String()),
  vocabulary_id: Nullable(Type.String()),
  resource_type: Nullable(Type.String()),
});

const ItemErrorSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  details: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

const ResolvedItemSchema = Type.Object({ input: InputEchoSchema, resolution: ResolutionSchema });
const FailedItemSchema = Type.Object({ input: InputEchoSchema, error: ItemErrorSchema });

// ---------------------------------------------------------------------------------------------
// Descriptions
// ---------------------------------------------------------------------------------------------

const preference = VOCABULARY_PREFERENCE.map((g) => g.join('/')).join(' > ');

const RESOLVE_DESCRIPTION =
  'Resolves a FHIR coding to the OMOP standard concept and the CDM table its record goes to (spec E7). Input: system + code, ' +
  'vocabulary_id + code, or display alone (400 missing_input otherwise); an unknown system is 400 unknown_system with ' +
  '`details.suggestion`. Codes are normalised per vocabulary (NDC hyphenated forms → 11 digits, ICD codes without their dot). ' +
  'A standard concept resolves `direct`; another concept through its valid `Maps to` rows (`mapped`; a one-to-many map lists ' +
  'the other targets in `alternative_standard_concepts`, a `Maps to value` row gives `value_as_concept`); a concept with no ' +
  'standard target gets the concept_id 0 sentinel (`unmapped`, rule 4). Administrative codes (' +
  `${ADMINISTRATIVE_SYSTEMS.length} FHIR systems: gender, encounter class, admit source, discharge disposition, condition ` +
  'clinical status, allergy category, immunization origin and route, race, ethnicity) resolve through the FHIR-to-OMOP IG ' +
  'ConceptMaps (`concept_map_id`). When the code is not found, or only display is given, the display is matched by meaning ' +
  'within the resource type\'s expected domains (`semantic_match`, `similarity_score`). The standard concept\'s domain decides ' +
  '`target_table` (rule 1); resource_type only sets `domain_resource_alignment`. `mapping_quality`: direct or a single Maps to ' +
  'high; one-to-many or Maps to value medium; IG equivalent high, narrower/broader medium, related or unpublished low; ' +
  `semantic match medium at similarity ≥ ${SEMANTIC_MEDIUM_SIMILARITY}, else low; sentinel manual_review; one step lower when ` +
  'misaligned and when the source concept is invalid. 404 concept_not_found when nothing is found and on_unmapped is error. ' +
  'CPT4 needs a validated key; GPI and MedDRA are never served (403 vocabulary_restricted).';

// ---------------------------------------------------------------------------------------------
// Adapters
// ---------------------------------------------------------------------------------------------

function optionsOf(body: OptionBody): ResolveOptions {
  return {
    resourceType: body.resource_type,
    includeRecommendations: body.include_recommendations ?? false,
    recommendationsLimit: body.recommendations_limit ?? RECOMMENDATIONS_DEFAULT_LIMIT,
    includeQuality: body.include_quality ?? false,
    onUnmapped: body.on_unmapped ?? 'error',
  };
}

function codingOf(body: CodingBody): CodingInput {
  return {
    system: body.system,
    code: body.code,
    display: body.display,
    vocabulary_id: body.vocabulary_id,
    concept_map_id: body.concept_map_id,
    user_selected: body.user_selected ?? body.userSelected,
  };
}

function route(app: FastifyInstance, path: string, summary: string, description: string, body: TSchema, data: TSchema, handler: (request: FastifyRequest) => Promise<unknown>): void {
  app.post(
    path,
    {
      schema: {
        tags: ['FHIR resolver'],
        summary,
        description,
        querystring: Type.Object(ReleaseQuery),
        body,
        response: { 200: Envelope(data), ...RESOLVER_ERRORS },
      },
    },
    async (request) => ok(request, await handler(request)),
  );
}

export function registerFhirResolverRoutes(app: FastifyInstance): void {
  route(
    app,
    '/v1/fhir/resolve',
    'Resolve a FHIR coding to a standard concept and CDM table',
    RESOLVE_DESCRIPTION,
    ResolveBody,
    Type.Object({ input: InputEchoSchema, resolution: Nullable(ResolutionSchema) }),
    async (request) => {
      const body = request.body as ResolveBodyType;
      const nested = body.coding ?? {};
      const coding = codingOf({
        system: body.system ?? nested.system,
        code: body.code ?? nested.code,
        display: body.display ?? nested.display,
        vocabulary_id: body.vocabulary_id ?? nested.vocabulary_id,
        concept_map_id: body.concept_map_id ?? nested.concept_map_id,
      });
      return resolveCoding(resolverContextOf(request), coding, optionsOf(body));
    },
  );

  route(
    app,
    '/v1/fhir/resolve/batch',
    'Resolve up to 100 FHIR codings',
    `Resolves 1–${RESOLVE_BATCH_MAX} codings with shared options, one result per coding in input order: \`{input, resolution}\` or, ` +
      'for a coding that fails (missing_input, unknown_system, vocabulary_restricted, concept_not_found), `{input, error}` — a ' +
      'failing coding never fails the batch. `summary.resolved + summary.failed == summary.total`. Counts as one call.',
    BatchBody,
    Type.Object({
      results: Type.Array(Type.Union([ResolvedItemSchema, FailedItemSchema])),
      summary: Type.Object({ total: Type.Integer(), resolved: Type.Integer(), failed: Type.Integer() }),
    }),
    async (request) => {
      const body = request.body as OptionBody & { codings: CodingBody[] };
      return resolveBatch(resolverContextOf(request), body.codings.map(codingOf), optionsOf(body));
    },
  );

  route(
    app,
    '/v1/fhir/resolve/codeable-concept',
    'Resolve a FHIR CodeableConcept',
    `Resolves each of 1–${CODEABLE_CONCEPT_MAX_CODINGS} codings and picks \`best_match\`: a coding with user_selected true; then ` +
      `codings found in the vocabulary before display matches, real concepts before the concept_id 0 sentinel; then by vocabulary ` +
      `${preference} > other; then input order. When no coding resolves to a real concept, \`text\` is resolved by meaning. ` +
      'The other resolved codings are `alternatives`; failed codings are `unresolved` with their error.',
    CodeableConceptBody,
    Type.Object({
      input: Type.Object({ coding: Type.Array(InputEchoSchema), text: Nullable(Type.String()), resource_type: Nullable(Type.String()) }),
      best_match: Nullable(ResolvedItemSchema),
      alternatives: Type.Array(ResolvedItemSchema),
      unresolved: Type.Array(FailedItemSchema),
    }),
    async (request) => {
      const body = request.body as OptionBody & { coding: CodingBody[]; text?: string };
      return resolveCodeableConcept(resolverContextOf(request), body.coding.map(codingOf), body.text, optionsOf(body));
    },
  );
}
