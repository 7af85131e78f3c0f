/**
 * Limits that hold across nodes (issue 26 acceptance): a monthly quota of N admits exactly N calls when several
 * instances ask at once — two processes on one state.sqlite, two stores on one PostgreSQL — and an outage of
 * PostgreSQL (a TCP proxy cut in the test) refuses with StateUnavailableError, admits nothing, keeps the buffered
 * usage, and ends by itself when the server is reachable again.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import { openStateStore, stateChoice } from '../../src/state/openers/open-state-store.js';
import { PgDatabase } from '../../src/state/postgres/pg-database.js';
import { parsePostgresUrl } from '../../src/state/postgres/postgres-url.js';
import { RATE_LEASE_TTL_MS } from '../../src/state/rate-limiter.js';
import { StateUnavailableError } from '../../src/state/state-errors.js';
import type { Admission, AdmissionRequest, StateStore } from '../../src/state/state-store.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { freshPostgresSchema, postgresMissing, TcpProxy, TEST_POSTGRES_URL, throughPort } from '../helpers/state-backends.js';

const noPostgres = await postgresMissing();
const month = () => new Date().toISOString().slice(0, 7);
const metered = (secret: string): AdmissionRequest => ({ secret, clientAddress: '192.0.2.1', anonymousRatePerSecond: 1, meter: true });
const openPostgres = (url: string) => openStateStore(stateChoice({ sqliteFile: '/nonexistent/state.sqlite', state: url }), { flushIntervalMs: 0 });

/** Runs test/helpers/admit-process.ts; resolves to the calls its quota allowed. */
function admitInAnotherProcess(file: string, secret: string, count: number, startAtMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/admit-process.ts', file, secret, String(count), String(startAtMs)], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve((JSON.parse(out) as { allowed: number }).allowed) : reject(new Error(`admit process failed (${code}): ${err}`))));
  });
}

