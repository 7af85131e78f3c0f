/** Starts the whole server (registry, state store, application, TLS transport) on one port. */
import type { FastifyInstance } from 'fastify';
import { EmbeddedStateStore } from '../state/embedded-state-store.js';
import type { StateStore } from '../state/state-store.js';
import { stateStorePath } from '../store/data-dir.js';
import { BulkSearchPool } from '../services/search/bulk-search-pool.js';
import { ReleaseRegistry } from '../store/release-registry.js';
import { VERSION } from '../version.js';
import { buildApp } from './app.js';
import { httpsWithPlainHttpDetection, loadTlsMaterial, type TlsMaterial } from './transport.js';

export interface ServerOptions {
  dataDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: string[];
  anonymousRatePerSecond?: number;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  /** Helper threads for bulk search (default: cores − 1, at most 3; 0 = none). See BulkSearchPool. */
  bulkSearchThreads?: number;
  /** How often new/replaced releases are picked up from the data directory. */
  rescanIntervalMs?: number;
  onNotice?: (line: string) => void;
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  port: number;
  tls: TlsMaterial;
  registry: ReleaseRegistry;
  state: StateStore;
  close(): Promise<void>;
}

export const DEFAULT_PORT = 8443;
export const DEFAULT_HOST = '127.0.0.1';

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const notice = options.onNotice ?? (() => {});
  const tls = await loadTlsMaterial(options.dataDir, options.tlsCert, options.tlsKey);
  if (tls.generated) notice(`generated a self-signed TLS certificate: ${tls.certPath} (key ${tls.keyPath})`);
  const bulkSearchPool = new BulkSearchPool({ threads: options.bulkSearchThreads, onProblem: notice });
  const registry = new ReleaseRegistry({
    dataDir: options.dataDir,
    rescanIntervalMs: options.rescanIntervalMs,
    onError: (message) => notice(`release skipped: ${message}`),
    onChange: (labels, def) => {
      notice(`releases: ${labels.join(', ') || '(none)'}; default ${def ?? '(none)'}`);
      // (deferred: the first call comes from the registry's constructor)
      queueMicrotask(() => bulkSearchPool.retain(registry.all().map((r) => r.build)));
    },
  });
  const state = new EmbeddedStateStore(stateStorePath(options.dataDir));
  const app = await buildApp(
    { registry, state, version: VERSION, bulkSearchPool },
    {
      trustProxy: options.trustProxy,
      anonymousRatePerSecond: options.anonymousRatePerSecond,
      logger: options.logLevel && options.logLevel !== 'silent' ? { level: options.logLevel } : false,
      serverFactory: httpsWithPlainHttpDetection(tls),
    },
  );
  const host = options.host ?? DEFAULT_HOST;
  await app.listen({ host, port: options.port ?? DEFAULT_PORT });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    app,
    url: `https://${shownHost}:${port}`,
    port,
    tls,
    registry,
    state,
    close: async () => {
      await app.close();
      await bulkSearchPool.close();
      registry.close();
      state.close();
    },
  };
}
