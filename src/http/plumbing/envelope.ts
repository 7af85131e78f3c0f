/**
 * The REST envelope (Common REST conventions 1–3): `success`, `data`, `meta` with request_id,
 * timestamp and vocab_release, plus `pagination` on lists and route-specific additions.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
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

/** Bytes of a serialised answer written per event-loop turn (a TLS write encrypts what it is given at once). */
export const ANSWER_CHUNK_BYTES = 64 * 1024;

/**
 * Answers the success envelope around `data`, the UTF-8 JSON of the data made elsewhere (a worker thread): the bytes
 * JSON.stringify(ok(request, data)) would make, written ANSWER_CHUNK_BYTES at a time as the connection takes them, so
 * that a multi-megabyte answer never holds the event loop while it is encrypted and written.
 */
export function sendOkJson(request: FastifyRequest, reply: FastifyReply, data: Uint8Array, extraMeta?: Record<string, unknown>): FastifyReply {
  const head = Buffer.from('{"success":true,"data":');
  const tail = Buffer.from(`,"meta":${JSON.stringify(ok(request, null, extraMeta).meta)}}`);
  function* chunks(): Generator<Uint8Array> {
    yield head;
    for (let at = 0; at < data.length; at += ANSWER_CHUNK_BYTES) yield data.subarray(at, at + ANSWER_CHUNK_BYTES);
    yield tail;
  }
  reply.type('application/json; charset=utf-8').header('content-length', head.length + data.length + tail.length);
  return reply.send(Readable.from(chunks(), { objectMode: false }));
}

export function okPage<T>(
  request: FastifyRequest,
  data: T,
  pagination: PaginationMeta,
  extraMeta?: Record<string, unknown>,
): SuccessEnvelope<T> {
  return ok(request, data, { ...extraMeta, pagination });
}
