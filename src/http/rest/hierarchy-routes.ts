/**
 * GET /v1/concepts/{concept_id}/ancestors, /descendants, /hierarchy and POST
 * /v1/concepts/hierarchy/batch: thin adapters over src/services/hierarchy (client-compatibility
 * §1.3 and §2).
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { conceptAncestors, conceptDescendants, conceptHierarchy, type HierarchyFormat } from '../../services/hierarchy/concept-hierarchy.js';
import { hierarchyBatch, HIERARCHY_BATCH_MAX_QUERIES, HIERARCHY_BATCH_MAX_ROWS, type HierarchyBatchQuery } from '../../services/hierarchy/hierarchy-batch.js';
import {
  DEFAULT_HIERARCHY_PAGE_SIZE,
  DEFAULT_HIERARCHY_RESULTS,
  DEFAULT_MAX_LEVELS,
  MAX_HIERARCHY_PAGE_SIZE,
  MAX_HIERARCHY_RESULTS,
  MAX_LEVELS_CEILING,
  type HierarchyOptions,
} from '../../services/hierarchy/hierarchy-options.js';
import { ok, okPage } from '../plumbing/envelope.js';
import { paginationMeta, readPage } from '../plumbing/pagination.js';
import { csvList } from '../plumbing/query-values.js';
import { Envelope, ErrorEnvelope, Nullable, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

const HIERARCHY_SOURCE =
  'Levels come from CONCEPT_ANCESTOR (min/max_levels_of_separation), nearest first then concept_id; the concept itself is not listed. ' +
  'Every row and every total obeys the filters (include_invalid false and the key’s licence by default: CPT4 only for validated keys, GPI/MedDRA never).';

const MAX_LEVELS_TEXT = `Deepest level returned (default ${DEFAULT_MAX_LEVELS}; values above ${MAX_LEVELS_CEILING} are clamped to ${MAX_LEVELS_CEILING}, and hierarchy_summary.max_levels says the value applied).`;

const RELATIONSHIP_TYPES_TEXT =
  "Comma-separated relationship ids (default 'Is a'). CONCEPT_ANCESTOR is the closure of every ancestry-defining relationship " +
  '(defines_ancestry = 1 on it or on its reverse: Is a/Subsumes, and e.g. drug-to-ingredient links), and its levels cannot be split ' +
  'by relationship: each value must be such a relationship of the release (otherwise 400), is echoed in relationship_types_used, and the rows are the same.';

const FilterFields = {
  vocabulary_ids: Type.Optional(Type.String({ description: 'Comma-separated vocabulary ids; every row is of one of them. Naming a vocabulary this key may not read is 403 vocabulary_restricted (docs/licences.md).' })),
  domain_ids: Type.Optional(Type.String({ description: 'Comma-separated domain ids; every row is of one of them.' })),
  max_levels: Type.Optional(Type.Integer({ minimum: 1, description: MAX_LEVELS_TEXT })),
  relationship_types: Type.Optional(Type.String({ description: RELATIONSHIP_TYPES_TEXT })),
  include_invalid: Type.Optional(Type.Boolean({ description: 'Also deprecated or replaced concepts (default false).' })),
  standard_only: Type.Optional(Type.Boolean({ description: "Only standard concepts (standard_concept 'S'; default false)." })),
  include_distance: Type.Optional(Type.Boolean({ description: 'Add hierarchy_level (= min_levels_of_separation) to every node.' })),
  include_paths: Type.Optional(Type.Boolean({ description: 'Add path_length (steps of the shortest ancestry path) and max_path_length (of the longest) to every node.' })),
};

interface FilterQuerystring {
  vocabulary_ids?: string;
  domain_ids?: string;
  max_levels?: number;
  relationship_types?: string;
  include_invalid?: boolean;
  standard_only?: boolean;
  include_distance?: boolean;
  include_paths?: boolean;
}

const PagingFields = {
  page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page number, 1-based.' })),
  page_size: Type.Optional(
    Type.Integer({ minimum: 1, description: `Nodes per page (default ${DEFAULT_HIERARCHY_PAGE_SIZE}; values above ${MAX_HIERARCHY_PAGE_SIZE} are clamped).` }),
  ),
};

const HierarchyNodeSchema = Type.Object(
  {
    concept_id: Type.Integer(),
    concept_name: Type.String(),
    vocabulary_id: Type.String(),
    concept_code: Type.String(),
    domain_id: Type.String(),
    concept_class_id: Type.String(),
    standard_concept: Nullable(Type.String()),
    invalid_reason: Nullable(Type.String()),
    level: Type.Integer(),
    min_levels_of_separation: Type.Integer(),
    max_levels_of_separation: Type.Integer(),
    hierarchy_level: Type.Optional(Type.Integer()),
    path_length: Type.Optional(Type.Integer()),
    max_path_length: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);

const SummarySchema = Type.Object(
  {
    total_ancestors: Type.Optional(Type.Integer()),
    total_descendants: Type.Optional(Type.Integer()),
    max_hierarchy_depth: Type.Integer({ description: 'The largest level of separation among the concepts counted.' }),
    unique_vocabularies: Type.Array(Type.String()),
    relationship_types_used: Type.Array(Type.String()),
    classification_count: Type.Integer(),
    max_levels: Type.Integer({ description: 'The max_levels applied, after clamping.' }),
  },
  { additionalProperties: true },
);

const headerFields = { concept_id: Type.Integer(), concept_name: Type.String(), vocabulary_id: Type.String() };

const AncestorsSchema = Type.Object({ ...headerFields, ancestors: Type.Array(HierarchyNodeSchema), hierarchy_summary: SummarySchema }, { additionalProperties: true });
const DescendantsSchema = Type.Object({ ...headerFields, descendants: Type.Array(HierarchyNodeSchema), hierarchy_summary: SummarySchema }, { additionalProperties: true });
const HierarchySchema = Type.Object(
  {
    ...headerFields,
    ancestors: Type.Optional(Type.Array(HierarchyNodeSchema)),
    descendants: Type.Optional(Type.Array(HierarchyNodeSchema)),
    nodes: Type.Optional(Type.Array(HierarchyNodeSchema)),
    edges: Type.Optional(Type.Array(Type.Object({ source: Type.Integer(), target: Type.Integer(), relationship_id: Type.String() }))),
    total_ancestors: Type.Integer(),
    total_descendants: Type.Integer(),
    hierarchy_summary: SummarySchema,
  },
  { additionalProperties: true },
);

const ConceptIdParams = Type.Object({ concept_id: Type.Integer({ minimum: 0, description: 'OMOP concept_id' }) });
const singleResponses = (data: TSchema) => ({ 200: Envelope(data), ...STANDARD_ERRORS, 404: ErrorEnvelope });

function optionsOf(q: FilterQuerystring): HierarchyOptions {
  return {
    max_levels: q.max_levels,
    relationship_types: csvList(q.relationship_types),
    vocabulary_ids: csvList(q.vocabulary_ids),
    domain_ids: csvList(q.domain_ids),
    include_invalid: q.include_invalid,
    standard_only: q.standard_only,
    include_distance: q.include_distance,
    include_paths: q.include_paths,
  };
}

/** A list in a batch body: a JSON array, or one comma-joined string. */
const BodyList = (description: string) => Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()], { description }));
const bodyList = (value: readonly string[] | string | undefined) => (value === undefined ? undefined : csvList([value].flat().join(',')));

