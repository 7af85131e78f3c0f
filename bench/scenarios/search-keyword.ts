/**
 * Keyword-search benchmark (E4 and its siblings) over a loaded release, through the real HTTPS
 * server, plus the naive SQL search OHDSI WebAPI uses (`LOWER(concept_name) LIKE '%q%'` ordered by
 * name) on the same store for comparison.
 *
 *   npx tsx bench/scenarios/search-keyword.ts --data-dir bench/.cache/data-full [--iterations 200]
 *        [--concurrency 32] [--seconds 10] [--naive 3] [--cold]
 *
 * Each scenario is a mix of requests derived from the store itself (words picked by frequency from
 * the search dictionary, codes picked from CONCEPT), so the same command works on any release.
 * Latency is measured at concurrency 1 (p50/p99 over --iterations requests after one warm-up pass
 * over the mix); throughput at --concurrency for --seconds. `--cold` also reports the first request
 * of every distinct query (before any cache is warm) separately.
 */
import Database from 'better-sqlite3';
import https from 'node:https';
import { startServer, type RunningServer } from '../../src/http/start-server.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

export interface SearchScenario {
  name: string;
  requests: BenchRequest[];
  /** Targets of the issue at concurrency 1, ms; undefined = reported only. */
  p50?: number;
  p99?: number;
}

const enc = encodeURIComponent;
const search = (query: string, extra = '') => ({ method: 'GET' as const, path: `/v1/search/concepts?query=${enc(query)}${extra}` });

