/**
 * Schema fragments shared by routes. They drive request validation (400 with the parameter named)
 * and the OpenAPI document served at /openapi.json.
 */
import { Type, type TSchema } from 'typebox';
import { PaginationSchema } from '../../services/pagination.js';

export const ReleaseQuery = {
  vocab_release: Type.Optional(
    Type.String({ description: 'Vocabulary release label (YYYY.Q, or YYYYvQ), latest/default/current, or the release\'s FHIR code-system version (YYYYMMDD, omop-vYYYYMMDD). Also accepted as the X-Vocab-Release header.' }),
  ),
};

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page number, 1-based.' })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, description: 'Items per page (default 20; values above the route ceiling are clamped).' })),
};

export { PaginationSchema };

const MetaSchema = Type.Object(
  {
    request_id: Type.String(),
    timestamp: Type.String({ format: 'date-time' }),
    vocab_release: Type.Union([Type.String(), Type.Null()]),
    pagination: Type.Optional(PaginationSchema),
  },
  { additionalProperties: true },
);

/** The success envelope around a route's payload schema. */
export function Envelope(data: TSchema): TSchema {
  return Type.Object({ success: Type.Literal(true), data, meta: MetaSchema });
}

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Object({}, { additionalProperties: true })),
    }),
    meta: MetaSchema,
  },
  { description: 'Error envelope' },
);

/** Standard error responses documented on every authenticated REST route. */
export const STANDARD_ERRORS = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  429: ErrorEnvelope,
};

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * The list fields of a concept (src/services/concepts/concept-brief.ts ConceptBrief), in that order:
 * the base of every schema of a concept listed beside other data (related concepts, semantic results).
 */
export const ConceptBriefFields = {
  concept_id: Type.Integer(),
  concept_name: Type.String(),
  concept_code: Type.String(),
  vocabulary_id: Type.String(),
  domain_id: Type.String(),
  concept_class_id: Type.String(),
  standard_concept: Nullable(Type.String()),
};

export const ConceptSchema = Type.Object(
  {
    concept_id: Type.Integer(),
    concept_name: Type.String(),
    domain_id: Type.String(),
    vocabulary_id: Type.String(),
    concept_class_id: Type.String(),
    standard_concept: Nullable(Type.String()),
    concept_code: Type.String(),
    valid_start_date: Type.String(),
    valid_end_date: Type.String(),
    invalid_reason: Nullable(Type.String()),
  },
  { additionalProperties: true },
);

export { Nullable };
