/**
 * Requests without a valid key are limited per client address (`--anonymous-rate`; Limits,
 * Errors: 429 with Retry-After). The anonymous bucket is checked before the 401, so a flood of
 * missing or bad keys from one address is refused with 429 rate_limit_exceeded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

const ANONYMOUS_RATE = 4;
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }], anonymousRatePerSecond: ANONYMOUS_RATE });
});
afterAll(async () => {
  await t?.close();
});

async function flood(count: number, options: Parameters<TestServer['request']>[1], path = '/v1/concepts/201826'): Promise<TestResponse[]> {
  const answers: TestResponse[] = [];
  for (let i = 0; i < count; i += 1) answers.push(await t.request(path, options));
  return answers;
}

describe('anonymous flood (Limits; --anonymous-rate)', () => {
  it('missing keys: 401 until the address bucket is empty, then 429 rate_limit_exceeded with Retry-After', async () => {
    const answers = await flood(ANONYMOUS_RATE * 5, { anonymous: true });
    expect(answers[0]!.status).toBe(401);
    expect(answers[0]!.body.error.code).toBe('missing_api_key');
    expect(answers[0]!.headers['x-ratelimit-limit']).toBe(String(ANONYMOUS_RATE));
    const refused = answers.filter((a) => a.status === 429);
    // However slow the machine, 20 requests cannot take the 4 seconds that would refill 16 tokens.
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) {
      expect(res.body).toMatchObject({ success: false, error: { code: 'rate_limit_exceeded' } });
      expect(res.body.data).toBeUndefined();
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
      expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
    }
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
  });

  it('bad keys share the same address bucket and are refused the same way', async () => {
    const answers = await flood(ANONYMOUS_RATE * 5, { key: 'oh_guessing_keys_one_by_one_xxxxxxxxxxxx' });
    expect(answers.some((a) => a.status === 429 && a.body.error.code === 'rate_limit_exceeded')).toBe(true);
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
  });

  it('on /fhir paths the refusal is an OperationOutcome with issue code throttled (Errors rule 2)', async () => {
    const answers = await flood(ANONYMOUS_RATE * 5, { anonymous: true }, '/fhir/r4/metadata');
    const refused = answers.find((a) => a.status === 429);
    expect(refused?.body.resourceType).toBe('OperationOutcome');
    expect(refused?.body.issue[0].code).toBe('throttled');
  });

  it('a valid key from the flooding address still works: it has its own bucket', async () => {
    await flood(ANONYMOUS_RATE * 2, { anonymous: true });
    const res = await t.request('/v1/concepts/201826');
    expect(res.status).toBe(200);
    expect(res.body.data.concept_id).toBe(201826);
  });

  it('public routes are never refused for the flood', async () => {
    await flood(ANONYMOUS_RATE * 2, { anonymous: true });
    expect((await t.request('/health', { anonymous: true })).status).toBe(200);
  });
});
