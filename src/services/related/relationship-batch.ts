/**
 * POST /v1/concepts/relationships/batch (E6): 1–100 queries (`relationships`, `related`, `traverse`) answered in
 * input order, each on its own: a query that fails is an item with `success: false`, and the others still run.
 */
import type { ReleaseView } from '../release-view.js';
import { ServiceError, validationError } from '../errors.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { listConceptRelationships, type RelationshipRecord } from '../concepts/concept-relationships.js';
import { listField } from '../list-field.js';
import { budgetUntil, MAX_TRAVERSAL_DEPTH, REQUEST_WALK_TIME_MS } from './concept-traversal.js';
import {
  BATCH_RELATED_DEFAULT_PAGE_SIZE,
  findRelatedConcepts,
  RELATED_DEFAULT_MIN_SCORE,
  RELATED_MAX_PAGE_SIZE,
  type RelatedConceptRecord,
} from './related-concepts.js';
import { traverseFromConcept, TRAVERSE_DEFAULT_MAX_DEPTH, TRAVERSE_DEFAULT_MIN_SCORE, type TraversalResult } from './traversal-result.js';

export const BATCH_MAX_QUERIES = 100;
/** Relationships returned per `relationships` query (E6 has no paging there; GET …/relationships pages further). */
export const BATCH_RELATIONSHIPS_LIMIT = 100;

export const BATCH_OPERATIONS = ['relationships', 'related', 'traverse'] as const;
export type BatchOperation = (typeof BATCH_OPERATIONS)[number];

/** Allowed `params` fields per operation (E6). */
export const BATCH_PARAMS: Readonly<Record<BatchOperation, readonly string[]>> = {
  relationships: ['relationship_ids', 'relationship_types', 'vocabulary_ids', 'domain_ids', 'include_invalid', 'standard_only', 'include_reverse'],
  related: ['relationship_types', 'page_size', 'min_score'],
  traverse: ['relationship_types', 'max_depth', 'min_score'],
};

/** Fields E6 names and refuses for every operation. */
const REFUSED_PARAMS = ['include_paths', 'breadth_first'];

export interface RelationshipBatchQuery {
  query_id: string;
  concept_id: number;
  operation?: unknown;
  params?: unknown;
}

export interface RelationshipBatchItem {
  query_id: string;
  concept_id: number;
  operation: string | null;
  success: boolean;
  data: RelationshipRecord[] | RelatedConceptRecord[] | TraversalResult | null;
  /** `relationships` only: how many relationships match (data holds the first BATCH_RELATIONSHIPS_LIMIT). */
  total_count?: number;
  error?: string;
  error_code?: string;
}

export function runRelationshipBatch(view: ReleaseView, queries: readonly RelationshipBatchQuery[]): RelationshipBatchItem[] {
  const deadline = performance.now() + REQUEST_WALK_TIME_MS;
  return queries.map((query) => {
    const item: RelationshipBatchItem = {
      query_id: query.query_id,
      concept_id: query.concept_id,
      operation: typeof query.operation === 'string' ? query.operation : null,
      success: true,
      data: null,
    };
    try {
      return { ...item, ...answer(view, query, deadline) };
    } catch (err) {
      if (!(err instanceof ServiceError) || err.status >= 500) throw err;
      return { ...item, success: false, data: null, error: err.message, error_code: String(err.code) };
    }
  });
}

function answer(view: ReleaseView, query: RelationshipBatchQuery, deadline: number): Pick<RelationshipBatchItem, 'data' | 'total_count'> {
  const operation = operationOf(query.operation);
  const params = paramsOf(query.params, operation);
  switch (operation) {
    case 'relationships': {
      if (params.relationship_ids !== undefined && params.relationship_types !== undefined) {
        throw validationError("params.relationship_ids and params.relationship_types (its deprecated alias) must not both be sent; send relationship_ids.");
      }
      const { relationships, total } = listConceptRelationships(
        view,
        query.concept_id,
        {
          relationshipIds: list(params, 'relationship_ids') ?? list(params, 'relationship_types'),
          vocabularyIds: list(params, 'vocabulary_ids'),
          domainIds: list(params, 'domain_ids'),
          includeInvalid: flag(params, 'include_invalid'),
          standardOnly: flag(params, 'standard_only'),
          includeReverse: flag(params, 'include_reverse'),
        },
        { offset: 0, limit: BATCH_RELATIONSHIPS_LIMIT },
      );
      return { data: relationships, total_count: total };
    }
    case 'related':
      return {
        data: findRelatedConcepts(view, query.concept_id, {
          relationshipIds: list(params, 'relationship_types') ?? null,
          minScore: score(params, 'min_score', RELATED_DEFAULT_MIN_SCORE),
          limit: integer(params, 'page_size', BATCH_RELATED_DEFAULT_PAGE_SIZE, 1, RELATED_MAX_PAGE_SIZE),
          budget: budgetUntil(deadline),
        }),
      };
    case 'traverse':
      return {
        data: traverseFromConcept(view, query.concept_id, {
          relationshipIds: list(params, 'relationship_types') ?? null,
          maxDepth: integer(params, 'max_depth', TRAVERSE_DEFAULT_MAX_DEPTH, 1, MAX_TRAVERSAL_DEPTH),
          minScore: score(params, 'min_score', TRAVERSE_DEFAULT_MIN_SCORE),
          budget: budgetUntil(deadline),
        }),
      };
  }
}

function operationOf(operation: unknown): BatchOperation {
  if (operation === undefined || operation === null) throw validationError(`operation is required: one of ${BATCH_OPERATIONS.join(', ')}.`);
  if (typeof operation !== 'string' || !(BATCH_OPERATIONS as readonly string[]).includes(operation)) {
    throw validationError(`Unknown operation '${String(operation)}': use one of ${BATCH_OPERATIONS.join(', ')}.`);
  }
  return operation as BatchOperation;
}

type Params = Record<string, unknown>;

function paramsOf(params: unknown, operation: BatchOperation): Params {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) throw validationError('params must be an object.');
  const allowed = BATCH_PARAMS[operation];
  for (const key of Object.keys(params)) {
    if (REFUSED_PARAMS.includes(key)) throw validationError(`params.${key} is not accepted (E6).`);
    if (!allowed.includes(key)) {
      throw validationError(`params.${key} is not allowed for operation '${operation}' (allowed: ${allowed.join(', ')}).`);
    }
  }
  return params as Params;
}

function list(params: Params, name: string): string[] | undefined {
  const value = params[name];
  if (value === null) return undefined;
  return listField(value as string[] | string | undefined, `params.${name}`);
}

function flag(params: Params, name: string): boolean {
  const value = params[name];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw validationError(`params.${name} must be true or false (got ${JSON.stringify(value)}).`);
  return value;
}

function integer(params: Params, name: string, fallback: number, min: number, max: number): number {
  const value = params[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw validationError(`params.${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(value)}).`);
  }
  return value;
}

function score(params: Params, name: string, fallback: number): number {
  const value = params[name];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw validationError(`params.${name} must be a number from 0 to 1 (got ${JSON.stringify(value)}).`);
  }
  return value;
}
