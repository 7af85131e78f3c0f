/**
 * `omopterm serve`: the server's command-line options (shared with `demo` through serveOptions) and runServer,
 * which starts the HTTPS server over every loaded release (in this process, or in --workers processes under this one)
 * and stops it gracefully on SIGINT/SIGTERM.
 */

import { Option, type Command } from 'commander';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { DEFAULT_ANONYMOUS_RATE } from '../../http/app.js';
import { runClusterPrimary, type WorkerServerOptions } from '../../http/cluster/primary.js';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_SHUTDOWN_GRACE_MS, startServer, type RunningServer } from '../../http/start-server.js';
import { DEFAULT_TRANSPORT_LIMITS } from '../../http/transport.js';
import { embeddingChoice, embeddingModelOption } from './embed.js';
import { dataDirOption, parseList, parseNonNegativeInteger, parseOnOff, parsePort, parsePositiveInteger, parsePositiveNumber, rateLimitStoreOption, stateChoiceOf, stateOption } from './options.js';

export interface ServeCliOptions {
  dataDir: string;
  /** `--state`: sqlite or a postgres:// URL. */
  state?: string;
  /** `--rate-limit-store`: memory, postgres or a redis:// URL. */
  rateLimitStore?: string;
  host: string;
  port: number;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: string[];
  anonymousRate: number;
  browseWithoutKey: boolean;
  bulkThreads?: number;
  mappingWorkers?: number;
  searchResultCache: boolean;
  /** Seconds. */
  headersTimeout: number;
  /** Seconds. */
  requestTimeout: number;
  /** Seconds. */
  shutdownGrace: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  embeddingModel?: string;
  mcpAllowedHosts?: string[];
  mcpAllowedOrigins?: string[];
  workers: number;
}

/** What runServer started: where it listens, the endpoints it serves and its TLS material. */
export type ServingSummary = Pick<RunningServer, 'url' | 'endpoints' | 'tls'>;

export function serveOptions(command: Command): Command {
  return command
    .addOption(dataDirOption())
    .addOption(stateOption())
    .addOption(rateLimitStoreOption())
    .addOption(new Option('--host <address>', 'address to listen on').env('OMOPTERM_HOST').default(DEFAULT_HOST))
    .addOption(new Option('--port <port>', 'HTTPS port (0 = any free port)').env('OMOPTERM_PORT').default(DEFAULT_PORT).argParser(parsePort))
    .addOption(new Option('--tls-cert <file>', 'PEM certificate (default: a self-signed one generated into <data-dir>/tls/)').env('OMOPTERM_TLS_CERT'))
    .addOption(new Option('--tls-key <file>', 'PEM private key for --tls-cert').env('OMOPTERM_TLS_KEY'))
    .addOption(
      new Option('--trust-proxy <list>', 'comma-separated addresses/CIDRs of TLS-terminating proxies whose X-Forwarded-Proto is trusted')
        .env('OMOPTERM_TRUST_PROXY')
        .argParser(parseList),
    )
    .addOption(
      new Option('--anonymous-rate <r>', 'requests/second allowed per client address for requests without a valid key')
        .env('OMOPTERM_ANONYMOUS_RATE')
        .default(DEFAULT_ANONYMOUS_RATE)
        .argParser(parsePositiveNumber('--anonymous-rate')),
    )
    .addOption(
      new Option(
        '--browse-without-key',
        'let the browser pages (https://host:port/) run without signing in, under the anonymous rate and licence rules (CPT4 and other licensed vocabularies hidden); the API still needs a key',
      )
        .env('OMOPTERM_BROWSE_WITHOUT_KEY')
        .default(false),
    )
    .addOption(
      new Option('--bulk-threads <n>', 'helper threads that share bulk searches with the main thread when idle (default: CPU cores − 1, at most 3; 0 = none)')
        .env('OMOPTERM_BULK_THREADS')
        .argParser(parseNonNegativeInteger('--bulk-threads')),
    )
    .addOption(
      new Option('--mapping-workers <n>', 'threads that map the terms of mapping jobs (default: one per CPU core; 0 = on the request thread, between requests)')
        .env('OMOPTERM_MAPPING_WORKERS')
        .argParser(parseNonNegativeInteger('--mapping-workers')),
    )
    .addOption(
      new Option('--search-result-cache <on|off>', 'keep the results of recent small searches (off: every search runs, e.g. to benchmark the search path)')
        .env('OMOPTERM_SEARCH_RESULT_CACHE')
        .default(true, 'on')
        .argParser(parseOnOff('--search-result-cache')),
    )
    .addOption(
      new Option('--headers-timeout <seconds>', 'time a client has to send a request line and headers (then 408)')
        .env('OMOPTERM_HEADERS_TIMEOUT')
        .default(DEFAULT_TRANSPORT_LIMITS.headersTimeoutMs / 1000)
        .argParser(parsePositiveNumber('--headers-timeout')),
    )
    .addOption(
      new Option('--request-timeout <seconds>', 'time a client has to send a whole request, body included (then 408)')
        .env('OMOPTERM_REQUEST_TIMEOUT')
        .default(DEFAULT_TRANSPORT_LIMITS.requestTimeoutMs / 1000)
        .argParser(parsePositiveNumber('--request-timeout')),
    )
    .addOption(
      new Option('--shutdown-grace <seconds>', 'on SIGTERM/SIGINT, how long in-flight requests may take to finish before their connections are closed')
        .env('OMOPTERM_SHUTDOWN_GRACE')
        .default(DEFAULT_SHUTDOWN_GRACE_MS / 1000)
        .argParser(parsePositiveNumber('--shutdown-grace')),
    )
    .addOption(
      embeddingModelOption(
        'OMOPTERM_EMBEDDING_MODEL',
        'embed semantic-search queries with the local ONNX model in this directory (default: the built-in provider); releases embedded by another provider answer 503',
      ),
    )
    .addOption(
      new Option(
        '--mcp-allowed-hosts <list>',
        'comma-separated host names the MCP endpoint (/mcp) answers to, e.g. your public name behind a proxy (default: localhost, 127.0.0.1 and [::1] when listening on a loopback address, else any)',
      )
        .env('OMOPTERM_MCP_ALLOWED_HOSTS')
        .argParser(parseList),
    )
    .addOption(
      new Option('--mcp-allowed-origins <list>', "comma-separated origins (https://host[:port]) browsers may call /mcp from besides the server's own")
        .env('OMOPTERM_MCP_ALLOWED_ORIGINS')
        .argParser(parseList),
    )
    .addOption(
      new Option(
        '--workers <n>',
        'server processes sharing the port, under one primary that restarts a crashed one; keys, rates, quotas, MCP and browser sessions and mapping jobs are shared by all (1 = one process, no primary)',
      )
        .env('OMOPTERM_WORKERS')
        .default(availableParallelism(), 'the number of CPU cores')
        .argParser(parsePositiveInteger('--workers')),
    )
    .addOption(
      new Option('--log-level <level>', 'request log level')
        .env('OMOPTERM_LOG_LEVEL')
        .choices(['fatal', 'error', 'warn', 'info', 'debug', 'silent'])
        .default('warn'),
    );
}

