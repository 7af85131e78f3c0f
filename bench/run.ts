/**
 * `npm run bench -- [--scale 0.01]`: the end-to-end benchmark of omopterm on this machine.
 *
 *   1. generate (or reuse) a synthetic Athena vocabulary of the chosen scale (`omopterm synth`)
 *   2. load it (`omopterm load`): wall time per table and in total, peak RSS, store size
 *   3. start the real server (`omopterm serve`, HTTPS on loopback) with a bench API key
 *   4. warm up, read the server's RSS, then drive every scenario of bench/scenarios/ with autocannon
 *      at each concurrency (default 1 and 32): p50 / p95 / p99 latency and throughput, and the server's
 *      event-loop delay meanwhile (p99 / max, read through a bench-only channel: ./lib/event-loop.ts)
 *   5. print a markdown table and write JSON + markdown to bench/results/
 *
 * Generated vocabularies and data directories are cached under bench/.cache/ (per scale and seed).
 */
import Database from 'better-sqlite3';
import { Command, InvalidArgumentError, Option } from 'commander';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { EventLoopProbe } from './lib/event-loop.js';
import { runLoad } from './lib/load-generator.js';
import { cliCommand, processTreeMemory, REPO_ROOT, runMeasured, startBackground, stopProcess, type CliMode } from './lib/processes.js';
import { renderMarkdown, type BenchResult } from './lib/report.js';
import { pageSessionHeaders } from './lib/page-session.js';
import { mcpSessionHeaders } from './lib/mcp-session.js';
import { loadScenarios, type BenchContext } from './lib/scenario.js';
import { conceptsForScale, DEFAULT_SEED } from '../src/synth/index.js';
import { readCurrentEmbedding } from '../src/store/semantic-dir.js';
import { EVENT_LOOP_REPORT_ENV } from '../src/threads/event-loop-report.js';
import { seededRandom } from '../src/seeded-random.js';

interface Args {
  scale: number;
  seed: number;
  duration: number;
  warmup: number;
  connections: number[];
  scenario?: string[];
  fresh?: boolean;
  skipLoad?: boolean;
  cli: CliMode;
  release: string;
  workers?: number;
  keep?: boolean;
}

const CACHE = join(REPO_ROOT, 'bench/.cache');
const RESULTS = join(REPO_ROOT, 'bench/results');

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

function parseArgs(argv: string[]): Args {
  const program = new Command()
    .name('npm run bench --')
    .description('End-to-end benchmark: synth → load → serve → autocannon over HTTPS.')
    .addOption(
      new Option('--scale <f>', 'vocabulary size as a fraction of the full release (0.01 … 1)').default(0.01).argParser((v) => {
        const n = Number(v);
        if (!(n > 0 && n <= 1)) throw new InvalidArgumentError('--scale must be in (0, 1]');
        return n;
      }),
    )
    .addOption(new Option('--seed <n>', 'generator seed').default(DEFAULT_SEED).argParser((v) => Number(v)))
    .addOption(new Option('--duration <s>', 'seconds per scenario and concurrency').default(10).argParser((v) => Number(v)))
    .addOption(new Option('--warmup <s>', 'warm-up seconds per scenario (at the highest concurrency)').default(3).argParser((v) => Number(v)))
    .addOption(new Option('--connections <list>', 'concurrency levels').default([1, 32]).argParser((v) => v.split(',').map(Number)))
    .addOption(new Option('--scenario <names>', 'only these scenarios (comma-separated)').argParser((v) => v.split(',')))
    .option('--fresh', 'regenerate and reload even when cached')
    .option('--skip-load', 'reuse the cached store when present (load figures come from its manifest)')
    .addOption(new Option('--cli <mode>', 'run the CLI from source (tsx) or from dist/ (after npm run build)').choices(['tsx', 'dist']).default('tsx'))
    .addOption(new Option('--release <label>', 'release label to load as').default('2025.2'))
    .addOption(
      new Option('--workers <n>', "the server's worker processes (serve --workers; default: the server's, one per core)").argParser((v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('--workers must be a positive whole number');
        return n;
      }),
    )
    .option('--keep', 'keep the server running at the end (prints its URL and key)');
  program.parse(argv, { from: 'user' });
  return program.opts<Args>();
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    total += st.isDirectory() ? dirBytes(p) : st.size;
  }
  return total;
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolvePromise(port));
    });
  });
}

