/**
 * Several nodes on one PostgreSQL and one Redis (issue 26 acceptance: "Multi-node tests with two or three `omopterm
 * serve` processes on separate data directories and one PostgreSQL + Redis: a key's accepted requests across all nodes
 * stay within its rate (rate × seconds + one burst, measured over a few seconds of concurrent load on every node); a key
 * revoked on one node is refused by the others within 1 s; a monthly quota of N admits exactly N calls across nodes
 * under concurrent load; an OAuth token issued on one node works on another; a browser session and a mapping job are
 * visible from every node; stopping PostgreSQL (or Redis) gives 503 and no data, restarting it restores service
 * without restarting the nodes").
 *
 * Three `omopterm serve --workers 1` processes started through the real CLI, each on a data directory of its own
 * holding the same release, all with `--state postgres://…` and `--rate-limit-store redis://…` reaching the machine's
 * PostgreSQL and Redis through TCP proxies in this process, which the outage cases cut and restore. Keys and OAuth
 * clients are made with the real CLI against the same PostgreSQL (docs/operations.md "Shared state").
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { AUTH_CACHE_MS } from '../../src/state/postgres/postgres-state-store.js';
import { RATE_LEASE_TTL_MS } from '../../src/state/rate-limiter.js';
import { cookieOf, finishedJob, firstCandidates, form, PinnedConnection, sleep, spawnServe, submitTwoTermJob, TWO_TERM_JOB_TARGETS, type ClusterServe } from '../cluster/cluster-serve.js';
import { CLI, REPO_ROOT, type CliResult } from '../helpers/cli.js';
import { loadCachedRelease } from '../helpers/release-cache.js';
import { freshPostgresSchema, freshRedisPrefix, postgresMissing, redisMissing, TcpProxy, TEST_POSTGRES_URL, TEST_REDIS_URL, throughPort } from '../helpers/state-backends.js';
import type { TestResponse } from '../helpers/test-server.js';

const noPostgres = await postgresMissing();
const noRedis = await redisMissing();

const NODES = 3;
/** examples/demo-vocabulary: 201826 is "Type 2 diabetes mellitus" (SNOMED 44054006), 313217 "Atrial fibrillation". */
const CONCEPT = '/v1/concepts/201826';

/**
 * The real CLI, run without blocking this process (spawnSync would also stop the TCP proxies the nodes reach
 * PostgreSQL and Redis through, for as long as the command runs).
 */
function cli(args: string[]): Promise<CliResult & { exitedAtMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ status: code ?? -1, stdout, stderr, exitedAtMs: Date.now() }));
  });
}

/** Sends requests on each connection, one after another, for `ms`; counts answers by status and by node. */
async function hammer(conns: PinnedConnection[], key: string, ms: number): Promise<{ statuses: Map<number, number>; acceptedByPid: Map<number, number>; elapsedS: number; sample429?: TestResponse }> {
  const statuses = new Map<number, number>();
  const acceptedByPid = new Map<number, number>();
  let sample429: TestResponse | undefined;
  const started = Date.now();
  await Promise.all(
    conns.map(async (c) => {
      while (Date.now() - started < ms) {
        const res = await c.request(CONCEPT, { key });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 200) acceptedByPid.set(c.pid, (acceptedByPid.get(c.pid) ?? 0) + 1);
        if (res.status === 429) sample429 ??= res;
      }
    }),
  );
  return { statuses, acceptedByPid, elapsedS: (Date.now() - started) / 1000, sample429 };
}


