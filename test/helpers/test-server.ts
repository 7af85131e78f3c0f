/**
 * A real omopterm server for tests: temp data dir, releases loaded with the real loader, an API key
 * created through the state store, HTTPS on a free loopback port (self-signed certificate).
 */
import http from 'node:http';
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../src/http/start-server.js';
import { loadRelease } from '../../src/importer/load-release.js';
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
  createKey(options?: Partial<NewApiKey>): string;
  load(sourceDir: string, label: string, options?: { makeDefault?: boolean; replace?: boolean }): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  releases?: Array<{ dir: string; label: string; makeDefault?: boolean }>;
  trustProxy?: string[];
  anonymousRatePerSecond?: number;
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
          let body: unknown = undefined;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-test-'));
  const load = async (sourceDir: string, label: string, opts: { makeDefault?: boolean; replace?: boolean } = {}) => {
    await loadRelease({ sourceDir, dataDir, label, makeDefault: opts.makeDefault ?? false, replace: opts.replace ?? false, quiet: true });
  };
  for (const release of options.releases ?? []) await load(release.dir, release.label, { makeDefault: release.makeDefault });
  const server = await startServer({
    dataDir,
    port: 0,
    trustProxy: options.trustProxy,
    anonymousRatePerSecond: options.anonymousRatePerSecond ?? 1000,
    rescanIntervalMs: 0,
  });
  const createKey = (key: Partial<NewApiKey> = {}) =>
    server.state.createKey({
      name: key.name ?? 'test',
      rate_per_second: key.rate_per_second ?? 100_000,
      monthly_quota: key.monthly_quota ?? null,
      cpt4_validated_until: key.cpt4_validated_until ?? null,
    }).secret;
  const key = createKey();
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
