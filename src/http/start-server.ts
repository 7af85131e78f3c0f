/** Starts the whole server (registry, state store, application, TLS transport) on one port. */
import { configureSearch, type SearchSettings } from '../services/search/search-settings.js';
import type { EmbeddingProviderChoice } from '../search-model/semantic/embedding-provider.js';
import { SemanticIndexRegistry, type SemanticIndexOpener } from '../services/semantic/semantic-index-registry.js';
import type { FastifyInstance } from 'fastify';
import { describeStateChoice, openStateStore, stateChoice, type StateChoice } from '../state/openers/open-state-store.js';
import { delegatedRateLimiter, type RateLimiter, type TakeToken } from '../state/rate-limiter.js';
import type { StateStore } from '../state/state-store.js';
import { stateStorePath } from '../store/data-dir.js';
import { ReleaseRegistry } from '../store/release-registry.js';
import { DEFAULT_RELEASE_STORE_KIND, releaseStoreOpener } from '../store/openers/release-store-openers.js';
import type { VectorFileOpener } from '../store/semantic-index.js';
import { openSqliteSemanticIndex } from '../store/sqlite/sqlite-semantic-index.js';
import { EVENT_LOOP_REPORT_ENV, reportEventLoopDelay } from '../threads/event-loop-report.js';
import { MappingPool } from '../threads/mapping-pool.js';
import { VectorHost, vectorHostOpener } from '../threads/vector-host.js';
import { WorkerPool } from '../threads/worker-pool.js';
import { poolTermMapper, type MappingJobRelay } from './mapping-jobs/mapping-job-runner.js';
import type { McpSessionDirectory } from './mcp-sessions.js';
import { VERSION } from '../version.js';
import { buildApp, DEFAULT_ANONYMOUS_RATE } from './app.js';
import { LOOPBACK_HOST_NAMES, type McpHttpOptions } from './mcp-route.js';
import { advertisedEndpoints, registeredRoutePaths } from './advertised-endpoints.js';
import { rateLimitHeaders } from './plumbing/response-headers.js';
import { DEFAULT_TRANSPORT_LIMITS, HttpsTransport, loadTlsMaterial, type DrainOutcome, type TlsMaterial, type TransportLimits } from './transport.js';

export interface ServerOptions {
  dataDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: string[];
  anonymousRatePerSecond?: number;
  /** Let the browser's pages run without a key, under the anonymous rate and licence rules (off by default). */
  browseWithoutKey?: boolean;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  /** Where the log lines (JSON) go instead of stdout, at logLevel (default info); tests read the log through it. */
  logStream?: { write(line: string): void };
  /** Worker threads for heavy requests (default: the machine's cores; 0 = on the event loop). See WorkerPool. */
  threads?: number;
  /** Heavy requests that may wait for a worker thread (default: 64 per thread); one more is a 503 with Retry-After. */
  threadQueue?: number;
  /** Worker threads that map the terms of mapping jobs (default: one per core; 0 = on the request thread, between requests). */
  mappingWorkers?: number;
  /** Keyword search settings for this process and its worker threads (see src/services/search/search-settings.ts). */
  search?: Partial<SearchSettings>;
  /** How often new/replaced releases are picked up from the data directory. */
  rescanIntervalMs?: number;
  /**
   * Where each SIGUSR2 writes this process's event-loop delay since the previous one (the benchmark's channel; default:
   * the environment variable OMOPTERM_EVENT_LOOP_REPORT; unset: not measured). See src/threads/event-loop-report.ts.
   */
  eventLoopReportDir?: string;
  /** The provider semantic search embeds queries with (`--embedding-model DIR`; default: the built-in one). */
  embeddings?: EmbeddingProviderChoice;
  /** Request time and size limits (defaults: DEFAULT_TRANSPORT_LIMITS). */
  limits?: Partial<TransportLimits>;
  /** How long close() lets in-flight requests finish before closing their connections. */
  shutdownGraceMs?: number;
  onNotice?: (line: string) => void;
  /** Where keys, usage, sessions, jobs and rate limits are kept (default: <data-dir>/state.sqlite, rate limits in memory). */
  state?: StateChoice;
  /** A rate limiter instead of the chosen one, e.g. worker processes asking their primary (see openStateStore). */
  rateLimiter?: RateLimiter;
  /** Host names /mcp answers to (default: the loopback names when listening on a loopback address, else any). */
  mcpAllowedHosts?: string[];
  /** Origins a browser may call /mcp from besides the server's own. */
  mcpAllowedOrigins?: string[];
  /** Set in the workers of `serve --workers N` (src/http/cluster/): what they share through their primary. */
  workerGroup?: WorkerGroupLink;
}

/** What a worker of `serve --workers N` shares with the others through the primary process. */
export interface WorkerGroupLink {
  /** Rate decisions, made by the primary for every worker (one key's rate is one rate). */
  takeToken: TakeToken;
  /** The open MCP sessions, kept by the primary (any worker continues a session). */
  mcpSessions: McpSessionDirectory;
  /** null in the one worker that runs the mapping jobs; in the others, where its kick and cancel go. */
  mappingJobRelay: MappingJobRelay | null;
  /** The job runner's lease name, the same for the worker that runs the jobs and its replacements. */
  mappingJobRunnerId: string;
}

/** True for an address only this machine reaches (where DNS rebinding is the threat /mcp's Host check stops). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  port: number;
  tls: TlsMaterial;
  registry: ReleaseRegistry;
  semanticIndexes: SemanticIndexRegistry;
  state: StateStore;
  /** The endpoints this server answers, for the startup message ("REST https://…/v1, …"). */
  endpoints: string;
  /** Stops accepting, lets in-flight requests finish within shutdownGraceMs, then closes everything. */
  close(): Promise<DrainOutcome>;
}

