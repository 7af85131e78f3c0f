/** GET /v1/domains, GET /v1/vocabularies/domains (E3) and GET /v1/domains/{domain_id}/concepts. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { listDomainConcepts } from '../../services/domains/domain-concepts.js';
import { listDomains } from '../../services/domains/domain-catalog.js';
import { ok, okPage } from '../plumbing/envelope.js';
import { paginationMeta, readPage } from '../plumbing/pagination.js';
import { csvList } from '../plumbing/query-values.js';
import { ConceptSchema, Envelope, Nullable, PageQuery, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

export const DOMAIN_CONCEPTS_DEFAULT_PAGE_SIZE = 50;

const DomainSchema = Type.Object(
  {
    domain_id: Type.String(),
    domain_name: Type.String(),
    description: Type.String(),
    domain_concept_id: Nullable(Type.Integer()),
    concept_count: Type.Optional(Type.Integer()),
    standard_concept_count: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);

const DOMAIN_LIST_DESCRIPTION =
  'Every domain the specification names (Condition, Drug, Procedure, Measurement, Observation, Device, Specimen, Visit, Provider, ' +
  'Location, Care Site, Payer, Plan, Sponsor, Cost, Revenue, Episode, Regimen, Metadata, Type Concept, Relationship, Gender, Race, ' +
  'Ethnicity, Meas Value), even when the release has no concept in it, plus every other domain of the release, sorted by domain_id (code-point order). ' +
  "`domain_name` and `domain_concept_id` come from the release's DOMAIN table (a domain it lacks has this server's name and a null " +
  "domain_concept_id); `description` is this server's text for the named domains (it names the CDM table the domain's concepts go to) " +
  'and the domain name for the others.';

export function registerDomainRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: { include_stats?: boolean } }>(
    '/v1/domains',
    {
      schema: {
        tags: ['Domains'],
        summary: 'List domains',
        description:
          `${DOMAIN_LIST_DESCRIPTION} Not paginated. With include_stats, every domain has \`concept_count\` and \`standard_concept_count\` ` +
          "(standard_concept 'S'), counted over the vocabularies this key may see.",
        querystring: Type.Object({
          include_stats: Type.Optional(Type.Boolean({ description: 'Add concept_count and standard_concept_count to every domain.' })),
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Object({ domains: Type.Array(DomainSchema) })), ...STANDARD_ERRORS },
      },
    },
    async (request) =>
      ok(request, { domains: listDomains(request.view, { includeStats: request.query.include_stats ?? false }) }),
  );

  app.get(
    '/v1/vocabularies/domains',
    {
      schema: {
        tags: ['Domains'],
        summary: 'Domain catalogue (E3)',
        description: DOMAIN_LIST_DESCRIPTION,
        querystring: Type.Object({ ...ReleaseQuery }),
        response: { 200: Envelope(Type.Object({ domains: Type.Array(DomainSchema) })), ...STANDARD_ERRORS },
      },
    },
    async (request) => ok(request, { domains: listDomains(request.view) }),
  );

  app.get<{
    Params: { domain_id: string };
    Querystring: { vocabulary_ids?: string; standard_only?: boolean; include_invalid?: boolean; page?: number; page_size?: number };
  }>(
    '/v1/domains/:domain_id/concepts',
    {
      schema: {
        tags: ['Domains'],
        summary: "A domain's concepts",
        description:
          'The concepts of a domain, valid ones first; within them standard, then classification, then non-standard concepts; ' +
          `then by vocabulary_id, then concept_id. page_size default ${DOMAIN_CONCEPTS_DEFAULT_PAGE_SIZE}, at most 200; any page is one index seek. ` +
          '`meta.pagination.total_items` is exact. An unknown domain, or one without concepts, gives 200 with an empty list. ' +
          'Naming a vocabulary this key may not see is 403 vocabulary_restricted; its concepts are never listed.',
        params: Type.Object({ domain_id: Type.String({ minLength: 1, description: 'Domain id, e.g. Drug, Meas Value' }) }),
        querystring: Type.Object({
          vocabulary_ids: Type.Optional(Type.String({ description: 'Comma-separated vocabulary ids: keep concepts of these vocabularies only.' })),
          standard_only: Type.Optional(Type.Boolean({ description: "Only standard concepts (standard_concept 'S'); default false." })),
          include_invalid: Type.Optional(Type.Boolean({ description: 'Also concepts with an invalid_reason (deprecated or replaced); default false.' })),
          ...PageQuery,
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Object({ concepts: Type.Array(ConceptSchema) })), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const page = readPage(q, { defaultPageSize: DOMAIN_CONCEPTS_DEFAULT_PAGE_SIZE });
      const { items, total } = listDomainConcepts(request.view, {
        domainId: request.params.domain_id,
        vocabularyIds: csvList(q.vocabulary_ids),
        standardOnly: q.standard_only,
        includeInvalid: q.include_invalid,
        offset: page.offset,
        limit: page.pageSize,
      });
      return okPage(request, { concepts: items }, paginationMeta(page, total));
    },
  );
}