type BodyParams = Omit<NonNullable<HierarchyBatchQuery['params']>, 'vocabulary_ids' | 'domain_ids' | 'relationship_types'> & {
  vocabulary_ids?: string[] | string;
  domain_ids?: string[] | string;
  relationship_types?: string[] | string;
};
type BodyQuery = Omit<HierarchyBatchQuery, 'params'> & { params?: BodyParams };

export function registerHierarchyRoutes(app: FastifyInstance): void {
  for (const direction of ['ancestors', 'descendants'] as const) {
    app.get<{ Params: { concept_id: number }; Querystring: FilterQuerystring & { page?: number; page_size?: number } }>(
      `/v1/concepts/:concept_id/${direction}`,
      {
        schema: {
          tags: ['Hierarchy'],
          summary: direction === 'ancestors' ? "A concept's ancestors" : "A concept's descendants",
          description: `${HIERARCHY_SOURCE} Paged (page_size default ${DEFAULT_HIERARCHY_PAGE_SIZE}, clamped at ${MAX_HIERARCHY_PAGE_SIZE}); meta.pagination.total_items is exact. Unknown concept → 404 not_found.`,
          params: ConceptIdParams,
          querystring: Type.Object({ ...FilterFields, ...PagingFields, ...ReleaseQuery }),
          response: singleResponses(direction === 'ancestors' ? AncestorsSchema : DescendantsSchema),
        },
      },
      async (request) => {
        const page = readPage(request.query, { defaultPageSize: DEFAULT_HIERARCHY_PAGE_SIZE, maxPageSize: MAX_HIERARCHY_PAGE_SIZE });
        const answer = direction === 'ancestors' ? conceptAncestors : conceptDescendants;
        const { data, total } = answer(request.view, request.params.concept_id, optionsOf(request.query), {
          offset: page.offset,
          limit: page.pageSize,
        });
        return okPage(request, data, paginationMeta(page, total));
      },
    );
  }

  app.get<{ Params: { concept_id: number }; Querystring: FilterQuerystring & { format?: HierarchyFormat; max_results?: number } }>(
    '/v1/concepts/:concept_id/hierarchy',
    {
      schema: {
        tags: ['Hierarchy'],
        summary: "A concept's ancestors and descendants",
        description:
          `${HIERARCHY_SOURCE} format=flat (default): the first max_results ancestors and descendants with exact totals. ` +
          'format=graph: nodes (the concept itself at level 0, then those ancestors and descendants) and edges {source (child), target (parent), ' +
          "relationship_id 'Is a'}: every direct link (min_levels_of_separation = 1) between two nodes shown. Unknown concept → 404 not_found.",
        params: ConceptIdParams,
        querystring: Type.Object({
          format: Type.Optional(Type.Union([Type.Literal('flat'), Type.Literal('graph')], { description: 'flat (default) or graph.' })),
          max_results: Type.Optional(
            Type.Integer({ minimum: 1, description: `Ancestors and descendants each (default ${DEFAULT_HIERARCHY_RESULTS}; values above ${MAX_HIERARCHY_RESULTS} are clamped).` }),
          ),
          ...FilterFields,
          ...ReleaseQuery,
        }),
        response: singleResponses(HierarchySchema),
      },
    },
    async (request) => {
      const q = request.query;
      const maxResults = Math.min(q.max_results ?? DEFAULT_HIERARCHY_RESULTS, MAX_HIERARCHY_RESULTS);
      return ok(request, conceptHierarchy(request.view, request.params.concept_id, optionsOf(q), q.format ?? 'flat', maxResults));
    },
  );

  app.post<{ Body: { queries: BodyQuery[] } }>(
    '/v1/concepts/hierarchy/batch',
    {
      schema: {
        tags: ['Hierarchy'],
        summary: 'Hierarchy queries in one call',
        description:
          `1–${HIERARCHY_BATCH_MAX_QUERIES} queries, answered in input order in data.results; each is GET /ancestors, /descendants or /hierarchy ` +
          'of its concept with its params (same names and defaults; lists as JSON arrays or comma-joined strings), its answer in data with total_count ' +
          '(matching rows over all pages; ancestors plus descendants for hierarchy). A query that fails (unknown concept, licensed vocabulary, ' +
          `a relationship type that does not define ancestry) is an item with success false and a string error; the others are unaffected. page_size and max_results at most ${HIERARCHY_BATCH_MAX_ROWS}. ` +
          'The batch counts as one call against the limits.',
        querystring: Type.Object(ReleaseQuery),
        body: Type.Object({
          queries: Type.Array(
            Type.Object({
              query_id: Type.String({ minLength: 1, description: 'Identifies the result.' }),
              concept_id: Type.Integer({ minimum: 0 }),
              operation: Type.Union([Type.Literal('ancestors'), Type.Literal('descendants'), Type.Literal('hierarchy')]),
              params: Type.Optional(
                Type.Object({
                  max_levels: Type.Optional(Type.Integer({ minimum: 1, description: MAX_LEVELS_TEXT })),
                  relationship_types: BodyList(RELATIONSHIP_TYPES_TEXT),
                  vocabulary_ids: BodyList('Vocabulary ids; every row is of one of them; naming one this key may not read fails the query with vocabulary_restricted.'),
                  domain_ids: BodyList('Domain ids; every row is of one of them.'),
                  include_invalid: Type.Optional(Type.Boolean()),
                  standard_only: Type.Optional(Type.Boolean()),
                  include_distance: Type.Optional(Type.Boolean()),
                  include_paths: Type.Optional(Type.Boolean()),
                  page: Type.Optional(Type.Integer({ minimum: 1 })),
                  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: HIERARCHY_BATCH_MAX_ROWS })),
                  max_results: Type.Optional(Type.Integer({ minimum: 1, maximum: HIERARCHY_BATCH_MAX_ROWS })),
                  format: Type.Optional(Type.Union([Type.Literal('flat'), Type.Literal('graph')])),
                }),
              ),
            }),
            { minItems: 1, maxItems: HIERARCHY_BATCH_MAX_QUERIES },
          ),
        }),
        response: {
          200: Envelope(
            Type.Object({
              results: Type.Array(
                Type.Object(
                  {
                    query_id: Type.String(),
                    concept_id: Type.Integer(),
                    operation: Type.String(),
                    success: Type.Boolean(),
                    data: Type.Optional(Type.Object({ total_count: Type.Integer() }, { additionalProperties: true })),
                    error: Type.Optional(Type.String()),
                    error_code: Type.Optional(Type.String()),
                  },
                  { additionalProperties: true },
                ),
              ),
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const queries: HierarchyBatchQuery[] = request.body.queries.map((q) => ({
        ...q,
        params: q.params && {
          ...q.params,
          vocabulary_ids: bodyList(q.params.vocabulary_ids),
          domain_ids: bodyList(q.params.domain_ids),
          relationship_types: bodyList(q.params.relationship_types),
        },
      }));
      return ok(request, hierarchyBatch(request.view, queries));
    },
  );
}
