/**
 * GET /v1/relationships/types (E8), GET /v1/concepts/{concept_id}/relationships/options (E9) and
 * GET /v1/concepts/{concept_id}/relationships (client-compatibility §1.1).
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { listConceptRelationships } from '../../services/concepts/concept-relationships.js';
import { getRelationshipOptions } from '../../services/concepts/relationship-options.js';
import {
  listRelationshipTypes,
  RELATIONSHIP_TYPES_DEFAULT_PAGE_SIZE,
  RELATIONSHIP_TYPES_MAX_PAGE_SIZE,
} from '../../services/concepts/relationship-types.js';
import { ok, okPage } from '../plumbing/envelope.js';
import { paginationMeta, readPage } from '../plumbing/pagination.js';
import { csvList } from '../plumbing/query-values.js';
import { ConceptSchema, Envelope, ErrorEnvelope, Nullable, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

/** GET /v1/concepts/{concept_id}/relationships: page_size default and ceiling (client-compatibility §1.1). */
export const CONCEPT_RELATIONSHIPS_DEFAULT_PAGE_SIZE = 100;
export const CONCEPT_RELATIONSHIPS_MAX_PAGE_SIZE = 1000;

const Flag01 = Type.Union([Type.Literal('0'), Type.Literal('1')]);

const RelationshipTypeSchema = Type.Object({
  relationship_id: Type.String(),
  relationship_name: Type.String(),
  is_hierarchical: Flag01,
  defines_ancestry: Flag01,
  reverse_relationship_id: Type.String(),
  relationship_concept_id: Type.Integer(),
});

const FullConceptSchema = Type.Intersect([ConceptSchema, Type.Object({ vocabulary_name: Nullable(Type.String()) }, { additionalProperties: true })]);

const RelationshipRecordSchema = Type.Object({
  concept_id_1: Type.Integer(),
  concept_id_2: Type.Integer(),
  relationship_id: Type.String(),
  relationship_name: Type.String(),
  reverse_relationship_id: Type.String(),
  concept_1: FullConceptSchema,
  concept_2: FullConceptSchema,
  valid_start_date: Type.String(),
  valid_end_date: Type.String(),
  invalid_reason: Nullable(Type.String()),
});

const CountedOptionSchema = Type.Object({
  relationship_id: Type.String(),
  relationship_name: Type.String(),
  reverse_relationship_id: Nullable(Type.String()),
  relationship_concept_id: Nullable(Type.Integer()),
  is_hierarchical: Nullable(Flag01),
  defines_ancestry: Nullable(Flag01),
  count: Type.Integer(),
});

const ConceptIdParams = Type.Object({ concept_id: Type.Integer({ minimum: 0, description: 'OMOP concept_id' }) });

const pageQuery = (defaultSize: number, maxSize: number) => ({
  page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page number, 1-based (default 1).' })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, description: `Items per page (default ${defaultSize}; values above ${maxSize} are clamped to ${maxSize}).` })),
});

interface RelationshipsQuery {
  relationship_ids?: string;
  vocabulary_ids?: string;
  domain_ids?: string;
  include_invalid?: boolean;
  standard_only?: boolean;
  include_reverse?: boolean;
  page?: number;
  page_size?: number;
}

