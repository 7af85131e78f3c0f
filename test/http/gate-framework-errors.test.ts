/**
 * Errors raised by the framework (routing, body parsing) leave in the same shape as every other
 * error (Errors rules 1, 2): the REST envelope with meta.request_id equal to X-Request-Id and the
 * X-RateLimit-* headers, or an OperationOutcome on /fhir paths. Bad input is a 400 (or 415 for a
 * body the server cannot read), never a 5xx.
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

const send = (method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<TestResponse> =>
  rawTlsRequest(t.port, target, { method, headers: { authorization: `Bearer ${t.key}`, ...headers }, body });

function expectEnvelope(res: TestResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toContain('application/json');
  expect(res.body).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
  expect(res.body.meta.request_id).toBe(res.headers['x-request-id']);
  expect(typeof res.body.meta.timestamp).toBe('string');
  expect(res.headers['x-ratelimit-limit']).toBeDefined();
  expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  expect(res.headers['cache-control']).toBe('no-store');
}

describe('routing errors (Errors rule 1)', () => {
  it('a malformed percent-escape in the path: 400 in the envelope', async () => {
    for (const target of ['/v1/concepts/%zz', '/v1/concepts/by-code/ICD10CM/E11%', '/v1/%ff%fe', '/%zz']) {
      const res = await send('GET', target);
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.message).toContain('percent-escape');
    }
  });

  it('a path parameter longer than the router allows: 400 in the envelope', async () => {
    const res = await send('GET', `/v1/vocabularies/${'S'.repeat(1001)}/concepts`);
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.message).toContain('longer than 1000 characters');
  });

  it('the same errors on /fhir paths are OperationOutcome resources (Errors rule 2)', async () => {
    const bad = await send('GET', '/fhir/r4/CodeSystem/%zz');
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toContain('application/fhir+json');
    expect(bad.body).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'invalid' }] });
    expect(bad.headers['x-request-id']).toBeDefined();
    expect(bad.headers['x-ratelimit-limit']).toBeDefined();
    const long = await send('GET', `/fhir/r4/CodeSystem/${'x'.repeat(1001)}`);
    expect(long.status).toBeLessThan(500);
    expect(long.body.resourceType).toBe('OperationOutcome');
  });
});

describe('request bodies (Errors rule 1)', () => {
  const json = { 'content-type': 'application/json' };

  it('an unsupported Content-Encoding is 415 unsupported_media_type, not read as plain JSON', async () => {
    for (const encoding of ['gzip', 'br', 'deflate', 'x-unknown']) {
      const res = await send('POST', '/v1/search/advanced', { ...json, 'content-encoding': encoding }, '{"query":"diabetes"}');
      expectEnvelope(res, 415, 'unsupported_media_type');
      expect(res.body.error.message).toContain(encoding);
      expect(res.body.data).toBeUndefined();
    }
    const identity = await send('POST', '/v1/search/advanced', { ...json, 'content-encoding': 'identity' }, '{"query":"diabetes"}');
    expect(identity.status).toBe(200);
  });

  it('invalid JSON is a 400 validation_error', async () => {
    for (const body of ['{"query":', '{query: "diabetes"}', 'null x']) {
      const res = await send('POST', '/v1/search/advanced', json, body);
      expectEnvelope(res, 400, 'validation_error');
    }
  });

  it('a content type the server does not read is 415 unsupported_media_type', async () => {
    for (const type of ['application/xml', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded']) {
      const res = await send('POST', '/v1/search/advanced', { 'content-type': type }, 'query=diabetes');
      expectEnvelope(res, 415, 'unsupported_media_type');
    }
  });

  it('a body that is not a JSON object is a 400 naming the body', async () => {
    const res = await send('POST', '/v1/search/advanced', { 'content-type': 'text/plain' }, 'diabetes');
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.message).toContain('request body');
  });
});
