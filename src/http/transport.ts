/**
 * HTTPS on one port with plain HTTP recognised and refused instead of dropped, every request bounded in time and
 * size, and a shutdown that drains.
 */
import type { FastifyServerOptions } from 'fastify';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { generate } from 'selfsigned';
import { ServiceError } from '../services/errors.js';
import { makeDirectory } from '../store/make-directory.js';
import { writeErrorOnResponse, writeErrorOnSocket } from './raw-error-response.js';

export interface TlsMaterial {
  key: string;
  cert: string;
  keyPath: string;
  certPath: string;
  /** True when the certificate was generated on this start. */
  generated: boolean;
}

const TLS_HANDSHAKE = 0x16;

/** Uses the given files, or a self-signed certificate kept in `<data-dir>/tls/` (created on first start). */
export async function loadTlsMaterial(dataDir: string, certPath?: string, keyPath?: string): Promise<TlsMaterial> {
  if (certPath || keyPath) {
    if (!certPath || !keyPath) throw new Error('--tls-cert and --tls-key must be given together');
    for (const f of [certPath, keyPath]) if (!existsSync(f)) throw new Error(`TLS file not found: ${f}`);
    return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), certPath, keyPath, generated: false };
  }
  const dir = join(dataDir, 'tls');
  const generatedCert = join(dir, 'self-signed-cert.pem');
  const generatedKey = join(dir, 'self-signed-key.pem');
  if (existsSync(generatedCert) && existsSync(generatedKey)) {
    return { cert: readFileSync(generatedCert, 'utf8'), key: readFileSync(generatedKey, 'utf8'), certPath: generatedCert, keyPath: generatedKey, generated: false };
  }
  makeDirectory(dir);
  const notAfter = new Date();
  notAfter.setFullYear(notAfter.getFullYear() + 5);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate: notAfter,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  } as Parameters<typeof generate>[1]);
  writeFileSync(generatedKey, pems.private, { mode: 0o600 });
  writeFileSync(generatedCert, pems.cert);
  return { cert: pems.cert, key: pems.private, certPath: generatedCert, keyPath: generatedKey, generated: true };
}

export interface TransportLimits {
  /** Time allowed to receive a request's line and headers (Node headersTimeout; also the TLS handshake). */
  headersTimeoutMs: number;
  /** Time allowed to receive a whole request, body included (Node requestTimeout). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveTimeoutMs: number;
  /**
   * How long a connection may show no activity at all, in either direction, while a request is
   * open (Node server.timeout): a client that stops reading its response is cut after this.
   */
  idleTimeoutMs: number;
  /** Longest request target (path and query string, as sent) answered; longer is 414. */
  maxUrlBytes: number;
  /**
   * Largest request head (request line and headers); larger is 431 (Node maxHeaderSize). The default
   * stays below the 16 KiB of plaintext one TLS record carries, so that an over-long head sent in
   * one piece fails inside its first record, where the request line still shows whether the target
   * is a /fhir path (and the answer an OperationOutcome).
   */
  maxHeaderBytes: number;
}

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  idleTimeoutMs: 120_000,
  maxUrlBytes: 8 * 1024,
  maxHeaderBytes: 15 * 1024,
};

export interface TransportOptions {
  /**
   * The X-RateLimit-* headers for an answer the transport writes itself (no key has been read: the
   * client address's bucket). Without it those answers carry no rate headers.
   */
  rateLimitHeaders?: (clientAddress: string) => Promise<Record<string, string>>;
}

export interface DrainOutcome {
  /** Connections still open when the grace period ended, destroyed then. */
  unfinishedConnections: number;
}

/** How often idle keep-alive connections are closed while draining (in-flight ones become idle when answered). */
const DRAIN_SWEEP_MS = 100;

type ClientError = Error & { code?: string; reason?: string; rawPacket?: Buffer };

