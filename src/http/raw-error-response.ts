/**
 * Error answers written below Fastify on a raw socket or a bare ServerResponse (malformed HTTP, head too large,
 * timeout, URL too long, shutdown), with the body routes send and `Connection: close`.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServiceError } from '../services/errors.js';
import { errorBody } from './plumbing/error-responses.js';
import { normalisedPath, surfaceOfPath } from './plumbing/request-context.js';

/** How long a socket that was answered is kept reading (and discarding) the client's input before it is destroyed. */
const ANSWERED_SOCKET_LINGER_MS = 2_000;

interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Status, headers and serialized body of an error answer for a request target (path and query; may be unknown). */
function errorAnswer(target: string | undefined, error: ServiceError, extraHeaders: Record<string, string>): ErrorAnswer {
  const requestId = randomUUID();
  const { contentType, body } = errorBody(surfaceOfPath(normalisedPath(target ?? '/')), error, requestId, null);
  const text = JSON.stringify(body);
  return {
    status: error.status,
    headers: {
      ...extraHeaders,
      ...error.headers,
      'Content-Type': contentType,
      'Content-Length': String(Buffer.byteLength(text)),
      'X-Request-Id': requestId,
      'Cache-Control': 'no-store',
      Connection: 'close',
    },
    body: text,
  };
}

/**
 * Answers on a raw socket with a complete HTTP/1.1 response, then half-closes it. The client's
 * remaining input is read and discarded (not left unread, which would make the kernel reset the
 * connection and could destroy the answer before the client reads it) until the client closes or
 * ANSWERED_SOCKET_LINGER_MS pass.
 */
export function writeErrorOnSocket(socket: Duplex, target: string | undefined, error: ServiceError, extraHeaders: Record<string, string> = {}): void {
  const answer = errorAnswer(target, error, extraHeaders);
  const head = [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}`,
    `Date: ${new Date().toUTCString()}`,
    ...Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}`),
  ].join('\r\n');
  socket.removeAllListeners('data');
  socket.on('data', () => {});
  socket.on('error', () => socket.destroy());
  socket.resume();
  socket.end(`${head}\r\n\r\n${answer.body}`);
  const linger = setTimeout(() => socket.destroy(), ANSWERED_SOCKET_LINGER_MS);
  socket.once('close', () => clearTimeout(linger));
}

/** Answers through a ServerResponse that has not been written yet; Node closes the connection after it. */
export function writeErrorOnResponse(
  response: ServerResponse,
  target: string | undefined,
  error: ServiceError,
  extraHeaders: Record<string, string> = {},
): void {
  const answer = errorAnswer(target, error, extraHeaders);
  response.shouldKeepAlive = false;
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}
