/**
 * The key check is a property of the MATCHED ROUTE, not of how the path is spelled
 * (Authentication 1–3; Errors rules 1, 2): every spelling of a protected path that reaches a route
 * needs a key (401 without one), is rate-limited and metered; a spelling that reaches no route is
 * a 404 in the right shape. Never data without a key, never 5xx. Requests are sent byte-exact over
 * a TLS socket so that no client library normalises the target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawTlsRequest, startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

const send = (target: string, key?: string): Promise<TestResponse> =>
  rawTlsRequest(t.port, target, { headers: key ? { authorization: `Bearer ${key}` } : {} });

/** Spellings of /v1/vocabularies/releases and /v1/concepts/201826. */
const REST_SPELLINGS = (port: number): string[] => [
  '/v1/vocabularies/releases',
  '/%761/vocabularies/releases',
  '/%76%31/%76ocabularies/%72eleases',
  '/v1/%63oncepts/201826',
  '/v1/concepts/%32%30%31%38%32%36',
  '/v1%2Fconcepts/201826',
  '/v1/concepts%2F201826',
  `https://127.0.0.1:${port}/v1/vocabularies/releases`,
  `https://127.0.0.1:${port}/v1/concepts/201826`,
  `http://127.0.0.1:${port}/v1/concepts/201826`,
  `HTTPS://example.org/%761/concepts/201826`,
  '//v1/concepts/201826',
  '/v1//concepts/201826',
  '/v1/concepts//201826',
  '/v1/../v1/concepts/201826',
  '/v1/./concepts/201826',
  '/x/../v1/vocabularies/releases',
  '/v1/%2e%2e/v1/concepts/201826',
  '/v1/concepts/201826/',
  '/v1/vocabularies/releases/',
  '/V1/concepts/201826',
  '/v1/CONCEPTS/201826',
  '/v1/vocabularies/releases?x=/health',
  '/health/../v1/concepts/201826',
  '/docs/../v1/concepts/201826',
  '/openapi.json/../v1/vocabularies/releases',
];

function expectEnvelopeError(res: TestResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body).toMatchObject({ success: false, error: { code } });
  expect(res.body.data).toBeUndefined();
  expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
  expect(res.headers['x-ratelimit-limit']).toBeDefined();
}

