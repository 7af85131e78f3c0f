/**
 * Pagination, once for every list (REST, MCP): `page` is 1-based, `page_size` defaults to 20 and values above
 * the route's ceiling (200 unless a route is stricter) are clamped, never rejected.
 */
import { Type } from 'typebox';

export interface PageRequest {
  page: number;
  pageSize: number;
  offset: number;
}

export interface PaginationMeta {
  page: number;
  page_size: number;
  total_items: number;
  total_pages: number;
  has_next: boolean;
  has_previous: boolean;
}

/** The wire schema of PaginationMeta (REST envelopes' `meta.pagination`, MCP results' `meta.pagination`). */
export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  page_size: Type.Integer(),
  total_items: Type.Integer(),
  total_pages: Type.Integer(),
  has_next: Type.Boolean(),
  has_previous: Type.Boolean(),
});

export interface PageRules {
  defaultPageSize?: number;
  maxPageSize?: number;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_GET_PAGE_SIZE = 200;

export function readPage(query: { page?: number; page_size?: number }, rules: PageRules = {}): PageRequest {
  const page = query.page ?? 1;
  const max = rules.maxPageSize ?? MAX_GET_PAGE_SIZE;
  const pageSize = Math.min(query.page_size ?? rules.defaultPageSize ?? DEFAULT_PAGE_SIZE, max);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export function paginationMeta(request: PageRequest, totalItems: number): PaginationMeta {
  const totalPages = Math.max(1, Math.ceil(totalItems / request.pageSize));
  return {
    page: request.page,
    page_size: request.pageSize,
    total_items: totalItems,
    total_pages: totalPages,
    has_next: request.page < totalPages,
    has_previous: request.page > 1,
  };
}

/** Slices an in-memory list (small lists only: metadata tables). */
export function pageOf<T>(items: readonly T[], request: PageRequest): T[] {
  return items.slice(request.offset, request.offset + request.pageSize);
}
