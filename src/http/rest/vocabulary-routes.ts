/**
 * GET /v1/vocabularies (paginated), /v1/vocabularies/releases, /v1/vocabularies/search, and one
 * vocabulary: /v1/vocabularies/{id}, /{id}/stats, /{id}/stats/domains/{domain_id}. The router
 * prefers static segments, so releases, search, domains and concept-classes are never taken for an id.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { listReleases } from '../../services/vocabularies/release-catalog.js';
import { getVocabulary, listVocabularies, type VocabularyListOptions } from '../../services/vocabularies/vocabulary-catalog.js';
import { searchVocabularies } from '../../services/vocabularies/vocabulary-search.js';
import { vocabularyDomainStats, vocabularyStats } from '../../services/vocabularies/vocabulary-stats.js';
import type { ReleaseRegistry } from '../../store/release-registry.js';
import { ok, okPage } from '../plumbing/envelope.js';
import { pageOf, paginationMeta, readPage } from '../plumbing/pagination.js';
import { Envelope, ErrorEnvelope, PageQuery, ReleaseQuery, STANDARD_ERRORS, Nullable } from '../plumbing/schemas.js';

const VocabularySchema = Type.Object(
  {
    vocabulary_id: Type.String(),
    vocabulary_name: Type.String(),
    vocabulary_reference: Nullable(Type.String()),
    vocabulary_version: Nullable(Type.String()),
    vocabulary_concept_id: Type.Integer(),
    created_at: Nullable(Type.String()),
    updated_at: Nullable(Type.String()),
  },
  { additionalProperties: true },
);

const ReleaseSchema = Type.Object(
  {
    vocab_release: Type.String(),
    label: Type.String(),
    release_date: Nullable(Type.String()),
    source_vocabulary_version: Nullable(Type.String()),
    is_default: Type.Boolean(),
    status: Type.String(),
    loaded_at: Type.String(),
    concept_count: Type.Integer(),
    relationship_count: Type.Integer(),
    ancestor_count: Type.Integer(),
    synonym_count: Type.Integer(),
  },
  { additionalProperties: true },
);

const ConceptCountsSchema = {
  total_concepts: Type.Integer(),
  standard_concepts: Type.Integer(),
  classification_concepts: Type.Integer(),
  non_standard_concepts: Type.Integer(),
  invalid_concepts: Type.Integer(),
  active_concepts: Type.Integer(),
  valid_start_date: Nullable(Type.String()),
  valid_end_date: Nullable(Type.String()),
  last_updated: Nullable(Type.String()),
};

const VocabularyStatsSchema = Type.Object(
  {
    vocabulary_id: Type.String(),
    vocabulary_name: Type.String(),
    ...ConceptCountsSchema,
    domain_distribution: Type.Array(Type.Object({ domain_id: Type.String(), domain_name: Type.String(), concept_count: Type.Integer() })),
  },
  { additionalProperties: true },
);

const VocabularyDomainStatsSchema = Type.Object(
  {
    vocabulary: Type.Object({ vocabulary_id: Type.String(), vocabulary_name: Type.String(), vocabulary_version: Nullable(Type.String()) }),
    domain: Type.Object({ domain_id: Type.String(), domain_name: Type.String(), description: Type.String(), domain_concept_id: Nullable(Type.Integer()) }),
    statistics: Type.Object(ConceptCountsSchema),
    concept_class_breakdown: Type.Array(Type.Object({ concept_class_id: Type.String(), concept_class_name: Type.String(), concept_count: Type.Integer() })),
  },
  { additionalProperties: true },
);

const VocabularyIdParams = Type.Object({ vocabulary_id: Type.String({ minLength: 1, description: 'Vocabulary id, e.g. SNOMED' }) });

const STATS_DEFINITIONS =
  'active_concepts have no invalid_reason; valid_start_date is the earliest valid_start_date of the concepts, valid_end_date the latest ' +
  'valid_end_date, last_updated the latest valid_start_date (null without concepts). Unknown vocabulary → 404 vocabulary_not_found; ' +
  'a vocabulary this key may not see → 403 vocabulary_restricted.';

export function registerVocabularyRoutes(app: FastifyInstance, registry: ReleaseRegistry): void {
  app.get<{ Querystring: VocabularyListOptions & { page?: number; page_size?: number } }>(
    '/v1/vocabularies',
    {
      schema: {
        tags: ['Vocabularies'],
        summary: 'List vocabularies',
        description:
          '`created_at`/`updated_at` are the earliest and latest valid_start_date of the vocabulary\'s concepts in this release. ' +
          'Vocabularies without concepts in the release are listed only with include_inactive=true.',
        querystring: Type.Object({
          include_stats: Type.Optional(Type.Boolean({ description: 'Add concept counts (total, standard, classification, invalid).' })),
          include_inactive: Type.Optional(Type.Boolean({ description: 'Also list vocabularies that have no concepts in this release.' })),
          sort_by: Type.Optional(Type.Union([Type.Literal('name'), Type.Literal('id'), Type.Literal('priority'), Type.Literal('updated')])),
          sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
          ...PageQuery,
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Object({ vocabularies: Type.Array(VocabularySchema) })), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = readPage(request.query);
      const all = listVocabularies(request.view, request.query);
      return okPage(request, { vocabularies: pageOf(all, page) }, paginationMeta(page, all.length));
    },
  );

  app.get<{ Querystring: { page?: number; page_size?: number } }>(
    '/v1/vocabularies/releases',
    {
      schema: {
        tags: ['Vocabularies'],
        summary: 'List the vocabulary releases loaded on this server',
        querystring: Type.Object({ ...PageQuery, ...ReleaseQuery }),
        response: { 200: Envelope(Type.Object({ releases: Type.Array(ReleaseSchema), default_release: Nullable(Type.String()) })), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const page = readPage(request.query);
      const { releases, default_release } = listReleases(registry);
      return okPage(request, { releases: pageOf(releases, page), default_release }, paginationMeta(page, releases.length));
    },
  );

  app.get<{ Querystring: { query: string; include_stats?: boolean; include_inactive?: boolean; page?: number; page_size?: number } }>(
    '/v1/vocabularies/search',
    {
      schema: {
        tags: ['Vocabularies'],
        summary: 'Find vocabularies by id or name',
        description:
          'Case-insensitive, ranked: the id equals the query; the id starts with it; the name equals it; every query word starts a word ' +
          'of the name or id; the query occurs anywhere in the id or name. Ties in vocabulary authority order, then id. Searches the ' +
          'GET /v1/vocabularies list for the same include_stats/include_inactive.',
        querystring: Type.Object({
          query: Type.String({ minLength: 1, maxLength: 500, description: 'Text to find in vocabulary ids and names (1–500 characters, not only spaces).' }),
          include_stats: Type.Optional(Type.Boolean({ description: 'Add concept counts (total, standard, classification, invalid).' })),
          include_inactive: Type.Optional(Type.Boolean({ description: 'Also vocabularies that have no concepts in this release.' })),
          ...PageQuery,
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Object({ vocabularies: Type.Array(VocabularySchema) })), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const page = readPage(q);
      const all = searchVocabularies(request.view, q.query, { include_stats: q.include_stats, include_inactive: q.include_inactive });
      return okPage(request, { vocabularies: pageOf(all, page) }, paginationMeta(page, all.length), { query: q.query.trim() });
    },
  );

  app.get<{ Params: { vocabulary_id: string } }>(
    '/v1/vocabularies/:vocabulary_id',
    {
      schema: {
        tags: ['Vocabularies'],
        summary: 'One vocabulary',
        description: 'The GET /v1/vocabularies record with its concept counts. Unknown id → 404 vocabulary_not_found; a vocabulary this key may not see → 403.',
        params: VocabularyIdParams,
        querystring: Type.Object({ ...ReleaseQuery }),
        response: { 200: Envelope(VocabularySchema), ...STANDARD_ERRORS, 404: ErrorEnvelope },
      },
    },
    async (request) => ok(request, getVocabulary(request.view, request.params.vocabulary_id)),
  );

  app.get<{ Params: { vocabulary_id: string } }>(
    '/v1/vocabularies/:vocabulary_id/stats',
    {
      schema: {
        tags: ['Vocabularies'],
        summary: 'Concept counts of a vocabulary',
        description: `Counts of the vocabulary's concepts and their distribution over domains (largest first). ${STATS_DEFINITIONS}`,
        params: VocabularyIdParams,
        querystring: Type.Object({ ...ReleaseQuery }),
        response: { 200: Envelope(VocabularyStatsSchema), ...STANDARD_ERRORS, 404: ErrorEnvelope },
      },
    },
    async (request) => ok(request, vocabularyStats(request.view, request.params.vocabulary_id)),
  );

  app.get<{ Params: { vocabulary_id: string; domain_id: string } }>(
    '/v1/vocabularies/:vocabulary_id/stats/domains/:domain_id',
    {
      schema: {
        tags: ['Vocabularies'],
        summary: 'Concept counts of a vocabulary within one domain',
        description:
          `Counts of the vocabulary's concepts in the domain and their concept classes (largest first). ${STATS_DEFINITIONS} ` +
          'A domain in the GET /v1/domains list without concepts of the vocabulary has zero counts; any other domain id → 404 not_found.',
        params: Type.Object({
          vocabulary_id: Type.String({ minLength: 1, description: 'Vocabulary id, e.g. SNOMED' }),
          domain_id: Type.String({ minLength: 1, description: 'Domain id, e.g. Condition' }),
        }),
        querystring: Type.Object({ ...ReleaseQuery }),
        response: { 200: Envelope(VocabularyDomainStatsSchema), ...STANDARD_ERRORS, 404: ErrorEnvelope },
      },
    },
    async (request) =>
      ok(request, vocabularyDomainStats(request.view, request.params.vocabulary_id, request.params.domain_id)),
  );
}
