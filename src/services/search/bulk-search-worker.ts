/**
 * Helper thread of BulkSearchPool (./bulk-search-pool.ts): runs parts of bulk searches against its
 * own read-only connections to the release builds it is asked about, and answers on the channel
 * the pool gave it, raising the shared flag the pool waits on.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import type { ReleaseStore } from '../../store/release-store.js';
import { openSqliteRelease } from '../../store/sqlite/open-sqlite-release.js';
import { AccessPolicy } from '../access-policy.js';
import { bulkSearch } from './bulk-search.js';
import { buildKey, HELPER_READY, type BulkJob, type BulkJobReply, type HelperChannel, type RetainMessage } from './bulk-search-pool.js';

const stores = new Map<string, ReleaseStore>();
let replies: MessagePort | undefined;
let done: Int32Array | undefined;

function storeFor(job: BulkJob): ReleaseStore {
  const key = buildKey(job.build);
  let store = stores.get(key);
  if (!store) stores.set(key, (store = openSqliteRelease(job.build)));
  return store;
}

parentPort?.on('message', (message: BulkJob | RetainMessage | HelperChannel) => {
  if ('replies' in message) {
    replies = message.replies;
    done = new Int32Array(message.done);
    replies.postMessage(HELPER_READY);
    return;
  }
  if ('retain' in message) {
    for (const [key, store] of stores) {
      if (!message.retain.includes(key)) {
        store.close();
        stores.delete(key);
      }
    }
    return;
  }
  let reply: BulkJobReply;
  try {
    reply = { id: message.id, outcomes: bulkSearch(storeFor(message), new AccessPolicy(message.cpt4ValidatedUntil), message.body, message.firstIndex) };
  } catch (err) {
    reply = { id: message.id, error: (err as Error).message };
  }
  replies!.postMessage(reply);
  Atomics.store(done!, 0, 1);
  Atomics.notify(done!, 0);
});