export const DEFAULT_PORT = 8443;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const notice = options.onNotice ?? (() => {});
  const tls = await loadTlsMaterial(options.dataDir, options.tlsCert, options.tlsKey);
  if (tls.generated) notice(`generated a self-signed TLS certificate: ${tls.certPath} (key ${tls.keyPath})`);
  const stateWhere = options.state ?? stateChoice({ sqliteFile: stateStorePath(options.dataDir) });
  const group = options.workerGroup;
  // Rate limits in process memory would be per worker: the workers of `serve --workers N` ask their primary instead.
  const rateLimiter = options.rateLimiter ?? (group && stateWhere.rateLimits.kind === 'memory' ? delegatedRateLimiter(group.takeToken) : undefined);
  // First, so that an unreachable state backend stops the start before anything else is running.
  const state = await openStateStore(stateWhere, { onNotice: notice, rateLimiter });
  if (stateWhere.state.kind !== 'sqlite' || stateWhere.rateLimits.kind !== 'memory') notice(describeStateChoice(stateWhere));
  const storeKind = DEFAULT_RELEASE_STORE_KIND;
  configureSearch(options.search ?? {});
  // A local model that cannot load stops the start here, before anything else is running.
  // Every thread of this process searches the vector files through one opening of each (./threads/vector-host.ts).
  const vectorHost = new VectorHost();
  let hostOpener: VectorFileOpener | null = null;
  const openIndex: SemanticIndexOpener = (files) => openSqliteSemanticIndex(files, (hostOpener ??= vectorHostOpener(vectorHost.connect())));
  const semanticIndexes = new SemanticIndexRegistry({ choice: options.embeddings ?? { kind: 'lexicon' }, openIndex, onNotice: notice });
  await semanticIndexes.prepare().catch(async (error: unknown) => {
    await state.close();
    throw error;
  });
  const embeddings = options.embeddings ?? { kind: 'lexicon' as const };
  const workerPool = new WorkerPool({ threads: options.threads, queueLimit: options.threadQueue, storeKind, embeddings, semanticIndexes, vectorHost, onProblem: notice });
  // Only the process that runs the mapping jobs needs their threads.
  const mappingPool = options.mappingWorkers === 0 || group?.mappingJobRelay ? null : new MappingPool({ workers: options.mappingWorkers, storeKind, embeddings, vectorHost, onProblem: notice });
  const reportDir = options.eventLoopReportDir ?? process.env[EVENT_LOOP_REPORT_ENV];
  const stopReport = reportDir ? reportEventLoopDelay(reportDir) : undefined;
  const registry = new ReleaseRegistry({
    dataDir: options.dataDir,
    openStore: releaseStoreOpener(storeKind),
    rescanIntervalMs: options.rescanIntervalMs,
    onError: (message) => notice(`release skipped: ${message}`),
    onChange: (labels, def) => {
      notice(`releases: ${labels.join(', ') || '(none)'}; default ${def ?? '(none)'}`);
      // (deferred: the first call comes from the registry's constructor)
      queueMicrotask(() => {
        const builds = registry.all().map((r) => r.build);
        workerPool.retain(builds);
        mappingPool?.retain(builds);
        semanticIndexes.retain(builds);
      });
    },
  });
  const anonymousRatePerSecond = options.anonymousRatePerSecond ?? DEFAULT_ANONYMOUS_RATE;
  const transport = new HttpsTransport(
    tls,
    { ...DEFAULT_TRANSPORT_LIMITS, ...options.limits },
    {
      // Refusals below the application read no key: they count against the client address's bucket.
      rateLimitHeaders: async (clientAddress) =>
        rateLimitHeaders((await state.admit({ secret: null, clientAddress, anonymousRatePerSecond, meter: false })).rate),
    },
  );
  const host = options.host ?? DEFAULT_HOST;
  const mcp: McpHttpOptions = {
    allowedHostNames: options.mcpAllowedHosts?.length ? options.mcpAllowedHosts.map((h) => h.toLowerCase()) : isLoopbackHost(host) ? [...LOOPBACK_HOST_NAMES] : null,
    allowedOrigins: options.mcpAllowedOrigins ?? [],
  };
  const app = await buildApp(
    {
      registry,
      state,
      version: VERSION,
      workerPool,
      semanticIndexes,
      mcp,
      ...(mappingPool ? { mapTerms: poolTermMapper(mappingPool) } : {}),
      ...(group ? { mcpSessions: group.mcpSessions, mappingJobRelay: group.mappingJobRelay ?? undefined, mappingJobRunnerId: group.mappingJobRunnerId } : {}),
    },
    {
      trustProxy: options.trustProxy,
      anonymousRatePerSecond,
      anonymousBrowsing: options.browseWithoutKey ?? false,
      logger: options.logStream
        ? { level: options.logLevel ?? 'info', stream: options.logStream }
        : options.logLevel && options.logLevel !== 'silent'
          ? { level: options.logLevel }
          : false,
      serverFactory: transport.serverFactory,
      clientErrorHandler: transport.clientErrorHandler,
    },
  );
  await app.listen({ host, port: options.port ?? DEFAULT_PORT });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `https://${shownHost}:${port}`;
  return {
    app,
    url,
    port,
    tls,
    registry,
    semanticIndexes,
    state,
    endpoints: advertisedEndpoints(url, registeredRoutePaths(app)),
    close: async () => {
      const drained = transport.drain(options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
      await app.close();
      const outcome = await drained;
      await workerPool.close();
      stopReport?.();
      await mappingPool?.close();
      registry.close();
      await semanticIndexes.close();
      await vectorHost.close();
      await state.close();
      return outcome;
    },
  };
}
