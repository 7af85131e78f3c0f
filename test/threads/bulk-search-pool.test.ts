/**
 * Bulk search split across threads (BulkSearchPool): a helper thread runs part of a request against
 * its own connection to the same build; the outcome must be exactly the in-thread outcome, also when
 * a helper is slow, hung or dead.
 */
import { ReleaseView } from '../../src/services/release-view.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkSearchPool, type BulkSearchPoolOptions } from '../../src/threads/bulk-search-pool.js';
import { bulkSearch, type BulkSearchBody, type BulkSearchOutcome } from '../../src/services/search/bulk-search.js';
import type { OpenRelease } from '../../src/store/release-registry.js';
import { concept, licensed, openFixtureStore, unlicensed, type FixtureStore } from '../search/search-fixture.js';

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `body` until the pool splits it once more (a helper still loading is not given work). */
async function untilSplit(pool: BulkSearchPool): Promise<BulkSearchOutcome[]> {
  const before = pool.stats.splitRequests;
  for (let i = 0; i < 400; i++) {
    await sleep(25);
    const outcomes = pool.run(ReleaseView.ofRelease(release, licensed()), body);
    if (pool.stats.splitRequests > before) return outcomes;
  }
  throw new Error('the pool never split the request');
}

/**
 * A pool whose helper has started and answered once. The wait for a helper is long unless a test
 * says otherwise, so that a helper slowed by a busy machine never makes a test take the fallback.
 */
async function startedPool(options: BulkSearchPoolOptions = {}): Promise<BulkSearchPool> {
  const pool = new BulkSearchPool({ threads: 1, minHelperGraceMs: 30_000, ...options });
  pool.retain([release.build]);
  await untilSplit(pool);
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
        const split = pool.run(ReleaseView.ofRelease(release, policy), body);
        expect(withoutDuration(split)).toEqual(withoutDuration(bulkSearch(new ReleaseView(f.store, policy), body)));
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
      const split = pool.run(ReleaseView.ofRelease(release, unlicensed()), body);
      expect(split.find((o) => o.search_id === 'cpt')!.results.map((r) => r.concept_id)).not.toContain(900);
      const restricted = split[12]!;
      expect(restricted.status).toBe('failed');
      expect(restricted.error_code).toBe('vocabulary_restricted');
      const allowed = pool.run(ReleaseView.ofRelease(release, licensed()), body);
      expect(allowed.find((o) => o.search_id === 'cpt')!.results[0]!.concept_id).toBe(900);
    } finally {
      await pool.close();
    }
  });

  it('runs small requests, requests under load, and every request after close in the calling thread', async () => {
    const pool = await startedPool();
    const small = { searches: [{ query: 'alpha' }, { query: 'beta' }] };
    expect(withoutDuration(pool.run(ReleaseView.ofRelease(release, licensed()), small))).toEqual(withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), small)));
    expect(pool.stats.splitRequests).toBe(1);
    // another request in flight: the one helper's core is not spare
    expect(withoutDuration(pool.run(ReleaseView.ofRelease(release, licensed()), body, { otherRequests: 1 }))).toEqual(withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), body)));
    expect(pool.stats.splitRequests).toBe(1);
    pool.run(ReleaseView.ofRelease(release, licensed()), body, { otherRequests: 0 });
    expect(pool.stats.splitRequests).toBe(2);
    await pool.close();
    expect(withoutDuration(pool.run(ReleaseView.ofRelease(release, licensed()), body))).toEqual(withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), body)));
    expect(pool.stats.splitRequests).toBe(2);
  });

  it('replaces a helper that dies: the next bulk splits again, with the in-thread outcomes', async () => {
    const problems: string[] = [];
    const pool = await startedPool({ onProblem: (m) => problems.push(m) });
    try {
      const [first] = pool.workersForTest;
      await first!.terminate();
      await sleep(0); // the exit event
      expect(pool.stats.restarts).toBe(1);
      expect(pool.size).toBe(1);
      expect(pool.workersForTest[0]).not.toBe(first);
      expect(problems.some((m) => /helper exited/.test(m))).toBe(true);
      const helperSearchesBefore = pool.stats.helperSearches;
      const split = await untilSplit(pool);
      expect(withoutDuration(split)).toEqual(withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), body)));
      expect(pool.stats.helperSearches).toBeGreaterThan(helperSearchesBefore);
      expect(pool.stats.fallbacks).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('does not wait for a late helper: its part runs in the calling thread, and it gets no part until it has answered', async () => {
    const problems: string[] = [];
    // (a wait of 200 ms at least: far more than this part takes, far less than the stall)
    const pool = await startedPool({ minHelperGraceMs: 200, onProblem: (m) => problems.push(m) });
    try {
      pool.workersForTest[0]!.postMessage({ stallMs: 3000 });
      const late = pool.run(ReleaseView.ofRelease(release, licensed()), body);
      expect(withoutDuration(late)).toEqual(withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), body)));
      expect(pool.stats.splitRequests).toBe(2);
      expect(pool.stats.fallbacks).toBe(1);
      expect(problems.some((m) => /did not answer in time/.test(m))).toBe(true);
      // still busy with the part given up: the next request is not split
      expect(withoutDuration(pool.run(ReleaseView.ofRelease(release, licensed()), body))).toEqual(withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), body)));
      expect(pool.stats.splitRequests).toBe(2);
      // once it has answered, it is used again
      const split = await untilSplit(pool);
      expect(withoutDuration(split)).toEqual(withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), body)));
      expect(pool.stats.fallbacks).toBe(1);
      expect(pool.stats.restarts).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('terminates and replaces a helper busy for longer than helperTimeoutMs', async () => {
    const pool = await startedPool({ minHelperGraceMs: 200, helperTimeoutMs: 500, onProblem: () => {} });
    try {
      const [first] = pool.workersForTest;
      first!.postMessage({ stallMs: 60_000 });
      pool.run(ReleaseView.ofRelease(release, licensed()), body); // given up: the helper stays busy with it
      expect(pool.stats.fallbacks).toBe(1);
      await sleep(600);
      const exited = new Promise((r) => first!.once('exit', r));
      pool.run(ReleaseView.ofRelease(release, licensed()), body); // finds the helper busy beyond the timeout
      await exited;
      await sleep(0);
      expect(pool.stats.restarts).toBe(1);
      expect(pool.workersForTest).toHaveLength(1);
      expect(pool.workersForTest[0]).not.toBe(first);
      const split = await untilSplit(pool);
      expect(withoutDuration(split)).toEqual(withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), body)));
    } finally {
      await pool.close();
    }
  });

  it('rejects a request without 1–50 searches before splitting it', async () => {
    const pool = new BulkSearchPool({ threads: 1 });
    try {
      expect(() => pool.run(ReleaseView.ofRelease(release, licensed()), { searches: [] })).toThrow(/1 to 50 searches/);
      expect(() => pool.run(ReleaseView.ofRelease(release, licensed()), { searches: Array.from({ length: 51 }, () => ({ query: 'alpha' })) })).toThrow(/1 to 50/);
    } finally {
      await pool.close();
    }
  });
});
