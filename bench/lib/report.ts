/** The benchmark's JSON result and its markdown rendering. */
import type { EventLoopFigures } from './event-loop.js';
import type { RunStats } from './load-generator.js';

export interface BenchResult {
  version: 1;
  startedAt: string;
  command: string;
  machine: { cpus: number; cpuModel: string; memoryBytes: number; node: string; platform: string };
  scale: number;
  seed: number;
  concepts: number;
  release: string;
  synth: {
    reused: boolean;
    dir: string;
    wallMs: number | null;
    peakRssBytes: number | null;
    rows: Record<string, number>;
    bytes: number;
    ancestryDensity?: number;
  };
  load: {
    reused: boolean;
    wallMs: number | null;
    loaderElapsedMs: number;
    peakRssBytes: number | null;
    peakTreeRssBytes: number | null;
    tables: Array<{ table: string; rows: number; ms: number }>;
    storeBytes: number;
    releaseDirBytes: number;
  };
  server: {
    startupMs: number;
    /** `serve --workers` (absent: the server's default, one per core); the memory figures are summed over its processes. */
    workers?: number;
    processes?: number;
    rssAfterWarmupBytes: number;
    /** Of the RSS, pages of memory-mapped files (the vector index): clean, shared, reclaimable. */
    fileBackedAfterWarmupBytes?: number;
    rssAfterRunBytes: number;
    fileBackedAfterRunBytes?: number;
    peakRssBytes: number;
  };
  /** `eventLoop`: the server's event-loop delay while the line ran (absent in older result files, null when not reported). */
  scenarios: Array<RunStats & { scenario: string; description: string; eventLoop?: EventLoopFigures | null }>;
}

const mib = (b: number | null): string => (b === null ? '–' : `${(b / 2 ** 20).toFixed(0)} MiB`);
const sec = (ms: number | null): string => (ms === null ? '–' : ms >= 60_000 ? `${(ms / 60_000).toFixed(1)} min` : `${(ms / 1000).toFixed(1)} s`);
const num = (n: number): string => n.toLocaleString('en-US');
const ms3 = (v: number): string => (Number.isFinite(v) ? (v < 10 ? v.toFixed(2) : v.toFixed(1)) : '–');

export function renderMarkdown(r: BenchResult): string {
  const lines: string[] = [];
  lines.push(`### omopterm benchmark — scale ${r.scale} (${num(r.concepts)} concepts), release ${r.release}`);
  lines.push('');
  lines.push(`${r.startedAt} · ${r.machine.cpus} × ${r.machine.cpuModel} · ${(r.machine.memoryBytes / 2 ** 30).toFixed(0)} GiB · Node ${r.machine.node} · \`${r.command}\``);
  lines.push('');
  lines.push(
    `**Synthetic vocabulary** (\`omopterm synth\`, seed ${r.seed}): ${r.synth.reused ? 'reused from cache' : `${sec(r.synth.wallMs)}, peak RSS ${mib(r.synth.peakRssBytes)}`}, ${(r.synth.bytes / 2 ** 30).toFixed(2)} GiB of files.`,
  );
  lines.push('');
  lines.push(`**Load** (\`omopterm load\`)${r.load.reused ? ' — store reused from the cache; figures of the run that built it' : ''}:`);
  lines.push('');
  lines.push('| table | rows | time |');
  lines.push('|---|---:|---:|');
  for (const t of r.load.tables) lines.push(`| ${t.table} | ${num(t.rows)} | ${sec(t.ms)} |`);
  lines.push(`| **total** (wall) | | **${sec(r.load.wallMs ?? r.load.loaderElapsedMs)}** |`);
  lines.push('');
  lines.push(
    `Peak RSS while loading: ${mib(r.load.peakRssBytes)} (largest process; whole process tree ${mib(r.load.peakTreeRssBytes)}). Store on disk: ${mib(r.load.storeBytes)} (release directory ${mib(r.load.releaseDirBytes)}).`,
  );
  lines.push('');
  const workers = r.server.workers === undefined ? '' : ` --workers ${r.server.workers}`;
  const processes = r.server.processes && r.server.processes > 1 ? ` (${r.server.processes} processes together)` : '';
  lines.push(`**Serving** (\`omopterm serve${workers}\`, HTTPS on loopback, autocannon in the same machine): server RSS${processes} after warm-up ${mib(r.server.rssAfterWarmupBytes)}${mappedPart(r.server.fileBackedAfterWarmupBytes)}, after the run ${mib(r.server.rssAfterRunBytes)}${mappedPart(r.server.fileBackedAfterRunBytes)} (peak ${mib(r.server.peakRssBytes)}); started in ${sec(r.server.startupMs)}.`);
  lines.push('');
  lines.push('| scenario | connections | req/s | p50 ms | p95 ms | p99 ms | samples | errors | loop delay p99 ms | loop delay max ms |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of r.scenarios) {
    const errs = s.failed + s.errors + s.timeouts;
    const loop = s.eventLoop ? `${ms3(s.eventLoop.p99Ms)} | ${ms3(s.eventLoop.maxMs)}` : '– | –';
    lines.push(
      `| ${s.scenario} | ${s.connections} | ${num(Math.round(s.rps))} | ${ms3(s.p50)} | ${ms3(s.p95)} | ${ms3(s.p99)} | ${num(s.samples ?? s.requests)} | ${errs ? `${num(errs)} ${JSON.stringify(s.statusCounts)}` : 0} | ${loop} |`,
    );
  }
  lines.push('');
  lines.push(
    'Loop delay: how late the server\'s event loop ran a 1 ms timer while the line ran (`perf_hooks.monitorEventLoopDelay`, worst p99 and max over the serving processes; see bench/README.md).',
  );
  lines.push('');
  return lines.join('\n');
}

/** ", of which N MiB mapped files" when the figure was recorded (older result files lack it). */
function mappedPart(bytes: number | undefined): string {
  return bytes === undefined ? '' : ` (of which ${mib(bytes)} pages of mapped files)`;
}
