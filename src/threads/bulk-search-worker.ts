/**
 * Helper thread of BulkSearchPool (./bulk-search-pool.ts): runs parts of bulk searches on its own read-only
 * connections to the release builds, opened with the store implementation named in workerData, and answers on the
 * channel the pool gave it, raising the shared flag the pool waits on.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { ReleaseView } from '../services/release-view.js';
import { bulkSearch } from '../services/search/bulk-search.js';
import { configureSearch } from '../services/search/search-settings.js';
import { buildDirName, type ReleaseBuild } from '../store/data-dir.js';
import type { ReleaseStore } from '../store/release-store.js';
import { releaseStoreOpener } from '../store/openers/release-store-openers.js';
import {
  HELPER_READY,
  type BulkJob,
  type BulkJobReply,
  type HelperChannel,
  type HelperData,
  type RetainMessage,
  type StallMessage,
} from './bulk-search-pool.js';

const openStore = releaseStoreOpener((workerData as HelperData).storeKind);
configureSearch((workerData as HelperData).search);
const stores = new Map<string, ReleaseStore>();
let replies: MessagePort | undefined;
let done: Int32Array | undefined;

function storeFor(build: ReleaseBuild): ReleaseStore {
  const key = buildDirName(build.label, build.buildId);
  let store = stores.get(key);
  if (!store) stores.set(key, (store = openStore(build)));
  return store;
}

parentPort?.on('message', (message: BulkJob | RetainMessage | HelperChannel | StallMessage) => {
  if ('replies' in message) {
    replies = message.replies;
    done = new Int32Array(message.done);
    replies.postMessage(HELPER_READY);
    return;
  }
  if ('retain' in message) {
    const served = new Set(message.retain.map((build) => buildDirName(build.label, build.buildId)));
    for (const [key, store] of stores) {
      if (!served.has(key)) {
        store.close();
        stores.delete(key);
      }
    }
    for (const build of message.retain) {
      try {
        storeFor(build);
      } catch {
        // reported by the part that needs it (see below)
      }
    }
    return;
  }
  if ('stallMs' in message) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, message.stallMs);
    return;
  }
  let reply: BulkJobReply;
  try {
    reply = { id: message.id, outcomes: bulkSearch(ReleaseView.of(storeFor(message.build), message.cpt4ValidatedUntil), message.body, message.firstIndex) };
  } catch (err) {
    reply = { id: message.id, error: (err as Error).message };
  }
  replies!.postMessage(reply);
  Atomics.store(done!, 0, 1);
  Atomics.notify(done!, 0);
});
