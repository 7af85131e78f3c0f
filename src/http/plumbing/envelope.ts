/**
 * The REST envelope (Common REST conventions 1–3): `success`, `data`, `meta` with request_id,
 * timestamp and vocab_release, plus `pagination` on lists and route-specific additions.
 */
import type { FastifyRequest } from 'fastify';
import type { PaginationMeta } from './pagination.js';

export interface Meta {
  request_id: string;
  timestamp: string;
  vocab_release: string | null;
  pagination?: PaginationMeta;
  [extra: string]: unknown;
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  meta: Meta;
}

export interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; details?: Record<string, unknown> };
  meta: Meta;
}

export function baseMeta(request: FastifyRequest, releaseLabel: string | null): Meta {
  return metaFor(request.id, releaseLabel);
}

/** The meta block for a request id; used directly where no Fastify request exists (transport-level errors). */
export function metaFor(requestId: string, releaseLabel: string | null): Meta {
  return { request_id: requestId, timestamp: new Date().toISOString(), vocab_release: releaseLabel };
}

export function ok<T>(request: FastifyRequest, data: T, extraMeta?: Record<string, unknown>): SuccessEnvelope<T> {
  return { success: true, data, meta: { ...baseMeta(request, request.view?.label ?? null), ...extraMeta } };
}

/**
 * The success envelope, as JSON text, around `dataJson` (the data already serialised, e.g. on a worker thread): what
 * JSON.stringify(ok(request, data)) writes. Answer it with `reply.type(JSON_UTF8)`: Fastify then sends it unchanged.
 */
export function okJson(request: FastifyRequest, dataJson: string, extraMeta?: Record<string, unknown>): string {
  return `{"success":true,"data":${dataJson},"meta":${JSON.stringify(ok(request, null, extraMeta).meta)}}`;
}

/** The content type a pre-serialised envelope is sent with. */
export const JSON_UTF8 = 'application/json; charset=utf-8';

export function okPage<T>(
  request: FastifyRequest,
  data: T,
  pagination: PaginationMeta,
  extraMeta?: Record<string, unknown>,
): SuccessEnvelope<T> {
  return ok(request, data, { ...extraMeta, pagination });
}
