/**
 * A mapping job of 10,000 source terms on a running server, with concept lookups measured while it runs:
 * `npx tsx bench/tools/mapping-job-timing.ts BASE_URL API_KEY DATA_DIR [--terms N] [--k K] [--lookup-connections C]
 * [--lookup-rate R]` (a server kept by `npm run bench -- --scale 1 --skip-load --scenario concept-by-id --keep`, which
 * prints both). Lookups run back to back on each connection (closed loop: as many as the server answers, which on a
 * 2-core machine takes most of a core from the job), or with `--lookup-rate R` at R requests per second in all
 * (open loop: each request starts on schedule whether or not the previous one has answered), the load of people
 * browsing while the job runs.
 */
import Database from 'better-sqlite3';
import { Agent, request } from 'node:https';
import { effectiveDefaultLabel, listReleaseBuilds } from '../../src/store/data-dir.js';
import { percentile } from '../lib/load-generator.js';
import { generatedTerms, termsCsv } from '../lib/mapping-terms.js';
import type { BenchContext } from '../lib/scenario.js';
import { seededRandom } from '../../src/seeded-random.js';
import { numberOption } from '../lib/tool-options.js';


interface Reply {
  status: number;
  body: string;
}

function call(agent: Agent, base: string, key: string, method: string, path: string, body?: string): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const req = request(
      `${base}${path}`,
      { method, agent, rejectUnauthorized: false, headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function main(): Promise<void> {
  const [base, key, dataDir] = process.argv.slice(2);
  if (!base || !key || !dataDir) throw new Error('usage: mapping-job-timing.ts BASE_URL API_KEY DATA_DIR [--terms N] [--k K] [--lookup-connections C]');
  const termCount = numberOption('--terms', 10_000);
  const k = numberOption('--k', 10);
  const connections = numberOption('--lookup-connections', 1);
  const lookupRate = numberOption('--lookup-rate', 0);
  const builds = listReleaseBuilds(dataDir);
  const label = effectiveDefaultLabel(dataDir, builds);
  const build = builds.find((b) => b.label === label);
  if (!build) throw new Error(`no release in ${dataDir}`);
  const db = new Database(build.storePath, { readonly: true });
  const random = seededRandom(24);
  const ctx = {
    store: db,
    release: label,
    random,
    sample<T>(sql: string, n: number): T[] {
      const out: T[] = [];
      let seen = 0;
      for (const row of db.prepare(sql).iterate() as IterableIterator<T>) {
        seen++;
        if (out.length < n) out.push(row);
        else {
          const j = Math.floor(random() * seen);
          if (j < n) out[j] = row;
        }
      }
      return out;
    },
  } as BenchContext;
  const terms = generatedTerms(ctx, termCount);
  const lookupIds = ctx.sample<{ concept_id: number }>('SELECT concept_id FROM concept', 20_000).map((r) => r.concept_id);
  db.close();

  const agent = new Agent({ keepAlive: true, maxSockets: (lookupRate > 0 ? 8 : connections) + 2 });
  const submitted = performance.now();
  const submit = await call(agent, base, key, 'POST', '/v1/mapping-jobs', JSON.stringify({ text: termsCsv(terms), name: `bench ${termCount} terms`, k }));
  if (submit.status !== 202) throw new Error(`submit answered ${submit.status}: ${submit.body.slice(0, 500)}`);
  const jobId = (JSON.parse(submit.body) as { data: { job: { id: string } } }).data.job.id;
  process.stderr.write(`job ${jobId}: ${termCount} terms submitted in ${((performance.now() - submitted) / 1000).toFixed(1)} s\n`);

  const latencies: number[] = [];
  let done: { state: string; mapped_terms: number; total_terms: number; error: string | null } | null = null;
  let lookupFailures = 0;
  /** Lookups that did not answer 200, by status. */
  const failures = new Map<number, number>();
  let stop = false;
  const lookup = async (i: number) => {
    const started = performance.now();
    const reply = await call(agent, base, key, 'GET', `/v1/concepts/${lookupIds[i % lookupIds.length]}`);
    if (reply.status === 200) latencies.push(performance.now() - started);
    else {
      lookupFailures++;
      failures.set(reply.status, (failures.get(reply.status) ?? 0) + 1);
    }
  };
  const lookups =
    lookupRate > 0
      ? [
          (async () => {
            const inFlight = new Set<Promise<void>>();
            const start = performance.now();
            for (let i = 0; !stop; i++) {
              const due = start + (i * 1000) / lookupRate;
              if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
              const p: Promise<void> = lookup(i).finally(() => inFlight.delete(p));
              inFlight.add(p);
            }
            await Promise.all(inFlight);
          })(),
        ]
      : Array.from({ length: connections }, async (_, c) => {
          for (let i = c; !stop; i += connections) await lookup(i);
        });
  let lastReport = 0;
  while (!done) {
    await new Promise((r) => setTimeout(r, 250));
    const poll = await call(agent, base, key, 'GET', `/v1/mapping-jobs/${jobId}`);
    const job = (JSON.parse(poll.body) as { data: { job: { state: string; mapped_terms: number; total_terms: number; error: string | null } } }).data.job;
    if (['completed', 'failed', 'cancelled'].includes(job.state)) done = job;
    else if (performance.now() - lastReport > 5000) {
      lastReport = performance.now();
      process.stderr.write(`  ${((performance.now() - submitted) / 1000).toFixed(0)} s: ${job.state}, ${job.mapped_terms}/${job.total_terms} terms\n`);
    }
  }
  const seconds = (performance.now() - submitted) / 1000;
  stop = true;
  await Promise.all(lookups);
  agent.destroy();
  const sorted = Float64Array.from(latencies).sort();
  const ms = (q: number): string => percentile(sorted, q).toFixed(2);
  console.log(
    `mapping job of ${termCount.toLocaleString('en-US')} terms (top ${k}): ${done.state} in ${seconds.toFixed(1)} s (${(termCount / seconds).toFixed(0)} terms/s)` +
      (done.error ? `, error: ${done.error}` : '') +
      `; concept lookups meanwhile (GET /v1/concepts/{id}, ${lookupRate > 0 ? `${lookupRate}/s` : `${connections} connection${connections > 1 ? 's' : ''} back to back`}): ${latencies.length} ok, ${lookupFailures} failed${failures.size ? ` (${[...failures].map(([status, n]) => `${n} × ${status}`).join(', ')})` : ''}, ` +
      `p50 ${ms(0.5)} ms, p95 ${ms(0.95)} ms, p99 ${ms(0.99)} ms, max ${ms(1)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
