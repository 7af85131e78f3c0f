/**
 * POST /v1/concept-sets/{resolve,included-source-codes,compare,optimize,diff,to-valueset}: thin adapters over
 * services/concept-sets; resolutions that expand hierarchies or mappings, or have many items, run on a worker thread.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { MAX_IDS_ONLY } from '../../services/concept-sets/concept-set-operations.js';
import { conceptSetValueSet, FHIR_VERSIONS, fhirVersionOf, MAPS_TO_PROPERTY } from '../../services/concept-sets/concept-set-value-set.js';
import { readExpression, type ConceptSetExpression } from '../../services/concept-sets/expression-formats.js';
import { ServiceError } from '../../services/errors.js';
import type { OpenRelease, ReleaseRegistry } from '../../store/release-registry.js';
import { computeHeavy, computeHeavyJson, computeHere } from '../plumbing/heavy-work.js';
import { resolveRelease } from '../plumbing/release-resolution.js';
import type { HeavyOperationName, OperationArgs, OperationResult } from '../../threads/heavy-operations.js';
import type { ReleaseView } from '../../services/release-view.js';
import type { ConceptSetScope } from '../../services/concept-sets/resolve.js';
import { ok, okPage, sendOkJson } from '../plumbing/envelope.js';
import { paginationMeta, readPage } from '../plumbing/pagination.js';
import { ConceptBriefFields, ConceptSchema, Envelope, ErrorEnvelope, Nullable, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

export const CONCEPT_SET_DEFAULT_PAGE_SIZE = 100;
export const CONCEPT_SET_MAX_PAGE_SIZE = 1000;

/** The caller's view of the selected release, or of another loaded release (a diff's two ends), with the caller's licences. */
export function conceptSetScope(request: FastifyRequest, release?: OpenRelease): ConceptSetScope {
  return release ? request.view.onRelease(release) : request.view;
}

const ExpressionSchema = Type.Union([Type.Object({}, { additionalProperties: true }), Type.String()], {
  description:
    'A concept-set expression: ATLAS JSON `{"items":[{"concept":{"CONCEPT_ID":…},"isExcluded":…,"includeDescendants":…,"includeMapped":…}]}` ' +
    '(also wrapped as `{"expression":{…}}` or a whole ATLAS concept set `{id,name,expression}`), the OHDSI TAB draft (`concept.conceptId`, ' +
    'optional id/name/version/tags/metadata), or the ATLAS CSV export as a string (header "Concept Set ID","Name","Concept ID",…,"Exclude","Descendants","Mapped").',
});

const PageFields = {
  page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page number, 1-based.' })),
  page_size: Type.Optional(
    Type.Integer({ minimum: 1, description: `Items per page (default ${CONCEPT_SET_DEFAULT_PAGE_SIZE}; values above ${CONCEPT_SET_MAX_PAGE_SIZE} are clamped).` }),
  ),
};

const ItemProblemSchema = Type.Object({ index: Type.Integer(), concept_id: Type.Integer(), reason: Type.String() });
const Problems = { unknown_concepts: Type.Array(ItemProblemSchema), restricted_items: Type.Array(ItemProblemSchema) };
const ItemFields = {
  index: Type.Integer(),
  concept_id: Type.Integer(),
  is_excluded: Type.Boolean(),
  include_descendants: Type.Boolean(),
  include_mapped: Type.Boolean(),
};
const Timing = Type.Object({ longest_synchronous_slice_ms: Type.Number({ description: 'Longest run of this request between two yields to the event loop.' }) });

const SEMANTICS =
  "Resolution follows circe (OHDSI's reference resolver used by WebAPI and ATLAS): an included item gives its own concept even if invalid; " +
  "`includeDescendants` adds every valid descendant (CONCEPT_ANCESTOR, invalid_reason empty); `includeMapped` adds the sources of valid 'Maps to' rows " +
  'into the item (and into its valid descendants when `includeDescendants`); excluded items expand by the same rules and the result is included − excluded. ' +
  'An unknown concept id is listed in `unknown_concepts` (not an error); an item naming a concept of a vocabulary this key may not see is left out ' +
  'and listed in `restricted_items`, and such concepts never appear. A flag that is not a boolean is a 400 naming `expression.items[i].<flag>`.';

interface ResolveBody {
  expression: unknown;
  page?: number;
  page_size?: number;
}

/**
 * Most items an expression that expands nothing (no includeDescendants, no includeMapped) may have and still be
 * resolved on the event loop: below it a resolution costs less than the hand-over to a thread (measured in
 * docs/performance.md#worker-threads); an item that expands may read hundreds of thousands of ids.
 */