describe('REST: protection follows the matched route, however the path is spelled', () => {
  it('the plain spellings are routed (with a key they answer with data)', async () => {
    expect((await send('/v1/vocabularies/releases', t.key)).status).toBe(200);
    expect((await send('/v1/concepts/201826', t.key)).body.data.concept_id).toBe(201826);
  });

  it('every spelling without a key: 401 missing_api_key when it reaches a route, 404 when it reaches none', async () => {
    const routed: string[] = [];
    for (const target of REST_SPELLINGS(t.port)) {
      const withKey = await send(target, t.key);
      expect(withKey.status, `${target} with a key`).toBeLessThan(500);
      expect([200, 404], `${target} with a key: ${withKey.text}`).toContain(withKey.status);
      const keyless = await send(target);
      expect(keyless.status, `${target} without a key: ${keyless.text}`).toBeLessThan(500);
      if (withKey.status === 200) {
        routed.push(target);
        expectEnvelopeError(keyless, 401, 'missing_api_key');
        const badKey = await send(target, 'oh_not_a_key_at_all_xxxxxxxxxxxxxxx');
        expectEnvelopeError(badKey, 401, 'invalid_api_key');
      } else {
        expectEnvelopeError(keyless, 404, 'not_found');
      }
      expect(keyless.text).not.toContain('Type 2 diabetes');
      expect(keyless.text).not.toContain('"releases"');
    }
    // The percent-encoded, absolute-form and trailing-slash spellings do reach the routes.
    expect(routed).toEqual(
      expect.arrayContaining([
        '/%761/vocabularies/releases',
        '/v1/%63oncepts/201826',
        `https://127.0.0.1:${t.port}/v1/vocabularies/releases`,
        'HTTPS://example.org/%761/concepts/201826',
        '/v1/concepts/201826/',
      ]),
    );
  });

  it('odd spellings are rate-limited on the key like any other request (Limits)', async () => {
    const key = await t.createKey({ rate_per_second: 1 });
    expect((await send('/%761/vocabularies/releases', key)).status).toBe(200);
    const second = await send(`https://127.0.0.1:${t.port}/v1/%63oncepts/201826`, key);
    expectEnvelopeError(second, 429, 'rate_limit_exceeded');
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('odd spellings are metered against the monthly quota (Limits)', async () => {
    const key = await t.createKey({ monthly_quota: 2 });
    expect((await send('/%761/vocabularies/releases', key)).status).toBe(200);
    expect((await send(`https://127.0.0.1:${t.port}/v1/concepts/201826/`, key)).status).toBe(200);
    expectEnvelopeError(await send('/v1/%63oncepts/201826', key), 429, 'monthly_quota_exceeded');
  });

  it('unmatched paths are 404 in the envelope with or without a key, never 500', async () => {
    for (const target of ['/v1/no-such-thing', '/v1', '/nothing-here', '/v1/concepts', '/%00']) {
      expectEnvelopeError(await send(target), 404, 'not_found');
      expectEnvelopeError(await send(target, t.key), 404, 'not_found');
    }
  });

  it('public routes stay open however they are spelled', async () => {
    for (const target of ['/sign-in', '/health', '/%68ealth', `https://127.0.0.1:${t.port}/health`, '/health/', '/openapi.json', '/docs/', '/docs/static/index.html']) {
      const res = await send(target);
      expect([200, 302], `${target}: ${res.text.slice(0, 200)}`).toContain(res.status);
    }
  });
});

describe('HEAD requests follow the same route rules', () => {
  it('HEAD of a protected route needs a key; HEAD of a public route does not', async () => {
    for (const target of ['/v1/concepts/201826', '/%761/vocabularies/releases']) {
      const res = await rawTlsRequest(t.port, target, { method: 'HEAD' });
      expect(res.status, target).toBe(401);
      expect(res.text).toBe('');
    }
    for (const target of ['/sign-in', '/health', '/docs/']) {
      expect((await rawTlsRequest(t.port, target, { method: 'HEAD' })).status, target).toBe(200);
    }
  });
});

describe('FHIR paths (Errors rule 2, rule 5): OperationOutcome, 401 where a route exists, 404 where none', () => {
  const FHIR_SPELLINGS = (port: number): string[] => [
    '/fhir/r4/metadata',
    '/%66hir/r4/metadata',
    '/fhir/r4/%6detadata',
    `https://127.0.0.1:${port}/fhir/r4/metadata`,
    '/fhir//r4/metadata',
    '/fhir/../fhir/r4/metadata',
    '/fhir/r4/./metadata',
    '/fhir/r4/metadata/',
    '/FHIR/r4/metadata',
    '/fhir%2Fr4/metadata',
    '/fhir/r4/CodeSystem/$lookup?system=http://snomed.info/sct&code=44054006',
    '/fhir/r4/ValueSet',
    '/fhir',
  ];

  it('without a key: never data, 401 login when the path reaches a route, 404 not-found when it does not', async () => {
    for (const target of FHIR_SPELLINGS(t.port)) {
      const withKey = await send(target, t.key);
      expect(withKey.status, `${target} with a key: ${withKey.text}`).toBeLessThan(500);
      const keyless = await send(target);
      expect(keyless.headers['content-type'], target).toContain('application/fhir+json');
      expect(keyless.body.resourceType, target).toBe('OperationOutcome');
      expect(keyless.headers['x-request-id'], target).toBeDefined();
      if (withKey.status === 404) {
        expect(keyless.status, target).toBe(404);
        expect(keyless.body.issue[0].code).toBe('not-found');
      } else {
        expect(keyless.status, target).toBe(401);
        expect(keyless.body.issue[0].code).toBe('login');
      }
    }
  });
});
