/**
 * Bulk search on the worker pool: a request is one task, or, when threads are idle, parts of at least
 * MIN_SEARCHES_PER_PART searches run on several threads at once and are put back together in order.
 */
import { checkBulkBody, type BulkSearchBody, type BulkSearchOutcome } from '../services/search/bulk-search.js';
import type { ReleaseView } from '../services/release-view.js';
import type { RunOptions, WorkerPool } from './worker-pool.js';

/** Each part of a split request has at least this many searches (smaller parts are not worth a hand-over). */
export const MIN_SEARCHES_PER_PART = 4;

/** A bulk search (same answer as bulkSearch), split across the pool's idle threads when it is worth it. */
export async function pooledBulkSearch(pool: WorkerPool, view: ReleaseView, body: BulkSearchBody, options: RunOptions = {}): Promise<BulkSearchOutcome[]> {
  const searches = checkBulkBody(body);
  const parts = Math.max(1, Math.min(pool.idle, Math.floor(searches.length / MIN_SEARCHES_PER_PART)));
  const size = Math.ceil(searches.length / parts);
  const answers = await Promise.all(
    Array.from({ length: parts }, (_, k) =>
      pool.run('bulkSearch', view, { body: { searches: searches.slice(k * size, (k + 1) * size), defaults: body.defaults }, firstIndex: k * size }, options),
    ),
  );
  return answers.flat();
}
