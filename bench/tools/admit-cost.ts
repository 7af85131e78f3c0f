/**
 * The cost of `admit` (the state store's one call per request) on each state backend, in-process, without HTTP:
 * `npx tsx bench/tools/admit-cost.ts [--state sqlite|postgres://…] [--rate-limit-store memory|postgres|redis://…] [--quota] [--rate R]`
 * admits one key (no quota, or a quota it never reaches) 20,000 times from 32 concurrent callers and prints admits per
 * second and this process's CPU time per admit (wall time on a busy machine overstates it). A PostgreSQL state is
 * opened in a schema of its own, dropped at the end; Redis keys go under a prefix of their own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openStateStore, stateChoice } from '../../src/state/openers/open-state-store.js';

const { values } = parseArgs({
  options: {
    state: { type: 'string', default: 'sqlite' },
    'rate-limit-store': { type: 'string' },
    quota: { type: 'boolean', default: false },
    // The key's rate: 1e9 by default (never limited; on Redis or PostgreSQL it takes its requests in leases). A rate
    // under 200/s asks the rate store on every admit, and is refused once its window is spent (refusals count too).
    rate: { type: 'string', default: '1e9' },
  },
});
const run = `admit_cost_${process.pid}`;
const withName = (url: string, param: string, value: string) => {
  const u = new URL(url);
  if (!u.searchParams.has(param)) u.searchParams.set(param, value);
  return u.href;
};
const state = values.state === 'sqlite' ? 'sqlite' : withName(values.state!, 'schema', run);
const limits = values['rate-limit-store']?.startsWith('redis') ? withName(values['rate-limit-store'], 'prefix', `${run}:`) : values['rate-limit-store'];
const dir = mkdtempSync(join(tmpdir(), 'omopterm-admit-cost-'));
const store = await openStateStore(stateChoice({ sqliteFile: join(dir, 'state.sqlite'), state, rateLimitStore: limits }));
try {
  const { secret } = await store.createKey({ name: 'admit-cost', rate_per_second: Number(values.rate), monthly_quota: values.quota ? 1e12 : null, cpt4_validated_until: null });
  const request = { secret, clientAddress: '192.0.2.1', anonymousRatePerSecond: 20, meter: true };
  for (let i = 0; i < 2000; i += 1) await store.admit(request);
  const total = 20_000;
  let started = 0;
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (started < total) {
        started += 1;
        await store.admit(request);
      }
    }),
  );
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  const label = `${values.state === 'sqlite' ? 'sqlite' : 'postgres'} + ${values['rate-limit-store'] ?? 'default'} rate limits${values.quota ? ', key with a quota' : ''}`;
  process.stdout.write(`${label}: ${Math.round((total / ms) * 1000)} admits/s, ${((cpu.user + cpu.system) / total).toFixed(1)} µs CPU per admit\n`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  if (state !== 'sqlite') {
    const client = new pg.Client({ connectionString: values.state });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${run}" CASCADE`);
    await client.end();
  }
}
