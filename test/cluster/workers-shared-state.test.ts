/**
 * `omopterm serve --workers 2` with the embedded state (docs/operations.md "Worker processes"): both workers answer;
 * one key's rate is one rate whatever the worker (its accepted requests stay within rate × seconds + one burst, and a
 * single connection still gets the whole rate); a monthly quota of N admits exactly N across workers; a key revoked
 * with the CLI is refused by every worker within 1 s; an MCP session, a browser session and a mapping job opened on
 * one worker continue on the other; a release loaded while serving appears on every worker. Through the real CLI.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { loadRelease } from '../../src/importer/load-release.js';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import type { NewApiKey } from '../../src/state/state-store.js';
import { stateStorePath } from '../../src/store/data-dir.js';
import { runCli } from '../helpers/cli.js';
import { loadCachedRelease } from '../helpers/release-cache.js';
import type { TestResponse } from '../helpers/test-server.js';
import { connectionPerWorker, cookieOf, finishedJob, firstCandidates, form, PinnedConnection, sleep, spawnServe, submitTwoTermJob, TWO_TERM_JOB_TARGETS, type ClusterServe } from './cluster-serve.js';

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-workers-'));
let serve: ClusterServe;
let state: EmbeddedStateStore;
/** One connection to each worker: [0] to the worker of slot 1 (it runs the mapping jobs), [1] to the other. */
let workers: PinnedConnection[];
const opened: PinnedConnection[] = [];

async function createKey(key: Partial<NewApiKey> & { name: string }): Promise<string> {
  const created = await state.createKey({ rate_per_second: 100_000, monthly_quota: null, cpt4_validated_until: null, ...key });
  return created.secret;
}

async function connections(n: number): Promise<PinnedConnection[]> {
  const list: PinnedConnection[] = [];
  for (let i = 0; i < n; i++) list.push(await PinnedConnection.open(serve.url));
  opened.push(...list);
  return list;
}

beforeAll(async () => {
  await loadCachedRelease(DEMO_VOCABULARY_DIR, dataDir, '2025.2', true);
  state = new EmbeddedStateStore(stateStorePath(dataDir));
  serve = await spawnServe(dataDir, ['--workers', '2']).listening;
  const pids = /^2 worker processes \(pids (\d+), (\d+)\)/m.exec(serve.stderr());
  expect(pids, serve.stderr()).not.toBeNull();
  const bySlot = [Number(pids![1]), Number(pids![2])];
  const found = await connectionPerWorker(serve.url, 2);
  opened.push(...found);
  workers = bySlot.map((pid) => found.find((c) => c.pid === pid)!);
  expect(workers.every(Boolean)).toBe(true);
  // Three processes start: minutes on a busy two-core machine.
}, 240_000);