export function registerRelationshipRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: { page?: number; page_size?: number } }>(
    '/v1/relationships/types',
    {
      schema: {
        tags: ['Relationships'],
        summary: 'Relationship types (E8)',
        description:
          'Every row of the release\'s RELATIONSHIP table, ordered by relationship_id. `is_hierarchical` and `defines_ancestry` are the strings "0"/"1" ' +
          `(as the specification types them); every relationship names its reverse. page_size default ${RELATIONSHIP_TYPES_DEFAULT_PAGE_SIZE}, values above ${RELATIONSHIP_TYPES_MAX_PAGE_SIZE} are clamped.`,
        querystring: Type.Object({ ...pageQuery(RELATIONSHIP_TYPES_DEFAULT_PAGE_SIZE, RELATIONSHIP_TYPES_MAX_PAGE_SIZE), ...ReleaseQuery }),
        response: { 200: Envelope(Type.Object({ relationship_types: Type.Array(RelationshipTypeSchema) })), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = readPage(request.query, { defaultPageSize: RELATIONSHIP_TYPES_DEFAULT_PAGE_SIZE, maxPageSize: RELATIONSHIP_TYPES_MAX_PAGE_SIZE });
      const { relationshipTypes, total } = listRelationshipTypes(request.view, { offset: page.offset, limit: page.pageSize });
      return okPage(request, { relationship_types: relationshipTypes }, paginationMeta(page, total));
    },
  );

  app.get<{ Params: { concept_id: number }; Querystring: { include_counts?: boolean } }>(
    '/v1/concepts/:concept_id/relationships/options',
    {
      schema: {
        tags: ['Relationships'],
        summary: 'Relationships a concept takes part in (E9)',
        description:
          'The relationship ids of the valid CONCEPT_RELATIONSHIP rows of the concept in both directions — rows where it is concept_id_1 and rows where it is ' +
          'concept_id_2 (their relationship_id as stored) — as `{id, name}`, ordered by id. Rows whose other concept is hidden from this key (licence rules) ' +
          'are left out. `include_counts=true` adds `relationship_options {outbound, inbound}`: per relationship id its name, reverse, concept id, flags and the ' +
          'number of valid rows in that direction. Unknown concept → 404 not_found.',
        params: ConceptIdParams,
        querystring: Type.Object({
          include_counts: Type.Optional(Type.Boolean({ description: 'Add `relationship_options` with counts per direction (default false).' })),
          ...ReleaseQuery,
        }),
        response: {
          200: Envelope(
            Type.Object({
              concept_id: Type.Integer(),
              available_relationships: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
              relationship_options: Type.Optional(Type.Object({ outbound: Type.Array(CountedOptionSchema), inbound: Type.Array(CountedOptionSchema) })),
            }),
          ),
          ...STANDARD_ERRORS,
          404: ErrorEnvelope,
        },
      },
    },
    async (request) =>
      ok(
        request,
        getRelationshipOptions(request.view, request.params.concept_id, { includeCounts: request.query.include_counts }),
      ),
  );

  app.get<{ Params: { concept_id: number }; Querystring: RelationshipsQuery }>(
    '/v1/concepts/:concept_id/relationships',
    {
      schema: {
        tags: ['Relationships'],
        summary: "A concept's relationships",
        description:
          'CONCEPT_RELATIONSHIP rows where the concept is concept_id_1, ordered by relationship_id and then concept_id_2; with `include_reverse=true` followed by ' +
          'the rows where it is concept_id_2 (ordered by relationship_id, concept_id_1), read as stored — Athena stores every relationship in both directions, ' +
          'so there each row appears from both sides; a subset that stores one direction only is answered as stored. `concept_1` and `concept_2` are full ' +
          'concept records (with vocabulary_name). vocabulary_ids, domain_ids and standard_only filter the concept at the other end; concepts hidden from this ' +
          'key (licence rules) are neither listed nor counted. `total_items` is exact. Unknown concept → 404 not_found.',
        params: ConceptIdParams,
        querystring: Type.Object({
          relationship_ids: Type.Optional(Type.String({ description: "Comma-separated relationship ids, e.g. 'Maps to,Is a' (default: all)." })),
          vocabulary_ids: Type.Optional(Type.String({ description: 'Comma-separated: keep rows whose other concept is in one of these vocabularies. Naming a vocabulary this key may not read is 403 vocabulary_restricted (docs/licences.md).' })),
          domain_ids: Type.Optional(Type.String({ description: 'Comma-separated: keep rows whose other concept is in one of these domains.' })),
          include_invalid: Type.Optional(Type.Boolean({ description: 'Also rows with an invalid_reason (default false).' })),
          standard_only: Type.Optional(Type.Boolean({ description: "Keep rows whose other concept is standard ('S') (default false)." })),
          include_reverse: Type.Optional(Type.Boolean({ description: 'Also the rows where the concept is concept_id_2 (default false).' })),
          ...pageQuery(CONCEPT_RELATIONSHIPS_DEFAULT_PAGE_SIZE, CONCEPT_RELATIONSHIPS_MAX_PAGE_SIZE),
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Object({ relationships: Type.Array(RelationshipRecordSchema) })), ...STANDARD_ERRORS, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const q = request.query;
      const page = readPage(q, { defaultPageSize: CONCEPT_RELATIONSHIPS_DEFAULT_PAGE_SIZE, maxPageSize: CONCEPT_RELATIONSHIPS_MAX_PAGE_SIZE });
      const { relationships, total } = listConceptRelationships(
        request.view,
        request.params.concept_id,
        {
          relationshipIds: csvList(q.relationship_ids),
          vocabularyIds: csvList(q.vocabulary_ids),
          domainIds: csvList(q.domain_ids),
          includeInvalid: q.include_invalid ?? false,
          standardOnly: q.standard_only ?? false,
          includeReverse: q.include_reverse ?? false,
        },
        { offset: page.offset, limit: page.pageSize },
      );
      return okPage(request, { relationships }, paginationMeta(page, total));
    },
  );
}
