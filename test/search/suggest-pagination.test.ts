/**
 * Suggest pagination through HTTPS (Common REST conventions rule 3; client contract §1.1 /concepts/suggest,
 * §1.2 /search/suggest): totals are exact or declared lower bounds, never invented; deep pages are a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { concept } from './search-fixture.js';
import { SUGGEST_MAX_DEPTH } from '../../src/services/search/suggest.js';

// 23 concepts whose names start with "Diab", one with "diab" inside a word (search matches word parts too), one without.
const DIAB = Array.from({ length: 23 }, (_, i) => concept(`Diabetic complication number ${i + 1}`, { concept_id: 8100001 + i, concept_code: `D${i + 1}` }));
const OTHERS = [
  concept('Asthma', { concept_id: 8200001, concept_code: 'X1' }),
  concept('Cardiab unrelated spelling', { concept_id: 8200002, concept_code: 'X2' }),
];
const expectedIds = [...DIAB, ...OTHERS].filter((c) => c.concept_name.toLowerCase().includes('diab')).map((c) => c.concept_id);

let t: TestServer;
beforeAll(async () => {
  const dir = writeAthenaFixture({ concepts: [...DIAB, ...OTHERS] });
  t = await startTestServer({ releases: [{ dir, label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

const ROUTES = [
  { path: '/v1/search/suggest', ids: (data: { suggestions: Array<{ suggestion: { concept_id: number } }> }) => data.suggestions.map((s) => s.suggestion.concept_id) },
  { path: '/v1/concepts/suggest', ids: (data: { suggestions: Array<{ concept_id: number }> }) => data.suggestions.map((s) => s.concept_id) },
];

describe.each(ROUTES)('$path pagination', ({ path, ids }) => {
  it('pages through every prefix match; total_items is a declared lower bound until the last page, where it is exact', async () => {
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const res = await t.request(`${path}?query=diab&page_size=10&page=${page}`);
      expect(res.status).toBe(200);
      const p = res.body.meta.pagination;
      const got = ids(res.body.data);
      seen.push(...got);
      // Rule 3 invariant the clients rely on.
      expect(p.total_pages).toBe(Math.max(1, Math.ceil(p.total_items / p.page_size)));
      expect(p.has_previous).toBe(page > 1);
      if (p.has_next) {
        expect(res.body.meta.total_is_exact).toBe(false);
        expect(got).toHaveLength(10);
        // A lower bound never exceeds the real number of matches.
        expect(p.total_items).toBeLessThanOrEqual(expectedIds.length);
        expect(p.total_items).toBeGreaterThan(seen.length);
      } else {
        expect(res.body.meta.total_is_exact).toBe(true);
        expect(p.total_items).toBe(expectedIds.length);
        break;
      }
    }
    expect([...seen].sort()).toEqual([...expectedIds].sort());
  });

  it('a page past the end is an honest empty page with the exact total', async () => {
    const res = await t.request(`${path}?query=diab&page_size=10&page=7`);
    expect(res.status).toBe(200);
    expect(ids(res.body.data)).toEqual([]);
    expect(res.body.meta.pagination).toMatchObject({ page: 7, total_items: expectedIds.length, total_pages: Math.ceil(expectedIds.length / 10), has_next: false, has_previous: true });
    expect(res.body.meta.total_is_exact).toBe(true);
  });

  it('a page starting beyond the served depth is a 400 naming page, never an invented total', async () => {
    for (const query of ['page=1000000000', `page=${SUGGEST_MAX_DEPTH / 10 + 1}&page_size=10`]) {
      const res = await t.request(`${path}?query=diab&${query}`);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain("'page'");
      expect(res.body.error.details.parameter).toBe('page');
    }
    // The last page inside the depth is served (empty here: the fixture has fewer matches).
    const last = await t.request(`${path}?query=diab&page=${SUGGEST_MAX_DEPTH / 10}&page_size=10`);
    expect(last.status).toBe(200);
    expect(last.body.meta.pagination.total_items).toBe(expectedIds.length);
  });
});

describe('the two suggest routes', () => {
  it('return the same suggestions in the same order, each in the shape its client contract reads', async () => {
    const a = await t.request('/v1/search/suggest?query=diab&page_size=15');
    const b = await t.request('/v1/concepts/suggest?query=diab&page_size=15');
    expect(ROUTES[0]!.ids(a.body.data)).toEqual(ROUTES[1]!.ids(b.body.data));
    expect(a.body.meta.pagination).toEqual(b.body.meta.pagination);
    expect(typeof a.body.data.suggestions[0].suggestion).toBe('object');
    expect(typeof b.body.data.suggestions[0].suggestion).toBe('string');
  });
});

describe('suggest at the served depth', () => {
  let deep: TestServer;
  const MATCHES = SUGGEST_MAX_DEPTH + 10;
  beforeAll(async () => {
    const concepts = Array.from({ length: MATCHES }, (_, i) => concept(`Diabetic finding variant ${i + 1}`, { concept_id: 8300001 + i, concept_code: `V${i + 1}` }));
    deep = await startTestServer({ releases: [{ dir: writeAthenaFixture({ concepts }), label: '2025.2', makeDefault: true }] });
  });
  afterAll(async () => {
    await deep?.close();
  });

  it('the last page inside the depth has no next page and a declared lower bound, not an exact total', async () => {
    const res = await deep.request(`/v1/concepts/suggest?query=diab&page_size=100&page=${SUGGEST_MAX_DEPTH / 100}`);
    expect(res.status).toBe(200);
    expect(res.body.data.suggestions).toHaveLength(100);
    expect(res.body.meta.pagination).toMatchObject({ total_items: SUGGEST_MAX_DEPTH, has_next: false });
    expect(res.body.meta.total_is_exact).toBe(false);
    expect(res.body.meta.pagination.total_items).toBeLessThan(MATCHES);
  });
});