afterAll(async () => {
  for (const c of opened) c.close();
  await serve?.stop();
  await state?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('two workers on one port', () => {
  it('both answer, each its own process (not the primary), and the start banner is printed once', () => {
    const [a, b] = workers;
    expect(a!.pid).not.toBe(b!.pid);
    expect([a!.pid, b!.pid]).not.toContain(serve.child.pid);
    expect(serve.stderr().match(/^omopterm listening on /gm)).toHaveLength(1);
    // Every worker finds the release at start; the primary shows the line once.
    expect(serve.stderr().match(/^releases: 2025\.2; default 2025\.2$/gm)).toHaveLength(1);
  });
});

/** Sends requests on each connection, one after another, for `ms`; counts answers by status. */
async function hammer(conns: PinnedConnection[], key: string, ms: number): Promise<{ statuses: Map<number, number>; elapsedS: number; byPid: Map<number, number>; sample429?: TestResponse }> {
  const statuses = new Map<number, number>();
  const byPid = new Map<number, number>();
  let sample429: TestResponse | undefined;
  const started = Date.now();
  await Promise.all(
    conns.map(async (c) => {
      while (Date.now() - started < ms) {
        const res = await c.request('/v1/concepts/201826', { key });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 200) byPid.set(c.pid, (byPid.get(c.pid) ?? 0) + 1);
        if (res.status === 429) sample429 ??= res;
      }
    }),
  );
  return { statuses, elapsedS: (Date.now() - started) / 1000, byPid, sample429 };
}

describe('rate limits: one key, one rate, whatever the worker', () => {
  const RATE = 20;

  // At 20/s every admission asks the primary; the leases of fast keys are tested in primary-link.test.ts (a test
  // machine cannot be relied on to send more than 200 requests a second, where they start).
  it.each([RATE])('accepts at most rate × seconds + one burst over concurrent connections to both workers (%i/s)', async (rate) => {
    const key = await createKey({ name: `rate-shared-${rate}`, rate_per_second: rate });
    const conns = await connections(8);
    expect(new Set(conns.map((c) => c.pid)).size).toBe(2);
    const { statuses, elapsedS, byPid, sample429 } = await hammer(conns, key, 3000);
    const accepted = statuses.get(200) ?? 0;
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    // The bucket holds one second's worth (the burst) and refills at the rate.
    expect(accepted).toBeLessThanOrEqual(Math.ceil(rate * elapsedS) + rate);
    // Both workers served some of them (each alone would have granted the whole rate again).
    expect(byPid.size).toBe(2);
    expect(sample429!.body.error.code).toBe('rate_limit_exceeded');
    expect(sample429!.headers['x-ratelimit-limit']).toBe(String(rate));
  });

  it('gives the whole rate to a key whose requests all reach one worker (not rate / workers)', async () => {
    const key = await createKey({ name: 'rate-one-worker', rate_per_second: RATE });
    const { statuses, elapsedS } = await hammer([workers[1]!], key, 3000);
    const accepted = statuses.get(200) ?? 0;
    expect(accepted).toBeLessThanOrEqual(Math.ceil(RATE * elapsedS) + RATE);
    // A worker with half the rate would accept about RATE/2 × seconds + RATE/2.
    expect(accepted).toBeGreaterThanOrEqual(Math.floor(RATE * (elapsedS - 0.5)));
  });
});

describe('monthly quota across workers', () => {
  it('a quota of N admits exactly N calls under concurrent load on both workers', async () => {
    const QUOTA = 30;
    const key = await createKey({ name: 'quota-shared', monthly_quota: QUOTA });
    const conns = await connections(8);
    expect(new Set(conns.map((c) => c.pid)).size).toBe(2);
    const statuses: number[] = [];
    await Promise.all(
      conns.map(async (c) => {
        for (let i = 0; i < (3 * QUOTA) / conns.length + 1; i++) statuses.push((await c.request('/v1/concepts/201826', { key })).status);
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(QUOTA);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 429)).toBe(true);
  });
});

describe('key revocation', () => {
  it('a key revoked with the CLI is refused by every worker within 1 s', async () => {
    const key = await createKey({ name: 'revokee' });
    const conns = await connections(4);
    expect(new Set(conns.map((c) => c.pid)).size).toBe(2);
    for (const c of conns) expect((await c.request('/v1/concepts/201826', { key })).status).toBe(200);
    const revoked = runCli(['keys', 'revoke', 'revokee', '--data-dir', dataDir]);
    expect(revoked.status, revoked.stderr).toBe(0);
    const revokedAt = Date.now();
    await sleep(Math.max(0, revokedAt + 1000 - Date.now()));
    for (const c of conns) {
      const res = await c.request('/v1/concepts/201826', { key });
      expect(res.status, `worker ${c.pid}`).toBe(401);
      expect(res.body.error.code).toBe('invalid_api_key');
    }
  }, 120_000);
});

describe('MCP over Streamable HTTP across workers', () => {
  const ACCEPT = 'application/json, text/event-stream';
  const rpc = (c: PinnedConnection, key: string, body: unknown, session?: string, method = 'POST') =>
    c.request('/mcp', {
      method,
      key,
      body,
      headers: { accept: ACCEPT, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}) },
    });

  it('initialize on one worker, then tool calls on both; the session is its key\'s; DELETE ends it on every worker', async () => {
    const key = await createKey({ name: 'mcp-agent' });
    const [a, b] = workers;
    const init = await rpc(a!, key, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'workers-test', version: '1' } } });
    expect(init.status, init.text).toBe(200);
    const session = String(init.headers['mcp-session-id']);
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect((await rpc(b!, key, { jsonrpc: '2.0', method: 'notifications/initialized' }, session)).status).toBe(202);

    const listed = await rpc(b!, key, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.result.tools.map((t: { name: string }) => t.name)).toContain('get_concept');
    // examples/demo-vocabulary: 201826 is "Type 2 diabetes mellitus".
    for (const [i, c] of [a, b, a, b, b, a].entries()) {
      const called = await rpc(c!, key, { jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params: { name: 'get_concept', arguments: { concept_id: 201826 } } }, session);
      expect(called.status, `worker ${c!.pid}: ${called.text}`).toBe(200);
      expect(called.body.result.isError ?? false).toBe(false);
      expect(called.body.result.structuredContent.data).toMatchObject({ concept_id: 201826, concept_name: 'Type 2 diabetes mellitus' });
    }

    const other = await createKey({ name: 'mcp-other' });
    const stolen = await rpc(a!, other, { jsonrpc: '2.0', id: 30, method: 'tools/list' }, session);
    expect(stolen.status).toBe(404);

    expect((await rpc(b!, key, undefined, session, 'DELETE')).status).toBe(200);
    for (const c of [a, b]) expect((await rpc(c!, key, { jsonrpc: '2.0', id: 31, method: 'tools/list' }, session)).status, `worker ${c!.pid}`).toBe(404);
  });
});