describe('a monthly quota of N admits exactly N calls across instances under concurrent load', () => {
  it('two processes on one state.sqlite (the --workers case)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'omopterm-quota-processes-'));
    const file = join(dir, 'state.sqlite');
    try {
      const setup = new EmbeddedStateStore(file, { flushIntervalMs: 0 });
      const { record, secret } = await setup.createKey({ name: 'metered', rate_per_second: 1_000_000, monthly_quota: 150, cpt4_validated_until: null });
      await setup.close();
      // Both start at the same moment, each asking 120 times: 240 asks for 150 calls.
      const startAt = Date.now() + 4000;
      const allowed = await Promise.all([admitInAnotherProcess(file, secret, 120, startAt), admitInAnotherProcess(file, secret, 120, startAt)]);
      expect(allowed[0]! + allowed[1]!).toBe(150);
      // Both got some: they really did share the quota.
      expect(Math.min(...allowed)).toBeGreaterThan(0);
      const after = new EmbeddedStateStore(file, { flushIntervalMs: 0 });
      expect(await after.usageOf(record.id, month())).toBe(150);
      await after.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(noPostgres)('two stores on one PostgreSQL', async () => {
    const schema = freshPostgresSchema();
    const stores: StateStore[] = [];
    try {
      stores.push(await openPostgres(schema.url), await openPostgres(schema.url));
      const { record, secret } = await stores[0]!.createKey({ name: 'metered', rate_per_second: 1_000_000, monthly_quota: 150, cpt4_validated_until: null });
      // Each store asks 120 times from 16 concurrent callers: 240 asks for 150 calls, both nodes at once.
      const outcomes: Admission[] = [];
      await Promise.all(
        stores.flatMap((store) => {
          let asked = 0;
          return Array.from({ length: 16 }, async () => {
            while (asked < 120) {
              asked += 1;
              outcomes.push(await store.admit(metered(secret)));
            }
          });
        }),
      );
      expect(outcomes).toHaveLength(240);
      expect(outcomes.filter((a) => a.quota?.allowed).length).toBe(150);
      expect(outcomes.filter((a) => a.quota?.allowed === false).every((a) => a.quota!.used === 150)).toBe(true);
      expect(await stores[1]!.usageOf(record.id, month())).toBe(150);
    } finally {
      for (const store of stores) await store.close();
      await schema.drop();
    }
  });
});

describe.skipIf(noPostgres)('PostgreSQL unreachable, then back', () => {
  it('admit fails closed with StateUnavailableError, usage waiting to be written is kept, and the same store resumes', async () => {
    const schema = freshPostgresSchema();
    const proxy = await TcpProxy.start(TEST_POSTGRES_URL);
    const store = await openPostgres(throughPort(schema.url, proxy.port));
    try {
      const unlimited = await store.createKey({ name: 'unlimited', rate_per_second: 1000, monthly_quota: null, cpt4_validated_until: null });
      const quota = await store.createKey({ name: 'quota', rate_per_second: 1000, monthly_quota: 10, cpt4_validated_until: null });
      for (let i = 0; i < 3; i += 1) expect((await store.admit(metered(unlimited.secret))).quota?.allowed).toBe(true);
      expect((await store.admit(metered(quota.secret))).quota?.used).toBe(1);

      await proxy.cut();
      // A key this fast takes its requests from the shared counter a few at a time (docs/operations.md, "Failure"):
      // the ones already counted may be used for RATE_LEASE_TTL_MS, then every admission needs the backend.
      await new Promise((resolve) => setTimeout(resolve, RATE_LEASE_TTL_MS + 20));
      await expect(store.admit(metered(unlimited.secret))).rejects.toBeInstanceOf(StateUnavailableError);
      await expect(store.admit(metered(quota.secret))).rejects.toBeInstanceOf(StateUnavailableError);
      await expect(store.admit({ ...metered('oh_unknown'), meter: false })).rejects.toBeInstanceOf(StateUnavailableError);
      expect(await store.health()).toEqual({ state: 'unavailable', backend: 'postgres', rate_limit_store: 'postgres' });
      // The three buffered calls cannot be written now; they are kept, not dropped.
      await expect(store.flush()).rejects.toBeInstanceOf(StateUnavailableError);

      await proxy.restore();
      expect(await store.health()).toMatchObject({ state: 'ok' });
      expect((await store.admit(metered(quota.secret))).quota?.used).toBe(2);
      expect((await store.admit(metered(unlimited.secret))).key?.id).toBe(unlimited.record.id);
      await store.flush();
      // Refused calls were not counted; the buffered ones were written once the server was back.
      expect(await store.usageOf(unlimited.record.id, month())).toBe(4);
      expect(await store.usageOf(quota.record.id, month())).toBe(2);
    } finally {
      await store.close();
      await proxy.close();
      await schema.drop();
    }
  });

  it('a PostgreSQL that does not answer at start stops the start with a message naming it', async () => {
    const proxy = await TcpProxy.start(TEST_POSTGRES_URL);
    await proxy.cut();
    const url = throughPort(freshPostgresSchema().url, proxy.port);
    await expect(openPostgres(url)).rejects.toThrow(`cannot reach PostgreSQL at postgres://postgres@127.0.0.1:${proxy.port}/test`);
  });

  it("the counters' connections start with synchronous_commit off, after the URL's own startup options", async () => {
    const url = `${TEST_POSTGRES_URL}?options=${encodeURIComponent('-c search_path=omopterm_elsewhere -c application_name=mine')}`;
    const counters = new PgDatabase(parsePostgresUrl(url), () => {}, { asyncCommit: true });
    const durable = new PgDatabase(parsePostgresUrl(url));
    try {
      // several at once: every connection the pool opens has the setting from its start
      const shown = await Promise.all(Array.from({ length: 4 }, () => counters.query<{ synchronous_commit: string }>('SHOW synchronous_commit')));
      expect(shown.map((r) => r.rows[0]!.synchronous_commit)).toEqual(['off', 'off', 'off', 'off']);
      expect((await counters.query<{ search_path: string }>('SHOW search_path')).rows[0]!.search_path).toBe('omopterm_elsewhere');
      expect((await durable.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit).toBe('on');
    } finally {
      await counters.close();
      await durable.close();
    }
  });

  it('nodes starting at once apply each migration once', async () => {
    const schema = freshPostgresSchema();
    const stores: StateStore[] = [];
    try {
      stores.push(...(await Promise.all([openPostgres(schema.url), openPostgres(schema.url), openPostgres(schema.url)])));
      const { record } = await stores[0]!.createKey({ name: 'k', rate_per_second: 1, monthly_quota: null, cpt4_validated_until: null });
      expect((await stores[2]!.listKeys()).map((k) => k.id)).toEqual([record.id]);
    } finally {
      for (const store of stores) await store.close();
      await schema.drop();
    }
  });
});

describe('--state and --rate-limit-store values', () => {
  it('read a schema from ?schema= or from options=-c search_path=, and refuse what cannot work with what to give', () => {
    expect(stateChoice({ sqliteFile: '/d/state.sqlite' })).toEqual({ state: { kind: 'sqlite', file: '/d/state.sqlite' }, rateLimits: { kind: 'memory' } });
    const pg = stateChoice({ sqliteFile: '/d/state.sqlite', state: 'postgres://app:pw@db.internal:5433/omop?schema=terms' });
    expect(pg).toMatchObject({ state: { kind: 'postgres', location: { schema: 'terms', display: 'postgres://app:***@db.internal:5433/omop' } }, rateLimits: { kind: 'postgres' } });
    const searchPath = stateChoice({ sqliteFile: '/d/s', state: 'postgresql://app@db/omop?options=-c%20search_path%3Dshared', rateLimitStore: 'redis://cache:6379' });
    expect(searchPath).toMatchObject({ state: { location: { schema: 'shared' } }, rateLimits: { kind: 'redis', location: { prefix: 'omopterm:' } } });
    expect(() => stateChoice({ sqliteFile: '/d/s', state: 'mysql://db/omop' })).toThrow("--state must be 'sqlite' (the data directory's state.sqlite) or a postgres://");
    expect(() => stateChoice({ sqliteFile: '/d/s', state: 'postgres://db/omop?schema=drop table' })).toThrow('is not a schema name');
    expect(() => stateChoice({ sqliteFile: '/d/s', rateLimitStore: 'postgres' })).toThrow('give --state postgres://… too');
    expect(() => stateChoice({ sqliteFile: '/d/s', rateLimitStore: 'memcached://x' })).toThrow('--rate-limit-store must be memory, postgres');
  });
});
