/** Reading note 7: behind a TLS-terminating proxy, X-Forwarded-Proto is trusted only from configured addresses. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCoreFixture(), label: '2025.2' }], trustProxy: ['127.0.0.1'] });
});
afterAll(async () => {
  await t?.close();
});

describe('trusted proxy', () => {
  it('serves plain HTTP from a trusted proxy that says X-Forwarded-Proto: https', async () => {
    const res = await t.request('/v1/concepts/201826', { plain: true, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(200);
    expect(res.body.data.concept_id).toBe(201826);
  });

  it('still refuses plain HTTP from the trusted proxy when it says the client used http', async () => {
    const res = await t.request('/v1/concepts/201826', { plain: true, headers: { 'x-forwarded-proto': 'http' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('https_required');
  });

  it('direct HTTPS keeps working', async () => {
    expect((await t.request('/v1/concepts/201826')).status).toBe(200);
  });
});