describe('browser sessions across workers', () => {
  it('a sign-in on one worker holds on the other, and a sign-out on that one ends it on both', async () => {
    const key = await createKey({ name: 'browser-person' });
    const [a, b] = workers;
    const signInForm = await a!.request('/sign-in', { headers: { accept: 'text/html' } });
    const pre = cookieOf(signInForm, 'omopterm_sign_in')!;
    const signedIn = await a!.request('/sign-in', {
      method: 'POST',
      body: form({ api_key: key, next: '/', _csrf: pre }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `omopterm_sign_in=${pre}`, origin: serve.url },
    });
    expect(signedIn.status, signedIn.text).toBe(303);
    const cookie = `omopterm_session=${cookieOf(signedIn, 'omopterm_session')}`;

    const page = await b!.request('/', { headers: { accept: 'text/html', cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Releases loaded');
    const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page.text)![1]!;
    const out = await b!.request('/sign-out', {
      method: 'POST',
      body: form({ _csrf: csrf }),
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie, origin: serve.url },
    });
    expect(out.status).toBe(303);
    expect((await a!.request('/', { headers: { accept: 'text/html', cookie } })).status).toBe(303);
  });
});

describe('mapping jobs across workers', () => {
  it('a job submitted to the worker that does not run jobs is mapped, and both workers show it', async () => {
    const key = await createKey({ name: 'mapper' });
    const [runner, other] = workers;
    const id = await submitTwoTermJob(other!, key);
    expect(await finishedJob(runner!, key, id, 400)).toMatchObject({ state: 'completed', total_terms: 2, mapped_terms: 2 });
    expect(await firstCandidates(other!, key, id)).toEqual(TWO_TERM_JOB_TARGETS);
  });
});

describe('releases loaded while serving', () => {
  it('appear on every worker', async () => {
    // The loader publishes a build with one rename, as `omopterm load` does.
    await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: '2025.1', makeDefault: false, quiet: true, embeddings: false });
    const loadedAt = Date.now();
    const seen = new Map<number, number>();
    for (let i = 0; i < 200 && seen.size < workers.length; i++) {
      for (const c of workers) {
        if (seen.has(c.pid)) continue;
        const health = await c.request('/health');
        if (health.body.releases.includes('2025.1')) seen.set(c.pid, Date.now() - loadedAt);
      }
      await sleep(25);
    }
    expect([...seen.keys()].sort()).toEqual(workers.map((c) => c.pid).sort());
    console.log(`release 2025.1 seen by the workers ${[...seen.values()].map((ms) => `${ms} ms`).join(', ')} after it was published`);
  });
});