/** The request target named on the first line of a raw request, when the bytes show it. */
function targetInRawRequest(raw: Buffer | undefined): string | undefined {
  const match = raw ? /^[A-Za-z-]+ (\S+)/.exec(raw.subarray(0, 2048).toString('latin1')) : null;
  return match?.[1];
}

export class HttpsTransport {
  private secure: https.Server | undefined;
  private plain: http.Server | undefined;
  /** Every accepted TCP connection, until it closes. */
  private readonly connections = new Set<Socket>();
  /** Connections whose first byte (TLS or plain HTTP?) has not arrived yet. */
  private readonly undecided = new Set<Socket>();
  private readonly answered = new WeakSet<Duplex>();
  private draining = false;

  constructor(
    private readonly tls: { key: string; cert: string },
    private readonly limits: TransportLimits = DEFAULT_TRANSPORT_LIMITS,
    private readonly options: TransportOptions = {},
  ) {
    if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
      throw new Error(
        `the headers timeout (${limits.headersTimeoutMs / 1000} s) cannot be longer than the request timeout (${limits.requestTimeoutMs / 1000} s)`,
      );
    }
  }

  /** For Fastify's `serverFactory`: the HTTPS server, with the plain-HTTP server behind it. */
  readonly serverFactory: NonNullable<FastifyServerOptions['serverFactory']> = (handler) => {
    const limits = this.limits;
    const serverOptions = {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      maxHeaderSize: limits.maxHeaderBytes,
      // Timeouts are only checked at this interval, so it is a fraction of the shorter one (headers ≤ request).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    };
    const guardedHandler = (request: http.IncomingMessage, response: http.ServerResponse): void => {
      const target = request.url ?? '/';
      const refuse = (error: ServiceError) =>
        void this.rateLimitHeadersFor(request.socket).then((headers) => writeErrorOnResponse(response, target, error, headers));
      if (this.draining) {
        refuse(
          new ServiceError(503, 'service_unavailable', 'The server is shutting down: retry the request on a new connection (to another server, if there is one).', undefined, {
            'Retry-After': '1',
          }),
        );
      } else if (target.length > limits.maxUrlBytes) {
        refuse(
          new ServiceError(
            414,
            'uri_too_long',
            `Request URL too long: ${target.length} bytes, at most ${limits.maxUrlBytes} are accepted. Send long inputs in a POST body (e.g. POST /v1/search/advanced).`,
            { max_bytes: limits.maxUrlBytes },
          ),
        );
      } else {
        handler(request, response);
      }
    };
    const secure = https.createServer({ key: this.tls.key, cert: this.tls.cert, handshakeTimeout: limits.headersTimeoutMs, ...serverOptions }, guardedHandler);
    const plain = http.createServer(serverOptions, guardedHandler);
    secure.keepAliveTimeout = plain.keepAliveTimeout = limits.keepAliveTimeoutMs;
    // With no 'timeout' listener on the servers, Node destroys a socket idle this long.
    secure.timeout = plain.timeout = limits.idleTimeoutMs;
    // Fastify gives the HTTPS server its clientErrorHandler (see clientErrorHandler); the plain one is ours.
    plain.on('clientError', this.clientErrorHandler);
    // Node checks request timeouts only on a server that emitted 'listening'; the plain one never listens itself.
    secure.once('listening', () => plain.emit('listening'));
    secure.once('close', () => plain.close());

    const tlsConnectionListeners = secure.listeners('connection') as Array<(socket: Socket) => void>;
    secure.removeAllListeners('connection');
    const dispatch = (socket: Socket): void => {
      const first = socket.read(1) as Buffer | null;
      if (first === null) {
        socket.once('readable', () => dispatch(socket));
        return;
      }
      this.undecided.delete(socket);
      socket.setTimeout(0);
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) {
        for (const listener of tlsConnectionListeners) listener.call(secure, socket);
      } else {
        plain.emit('connection', socket);
      }
    };
    secure.on('connection', (socket: Socket) => {
      socket.on('error', () => socket.destroy());
      if (this.draining) {
        socket.destroy();
        return;
      }
      this.connections.add(socket);
      this.undecided.add(socket);
      socket.once('close', () => {
        this.connections.delete(socket);
        this.undecided.delete(socket);
      });
      socket.setTimeout(limits.headersTimeoutMs, () => socket.destroy());
      dispatch(socket);
    });
    this.secure = secure;
    this.plain = plain;
    return secure;
  };

  /**
   * For Fastify's `clientErrorHandler` (and the plain server's `clientError`): malformed HTTP, a head
   * over the size limit or a request not received in time is answered in the envelope and the
   * connection closed. Nothing is written once a response has started on the connection.
   */
  readonly clientErrorHandler = (failure: Error, socket: Duplex): void => {
    const error = failure as ClientError;
    if (this.answered.has(socket) || socket.destroyed) return;
    this.answered.add(socket);
    const inFlight = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const target = inFlight?.req?.url ?? targetInRawRequest(error.rawPacket);
    const problem = this.describeClientError(error);
    void this.rateLimitHeadersFor(socket).then((headers) => {
      if (socket.destroyed || !socket.writable) socket.destroy();
      else writeErrorOnSocket(socket, target, problem, headers);
    });
  };

  private async rateLimitHeadersFor(socket: Duplex): Promise<Record<string, string>> {
    const clientAddress = (socket as Partial<Socket>).remoteAddress;
    if (!this.options.rateLimitHeaders || !clientAddress) return {};
    try {
      return await this.options.rateLimitHeaders(clientAddress);
    } catch {
      // The refusal is answered even when the state store cannot be asked.
      return {};
    }
  }

  private describeClientError(error: ClientError): ServiceError {
    const { headersTimeoutMs, requestTimeoutMs, maxHeaderBytes } = this.limits;
    switch (error.code) {
      case 'ERR_HTTP_REQUEST_TIMEOUT':
        return new ServiceError(
          408,
          'request_timeout',
          `Request not received in time: the request line and headers must arrive within ${headersTimeoutMs / 1000} s and the whole request, body included, within ${requestTimeoutMs / 1000} s.`,
        );
      case 'HPE_HEADER_OVERFLOW':
        return new ServiceError(
          431,
          'request_header_fields_too_large',
          `Request head too large: the request line and headers together may be at most ${maxHeaderBytes} bytes (the URL at most ${this.limits.maxUrlBytes}).`,
          { max_bytes: maxHeaderBytes },
        );
      default:
        return new ServiceError(400, 'bad_request', `Malformed HTTP request: ${error.reason ?? error.message}${error.code ? ` (${error.code})` : ''}.`);
    }
  }

  /**
   * Shutdown, to be started just before the server is closed (Fastify's close): refuses new
   * connections and requests, closes keep-alive connections as soon as they are idle, and destroys
   * whatever is still open after graceMs. Resolves when the HTTPS server has closed.
   */
  drain(graceMs: number): Promise<DrainOutcome> {
    const { secure, plain } = this;
    if (!secure || !plain) return Promise.resolve({ unfinishedConnections: 0 });
    this.draining = true;
    // Stop listening now, not when Fastify's close gets to it after its hooks: a worker of `serve --workers N` then
    // leaves the primary's round robin at once, and a connection made meanwhile is refused instead of waiting in the
    // primary's queue until the whole server has exited. (Fastify's own close of the server later is a no-op.)
    if (secure.listening) secure.close();
    for (const socket of this.undecided) socket.destroy();
    const closeIdle = () => {
      secure.closeIdleConnections();
      plain.closeIdleConnections();
    };
    closeIdle();
    return new Promise((resolve) => {
      let unfinishedConnections = 0;
      const sweep = setInterval(closeIdle, DRAIN_SWEEP_MS);
      const deadline = setTimeout(() => {
        unfinishedConnections = this.connections.size;
        for (const socket of this.connections) socket.destroy();
      }, graceMs);
      secure.once('close', () => {
        clearInterval(sweep);
        clearTimeout(deadline);
        resolve({ unfinishedConnections });
      });
    });
  }
}
