/**
 * Bulk searches sent together over HTTPS: each waits its turn on the event loop (TurnQueue) and may
 * be split with a helper thread (BulkSearchPool); every answer must be exactly the answer the same
 * request gets alone, and a bad request among them fails alone (Errors: 400 in the envelope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';
import { concept } from '../search/search-fixture.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'sigma', 'theta'];

let t: TestServer;
beforeAll(async () => {
  const dir = writeAthenaFixture({
    concepts: WORDS.flatMap((w, i) => [
      concept(`${w} fracture of femur`, { concept_id: 700 + i }),
      concept(`${w} widget`, { concept_id: 800 + i, standard_concept: null }),
    ]),
  });
  t = await startTestServer({ releases: [{ dir, label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

/** Bulk body k: 16 searches (enough to be split), a different mix for each k. */
const bodyOf = (k: number) => ({
  searches: Array.from({ length: 16 }, (_, i) => ({ query: i % 3 === 0 ? `${WORDS[(k + i) % 8]} femur` : WORDS[(k * 3 + i) % 8]! })),
  defaults: { page_size: 3 + (k % 4) },
});

const bulk = (body: unknown) => t.request('/v1/search/bulk', { method: 'POST', body });
const withoutDuration = (res: TestResponse) => (res.body.data as Array<{ duration: number }>).map(({ duration, ...rest }) => rest);

describe('concurrent bulk searches over HTTPS', () => {
  it('answer each request exactly as it is answered alone, and a bad one fails alone', async () => {
    const alone: TestResponse[] = [];
    for (let k = 0; k < 12; k++) alone.push(await bulk(bodyOf(k)));
    for (const res of alone) expect(res.status).toBe(200);

    const together = await Promise.all([...Array.from({ length: 12 }, (_, k) => bulk(bodyOf(k))), bulk({ searches: [] })]);
    const refused = together.pop()!;
    expect(refused.status).toBe(400);
    expect(refused.body.success).toBe(false);
    expect(refused.body.error.message).toMatch(/searches/);
    expect(refused.headers['x-request-id']).toBe(refused.body.meta.request_id);
    together.forEach((res, k) => {
      expect(res.status).toBe(200);
      expect(withoutDuration(res)).toEqual(withoutDuration(alone[k]!));
      expect(withoutDuration(res).some((o) => (o as { results: unknown[] }).results.length > 0)).toBe(true);
    });
  });
});
