/** GET /v1/concepts/{concept_id}/mappings and POST /v1/concepts/map (client-compatibility §1.4). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import {
  DEFAULT_MAPPING_TYPE,
  MAP_MAX_SOURCES,
  MAPPING_TYPES,
  MAX_TARGETS_PER_SOURCE,
  SCAN_LIMIT_PER_SOURCE,
  mapConcepts,
  type MappingType,
  type SourceCode,
} from '../../services/mappings/concept-map.js';
import { CONFIDENCE_CALCULATION_METHOD } from '../../mapping-model/mapping-confidence.js';
import { conceptMappings, MAPPINGS_DEFAULT_PAGE_SIZE, MAPS_TO } from '../../services/mappings/concept-mappings.js';
import { ok, okPage } from '../plumbing/envelope.js';
import { paginationMeta, readPage } from '../plumbing/pagination.js';
import { csvList } from '../plumbing/query-values.js';
import { ConceptSchema, Envelope, ErrorEnvelope, Nullable, PageQuery, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

const InvalidReason = Nullable(Type.String());

const TargetFields = {
  target_concept_id: Type.Integer(),
  target_concept_name: Type.String(),
  target_vocabulary_id: Type.String(),
  target_concept_code: Type.String(),
  target_domain_id: Type.String(),
  target_concept_class_id: Type.String(),
  target_standard_concept: Nullable(Type.String()),
  target_invalid_reason: InvalidReason,
};

const ConceptMappingSchema = Type.Object({
  source_concept_id: Type.Integer(),
  source_concept_name: Type.String(),
  ...TargetFields,
  relationship_id: Type.String(),
  valid_start_date: Type.String({ description: 'Validity of the relationship row (YYYY-MM-DD).' }),
  valid_end_date: Type.String(),
  invalid_reason: InvalidReason,
  confidence: Type.Number({
    minimum: 0,
    maximum: 1,
    description:
      "The row's mapping confidence, 0–1, by the E10 model (the number GET /v1/mappings/quality counts for it): " +
      CONFIDENCE_CALCULATION_METHOD +
      " Fan-out counts the source's valid mapping rows in the whole release; relationship ids other than 'Maps to' and 'Maps to value' " +
      'score 0 for relationship kind; a row whose relationship row is invalid has confidence 0.',
  }),
});

const ConceptMapRecordSchema = Type.Object({
  source_concept_id: Type.Integer(),
  source_concept_name: Type.String(),
  source_vocabulary_id: Type.String(),
  source_concept_code: Type.String(),
  ...TargetFields,
  relationship_id: Type.String(),
  mapping_type: Type.String(),
  valid_start_date: Type.Optional(Type.String()),
  valid_end_date: Type.Optional(Type.String()),
  invalid_reason: Type.Optional(InvalidReason),
  via_concept_id: Type.Optional(Type.Integer()),
  min_levels_of_separation: Type.Optional(Type.Integer()),
  max_levels_of_separation: Type.Optional(Type.Integer()),
});

const SourceCodeSchema = Type.Object({ vocabulary_id: Type.String({ minLength: 1 }), concept_code: Type.String({ minLength: 1 }) });

const FailedMappingSchema = Type.Object({
  source_concept_id: Type.Optional(Type.Integer()),
  source_code: Type.Optional(SourceCodeSchema),
  error_code: Type.String(),
  reason: Type.String(),
});

const MAPPINGS_DESCRIPTION =
  "The concept's rows in CONCEPT_RELATIONSHIP with the relationship ids asked for (default 'Maps to'; 'Maps to value' and others only when named), " +
  'with the target concept. Rows of each relationship id follow in the order given, ordered by target concept_id. ' +
  'include_invalid (default true) keeps rows whose relationship row or target concept carries an invalid_reason. ' +
  'valid_start_date, valid_end_date and invalid_reason are those of the relationship row; target_invalid_reason is the target concept\'s. ' +
  'Athena publishes no mapping confidence; each row carries omopterm\'s derived `confidence` (0–1, the E10 model, see the field). Targets in vocabularies the key may not see are left out and not counted; ' +
  `naming one in target_vocabulary is 403. page_size: default ${MAPPINGS_DEFAULT_PAGE_SIZE}, at most 200. Unknown concept → 404 not_found.`;

const MAP_DESCRIPTION =
  `Maps 1–${MAP_MAX_SOURCES} concepts, given by id (source_concepts) or by vocabulary and code (source_codes, exactly one of the two), to target_vocabulary. ` +
  "mapping_type: direct (default) — the source's 'Maps to' rows into the target vocabulary; " +
  "equivalent — those, plus every target-vocabulary concept that 'Maps to' the same standard concept as the source (via_concept_id names it), e.g. SNOMED → ICD10CM or ICD10CM → ICD9CM; " +
  "broader — ancestors (CONCEPT_ANCESTOR) in the target vocabulary of the source and of its 'Maps to' targets, nearest first, relationship_id 'Is a'; " +
  "narrower — descendants likewise, relationship_id 'Subsumes'. " +
  "A source already in the target vocabulary maps to itself only through Athena's own rows (every standard concept 'Maps to' itself). " +
  `include_invalid (default false) keeps invalid rows and targets. At most ${MAX_TARGETS_PER_SOURCE} targets per source, and at most ${SCAN_LIMIT_PER_SOURCE} rows read per hub ` +
  "('Mapped from' rows, descendants); sources whose answer may be incomplete are listed in truncated_sources. " +
  'An unknown, licence-restricted or unmapped source is an entry of failed_mappings (error_code concept_not_found, vocabulary_restricted or no_mapping), ' +
  'never a failed request; a target vocabulary the key may not see is 403. vocab_release goes in the query string.';

interface MappingsQuerystring {
  target_vocabulary?: string;
  target_vocabularies?: string;
  relationship_ids?: string;
  include_invalid?: boolean;
  page?: number;
  page_size?: number;
}

interface MapBody {
  target_vocabulary: string;
  source_concepts?: number[];
  source_codes?: SourceCode[];
  mapping_type?: MappingType;
  include_invalid?: boolean;
}

/** Both spellings of the target vocabulary list, merged (undefined when neither is given). */
function targetVocabularies(query: MappingsQuerystring): string[] | undefined {
  const named = [...(csvList(query.target_vocabulary) ?? []), ...(csvList(query.target_vocabularies) ?? [])];
  return named.length ? [...new Set(named)] : undefined;
}

