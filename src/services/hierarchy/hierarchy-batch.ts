/**
 * POST /v1/concepts/hierarchy/batch: 1–HIERARCHY_BATCH_MAX_QUERIES hierarchy queries answered in input order, a
 * query that fails becoming an item with `success: false` and an `error` string without affecting the others.
 */
import type { ReleaseView } from '../release-view.js';
import { ServiceError } from '../errors.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { conceptAncestors, conceptDescendants, conceptHierarchy, type HierarchyFormat } from './concept-hierarchy.js';
import { DEFAULT_HIERARCHY_PAGE_SIZE, DEFAULT_HIERARCHY_RESULTS, type HierarchyOptions } from './hierarchy-options.js';

export const HIERARCHY_BATCH_MAX_QUERIES = 100;
/** page_size / max_results of one batch query (validated: a body value above it is a 400). */
export const HIERARCHY_BATCH_MAX_ROWS = 1000;

export type HierarchyOperation = 'ancestors' | 'descendants' | 'hierarchy';

export interface HierarchyBatchParams extends HierarchyOptions {
  page?: number;
  page_size?: number;
  max_results?: number;
  format?: HierarchyFormat;
}

export interface HierarchyBatchQuery {
  query_id: string;
  concept_id: number;
  operation: HierarchyOperation;
  params?: HierarchyBatchParams;
}

export interface HierarchyBatchResult {
  query_id: string;
  concept_id: number;
  operation: HierarchyOperation;
  success: boolean;
  /** The single answer of the operation, plus total_count (matching rows over all pages; both directions for `hierarchy`). */
  data?: Record<string, unknown> & { total_count: number };
  error?: string;
  error_code?: string;
}

export function hierarchyBatch(view: ReleaseView, queries: readonly HierarchyBatchQuery[]): { results: HierarchyBatchResult[] } {
  return { results: queries.map((query) => answer(view, query)) };
}

function answer(view: ReleaseView, query: HierarchyBatchQuery): HierarchyBatchResult {
  const { query_id, concept_id, operation } = query;
  const params = query.params ?? {};
  try {
    return { query_id, concept_id, operation, success: true, data: run(view, query.concept_id, operation, params) };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    return { query_id, concept_id, operation, success: false, error: err.message, error_code: err.code };
  }
}

function run(view: ReleaseView, conceptId: number, operation: HierarchyOperation, params: HierarchyBatchParams) {
  const pageSize = params.page_size ?? DEFAULT_HIERARCHY_PAGE_SIZE;
  const window = { offset: ((params.page ?? 1) - 1) * pageSize, limit: pageSize };
  switch (operation) {
    case 'ancestors': {
      const { data, total } = conceptAncestors(view, conceptId, params, window);
      return { ...data, total_count: total };
    }
    case 'descendants': {
      const { data, total } = conceptDescendants(view, conceptId, params, window);
      return { ...data, total_count: total };
    }
    case 'hierarchy': {
      const data = conceptHierarchy(view, conceptId, params, params.format ?? 'flat', params.max_results ?? DEFAULT_HIERARCHY_RESULTS);
      return { ...data, total_count: data.total_ancestors + data.total_descendants };
    }
  }
}
