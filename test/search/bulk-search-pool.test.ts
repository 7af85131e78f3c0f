/**
 * Bulk search split across threads (BulkSearchPool): a helper thread runs part of a request against
 * its own connection to the same build; the outcome must be exactly the in-thread outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkSearchPool } from '../../src/services/search/bulk-search-pool.js';
import { bulkSearch, type BulkSearchBody, type BulkSearchOutcome } from '../../src/services/search/bulk-search.js';
import type { OpenRelease } from '../../src/store/release-registry.js';
import { concept, licensed, openFixtureStore, unlicensed, type FixtureStore } from './search-fixture.js';

let f: FixtureStore;
let release: OpenRelease;
beforeAll(async () => {
  f = await openFixtureStore({
    concepts: [
      ...['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'sigma', 'theta'].flatMap((w, i) => [
        concept(`${w} fracture of femur`, { concept_id: 700 + i }),
        concept(`${w} widget`, { concept_id: 800 + i, standard_concept: null }),
      ]),
      concept('Office visit widget', { concept_id: 900, vocabulary_id: 'CPT4', concept_code: '99213', domain_id: 'Procedure', concept_class_id: 'CPT4' }),
    ],
  });
  release = { label: f.store.manifest.label, buildId: f.build.buildId, store: f.store, build: f.build };
});
afterAll(() => f?.close());

/** A pool whose helper has started (a helper still loading is not given work). */
async function startedPool(): Promise<BulkSearchPool> {
  const pool = new BulkSearchPool({ threads: 1 });
  for (let i = 0; i < 200 && pool.stats.splitRequests === 0; i++) {
    await new Promise((r) => setTimeout(r, 25));
    pool.run(release, licensed(), body);
  }
  expect(pool.stats.splitRequests).toBe(1);
  return pool;
}

const withoutDuration = (outcomes: BulkSearchOutcome[]) => outcomes.map(({ duration, ...rest }) => (expect(duration).toBeGreaterThanOrEqual(0), rest));

const body: BulkSearchBody = {
  searches: [
    ...['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'sigma', 'theta', 'fracture femur', 'widget'].map((query) => ({ query })),
    { query: 'ab' }, // too broad: this search fails alone
    { search_id: 'cpt', query: '99213' },
    { query: 'widget', page_size: 3, vocabulary_ids: ['CPT4'] },
    ...['alpha widget', 'fract', 'omega'].map((query) => ({ query })),
  ],
  defaults: { page_size: 4 },
};

describe('BulkSearchPool', () => {
  it('splits a request with an idle helper and returns exactly the in-thread outcomes, in order', async () => {
    const pool = await startedPool();
    try {
      expect(pool.size).toBe(1);
      for (const policy of [licensed(), unlicensed()]) {
        const split = pool.run(release, policy, body);
        expect(withoutDuration(split)).toEqual(withoutDuration(bulkSearch(f.store, policy, body)));
        expect(split.map((o) => o.search_id)).toEqual(body.searches!.map((s, i) => s.search_id ?? String(i + 1)));
      }
      expect(pool.stats.splitRequests).toBe(3);
      expect(pool.stats.helperSearches).toBeGreaterThan(0);
      expect(pool.stats.fallbacks).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('keeps licence rules in the helper part (CPT4 hidden without validation)', async () => {
    const pool = await startedPool();
    try {
      // The CPT4 searches are in the second half, which the helper runs.
      const split = pool.run(release, unlicensed(), body);
      expect(split.find((o) => o.search_id === 'cpt')!.results.map((r) => r.concept_id)).not.toContain(900);
      const restricted = split[12]!;
      expect(restricted.status).toBe('failed');
      expect(restricted.error_code).toBe('vocabulary_restricted');
      const allowed = pool.run(release, licensed(), body);
      expect(allowed.find((o) => o.search_id === 'cpt')!.results[0]!.concept_id).toBe(900);
    } finally {
      await pool.close();
    }
  });

  it('runs small requests, requests under load, and every request after close in the calling thread', async () => {
    const pool = await startedPool();
    const small = { searches: [{ query: 'alpha' }, { query: 'beta' }] };
    expect(withoutDuration(pool.run(release, licensed(), small))).toEqual(withoutDuration(bulkSearch(f.store, licensed(), small)));
    expect(pool.stats.splitRequests).toBe(1);
    // another request in flight: the one helper's core is not spare
    expect(withoutDuration(pool.run(release, licensed(), body, { otherRequests: 1 }))).toEqual(withoutDuration(bulkSearch(f.store, licensed(), body)));
    expect(pool.stats.splitRequests).toBe(1);
    pool.run(release, licensed(), body, { otherRequests: 0 });
    expect(pool.stats.splitRequests).toBe(2);
    await pool.close();
    expect(withoutDuration(pool.run(release, licensed(), body))).toEqual(withoutDuration(bulkSearch(f.store, licensed(), body)));
    expect(pool.stats.splitRequests).toBe(2);
  });

  it('rejects a request without 1–50 searches before splitting it', async () => {
    const pool = new BulkSearchPool({ threads: 1 });
    try {
      expect(() => pool.run(release, licensed(), { searches: [] })).toThrow(/1 to 50 searches/);
      expect(() => pool.run(release, licensed(), { searches: Array.from({ length: 51 }, () => ({ query: 'alpha' })) })).toThrow(/1 to 50/);
    } finally {
      await pool.close();
    }
  });
});