export const INLINE_CONCEPT_SET_ITEMS = 50;

/** Whether resolving these expressions is a worker thread's work (see INLINE_CONCEPT_SET_ITEMS). */
export function isHeavyConceptSet(...expressions: ConceptSetExpression[]): boolean {
  return expressions.some((e) => e.items.length > INLINE_CONCEPT_SET_ITEMS || e.items.some((i) => i.includeDescendants || i.includeMapped));
}

/** Resolves on a worker thread or here, as isHeavyConceptSet says. */
function resolveConceptSets<K extends HeavyOperationName>(
  request: FastifyRequest,
  op: K,
  views: ReleaseView | readonly ReleaseView[],
  args: OperationArgs<K>,
  expressions: ConceptSetExpression[],
): Promise<OperationResult<K>> {
  return isHeavyConceptSet(...expressions) ? computeHeavy(request, op, views, args) : computeHere(request, op, views, args);
}

const pageOf = (body: { page?: number; page_size?: number }) =>
  readPage(body, { defaultPageSize: CONCEPT_SET_DEFAULT_PAGE_SIZE, maxPageSize: CONCEPT_SET_MAX_PAGE_SIZE });

/** The release a body field names, or the gate's 400 release_not_found naming the field. */
function releaseNamed(registry: ReleaseRegistry, selector: string, parameter: string): OpenRelease {
  return resolveRelease(registry, selector, { surface: 'rest', parameter });
}