/**
 * Starts the server, prints where it listens, and on SIGINT/SIGTERM stops accepting, lets in-flight
 * requests finish (at most --shutdown-grace seconds), closes the remaining connections and exits 0.
 * A second signal exits at once (status 1). With --workers above 1 this process is the primary of that many
 * worker processes (src/http/cluster/primary.ts), which does the same for all of them.
 */
export async function runServer(options: ServeCliOptions): Promise<ServingSummary> {
  const dataDir = resolve(options.dataDir);
  const out = (line: string) => process.stderr.write(`${line}\n`);
  const serverOptions = serverOptionsOf({ ...options, dataDir });
  if (options.workers > 1) {
    const serving = await runClusterPrimary({ workers: options.workers, server: serverOptions, out });
    announce(serving.url, serving.endpoints, serving.releases, dataDir);
    return serving;
  }
  const server = await startServer({ ...serverOptions, onNotice: out });
  announce(server.url, server.endpoints, server.registry.labels().length, dataDir);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      process.stderr.write(`${signal} again: exiting without waiting for in-flight requests\n`);
      process.exit(1);
    }
    closing = true;
    process.stderr.write(`${signal}: shutting down (in-flight requests get up to ${options.shutdownGrace} s)\n`);
    server.close().then(
      ({ unfinishedConnections }) => {
        process.stderr.write(
          unfinishedConnections === 0
            ? 'omopterm stopped: every in-flight request finished\n'
            : `omopterm stopped: closed ${unfinishedConnections} connection(s) still unfinished after ${options.shutdownGrace} s\n`,
        );
        process.exit(0);
      },
      (err: unknown) => {
        process.stderr.write(`omopterm: shutdown failed: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  return server;
}

/** The server's options from the command line's (what a worker process receives too). */
function serverOptionsOf(options: ServeCliOptions): WorkerServerOptions {
  return {
    dataDir: options.dataDir,
    state: stateChoiceOf(options),
    host: options.host,
    port: options.port,
    tlsCert: options.tlsCert,
    tlsKey: options.tlsKey,
    trustProxy: options.trustProxy,
    anonymousRatePerSecond: options.anonymousRate,
    browseWithoutKey: options.browseWithoutKey,
    bulkSearchThreads: options.bulkThreads,
    mappingWorkers: options.mappingWorkers,
    search: { resultCache: options.searchResultCache },
    limits: { headersTimeoutMs: options.headersTimeout * 1000, requestTimeoutMs: options.requestTimeout * 1000 },
    shutdownGraceMs: options.shutdownGrace * 1000,
    logLevel: options.logLevel,
    embeddings: embeddingChoice(options.embeddingModel),
    mcpAllowedHosts: options.mcpAllowedHosts,
    mcpAllowedOrigins: options.mcpAllowedOrigins,
  };
}

/** The start banner (once, whatever the number of processes). */
function announce(url: string, endpoints: string, releases: number, dataDir: string): void {
  if (releases === 0) {
    process.stderr.write(`no vocabulary release in ${dataDir} yet: load one with \`omopterm load <athena-dir> --release YYYY.Q --data-dir ${dataDir}\`\n`);
  }
  process.stderr.write(`omopterm listening on ${url} (${endpoints})\n`);
}

export function registerServeCommand(program: Command): void {
  serveOptions(program.command('serve'))
    .description(
      'Serve every loaded release over HTTPS: REST under /v1, API reference at /docs (the startup message lists the endpoints this build serves).',
    )
    .action(async (options: ServeCliOptions) => {
      await runServer(options);
    });
}
