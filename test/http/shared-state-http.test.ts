/**
 * `serve --state postgres://…` over HTTPS: a key made with the CLI against that state (`keys create --state …`, or
 * OMOPTERM_STATE) works over HTTP; /health names the backends; while PostgreSQL is unreachable (a TCP proxy cut in the
 * test) every request that needs a key check is refused 503 state_unavailable with Retry-After and no data — in the
 * envelope on /v1, an OperationOutcome on /fhir — and /health answers 503; once it is back the same server serves again.
 * The same for rate limits in Redis (`--rate-limit-store redis://…`) when Redis goes away.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateChoice } from '../../src/state/openers/open-state-store.js';
import { AUTH_CACHE_MS } from '../../src/state/postgres/postgres-state-store.js';
import { RATE_LEASE_TTL_MS } from '../../src/state/rate-limiter.js';
import { runCli } from '../helpers/cli.js';
import { freshPostgresSchema, freshRedisPrefix, postgresMissing, redisMissing, TcpProxy, TEST_POSTGRES_URL, throughPort } from '../helpers/state-backends.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

const noPostgres = await postgresMissing();
const noRedis = await redisMissing();

describe.skipIf(noPostgres)('serve --state postgres://… (issue 26)', () => {
  const schema = freshPostgresSchema();
  const cliDataDir = mkdtempSync(join(tmpdir(), 'omopterm-cli-pg-'));
  let proxy: TcpProxy;
  let t: TestServer;

  beforeAll(async () => {
    proxy = await TcpProxy.start(TEST_POSTGRES_URL);
    t = await startTestServer({
      releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }],
      state: stateChoice({ sqliteFile: '/nonexistent/state.sqlite', state: throughPort(schema.url, proxy.port) }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await schema.drop();
    rmSync(cliDataDir, { recursive: true, force: true });
  });

  it('a key made with the CLI against the same PostgreSQL works over HTTP; OMOPTERM_STATE works as --state', async () => {
    const created = runCli(['keys', 'create', '--name', 'made-by-cli', '--rate', '50', '--state', schema.url, '--data-dir', cliDataDir]);
    expect(created.stderr).toContain('created key');
    expect(created.status).toBe(0);
    const secret = created.stdout.trim();
    const res = await t.request('/v1/concepts/201826', { key: secret });
    expect(res.status).toBe(200);
    expect(res.body.data.concept_id).toBe(201826);
    expect(res.headers['x-ratelimit-limit']).toBe('50');

    const listed = runCli(['keys', 'list', '--json', '--data-dir', cliDataDir], { OMOPTERM_STATE: schema.url });
    expect(listed.status).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((k) => k.name)).toContain('made-by-cli');

    const revoked = runCli(['keys', 'revoke', 'made-by-cli', '--state', schema.url, '--data-dir', cliDataDir]);
    expect(revoked.status).toBe(0);
    // Revoked on "another node" (the CLI): refused here within the authentication cache's half second.
    await new Promise((resolve) => setTimeout(resolve, AUTH_CACHE_MS + 100));
    expect((await t.request('/v1/concepts/201826', { key: secret })).status).toBe(401);
  });

  it('a --state that is not a PostgreSQL URL is a one-line usage error saying what to give', () => {
    const res = runCli(['keys', 'list', '--state', 'mysql://db/omop', '--data-dir', cliDataDir]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("--state must be 'sqlite' (the data directory's state.sqlite) or a postgres://user@host:5432/database URL (got 'mysql://db/omop')");
  });

  it('/health reports the state backends', async () => {
    const res = await t.request('/health', { anonymous: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', state: 'ok', state_backend: 'postgres', rate_limit_store: 'postgres' });
  });

  it('PostgreSQL unreachable: 503 state_unavailable with Retry-After and no data, /health 503; back: served again without a restart', async () => {
    await proxy.cut();
    // The test key is fast: requests it took from the shared counter before the cut may be used for RATE_LEASE_TTL_MS
    // (docs/operations.md, "Fast keys on Redis or PostgreSQL"); after that nothing is served without the backend.
    await new Promise((resolve) => setTimeout(resolve, RATE_LEASE_TTL_MS + 20));
    try {
      const rest = await t.request('/v1/concepts/201826');
      expect(rest.status).toBe(503);
      expect(rest.body).toMatchObject({ success: false, error: { code: 'state_unavailable' } });
      expect(rest.body.data).toBeUndefined();
      expect(rest.text.toLowerCase()).not.toContain('diabetes');
      expect(Number(rest.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(rest.headers['x-request-id']).toBe(rest.body.meta.request_id);

      const fhir = await t.request('/fhir/r4/CodeSystem/$lookup?system=http://snomed.info/sct&code=22298006');
      expect(fhir.status).toBe(503);
      expect(fhir.body.resourceType).toBe('OperationOutcome');
      expect(fhir.body.issue[0].code).toBe('transient');

      const anonymous = await t.request('/v1/concepts/201826', { anonymous: true });
      expect(anonymous.status).toBe(503);

      const health = await t.request('/health', { anonymous: true });
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'state_unavailable', state: 'unavailable', state_backend: 'postgres' });
    } finally {
      await proxy.restore();
    }
    const again = await t.request('/v1/concepts/201826');
    expect(again.status).toBe(200);
    expect(again.body.data.concept_id).toBe(201826);
    expect((await t.request('/health', { anonymous: true })).body.state).toBe('ok');
  });
});

describe.skipIf(noRedis)('serve --rate-limit-store redis://… (issue 26)', () => {
  const redis = freshRedisPrefix();
  const stateDir = mkdtempSync(join(tmpdir(), 'omopterm-redis-limits-'));
  let proxy: TcpProxy;
  let t: TestServer;

  beforeAll(async () => {
    proxy = await TcpProxy.start(redis.url);
    t = await startTestServer({
      releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }],
      state: stateChoice({ sqliteFile: join(stateDir, 'state.sqlite'), rateLimitStore: throughPort(redis.url, proxy.port) }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await redis.clean();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it("a key's rate is counted in Redis; Redis gone: 503 state_unavailable, /health 503; back: served again", async () => {
    const key = await t.createKey({ rate_per_second: 2 });
    expect((await t.request('/v1/concepts/201826', { key })).headers['x-ratelimit-remaining']).toBe('1');
    expect((await t.request('/health', { anonymous: true })).body).toMatchObject({ state: 'ok', state_backend: 'sqlite', rate_limit_store: 'redis' });
    await proxy.cut();
    try {
      const refused = await t.request('/v1/concepts/201826', { key });
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('state_unavailable');
      expect(refused.body.data).toBeUndefined();
      expect((await t.request('/health', { anonymous: true })).status).toBe(503);
    } finally {
      await proxy.restore();
    }
    // The Redis client reconnects on its own schedule (at most 2 s between attempts).
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
      status = (await t.request('/v1/concepts/201820')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
  });
});