export function registerConceptSetRoutes(app: FastifyInstance, registry: ReleaseRegistry): void {
  app.post<{ Body: ResolveBody; Querystring: { ids_only?: boolean; vocab_release?: string } }>(
    '/v1/concept-sets/resolve',
    {
      schema: {
        tags: ['Concept sets'],
        summary: 'Resolve a concept-set expression',
        description:
          `${SEMANTICS} The answer is a page of the resolved concepts in concept_id order with \`summary\` (total, standard / non-standard / ` +
          'classification counts, counts per domain and vocabulary, what each item contributed and how many concepts the exclusions removed). ' +
          `\`ids_only=true\` answers \`data.concept_ids\`: every resolved id ascending, unpaged (WebAPI's resolveConceptSetExpression), up to ` +
          `${MAX_IDS_ONLY.toLocaleString('en')} ids; a larger set is 422 \`too_costly\`.`,
        body: Type.Object({ expression: ExpressionSchema, ...PageFields }),
        querystring: Type.Object({
          ids_only: Type.Optional(Type.Boolean({ description: `Answer every resolved id (ascending, unpaged, at most ${MAX_IDS_ONLY}) instead of a page of concepts.` })),
          ...ReleaseQuery,
        }),
        response: {
          200: Envelope(
            Type.Union([
              Type.Object({
                concepts: Type.Array(ConceptSchema),
                summary: Type.Object(
                  {
                    total: Type.Integer(),
                    standard: Type.Integer(),
                    non_standard: Type.Integer(),
                    classification: Type.Integer(),
                    by_domain: Type.Record(Type.String(), Type.Integer()),
                    by_vocabulary: Type.Record(Type.String(), Type.Integer()),
                    excluded_removed: Type.Integer(),
                    items_matching_nothing: Type.Array(Type.Integer()),
                    items: Type.Array(
                      Type.Object({
                        ...ItemFields,
                        status: Type.String({ description: 'resolved, unknown or restricted' }),
                        concepts: Type.Integer({ description: "Concepts of the item's own expansion." }),
                        removed: Type.Optional(Type.Integer({ description: 'Excluded items: included concepts it removed.' })),
                      }),
                    ),
                  },
                ),
                ...Problems,
                timing: Timing,
              }),
              Type.Object({ concept_ids: Type.Array(Type.Integer()), total: Type.Integer(), ...Problems, timing: Timing }),
            ]),
          ),
          ...STANDARD_ERRORS,
          422: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const expression = readExpression(request.body.expression);
      const scope = conceptSetScope(request);
      if (request.query.ids_only) {
        if (!isHeavyConceptSet(expression)) return ok(request, await computeHere(request, 'conceptSetIds', scope, { expression }));
        // up to MAX_IDS_ONLY ids (~4 MB of JSON): the text is made on the thread too
        return sendOkJson(request, reply, await computeHeavyJson(request, 'conceptSetIds', scope, { expression }));
      }
      const page = pageOf(request.body);
      const result = await resolveConceptSets(request, 'conceptSetPage', scope, { expression, page: { offset: page.offset, limit: page.pageSize } }, [expression]);
      return okPage(request, result, paginationMeta(page, result.summary.total));
    },
  );

  app.post<{ Body: ResolveBody; Querystring: { vocab_release?: string } }>(
    '/v1/concept-sets/included-source-codes',
    {
      schema: {
        tags: ['Concept sets'],
        summary: 'Source codes mapped into a resolved concept set',
        description:
          "The non-standard concepts (standard_concept not 'S') with a valid 'Maps to' row into the resolved set, in concept_id order, paged, " +
          "each with the concepts of the set it maps to (ATLAS' included source codes). " +
          SEMANTICS,
        body: Type.Object({ expression: ExpressionSchema, ...PageFields }),
        querystring: Type.Object(ReleaseQuery),
        response: {
          200: Envelope(
            Type.Object({
              source_codes: Type.Array(
                Type.Object({ ...ConceptBriefFields, invalid_reason: Nullable(Type.String()), maps_to_concept_ids: Type.Array(Type.Integer()) }),
              ),
              total: Type.Integer(),
              ...Problems,
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const expression = readExpression(request.body.expression);
      const page = pageOf(request.body);
      const window = { offset: page.offset, limit: page.pageSize };
      const result = await resolveConceptSets(request, 'includedSourceCodes', conceptSetScope(request), { expression, page: window }, [expression]);
      return okPage(request, result, paginationMeta(page, result.total));
    },
  );

  const Part = Type.Object({ count: Type.Integer(), concept_ids: Type.Array(Type.Integer()) });
  const SideSummary = Type.Object({ total: Type.Integer(), ...Problems });
  app.post<{ Body: { a: unknown; b: unknown; page?: number; page_size?: number }; Querystring: { vocab_release?: string } }>(
    '/v1/concept-sets/compare',
    {
      schema: {
        tags: ['Concept sets'],
        summary: 'Compare two concept-set expressions',
        description:
          'Resolves `a` and `b` (any accepted format) and answers the concepts only in a, only in b and in both: each part counted, and its ids ' +
          '(ascending) paged by the same `page`/`page_size`.',
        body: Type.Object({ a: ExpressionSchema, b: ExpressionSchema, ...PageFields }),
        querystring: Type.Object(ReleaseQuery),
        response: {
          200: Envelope(Type.Object({ only_in_a: Part, only_in_b: Part, in_both: Part, a: SideSummary, b: SideSummary })),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const a = readExpression(request.body.a, 'a');
      const b = readExpression(request.body.b, 'b');
      const page = pageOf(request.body);
      const result = await resolveConceptSets(request, 'compareConceptSets', conceptSetScope(request), { a, b, page: { offset: page.offset, limit: page.pageSize } }, [a, b]);
      const largest = Math.max(result.only_in_a.count, result.only_in_b.count, result.in_both.count);
      return okPage(request, result, paginationMeta(page, largest));
    },
  );

  app.post<{ Body: { expression: unknown }; Querystring: { vocab_release?: string } }>(
    '/v1/concept-sets/optimize',
    {
      schema: {
        tags: ['Concept sets'],
        summary: 'The smallest equivalent expression',
        description:
          'Removes the items that add nothing: items whose concept is not in the release, items subsumed by another item of the same side ' +
          '(a valid descendant of an item with `includeDescendants`, mapping only if that one maps; or a repeat of the same concept with the same or fewer flags), ' +
          'and excluded items that remove nothing. Answers the optimised expression (ATLAS JSON), each removed item with the reason and the item that subsumes it, ' +
          'and `same_resolution`: the optimised expression was resolved too and gives exactly the same concepts.',
        body: Type.Object({ expression: ExpressionSchema }),
        querystring: Type.Object(ReleaseQuery),
        response: {
          200: Envelope(
            Type.Object({
              expression: Type.Object({ items: Type.Array(Type.Object({}, { additionalProperties: true })) }),
              removed_items: Type.Array(Type.Object({ ...ItemFields, reason: Type.String(), subsumed_by: Type.Optional(Type.Integer()) })),
              kept: Type.Integer(),
              same_resolution: Type.Boolean(),
              total: Type.Integer(),
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const expression = readExpression(request.body.expression);
      return ok(request, await resolveConceptSets(request, 'optimizeConceptSet', conceptSetScope(request), { expression }, [expression]));
    },
  );

  const ChangeSchema = Type.Object({
    concept: Type.Object({ ...ConceptBriefFields, invalid_reason: Nullable(Type.String()) }),
    reason: Type.String({
      description:
        'gained: new_concept, new_descendant, newly_mapped, no_longer_excluded, revalidated; lost: removed_from_release, deprecated, replaced, ' +
        'moved_in_hierarchy, remapped, newly_excluded; either: licence, other.',
    }),
    detail: Type.String(),
    replaced_by: Type.Optional(Type.Array(Type.Integer())),
    maps_to: Type.Optional(Type.Array(Type.Integer())),
  });
  app.post<{ Body: { expression: unknown; from_release: string; to_release: string; page?: number; page_size?: number } }>(
    '/v1/concept-sets/diff',
    {
      schema: {
        tags: ['Concept sets'],
        summary: 'What a concept set gains and loses between two releases',
        description:
          'Resolves the expression in `from_release` and in `to_release` (both loaded; any accepted spelling) for this key, and lists the concepts ' +
          'gained and lost (ascending ids, both lists paged by the same `page`/`page_size`), each with the reason read from the two releases: a new ' +
          'or removed concept, deprecated or replaced (with the replacements), a new descendant or one that moved out of the hierarchy, remapped ' +
          "(with its 'Maps to' targets), newly excluded or no longer excluded. `summary` counts the whole change. WebAPI and ATLAS have no such comparison.",
        body: Type.Object({
          expression: ExpressionSchema,
          from_release: Type.String({ minLength: 1, description: 'The release compared from, e.g. 2025.1.' }),
          to_release: Type.String({ minLength: 1, description: 'The release compared to, e.g. 2025.2.' }),
          ...PageFields,
        }),
        response: {
          200: Envelope(
            Type.Object({
              from_release: Type.String(),
              to_release: Type.String(),
              summary: Type.Object({ from_total: Type.Integer(), to_total: Type.Integer(), gained: Type.Integer(), lost: Type.Integer(), unchanged: Type.Integer() }),
              gained: Type.Array(ChangeSchema),
              lost: Type.Array(ChangeSchema),
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const expression = readExpression(request.body.expression);
      const from = conceptSetScope(request, releaseNamed(registry, request.body.from_release, 'from_release'));
      const to = conceptSetScope(request, releaseNamed(registry, request.body.to_release, 'to_release'));
      const page = pageOf(request.body);
      const result = await resolveConceptSets(request, 'diffConceptSet', [from, to], { expression, page: { offset: page.offset, limit: page.pageSize } }, [expression]);
      return okPage(request, result, paginationMeta(page, Math.max(result.summary.gained, result.summary.lost)));
    },
  );

  app.post<{ Body: { expression: unknown }; Querystring: { fhir_version?: string; vocab_release?: string } }>(
    '/v1/concept-sets/to-valueset',
    {
      schema: {
        tags: ['Concept sets'],
        summary: 'A concept-set expression as a FHIR ValueSet',
        description:
          'Answers (in `data`) a FHIR ValueSet of the version `fhir_version` (r4, r4b, r5 or r6; default r4) whose `compose` states the expression on the ' +
          "OMOP concept system (https://fhir-terminology.ohdsi.org, at the release's code-system version): one `include` per included item — its concept, " +
          "or a filter `concept is-a <id>` for `includeDescendants` (the concept itself even if invalid, and its valid descendants) — plus, for `includeMapped`, " +
          `an include with the filter \`${MAPS_TO_PROPERTY}\` (op \`=\`: the sources of valid 'Maps to' rows into the concept; op \`is-a\`: into it or its valid descendants); ` +
          'excluded items likewise under `exclude`. Every item is stated as given; `ValueSet/$expand` of this ValueSet (inline `valueSet` or `tx-resource`) ' +
          'answers exactly the concepts of POST /v1/concept-sets/resolve, with the same total, an unknown or restricted item contributing nothing. ' +
          "`compose.inactive` is true (an included item's own concept counts even if invalid); an expression without included items has no `include` (an empty set).",
        body: Type.Object({ expression: ExpressionSchema }),
        querystring: Type.Object({
          fhir_version: Type.Optional(Type.String({ description: `FHIR version of the ValueSet: ${FHIR_VERSIONS.join(', ')} (default r4).` })),
          ...ReleaseQuery,
        }),
        response: {
          200: Envelope(Type.Object({ resourceType: Type.Literal('ValueSet') }, { additionalProperties: true })),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const fhirVersion = fhirVersionOf(request.query.fhir_version);
      const expression = readExpression(request.body.expression);
      return ok(request, conceptSetValueSet(conceptSetScope(request), expression, fhirVersion));
    },
  );
}
