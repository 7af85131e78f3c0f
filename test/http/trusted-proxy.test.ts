/**
 * Reading note 7: behind a TLS-terminating proxy, X-Forwarded-Proto is trusted only from configured
 * addresses. Two servers see the same loopback client: one lists it in --trust-proxy, one lists
 * another address only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

let trusting: TestServer;
let untrusting: TestServer;

beforeAll(async () => {
  const dir = writeCoreFixture();
  trusting = await startTestServer({ releases: [{ dir, label: '2025.2' }], trustProxy: ['127.0.0.1'] });
  untrusting = await startTestServer({ releases: [{ dir, label: '2025.2' }], trustProxy: ['10.255.0.1'] });
});
afterAll(async () => {
  await trusting?.close();
  await untrusting?.close();
});

const expectHttpsRequired = (res: TestResponse) => {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ success: false, error: { code: 'https_required' } });
  expect(res.body.error.message).toMatch(/HTTPS is required/);
  expect(res.body).not.toHaveProperty('data');
  expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
};

describe('trusted proxy', () => {
  it('serves plain HTTP from a trusted proxy that says X-Forwarded-Proto: https', async () => {
    const res = await trusting.request('/v1/concepts/201826', { plain: true, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ concept_id: 201826, concept_name: 'Type 2 diabetes mellitus' });
  });

  it('refuses plain HTTP with X-Forwarded-Proto: https from an address not in --trust-proxy (https_required, no data)', async () => {
    expectHttpsRequired(await untrusting.request('/v1/concepts/201826', { plain: true, headers: { 'x-forwarded-proto': 'https' } }));
    // nor does a forged X-Forwarded-For naming the trusted address help
    expectHttpsRequired(
      await untrusting.request('/v1/concepts/201826', { plain: true, headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '10.255.0.1' } }),
    );
  });

  it('still refuses plain HTTP from the trusted proxy when it says the client used http, or says nothing', async () => {
    expectHttpsRequired(await trusting.request('/v1/concepts/201826', { plain: true, headers: { 'x-forwarded-proto': 'http' } }));
    expectHttpsRequired(await trusting.request('/v1/concepts/201826', { plain: true }));
  });

  it('direct HTTPS keeps working on both servers', async () => {
    for (const t of [trusting, untrusting]) {
      const res = await t.request('/v1/concepts/201826');
      expect(res.status).toBe(200);
      expect(res.body.data.concept_id).toBe(201826);
    }
  });
});
