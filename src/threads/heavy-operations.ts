/**
 * The operations a worker thread of ./worker-pool.ts runs, by name: each is a pure service call on the task's release
 * views (the caller's licence rules) with plain, structured-clonable arguments, so the same entry answers in a thread
 * and inline (no threads, a view without a build).
 */
import { compareConceptSets, includedSourceCodes, optimizeConceptSet, resolveConceptSetIds, resolveConceptSetPage, type PageWindow } from '../services/concept-sets/concept-set-operations.js';
import { diffConceptSet } from '../services/concept-sets/concept-set-diff.js';
import type { ConceptSetExpression } from '../services/concept-sets/expression-formats.js';
import { resolveDisplay, type DisplayResolutionOptions } from '../services/fhir-resolver/display-resolution.js';
import { displayContextFor } from '../services/fhir-resolver/resolver-context.js';
import { runRelationshipBatch, type RelationshipBatchQuery } from '../services/related/relationship-batch.js';
import type { ReleaseView } from '../services/release-view.js';
import { bulkSearch, type BulkSearchBody } from '../services/search/bulk-search.js';
import { semanticBulkSearch, type SemanticBulkBody } from '../services/semantic/semantic-bulk.js';
import { semanticContextFor } from '../services/semantic/semantic-context.js';
import type { SemanticIndexRegistry } from '../services/semantic/semantic-index-registry.js';
import { semanticSearch, type SemanticSearchRequest } from '../services/semantic/semantic-search.js';
import { similarConcepts, type SimilarRequest } from '../services/semantic/similar-concepts.js';
import type { MappingOptions, SourceTerm } from '../services/source-mapping/mapping-types.js';
import { mapTerm, mapTermBatch, mappingRankingContext } from '../services/source-mapping/term-mapping.js';
import { diffCodeSystem, type CodeSystemDiffRequest } from '../services/terminology/code-system-diff.js';
import type { DiffChangeType } from '../services/terminology/release-diff.js';

/** What an operation runs with besides its views: the vectors of the thread it runs on (or of the server, inline). */
export interface OperationEnv {
  semanticIndexes: SemanticIndexRegistry;
}

/** The releases of a task, each seen with the caller's licence rules: `[view]`, or `[before, after]` for a diff. */
type Views = readonly ReleaseView[];

const first = (views: Views): ReleaseView => views[0]!;

/** The relevant part of a mapping term's ranking context: the release's vectors, when it has usable ones. */
async function rankingContext(view: ReleaseView, env: OperationEnv) {
  const lookup = await env.semanticIndexes.get(view);
  return { ctx: mappingRankingContext(view, lookup.ok ? lookup : null), semantic: lookup.ok };
}

