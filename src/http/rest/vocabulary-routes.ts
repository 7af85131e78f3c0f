/** GET /v1/vocabularies (paginated) and GET /v1/vocabularies/releases. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { listReleases } from '../../services/vocabularies/release-catalog.js';
import { listVocabularies, type VocabularyListOptions } from '../../services/vocabularies/vocabulary-catalog.js';
import type { ReleaseRegistry } from '../../store/release-registry.js';
import { okPage } from '../plumbing/envelope.js';
import { pageOf, paginationMeta, readPage } from '../plumbing/pagination.js';
import { Envelope, PageQuery, ReleaseQuery, STANDARD_ERRORS, Nullable } from '../plumbing/schemas.js';

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
      const all = listVocabularies(request.release.store, request.caller.policy, request.query);
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
}