function httpsGet(url: string): Promise<number> {
  return new Promise((resolvePromise) => {
    const req = request(url, { rejectUnauthorized: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolvePromise(res.statusCode ?? 0));
    });
    req.on('error', () => resolvePromise(0));
    req.on('timeout', () => {
      req.destroy();
      resolvePromise(0);
    });
    req.end();
  });
}


function findStore(dataDir: string, label: string): { dir: string; store: string; manifest: Record<string, unknown> } | null {
  const releases = join(dataDir, 'releases');
  if (!existsSync(releases)) return null;
  const builds = readdirSync(releases).filter((n) => n.startsWith(`${label}__`)).sort();
  const last = builds[builds.length - 1];
  if (!last) return null;
  const dir = join(releases, last);
  if (!existsSync(join(dir, 'manifest.json')) || !existsSync(join(dir, 'store.sqlite'))) return null;
  return { dir, store: join(dir, 'store.sqlite'), manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown> };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const cli = cliCommand(args.cli);
  const concepts = conceptsForScale(args.scale);
  const tag = `s${args.scale}-seed${args.seed}`;
  const synthDir = join(CACHE, `synth-${tag}`);
  const synthDone = join(CACHE, `synth-${tag}.done.json`);
  const dataDir = join(CACHE, `data-${tag}`);
  const loadDone = join(CACHE, `data-${tag}.load.json`);
  mkdirSync(CACHE, { recursive: true });
  mkdirSync(RESULTS, { recursive: true });
  const startedAt = new Date().toISOString();

  // 1. synthetic vocabulary
  let synth: BenchResult['synth'];
  if (!args.fresh && existsSync(synthDone)) {
    const done = JSON.parse(readFileSync(synthDone, 'utf8')) as { wallMs: number; peakRssBytes: number; rows: Record<string, number>; ancestryDensity?: number };
    synth = { reused: true, dir: synthDir, wallMs: done.wallMs, peakRssBytes: done.peakRssBytes, rows: done.rows, bytes: dirBytes(synthDir), ancestryDensity: done.ancestryDensity };
    log(`reusing synthetic vocabulary ${synthDir}`);
  } else {
    rmSync(synthDone, { force: true });
    rmSync(synthDir, { recursive: true, force: true });
    log(`generating ${concepts.toLocaleString('en-US')} concepts into ${synthDir}`);
    const run = await runMeasured([...cli, 'synth', '--out', synthDir, '--concepts', String(concepts), '--seed', String(args.seed), '--json'], { echo: true });
    if (run.status !== 0) throw new Error(`omopterm synth failed (${run.status})`);
    const out = JSON.parse(run.stdout) as { rows: Record<string, number>; peakRssBytes: number; ancestryDensity?: number };
    synth = { reused: false, dir: synthDir, wallMs: run.wallMs, peakRssBytes: Math.max(out.peakRssBytes, run.peakProcessRssBytes), rows: out.rows, bytes: dirBytes(synthDir), ancestryDensity: out.ancestryDensity };
    writeFileSync(synthDone, JSON.stringify({ wallMs: run.wallMs, peakRssBytes: synth.peakRssBytes, rows: out.rows, ancestryDensity: out.ancestryDensity }, null, 2));
  }

  // 2. load
  let existing = findStore(dataDir, args.release);
  let loadWall: number | null = null;
  let loadPeak: number | null = null;
  let loadTreePeak: number | null = null;
  const reuseStore = Boolean(args.skipLoad && existing && !args.fresh && synth.reused);
  if (!reuseStore) {
    if (args.fresh) rmSync(dataDir, { recursive: true, force: true });
    log(`loading into ${dataDir}`);
    const run = await runMeasured([...cli, 'load', synthDir, '--release', args.release, '--data-dir', dataDir, '--replace', '--default'], { echo: true });
    if (run.status !== 0) throw new Error(`omopterm load failed (${run.status}):\n${run.stderr.slice(-2000)}`);
    loadWall = run.wallMs;
    loadPeak = run.peakProcessRssBytes;
    loadTreePeak = run.peakTreeRssBytes;
    existing = findStore(dataDir, args.release);
    if (!existing) throw new Error('load finished but no release store was found');
    writeFileSync(loadDone, JSON.stringify({ dir: existing.dir, wallMs: loadWall, peakRssBytes: loadPeak, peakTreeRssBytes: loadTreePeak }, null, 2));
  } else {
    log(`reusing loaded store ${existing!.dir}`);
    if (existsSync(loadDone)) {
      const done = JSON.parse(readFileSync(loadDone, 'utf8')) as { dir: string; wallMs: number; peakRssBytes: number; peakTreeRssBytes: number };
      if (done.dir === existing!.dir) {
        loadWall = done.wallMs;
        loadPeak = done.peakRssBytes;
        loadTreePeak = done.peakTreeRssBytes;
      }
    }
  }
  const manifest = existing!.manifest as { elapsed_ms: number; tables: Record<string, { rows_stored: number; elapsed_ms: number }> };
  const tables = Object.entries(manifest.tables).map(([table, t]) => ({ table, rows: t.rows_stored, ms: t.elapsed_ms }));
  const tableMs = tables.reduce((s, t) => s + t.ms, 0);
  // The vectors of semantic search (load step "embeddings"; rows = names and synonyms embedded).
  const embedding = readCurrentEmbedding(existing!.dir);
  const embeddingMs = embedding?.elapsedMs ?? 0;
  tables.push({ table: '(indexes, statistics, publish)', rows: 0, ms: Math.max(0, manifest.elapsed_ms - tableMs - embeddingMs) });
  if (embedding) tables.push({ table: `(embeddings: ${embedding.provider})`, rows: embedding.entryCount, ms: embeddingMs });

  // 3. key + server (key names are unique among active keys: a reused data dir still holds the last run's key)
  await runMeasured([...cli, 'keys', 'revoke', 'bench', '--data-dir', dataDir]);
  const key = (await runMeasured([...cli, 'keys', 'create', '--name', 'bench', '--rate', '1000000', '--cpt4-validated-until', '2099-12-31', '--data-dir', dataDir])).stdout.trim();
  if (!key) throw new Error('could not create an API key');
  const port = await freePort();
  const base = `https://127.0.0.1:${port}`;
  const serverStarted = Date.now();
  const workers = args.workers === undefined ? [] : ['--workers', String(args.workers)];
  // Each SIGUSR2 makes the server write its event-loop delay since the previous one here (./lib/event-loop.ts).
  const loopDir = mkdtempSync(join(tmpdir(), 'omopterm-bench-loop-'));
  const server = startBackground([...cli, 'serve', '--data-dir', dataDir, '--host', '127.0.0.1', '--port', String(port), '--log-level', 'warn', ...workers], (line) => log(`server: ${line}`), {
    [EVENT_LOOP_REPORT_ENV]: loopDir,
  });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (!stopped) {
      stopped = true;
      await stopProcess(server);
      rmSync(loopDir, { recursive: true, force: true });
    }
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    for (let k = 0; ; k++) {
      if ((await httpsGet(`${base}/health`)) === 200) break;
      if (server.exitCode !== null) throw new Error('server exited during startup');
      if (k > 600) throw new Error('server did not become healthy within 5 minutes');
      await new Promise((r) => setTimeout(r, 500));
    }
    const startupMs = Date.now() - serverStarted;
    log(`server healthy at ${base} after ${(startupMs / 1000).toFixed(1)} s`);

    // 4. scenarios
    const store = new Database(existing!.store, { readonly: true, fileMustExist: true });
    const random = seededRandom(args.seed);
    const pageHeaders = await pageSessionHeaders(base, key);
    const mcpHeaders = await mcpSessionHeaders(base, key);
    const ctx: BenchContext = {
      store,
      release: args.release,
      random,
      pageHeaders,
      mcpHeaders,
      sample<T>(sql: string, n: number, ...params: unknown[]): T[] {
        const stmt = store.prepare(sql);
        const out: T[] = [];
        let seen = 0;
        for (const row of stmt.iterate(...params) as IterableIterator<T>) {
          seen++;
          if (out.length < n) out.push(row);
          else {
            const j = Math.floor(random() * seen);
            if (j < n) out[j] = row;
          }
        }
        return out;
      },
    };
    let scenarios = await loadScenarios(log);
    if (args.scenario) scenarios = scenarios.filter((s) => args.scenario!.includes(s.name));
    const prepared: Array<{ s: (typeof scenarios)[number]; next: ReturnType<(typeof scenarios)[number]['prepare']> }> = [];
    for (const s of scenarios) {
      try {
        prepared.push({ s, next: s.prepare(ctx) });
      } catch (err) {
        log(`scenario ${s.name} skipped: prepare failed: ${(err as Error).message}`);
      }
    }
    store.close();

    const maxConn = Math.max(...args.connections);
    for (const { s, next } of prepared) {
      log(`warm-up ${s.name} (${args.warmup} s at ${maxConn} connections)`);
      await runLoad({ baseUrl: base, apiKey: key, connections: maxConn, durationSec: args.warmup, next, okStatuses: s.okStatuses ?? [200] });
    }
    const afterWarmup = processTreeMemory(server.pid!);
    const rssAfterWarmup = afterWarmup.rss;
    log(`server RSS after warm-up: ${(rssAfterWarmup / 2 ** 20).toFixed(0)} MiB (mapped files ${(afterWarmup.fileBacked / 2 ** 20).toFixed(0)} MiB)`);

    const results: BenchResult['scenarios'] = [];
    const loop = new EventLoopProbe(loopDir);
    for (const { s, next } of prepared) {
      for (const c of args.connections) {
        await loop.close(); // the window before this line is not its
        const r = await runLoad({ baseUrl: base, apiKey: key, connections: c, durationSec: args.duration, next, okStatuses: s.okStatuses ?? [200] });
        const eventLoop = await loop.close();
        const delay = eventLoop ? `, event-loop delay p99 ${eventLoop.p99Ms.toFixed(1)} ms, max ${eventLoop.maxMs.toFixed(1)} ms` : ', event-loop delay not reported';
        log(`${s.name} c=${c}: ${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(3)} ms, p95 ${r.p95.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms, failed ${r.failed + r.errors + r.timeouts}${delay}`);
        results.push({ scenario: s.name, description: s.description, ...r, eventLoop });
      }
    }
    const mem = processTreeMemory(server.pid!);

    const result: BenchResult = {
      version: 1,
      startedAt,
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '?', memoryBytes: totalmem(), node: process.version, platform: `${process.platform}-${process.arch}` },
      scale: args.scale,
      seed: args.seed,
      concepts,
      release: args.release,
      synth,
      load: {
        reused: reuseStore,
        wallMs: loadWall,
        loaderElapsedMs: manifest.elapsed_ms,
        peakRssBytes: loadPeak,
        peakTreeRssBytes: loadTreePeak,
        tables,
        storeBytes: statSync(existing!.store).size,
        releaseDirBytes: dirBytes(existing!.dir),
      },
      server: {
        startupMs,
        workers: args.workers,
        processes: mem.processes,
        rssAfterWarmupBytes: rssAfterWarmup,
        fileBackedAfterWarmupBytes: afterWarmup.fileBacked,
        rssAfterRunBytes: mem.rss,
        fileBackedAfterRunBytes: mem.fileBacked,
        peakRssBytes: mem.hwm,
      },
      scenarios: results,
    };
    const md = renderMarkdown(result);
    const stamp = startedAt.replace(/[:.]/g, '-');
    writeFileSync(join(RESULTS, `${stamp}-${tag}.json`), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(RESULTS, `${stamp}-${tag}.md`), md);
    writeFileSync(join(RESULTS, `latest-s${args.scale}.md`), md);
    process.stdout.write(`${md}\n`);
    log(`results written to bench/results/${stamp}-${tag}.{json,md}`);
    if (args.keep) {
      log(`server kept running at ${base} (pid ${server.pid}); API key: ${key}`);
      return;
    }
  } finally {
    if (!args.keep) await stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[bench] failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