export function registerMappingRoutes(app: FastifyInstance): void {
  app.get<{ Params: { concept_id: number }; Querystring: MappingsQuerystring }>(
    '/v1/concepts/:concept_id/mappings',
    {
      schema: {
        tags: ['Mappings'],
        summary: "A concept's mappings",
        description: MAPPINGS_DESCRIPTION,
        params: Type.Object({ concept_id: Type.Integer({ minimum: 0, description: 'OMOP concept_id of the source concept' }) }),
        querystring: Type.Object({
          target_vocabulary: Type.Optional(Type.String({ description: 'Only targets in these vocabularies (one id or a comma-separated list).' })),
          target_vocabularies: Type.Optional(Type.String({ description: 'Alias of target_vocabulary (both may be given; the lists are merged).' })),
          relationship_ids: Type.Optional(Type.String({ description: `Comma-separated relationship ids (default '${MAPS_TO}').` })),
          include_invalid: Type.Optional(Type.Boolean({ description: 'Keep invalid rows and targets (default true).' })),
          ...PageQuery,
          ...ReleaseQuery,
        }),
        response: {
          200: Envelope(Type.Object({ mappings: Type.Array(ConceptMappingSchema), source_concept: ConceptSchema, total_mappings: Type.Integer() })),
          ...STANDARD_ERRORS,
          404: ErrorEnvelope,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const page = readPage(q, { defaultPageSize: MAPPINGS_DEFAULT_PAGE_SIZE });
      const result = conceptMappings(request.view, {
        conceptId: request.params.concept_id,
        targetVocabularyIds: targetVocabularies(q),
        relationshipIds: csvList(q.relationship_ids),
        includeInvalid: q.include_invalid ?? true,
        offset: page.offset,
        limit: page.pageSize,
      });
      return okPage(request, result, paginationMeta(page, result.total_mappings));
    },
  );

  app.post<{ Body: MapBody }>(
    '/v1/concepts/map',
    {
      schema: {
        tags: ['Mappings'],
        summary: 'Map concepts to a target vocabulary',
        description: MAP_DESCRIPTION,
        querystring: Type.Object(ReleaseQuery),
        body: Type.Object({
          target_vocabulary: Type.String({ minLength: 1, description: 'Vocabulary id to map into, e.g. SNOMED.' }),
          source_concepts: Type.Optional(Type.Array(Type.Integer({ minimum: 0 }), { minItems: 1, maxItems: MAP_MAX_SOURCES, description: 'Concept ids.' })),
          source_codes: Type.Optional(Type.Array(SourceCodeSchema, { minItems: 1, maxItems: MAP_MAX_SOURCES, description: 'Concepts by vocabulary and code.' })),
          mapping_type: Type.Optional(Type.Enum([...MAPPING_TYPES], { description: `Default ${DEFAULT_MAPPING_TYPE}.` })),
          include_invalid: Type.Optional(Type.Boolean({ description: 'Keep invalid rows and targets (default false).' })),
        }),
        response: {
          200: Envelope(
            Type.Object({
              mappings: Type.Array(ConceptMapRecordSchema),
              failed_mappings: Type.Array(FailedMappingSchema),
              truncated_sources: Type.Array(Type.Integer()),
              summary: Type.Object({ total: Type.Integer(), mapped: Type.Integer(), failed: Type.Integer(), total_mappings: Type.Integer() }),
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const body = request.body;
      return ok(
        request,
        mapConcepts(request.view, {
          targetVocabulary: body.target_vocabulary,
          sourceConcepts: body.source_concepts,
          sourceCodes: body.source_codes,
          mappingType: body.mapping_type ?? DEFAULT_MAPPING_TYPE,
          includeInvalid: body.include_invalid ?? false,
        }),
      );
    },
  );
}
