/**
 * Bulk search on the worker pool: a request is one task, or, when threads are idle, parts of at least
 * MIN_SEARCHES_PER_PART searches run on several threads at once and are put back together in order (as outcomes, or
 * as the JSON text of the outcome array, made on the threads).
 */
import { checkBulkBody, type BulkSearchBody, type BulkSearchOutcome } from '../services/search/bulk-search.js';
import type { ReleaseView } from '../services/release-view.js';
import type { RunOptions, WorkerPool } from './worker-pool.js';

/** Each part of a split request has at least this many searches (smaller parts are not worth a hand-over). */
export const MIN_SEARCHES_PER_PART = 4;

/** The parts of a bulk request: one per idle thread, each of at least MIN_SEARCHES_PER_PART searches (one part under load). */
function partsOf(pool: WorkerPool, body: BulkSearchBody): Array<{ body: BulkSearchBody; firstIndex: number }> {
  const searches = checkBulkBody(body);
  const parts = Math.max(1, Math.min(pool.idle, Math.floor(searches.length / MIN_SEARCHES_PER_PART)));
  const size = Math.ceil(searches.length / parts);
  return Array.from({ length: parts }, (_, k) => ({ body: { searches: searches.slice(k * size, (k + 1) * size), defaults: body.defaults }, firstIndex: k * size }));
}

/** A bulk search (same answer as bulkSearch), split across the pool's idle threads when it is worth it. */
export async function pooledBulkSearch(pool: WorkerPool, view: ReleaseView, body: BulkSearchBody, options: RunOptions = {}): Promise<BulkSearchOutcome[]> {
  const answers = await Promise.all(partsOf(pool, body).map((part) => pool.run('bulkSearch', view, part, options)));
  return answers.flat();
}

/**
 * The same answer as UTF-8 JSON (the outcome array), each part's bytes made on its thread: the event loop only joins
 * them (a bulk answer is 70–160 kB of JSON).
 */
export async function pooledBulkSearchJson(pool: WorkerPool, view: ReleaseView, body: BulkSearchBody, options: RunOptions = {}): Promise<Uint8Array> {
  const answers = await Promise.all(partsOf(pool, body).map((part) => pool.runJson('bulkSearch', view, part, options)));
  if (answers.length === 1) return answers[0]!;
  // each part is a JSON array of at least one outcome: its elements, joined by commas between the brackets
  const pieces: Uint8Array[] = [];
  answers.forEach((a, k) => pieces.push(k === 0 ? OPEN : COMMA, a.subarray(1, a.length - 1)));
  pieces.push(CLOSE);
  return Buffer.concat(pieces);
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');
