/**
 * The worker pool as a module (WorkerPool, pooledBulkSearch): a bulk search split across threads, each part on the
 * thread's own connection to the same build, gives exactly the outcome of the request run in this thread (as objects
 * and as JSON text), under both licences; without threads, or for a view without a build, the task runs here; a task that hangs past the timeout
 * fails and its thread is replaced; a bad body is refused before any hand-over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/services/errors.js';
import { ReleaseView } from '../../src/services/release-view.js';
import { bulkSearch, type BulkSearchBody, type BulkSearchOutcome } from '../../src/services/search/bulk-search.js';
import type { OpenRelease } from '../../src/store/release-registry.js';
import { MIN_SEARCHES_PER_PART, pooledBulkSearch, pooledBulkSearchJson } from '../../src/threads/bulk-search-parts.js';
import { WorkerPool, type WorkerPoolOptions } from '../../src/threads/worker-pool.js';
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

/** A pool whose threads have all loaded. */
async function readyPool(options: WorkerPoolOptions): Promise<WorkerPool> {
  const pool = new WorkerPool(options);
  pool.retain([release.build]);
  for (let i = 0; i < 2400 && pool.idle < pool.size; i++) await sleep(25);
  expect(pool.idle).toBe(pool.size);
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

describe('WorkerPool', () => {
  it('splits a bulk search across idle threads and returns exactly the in-thread outcomes, in order, under both licences', async () => {
    const pool = await readyPool({ threads: 2 });
    try {
      for (const rules of [licensed(), unlicensed()]) {
        const before = pool.stats.threadTasks;
        const split = await pooledBulkSearch(pool, ReleaseView.ofRelease(release, rules), body);
        expect(pool.stats.threadTasks - before).toBe(2); // 16 searches, two idle threads: two parts
        expect(withoutDuration(split)).toEqual(withoutDuration(bulkSearch(new ReleaseView(f.store, rules), body)));
        expect(split.map((o) => o.search_id)).toEqual(body.searches!.map((s, i) => s.search_id ?? String(i + 1)));
      }
      // the UTF-8 JSON made on the threads, part by part, is the in-thread outcome array's
      const before = pool.stats.threadTasks;
      const text = Buffer.from(await pooledBulkSearchJson(pool, ReleaseView.ofRelease(release, unlicensed()), body)).toString('utf8');
      expect(pool.stats.threadTasks - before).toBe(2);
      expect(withoutDuration(JSON.parse(text))).toEqual(withoutDuration(JSON.parse(JSON.stringify(bulkSearch(new ReleaseView(f.store, unlicensed()), body)))));
      // the CPT4 searches are in the second part: the licence went with it
      const hidden = await pooledBulkSearch(pool, ReleaseView.ofRelease(release, unlicensed()), body);
      expect(hidden.find((o) => o.search_id === 'cpt')!.results.map((r) => r.concept_id)).not.toContain(900);
      expect(hidden[12]).toMatchObject({ status: 'failed', error_code: 'vocabulary_restricted' });
      const shown = await pooledBulkSearch(pool, ReleaseView.ofRelease(release, licensed()), body);
      expect(shown.find((o) => o.search_id === 'cpt')!.results[0]!.concept_id).toBe(900);
      // fewer searches than two parts need: one task
      const beforeSmall = pool.stats.threadTasks;
      const small = { searches: body.searches!.slice(0, 2 * MIN_SEARCHES_PER_PART - 1) };
      expect(withoutDuration(await pooledBulkSearch(pool, ReleaseView.ofRelease(release, licensed()), small))).toEqual(
        withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), small)),
      );
      expect(pool.stats.threadTasks - beforeSmall).toBe(1);
      expect(pool.stats.inlineTasks).toBe(0);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('runs in this thread without threads, for a view without a build, and after close', async () => {
    const none = new WorkerPool({ threads: 0 });
    const expected = withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), body));
    expect(withoutDuration(await pooledBulkSearch(none, ReleaseView.ofRelease(release, licensed()), body))).toEqual(expected);
    expect(none.stats).toMatchObject({ threadTasks: 0, inlineTasks: 1 });
    await none.close();

    const pool = await readyPool({ threads: 1 });
    const bare = new ReleaseView(f.store, licensed()); // no build: a thread could not open it
    expect(withoutDuration(await pooledBulkSearch(pool, bare, body))).toEqual(expected);
    expect(pool.stats).toMatchObject({ threadTasks: 0, inlineTasks: 1 });
    await pool.close();
    expect(withoutDuration(await pooledBulkSearch(pool, ReleaseView.ofRelease(release, licensed()), body))).toEqual(expected);
    expect(pool.stats).toMatchObject({ threadTasks: 0, inlineTasks: 2 });
  }, 120_000);

  it('fails a task that runs past the timeout and replaces its thread', async () => {
    const problems: string[] = [];
    const pool = await readyPool({ threads: 1, taskTimeoutMs: 300, onProblem: (m) => problems.push(m) });
    try {
      const [first] = pool.workersForTest;
      pool.holdForTest(); // never released: the thread never answers
      const hung = pooledBulkSearch(pool, ReleaseView.ofRelease(release, licensed()), body);
      await expect(hung).rejects.toThrow(/took longer than 0.3 s/);
      await expect(hung).rejects.toBeInstanceOf(ServiceError);
      for (let i = 0; i < 2400 && !(pool.idle === 1 && pool.workersForTest[0] !== first); i++) await sleep(25);
      expect(pool.stats.restarts).toBe(1);
      expect(pool.workersForTest[0]).not.toBe(first);
      expect(problems.some((m) => /took longer/.test(m))).toBe(true);
      expect(withoutDuration(await pooledBulkSearch(pool, ReleaseView.ofRelease(release, licensed()), body))).toEqual(
        withoutDuration(bulkSearch(new ReleaseView(f.store, licensed()), body)),
      );
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('close lets each thread close its stores and exit by itself, after the task it is running; a task queued behind is refused', async () => {
    const pool = await readyPool({ threads: 1 });
    const exits = pool.workersForTest.map((w) => new Promise<number>((resolve) => w.once('exit', resolve)));
    const release_ = pool.holdForTest(); // the thread is busy until released
    const running = pooledBulkSearch(pool, ReleaseView.ofRelease(release, licensed()), body);
    const queued = pooledBulkSearch(pool, ReleaseView.ofRelease(release, licensed()), body);
    const closing = pool.close();
    await expect(queued).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    await expect(running).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    release_();
    await closing;
    // exit code 0: it ended itself (a terminated thread exits with 1)
    expect(await Promise.all(exits)).toEqual([0]);
  }, 120_000);

  it('refuses a bulk body without 1–50 searches before any hand-over', async () => {
    const pool = new WorkerPool({ threads: 1, lazy: true });
    const view = ReleaseView.ofRelease(release, licensed());
    await expect(pooledBulkSearch(pool, view, { searches: [] })).rejects.toThrow(/1 to 50 searches/);
    await expect(pooledBulkSearch(pool, view, { searches: Array.from({ length: 51 }, () => ({ query: 'alpha' })) })).rejects.toThrow(/1 to 50/);
    expect(pool.size).toBe(0); // nothing was handed over, so no thread was even started
    await pool.close();
  });
});