export const HEAVY_OPERATIONS = {
  /** GET /v1/search/semantic (its 503 when the release has no usable vectors). */
  semanticSearch: async (views: Views, request: SemanticSearchRequest, env: OperationEnv) =>
    semanticSearch(await semanticContextFor(env.semanticIndexes, first(views)), request),
  /** POST /v1/search/semantic-bulk. */
  semanticBulkSearch: async (views: Views, body: SemanticBulkBody, env: OperationEnv) =>
    semanticBulkSearch(await semanticContextFor(env.semanticIndexes, first(views)), body),
  /** POST /v1/search/similar. */
  similarConcepts: async (views: Views, request: SimilarRequest, env: OperationEnv) =>
    similarConcepts(await semanticContextFor(env.semanticIndexes, first(views)), request),
  /** The FHIR resolver's display fallback (E7 rule 3): the only heavy step of a resolution. */
  resolveDisplay: async (views: Views, args: { display: string; options: DisplayResolutionOptions }, env: OperationEnv) =>
    resolveDisplay(await displayContextFor(env.semanticIndexes, first(views)), args.display, args.options),
  /** POST /v1/concepts/relationships/batch (E6). */
  relationshipBatch: (views: Views, queries: readonly RelationshipBatchQuery[]) => runRelationshipBatch(first(views), queries),
  /** One page of CodeSystem/$diff over a whole code system, views `[before, after]`. */
  codeSystemDiffPage: (views: Views, args: { system: string; count?: number; cursor?: string; types: DiffChangeType[] }) => {
    const request: CodeSystemDiffRequest = { count: args.count, cursor: args.cursor, types: new Set(args.types) };
    return diffCodeSystem(views[0]!, views[1]!, args.system, request);
  },
  /** POST /v1/concept-sets/resolve, a page with its summary. */
  conceptSetPage: (views: Views, args: { expression: ConceptSetExpression; page: PageWindow }) => resolveConceptSetPage(first(views), args.expression, args.page),
  /** POST /v1/concept-sets/resolve?ids_only=true. */
  conceptSetIds: (views: Views, args: { expression: ConceptSetExpression }) => resolveConceptSetIds(first(views), args.expression),
  /** POST /v1/concept-sets/included-source-codes. */
  includedSourceCodes: (views: Views, args: { expression: ConceptSetExpression; page: PageWindow }) => includedSourceCodes(first(views), args.expression, args.page),
  /** POST /v1/concept-sets/compare. */
  compareConceptSets: (views: Views, args: { a: ConceptSetExpression; b: ConceptSetExpression; page: PageWindow }) =>
    compareConceptSets(first(views), args.a, args.b, args.page),
  /** POST /v1/concept-sets/optimize. */
  optimizeConceptSet: (views: Views, args: { expression: ConceptSetExpression }) => optimizeConceptSet(first(views), args.expression),
  /** POST /v1/concept-sets/diff, views `[from, to]`. */
  diffConceptSet: (views: Views, args: { expression: ConceptSetExpression; page: PageWindow }) => diffConceptSet(views[0]!, views[1]!, args.expression, args.page),
  /** POST /v1/mapping/candidates (the review page's call) and the review page's own search. */
  termCandidates: async (views: Views, args: { term: SourceTerm; options: MappingOptions }, env: OperationEnv) =>
    mapTerm((await rankingContext(first(views), env)).ctx, args.term, args.options),
  /** A batch of a mapping job's terms; `semantic`: whether the release's vectors were used. */
  mapTermBatch: async (views: Views, args: { terms: readonly SourceTerm[]; options: MappingOptions; now: string }, env: OperationEnv) => {
    const { ctx, semantic } = await rankingContext(first(views), env);
    return { results: await mapTermBatch(ctx, args.terms, args.options, { now: new Date(args.now) }), semantic };
  },
  /** POST /v1/search/bulk, or a part of one (`firstIndex`: the position of its first search in the request). */
  bulkSearch: (views: Views, args: { body: BulkSearchBody; firstIndex: number }) => bulkSearch(first(views), args.body, args.firstIndex),
} as const;

export type HeavyOperationName = keyof typeof HEAVY_OPERATIONS;
export type OperationArgs<K extends HeavyOperationName> = Parameters<(typeof HEAVY_OPERATIONS)[K]>[1];
export type OperationResult<K extends HeavyOperationName> = Awaited<ReturnType<(typeof HEAVY_OPERATIONS)[K]>>;

/** Runs an operation by name (the thread's dispatch; inline runs call it too). */
export function runOperation<K extends HeavyOperationName>(name: K, views: Views, args: OperationArgs<K>, env: OperationEnv): Promise<OperationResult<K>> {
  const operation = HEAVY_OPERATIONS[name] as (views: Views, args: OperationArgs<K>, env: OperationEnv) => OperationResult<K> | Promise<OperationResult<K>>;
  return Promise.resolve().then(() => operation(views, args, env));
}

/** Whether `name` names an operation (a thread refuses anything else). */
export function isHeavyOperation(name: string): name is HeavyOperationName {
  return Object.hasOwn(HEAVY_OPERATIONS, name);
}
