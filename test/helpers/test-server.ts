/**
 * A real omopterm server for tests: temp data dir, releases loaded with the real loader, an API key
 * created through the state store (createKey resolves to the secret; names default to test-N), HTTPS on a free loopback port (self-signed certificate).
 */
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer, type ServerOptions } from '../../src/http/start-server.js';
import { loadRelease } from '../../src/importer/load-release.js';
import { loadCachedRelease } from './release-cache.js';
import type { StateChoice } from '../../src/state/openers/open-state-store.js';
import type { NewApiKey } from '../../src/state/state-store.js';

export interface TestResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Send the request as plain HTTP to the HTTPS port. */
  plain?: boolean;
  /** Omit the Authorization header. */
  anonymous?: boolean;
  /** Use this key instead of the server's default test key. */
  key?: string;
}

export interface TestServer {
  url: string;
  port: number;
  dataDir: string;
  /** A key with a high rate limit and no quota. */
  key: string;
  server: RunningServer;
  request(path: string, options?: RequestOptions): Promise<TestResponse>;
  createKey(options?: Partial<NewApiKey>): Promise<string>;
  load(sourceDir: string, label: string, options?: { makeDefault?: boolean; replace?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  releases?: Array<{ dir: string; label: string; makeDefault?: boolean }>;
  trustProxy?: string[];
  anonymousRatePerSecond?: number;
  /** Let the browser pages run without a key (serve --browse-without-key). */
  browseWithoutKey?: boolean;
  /** Request time/size limits of the transport (defaults: DEFAULT_TRANSPORT_LIMITS). */
  limits?: ServerOptions['limits'];
  /** Receives the server's log lines (JSON, level info and above); without it the server logs nothing. */
  logStream?: ServerOptions['logStream'];
  /** Where the state is kept (default: the data directory's state.sqlite, rate limits in memory). */
  state?: StateChoice;
}

function jsonOrUndefined(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; plain?: boolean } = {},
): Promise<TestResponse> {
  const target = new URL(url);
  const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const transport = options.plain ? http : https;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      {
        hostname: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers,
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: jsonOrUndefined(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/**
 * Sends a request exactly as written (request target not normalised by any client library) over
 * a TLS socket, e.g. an absolute-form target or a path with dot segments, and parses the answer.
 */
export function rawTlsRequest(
  port: number,
  requestTarget: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { host: `127.0.0.1:${port}`, accept: 'application/json', connection: 'close', ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  const head = [`${options.method ?? 'GET'} ${requestTarget} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      socket.write(`${head}\r\n\r\n${options.body ?? ''}`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      try {
        resolve(parseHttpResponse(Buffer.concat(chunks)));
      } catch (err) {
        reject(err);
      }
    });
  });
}

function parseHttpResponse(raw: Buffer): TestResponse {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`incomplete HTTP response: ${raw.toString('latin1').slice(0, 200)}`);
  const [statusLine, ...headerLines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1] ?? 0);
  const headers: http.IncomingHttpHeaders = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let payload = raw.subarray(split + 4);
  if (/chunked/i.test(String(headers['transfer-encoding'] ?? ''))) {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = payload.indexOf('\r\n', at);
      const size = parseInt(payload.subarray(at, lineEnd).toString('latin1'), 16);
      if (!size) break;
      parts.push(payload.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    payload = Buffer.concat(parts);
  }
  const text = payload.toString('utf8');
  return { status, headers, text, body: jsonOrUndefined(text) };
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-test-'));
  const load = async (sourceDir: string, label: string, opts: { makeDefault?: boolean; replace?: boolean } = {}) => {
    if (opts.replace) await loadRelease({ sourceDir, dataDir, label, makeDefault: opts.makeDefault ?? false, replace: true, quiet: true });
    else await loadCachedRelease(sourceDir, dataDir, label, opts.makeDefault ?? false);
  };
  for (const release of options.releases ?? []) await load(release.dir, release.label, { makeDefault: release.makeDefault });
  const server = await startServer({
    dataDir,
    port: 0,
    trustProxy: options.trustProxy,
    anonymousRatePerSecond: options.anonymousRatePerSecond ?? 1000,
    browseWithoutKey: options.browseWithoutKey ?? false,
    rescanIntervalMs: 0,
    limits: options.limits,
    logStream: options.logStream,
    state: options.state,
  });
  let keysCreated = 0;
  const createKey = async (key: Partial<NewApiKey> = {}) =>
    (
      await server.state.createKey({
        // Names are unique among active keys.
        name: key.name ?? `test-${++keysCreated}`,
        rate_per_second: key.rate_per_second ?? 100_000,
        monthly_quota: key.monthly_quota ?? null,
        cpt4_validated_until: key.cpt4_validated_until ?? null,
      })
    ).secret;
  const key = await createKey();
  const url = `https://127.0.0.1:${server.port}`;
  return {
    url,
    port: server.port,
    dataDir,
    key,
    server,
    createKey,
    load: async (sourceDir, label, opts) => {
      await load(sourceDir, label, opts);
      server.registry.rescan();
    },
    request: (path, opts = {}) => {
      const headers: Record<string, string> = { ...opts.headers };
      if (!opts.anonymous) headers.authorization = `Bearer ${opts.key ?? key}`;
      return rawRequest(`${opts.plain ? url.replace('https:', 'http:') : url}${path}`, { ...opts, headers });
    },
    close: async () => {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
