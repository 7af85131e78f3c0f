import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { DEFAULT_ANONYMOUS_RATE } from '../../http/app.js';
import { DEFAULT_HOST, DEFAULT_PORT, startServer, type RunningServer } from '../../http/start-server.js';
import { dataDirOption, parseList, parseNonNegativeInteger, parsePort, parsePositiveNumber } from '../options.js';

export interface ServeCliOptions {
  dataDir: string;
  host: string;
  port: number;
  tlsCert?: string;
  tlsKey?: string;
  trustProxy?: string[];
  anonymousRate: number;
  bulkThreads?: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
}

export function serveOptions(command: Command): Command {
  return command
    .addOption(dataDirOption())
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
      new Option('--bulk-threads <n>', 'helper threads that share bulk searches with the main thread when idle (default: CPU cores − 1, at most 3; 0 = none)')
        .env('OMOPTERM_BULK_THREADS')
        .argParser(parseNonNegativeInteger('--bulk-threads')),
    )
    .addOption(
      new Option('--log-level <level>', 'request log level')
        .env('OMOPTERM_LOG_LEVEL')
        .choices(['fatal', 'error', 'warn', 'info', 'debug', 'silent'])
        .default('warn'),
    );
}

/** Starts the server, prints where it listens, and closes it cleanly on SIGINT/SIGTERM. */
export async function runServer(options: ServeCliOptions): Promise<RunningServer> {
  const dataDir = resolve(options.dataDir);
  const server = await startServer({
    dataDir,
    host: options.host,
    port: options.port,
    tlsCert: options.tlsCert,
    tlsKey: options.tlsKey,
    trustProxy: options.trustProxy,
    anonymousRatePerSecond: options.anonymousRate,
    bulkSearchThreads: options.bulkThreads,
    logLevel: options.logLevel,
    onNotice: (line) => process.stderr.write(`${line}\n`),
  });
  if (server.registry.labels().length === 0) {
    process.stderr.write(`no vocabulary release in ${dataDir} yet: load one with \`omopterm load <athena-dir> --release YYYY.Q --data-dir ${dataDir}\`\n`);
  }
  process.stderr.write(`omopterm listening on ${server.url} (REST ${server.url}/v1, FHIR ${server.url}/fhir/r4, API reference ${server.url}/docs)\n`);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stderr.write(`${signal}: shutting down\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  return server;
}

export function registerServeCommand(program: Command): void {
  serveOptions(program.command('serve'))
    .description('Serve every loaded release over HTTPS: REST under /v1, FHIR under /fhir/{r4,r4b,r5,r6}, API reference at /docs.')
    .action(async (options: ServeCliOptions) => {
      await runServer(options);
    });
}