/** Builds the scenario mix from what the store holds. */
export function buildScenarios(storePath: string): { scenarios: SearchScenario[]; naiveQueries: string[] } {
  const db = new Database(storePath, { readonly: true });
  try {
    const words = (minDocs: number, maxDocs: number, n: number, minLength = 4) =>
      db
        .prepare(`SELECT word FROM search_word WHERE docs BETWEEN ? AND ? AND length(word) >= ? AND word GLOB '[a-z]*' AND word NOT GLOB '*[0-9]*' ORDER BY id LIMIT ?`)
        .pluck()
        .all(minDocs, maxDocs, minLength, n) as string[];
    const common = words(100_000, 1e12, 5);
    const rare = db
      .prepare(`SELECT word FROM search_word WHERE docs BETWEEN 5 AND 50 AND length(word) >= 6 AND word NOT GLOB '*[0-9]*' AND id % 97 = 0 LIMIT 5`)
      .pluck()
      .all() as string[];
    const midWords = words(2_000, 20_000, 30, 8);
    const substrings = midWords.slice(0, 5).map((w) => w.slice(1, 6));
    const multi = db
      .prepare(
        `SELECT concept_name FROM concept WHERE standard_concept = 'S' AND invalid_reason IS NULL AND domain_id = 'Condition'
           AND concept_name NOT GLOB '*[^A-Za-z ]*' AND length(concept_name) BETWEEN 20 AND 40 AND concept_id % 101 = 0 LIMIT 5`,
      )
      .pluck()
      .all() as string[];
    const multiWord = multi.map((n) => n.split(' ').slice(0, 3).join(' '));
    const snomedCodes = db.prepare(`SELECT concept_code FROM concept WHERE vocabulary_id = 'SNOMED' AND concept_id % 1009 = 0 LIMIT 5`).pluck().all() as string[];
    const icdCodes = db.prepare(`SELECT concept_code FROM concept WHERE vocabulary_id = 'ICD10CM' AND concept_code GLOB '*.*' AND concept_id % 101 = 0 LIMIT 5`).pluck().all() as string[];
    const prefixes = words(1_000, 1e12, 10, 6).slice(0, 5).map((w) => w.slice(0, 4));
    const commonWord = common[0] ?? 'disorder';
    const scenarios: SearchScenario[] = [
      { name: 'very common word', requests: common.map((q) => search(q)), p50: 10, p99: 100 },
      { name: 'rare word', requests: rare.map((q) => search(q)), p50: 10, p99: 100 },
      { name: 'multi-word', requests: multiWord.map((q) => search(q)), p50: 10, p99: 100 },
      { name: 'code (SNOMED)', requests: snomedCodes.map((q) => search(q)), p50: 10, p99: 100 },
      { name: 'bare ICD10CM code', requests: icdCodes.map((q) => search(q)), p50: 10, p99: 100 },
      { name: 'substring inside a word', requests: substrings.map((q) => search(q)), p50: 10, p99: 100 },
      { name: 'abbreviation', requests: ['MI', 'COPD', 'CHF', 'T2DM', 'HTN', 'CKD'].map((q) => search(q)), p50: 10, p99: 100 },
      { name: 'filter vocabulary_ids', requests: common.map((q) => search(q, '&vocabulary_ids=SNOMED,ICD10CM')), p50: 10, p99: 100 },
      { name: 'filter domain_ids', requests: common.map((q) => search(q, '&domain_ids=Condition')), p50: 10, p99: 100 },
      { name: 'filter concept_class_ids', requests: common.map((q) => search(q, `&concept_class_ids=${enc('Clinical Finding')}`)), p50: 10, p99: 100 },
      { name: 'filter standard_concept', requests: common.map((q) => search(q, '&standard_concept=S')), p50: 10, p99: 100 },
      { name: 'deep page (page 50)', requests: common.map((q) => search(q, '&page=50&page_size=20')), p50: 10, p99: 100 },
      { name: 'include_invalid', requests: common.map((q) => search(q, '&include_invalid=true')) },
      { name: 'suggest', requests: prefixes.map((q) => ({ method: 'GET' as const, path: `/v1/search/suggest?query=${enc(q)}` })), p50: 5, p99: 100 },
      {
        name: 'bulk of 50',
        requests: [
          {
            method: 'POST' as const,
            path: '/v1/search/bulk',
            body: { searches: Array.from({ length: 50 }, (_, i) => ({ search_id: String(i), query: [...rare, ...midWords, ...multiWord][i % 40] ?? commonWord, page_size: 10 })) },
          },
        ],
      },
    ];
    return { scenarios: scenarios.filter((s) => s.requests.length > 0), naiveQueries: [commonWord, rare[0] ?? 'xyz', multiWord[0] ?? commonWord, substrings[0] ?? 'abc'] };
  } finally {
    db.close();
  }
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export async function runSearchBench(options: { dataDir: string; iterations: number; concurrency: number; seconds: number; naive: number; cold: boolean }) {
  const build = listReleaseBuilds(options.dataDir).at(-1);
  if (!build) throw new Error(`no release loaded in ${options.dataDir}`);
  const { scenarios, naiveQueries } = buildScenarios(build.storePath);
  const server: RunningServer = await startServer({ dataDir: options.dataDir, port: 0, rescanIntervalMs: 0, anonymousRatePerSecond: 1e9 });
  const key = server.state.createKey({ name: 'bench', rate_per_second: 1e9, monthly_quota: null, cpt4_validated_until: null }).secret;
  const agent = new https.Agent({ keepAlive: true, maxSockets: Math.max(64, options.concurrency), rejectUnauthorized: false });
  const send = (r: BenchRequest) =>
    new Promise<number>((resolve, reject) => {
      const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
      const started = process.hrtime.bigint();
      const req = https.request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: r.path,
          method: r.method,
          agent,
          headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) reject(new Error(`${r.method} ${r.path} → ${res.statusCode}`));
            else resolve(Number(process.hrtime.bigint() - started) / 1e6);
          });
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });

  const rows: Array<Record<string, string | number>> = [];
  try {
    for (const s of scenarios) {
      const cold: number[] = [];
      for (const r of s.requests) cold.push(await send(r)); // warm-up pass = first (cold) request of each query
      const times: number[] = [];
      for (let i = 0; i < options.iterations; i++) times.push(await send(s.requests[i % s.requests.length]!));
      times.sort((a, b) => a - b);
      let done = 0;
      const until = Date.now() + options.seconds * 1000;
      let next = 0;
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (Date.now() < until) {
            await send(s.requests[next++ % s.requests.length]!);
            done++;
          }
        }),
      );
      const p50 = percentile(times, 0.5);
      const p99 = percentile(times, 0.99);
      rows.push({
        scenario: s.name,
        queries: s.requests.length,
        'p50 ms': p50.toFixed(2),
        'p99 ms': p99.toFixed(2),
        ...(options.cold ? { 'cold max ms': Math.max(...cold).toFixed(1) } : {}),
        [`req/s @${options.concurrency}`]: Math.round(done / options.seconds),
        target: s.p50 === undefined ? '—' : `p50≤${s.p50} p99≤${s.p99}`,
        ok: s.p50 === undefined ? '—' : p50 <= s.p50 && p99 <= s.p99! ? 'yes' : 'NO',
      });
      console.error(`${s.name}: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms`);
    }
  } finally {
    agent.destroy();
    await server.close();
  }

  // The naive search of OHDSI WebAPI on the same store (full scan; a few runs only).
  const naive: Array<Record<string, string | number>> = [];
  if (options.naive > 0) {
    const db = new Database(build.storePath, { readonly: true });
    db.pragma('mmap_size = 1073741824');
    const stmt = db.prepare(
      `SELECT concept_id, concept_name FROM concept WHERE LOWER(concept_name) LIKE ? ORDER BY concept_name LIMIT 20`,
    );
    for (const q of naiveQueries) {
      const times: number[] = [];
      for (let i = 0; i < options.naive; i++) {
        const t = process.hrtime.bigint();
        stmt.all(`%${q.toLowerCase()}%`);
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      times.sort((a, b) => a - b);
      naive.push({ query: q, 'naive LIKE p50 ms': percentile(times, 0.5).toFixed(0) });
    }
    db.close();
  }
  return { rows, naive, release: build.label };
}

function table(rows: Array<Record<string, string | number>>): string {
  if (!rows.length) return '';
  const cols = Object.keys(rows[0]!);
  return [`| ${cols.join(' | ')} |`, `|${cols.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${cols.map((c) => r[c]).join(' | ')} |`)].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1]! : fallback;
  };
  const result = await runSearchBench({
    dataDir: arg('data-dir', 'bench/.cache/data-full'),
    iterations: Number(arg('iterations', '200')),
    concurrency: Number(arg('concurrency', '32')),
    seconds: Number(arg('seconds', '5')),
    naive: Number(arg('naive', '3')),
    cold: process.argv.includes('--cold'),
  });
  console.log(`\nKeyword search, release ${result.release} (HTTPS, one process, this machine)\n`);
  console.log(table(result.rows));
  if (result.naive.length) console.log(`\nOHDSI WebAPI naive search on the same store (LOWER(concept_name) LIKE '%q%' ORDER BY concept_name LIMIT 20)\n\n${table(result.naive)}`);
}