describe.skipIf(noPostgres || noRedis)(`${NODES} serve processes on their own data directories, one PostgreSQL + one Redis (issue 26)`, () => {
  const schema = freshPostgresSchema();
  const redis = freshRedisPrefix();
  /** Where the CLI runs (its own data directory: it reads only the state). */
  const cliDataDir = mkdtempSync(join(tmpdir(), 'omopterm-nodes-cli-'));
  const dataDirs = Array.from({ length: NODES }, (_, i) => mkdtempSync(join(tmpdir(), `omopterm-node${i + 1}-`)));
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let nodes: ClusterServe[] = [];
  /** One connection to each node, in node order. */
  let main: PinnedConnection[] = [];
  const opened: PinnedConnection[] = [];

  /** A key made with the CLI in the shared state; its secret. */
  async function createKey(name: string, options: string[] = ['--rate', '100000']): Promise<string> {
    const created = await cli(['keys', 'create', '--name', name, ...options, '--state', schema.url, '--data-dir', cliDataDir]);
    expect(created.status, created.stderr).toBe(0);
    return created.stdout.trim();
  }

  /** `perNode` more connections to every node. */
  async function connections(perNode: number): Promise<PinnedConnection[]> {
    const list: PinnedConnection[] = [];
    for (const node of nodes) for (let i = 0; i < perNode; i++) list.push(await PinnedConnection.open(node.url));
    opened.push(...list);
    return list;
  }

  beforeAll(async () => {
    pgProxy = await TcpProxy.start(TEST_POSTGRES_URL);
    redisProxy = await TcpProxy.start(TEST_REDIS_URL);
    for (const dir of dataDirs) await loadCachedRelease(DEMO_VOCABULARY_DIR, dir, '2025.2', true);
    const shared = ['--workers', '1', '--threads', '1', '--mapping-workers', '1', '--state', throughPort(schema.url, pgProxy.port), '--rate-limit-store', throughPort(redis.url, redisProxy.port)];
    const started = dataDirs.map((dir) => spawnServe(dir, shared));
    nodes = started.map((s) => s.serve);
    await Promise.all(started.map((s) => s.listening));
    main = await connections(1);
    // Three servers start at once: tens of seconds on a busy two-core machine.
  }, 240_000);

  afterAll(async () => {
    for (const c of opened) c.close();
    await Promise.all(nodes.map((n) => n.stop()));
    await pgProxy?.close();
    await redisProxy?.close();
    await schema.drop();
    await redis.clean();
    for (const dir of [cliDataDir, ...dataDirs]) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('each node is its own process, on the shared PostgreSQL state and Redis rate limits', async () => {
    expect(new Set(main.map((c) => c.pid)).size).toBe(NODES);
    expect(main.map((c) => c.pid)).toEqual(nodes.map((n) => n.child.pid));
    expect(new Set(nodes.map((n) => n.port)).size).toBe(NODES);
    for (const c of main) {
      const health = await c.request('/health', { key: null });
      expect(health.body).toMatchObject({ status: 'ok', state: 'ok', state_backend: 'postgres', rate_limit_store: 'redis' });
    }
  });

  it("a key's accepted requests across all nodes stay within its rate under concurrent load on every node", async () => {
    const RATE = 20;
    const key = await createKey('rate-shared', ['--rate', String(RATE)]);
    const conns = await connections(4);
    const { statuses, acceptedByPid, elapsedS, sample429 } = await hammer(conns, key, 3000);
    const accepted = statuses.get(200) ?? 0;
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    // docs/operations.md "How a rate is counted": over T seconds at most r × T + one window's worth (r for a whole
    // number); under continuous load every whole second but the first and the last gives a full window.
    expect(accepted).toBeLessThanOrEqual(RATE * elapsedS + RATE);
    expect(accepted).toBeGreaterThanOrEqual(RATE * (Math.floor(elapsedS) - 1));
    // Every node admitted some (each alone would have granted the whole rate again).
    expect(acceptedByPid.size).toBe(NODES);
    expect(sample429!.body.error.code).toBe('rate_limit_exceeded');
    expect(sample429!.headers['x-ratelimit-limit']).toBe(String(RATE));
    console.log(`rate ${RATE}/s over ${NODES} nodes: ${accepted} accepted in ${elapsedS.toFixed(2)} s (${[...acceptedByPid.values()].join(' + ')})`);
  }, 60_000);

  it('a monthly quota of N admits exactly N calls under concurrent load on every node', async () => {
    const QUOTA = 40;
    const key = await createKey('quota-shared', ['--rate', '100000', '--monthly-quota', String(QUOTA)]);
    const conns = await connections(4);
    const answers: TestResponse[] = [];
    await Promise.all(
      conns.map(async (c) => {
        for (let i = 0; i < Math.ceil((3 * QUOTA) / conns.length); i++) answers.push(await c.request(CONCEPT, { key }));
      }),
    );
    expect(answers.length).toBeGreaterThan(QUOTA);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(QUOTA);
    const refused = answers.filter((r) => r.status !== 200);
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 429));
    expect(new Set(refused.map((r) => r.body.error.code))).toEqual(new Set(['monthly_quota_exceeded']));
    // And it stays used up on every node.
    for (const c of main) expect((await c.request(CONCEPT, { key })).status, `node ${c.pid}`).toBe(429);
  }, 60_000);

  it('a key revoked with the CLI is refused by every node within 1 s', async () => {
    const key = await createKey('revokee');
    const conns = await connections(2);
    const answers: Array<{ pid: number; conn: number; sentAtMs: number; receivedAtMs: number; status: number; code?: string; message?: string }> = [];
    let stopAtMs = Infinity;
    // Every node keeps serving the key up to the revocation, so that each has it cached when it is revoked.
    const load = Promise.all(
      conns.map(async (c, conn) => {
        while (Date.now() < stopAtMs) {
          const sentAtMs = Date.now();
          const res = await c.request(CONCEPT, { key });
          answers.push({ pid: c.pid, conn, sentAtMs, receivedAtMs: Date.now(), status: res.status, code: res.body?.error?.code, message: res.body?.error?.message });
        }
      }),
    );
    await sleep(500);
    const revoked = await cli(['keys', 'revoke', 'revokee', '--state', schema.url, '--data-dir', cliDataDir]);
    stopAtMs = revoked.exitedAtMs + 1500;
    await load;
    expect(revoked.status, revoked.stderr).toBe(0);

    // When the revocation was written (set before the UPDATE commits: measuring from it can only lengthen the delay).
    const db = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await db.connect();
    const row = await db.query(`SELECT revoked_at FROM "${schema.schema}".api_key WHERE name = 'revokee'`).finally(() => db.end());
    const revokedAtMs = Date.parse(row.rows[0].revoked_at);
    expect(revokedAtMs).toBeLessThanOrEqual(revoked.exitedAtMs);

    // A secret that is no active key counts against its address's limit for requests without a valid key before it
    // is found unknown (20/s by default, shared by the nodes through Redis): under this load many refusals are that 429.
    const refusal = (a: (typeof answers)[number]) => (a.status === 401 && a.code === 'invalid_api_key') || (a.status === 429 && a.code === 'rate_limit_exceeded' && a.message!.includes('without a valid API key'));
    const delays: number[] = [];
    for (const c of main) {
      const mine = answers.filter((a) => a.pid === c.pid);
      const before = mine.filter((a) => a.receivedAtMs < revokedAtMs);
      expect(before.length, `node ${c.pid} served the key before`).toBeGreaterThan(0);
      expect(before.every((a) => a.status === 200)).toBe(true);
      // Asked more than 1 s after the revocation, every connection of every node was refused...
      const late = mine.filter((a) => a.sentAtMs > revokedAtMs + 1000);
      expect(late.length, `node ${c.pid} was asked after the second`).toBeGreaterThan(0);
      expect(late.filter((a) => !refusal(a)), `node ${c.pid}`).toEqual([]);
      // ... and once a connection was refused, it was never served again.
      for (const conn of new Set(mine.map((a) => a.conn))) {
        const statuses = mine.filter((a) => a.conn === conn).map((a) => a.status);
        const firstRefused = statuses.findIndex((s) => s !== 200);
        expect(firstRefused).toBeGreaterThan(0);
        expect(statuses.slice(firstRefused)).not.toContain(200);
      }
      delays.push(Math.min(...mine.filter((a) => a.status !== 200).map((a) => a.receivedAtMs)) - revokedAtMs);
    }
    // Asked once each, within the address's limit: the key itself is refused by every node.
    await sleep(1100);
    for (const c of main) {
      const res = await c.request(CONCEPT, { key });
      expect(res.status, `node ${c.pid}`).toBe(401);
      expect(res.body.error.code).toBe('invalid_api_key');
    }
    console.log(`revoked key first refused by the nodes ${delays.map((d) => `${d} ms`).join(', ')} after the revocation was written`);
  }, 60_000);

  it('an OAuth token issued on one node works on every other', async () => {
    await createKey('fhir-tool');
    const client = await cli(['clients', 'create', '--key', 'fhir-tool', '--state', schema.url, '--data-dir', cliDataDir]);
    expect(client.status, client.stderr).toBe(0);
    const id = /^client_id=(.+)$/m.exec(client.stdout)![1]!;
    const secret = /^client_secret=(.+)$/m.exec(client.stdout)![1]!;
    const [a, ...others] = main;
    const issued = await a!.request('/oauth2/token', {
      method: 'POST',
      key: null,
      body: form({ grant_type: 'client_credentials' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` },
    });
    expect(issued.status, issued.text).toBe(200);
    expect(issued.body.token_type).toBe('Bearer');
    const token = issued.body.access_token as string;
    const lookup = '/fhir/r4/CodeSystem/$lookup?system=http://snomed.info/sct&code=44054006';
    for (const c of others) {
      const res = await c.request(lookup, { key: token, headers: { accept: 'application/fhir+json' } });
      expect(res.status, `node ${c.pid}: ${res.text}`).toBe(200);
      expect(res.body.resourceType).toBe('Parameters');
      expect(res.body.parameter.find((p: { name: string }) => p.name === 'display').valueString).toBe('Type 2 diabetes mellitus');
      // A token no node issued is refused there.
      const unknown = await c.request(lookup, { key: `${token.slice(0, -4)}AAAA`, headers: { accept: 'application/fhir+json' } });
      expect(unknown.status).toBe(401);
    }
  }, 60_000);

  it('a sign-in on one node holds on every other, and a sign-out on another ends it on all', async () => {
    const key = await createKey('browser-person');
    const [a, b, c] = main;
    const signInForm = await a!.request('/sign-in', { headers: { accept: 'text/html' } });
    const pre = cookieOf(signInForm, 'omopterm_sign_in')!;
    const signedIn = await a!.request('/sign-in', {
      method: 'POST',
      body: form({ api_key: key, next: '/', _csrf: pre }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `omopterm_sign_in=${pre}`, origin: nodes[0]!.url },
    });
    expect(signedIn.status, signedIn.text).toBe(303);
    const cookie = `omopterm_session=${cookieOf(signedIn, 'omopterm_session')}`;

    // Without the cookie a node sends the browser to sign in; with it, every node shows the page.
    expect((await b!.request('/', { headers: { accept: 'text/html' } })).status).toBe(303);
    for (const n of [b, c]) {
      const page = await n!.request('/', { headers: { accept: 'text/html', cookie } });
      expect(page.status, `node ${n!.pid}`).toBe(200);
      expect(page.text).toContain('Releases loaded');
    }
    const page = await b!.request('/', { headers: { accept: 'text/html', cookie } });
    const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(page.text)![1]!;
    const out = await b!.request('/sign-out', {
      method: 'POST',
      body: form({ _csrf: csrf }),
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie, origin: nodes[1]!.url },
    });
    expect(out.status).toBe(303);
    // The node that signed out forgets the session at once, the others within the authentication cache's 0.5 s.
    await sleep(AUTH_CACHE_MS + 100);
    for (const n of [a, b, c]) expect((await n!.request('/', { headers: { accept: 'text/html', cookie } })).status, `node ${n!.pid}`).toBe(303);
  }, 60_000);

  it('a mapping job submitted on one node is mapped, and every node shows it and its terms', async () => {
    const key = await createKey('mapper');
    const [a, b, c] = main;
    const id = await submitTwoTermJob(a!, key);
    expect(await finishedJob(b!, key, id)).toMatchObject({ state: 'completed', total_terms: 2, mapped_terms: 2 });
    for (const n of [a, c]) expect((await n!.request(`/v1/mapping-jobs/${id}`, { key })).body.data.job, `node ${n!.pid}`).toMatchObject({ id, state: 'completed' });
    expect(await firstCandidates(b!, key, id)).toEqual(TWO_TERM_JOB_TARGETS);
  }, 60_000);

  /** Asks every node until it serves `key` again (at most ~10 s); the nodes that did not. */
  async function untilServed(key: string): Promise<number[]> {
    const waiting = new Set(main);
    for (let attempt = 0; attempt < 50 && waiting.size; attempt++) {
      for (const c of [...waiting]) if ((await c.request(CONCEPT, { key })).status === 200) waiting.delete(c);
      if (waiting.size) await sleep(200);
    }
    return [...waiting].map((c) => c.pid);
  }

  async function expectRefusedWithoutData(c: PinnedConnection, key: string): Promise<void> {
    const res = await c.request(CONCEPT, { key });
    expect(res.status, `node ${c.pid}: ${res.text}`).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: { code: 'state_unavailable' } });
    expect(res.body.data).toBeUndefined();
    expect(res.text.toLowerCase()).not.toContain('diabetes');
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const health = await c.request('/health', { key: null });
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'state_unavailable', state: 'unavailable' });
  }

  it('PostgreSQL stopped: every node answers 503 and no data; restarted: every node serves again, not restarted', async () => {
    const key = await createKey('through-pg-outage');
    for (const c of main) expect((await c.request(CONCEPT, { key })).status).toBe(200);
    await pgProxy.cut();
    // Decided before the cut and still used for a moment (docs/operations.md "When PostgreSQL or Redis is
    // unreachable"): the key's record, cached AUTH_CACHE_MS, and a fast key's leased requests, RATE_LEASE_TTL_MS.
    await sleep(Math.max(AUTH_CACHE_MS, RATE_LEASE_TTL_MS) + 100);
    try {
      for (const c of main) await expectRefusedWithoutData(c, key);
    } finally {
      await pgProxy.restore();
    }
    expect(await untilServed(key)).toEqual([]);
    for (const [i, c] of main.entries()) {
      const health = await c.request('/health', { key: null });
      expect(health.body).toMatchObject({ status: 'ok', state: 'ok', pid: nodes[i]!.child.pid });
      expect(nodes[i]!.child.exitCode).toBeNull();
    }
  }, 60_000);

  it('Redis stopped: a request whose rate is counted there gets 503 and no data on every node; restarted: served again', async () => {
    // 20/s asks Redis on every request (a key of 200/s or more would lease).
    const key = await createKey('through-redis-outage', ['--rate', '20']);
    for (const c of main) expect((await c.request(CONCEPT, { key })).status).toBe(200);
    await redisProxy.cut();
    await sleep(RATE_LEASE_TTL_MS + 100);
    try {
      for (const c of main) await expectRefusedWithoutData(c, key);
    } finally {
      await redisProxy.restore();
    }
    // The Redis client reconnects on its own schedule (at most 2 s between attempts).
    expect(await untilServed(key)).toEqual([]);
    for (const [i, c] of main.entries()) {
      const health = await c.request('/health', { key: null });
      expect(health.body).toMatchObject({ status: 'ok', state: 'ok', rate_limit_store: 'redis', pid: nodes[i]!.child.pid });
    }
  }, 60_000);
});
