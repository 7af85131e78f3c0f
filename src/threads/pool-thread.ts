/**
 * A thread of WorkerPool (./worker-pool.ts): opens release builds read-only with the store implementation named in
 * workerData (and their vectors through its own SemanticIndexRegistry, searching the vector files through the process's
 * vector host when given one), remakes the caller's licence rules from the task, runs the named operation
 * (./heavy-operations.ts) and answers its result or its error, one task at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LicenceRules } from '../licences/licence-rules.js';
import { ServiceError } from '../services/errors.js';
import { ReleaseView } from '../services/release-view.js';
import { configureSearch } from '../services/search/search-settings.js';
import { SemanticIndexRegistry } from '../services/semantic/semantic-index-registry.js';
import type { ReleaseBuild } from '../store/data-dir.js';
import { releaseStoreOpener } from '../store/openers/release-store-openers.js';
import type { ReleaseStore } from '../store/release-store.js';
import { openSqliteSemanticIndex } from '../store/sqlite/sqlite-semantic-index.js';
import { isHeavyOperation, runOperation } from './heavy-operations.js';
import { vectorHostOpener } from './vector-host.js';
import { utf8Json, type FromThread, type PoolThreadData, type SerializedError, type TaskLicence, type TaskMessage, type ToThread } from './worker-pool.js';

/** A build no longer served stays open this long, for a task that started on it just before. */
const RETIRE_DELAY_MS = 30_000;

const data = workerData as PoolThreadData;
const openStore = releaseStoreOpener(data.storeKind);
configureSearch(data.search);
const vectorOpener = data.vectors ? vectorHostOpener(data.vectors) : undefined;
const semanticIndexes = new SemanticIndexRegistry({ choice: data.embeddings, openIndex: (files) => openSqliteSemanticIndex(files, vectorOpener) });
/** Open stores by build directory. */
const stores = new Map<string, ReleaseStore>();
/** Stores no longer served, waiting for their delayed close. */
const retired = new Set<ReleaseStore>();

function storeFor(build: ReleaseBuild): ReleaseStore {
  let store = stores.get(build.dir);
  if (!store) stores.set(build.dir, (store = openStore(build)));
  return store;
}

/** The caller's licence rules, remade from the task; refused unless they hide exactly what the caller's hide. */
function licenceRules(licence: TaskLicence): LicenceRules {
  const rules = new LicenceRules(licence.cpt4ValidatedUntil, licence.today);
  const hidden = rules.hiddenVocabularyIds().sort();
  const expected = [...licence.hidden].sort();
  if (hidden.length !== expected.length || hidden.some((v, i) => v !== expected[i])) {
    throw new Error(`the caller's licence rules could not be remade in a worker thread (hidden ${expected.join(', ')}; remade ${hidden.join(', ')})`);
  }
  return rules;
}

function serialize(err: unknown): SerializedError {
  if (err instanceof ServiceError) return { status: err.status, code: err.code, message: err.message, details: err.details, headers: err.headers };
  return { message: err instanceof Error ? err.message : String(err) };
}

function send(message: FromThread): void {
  try {
    // UTF-8 JSON bytes are moved, not copied
    const moved = message.kind === 'done' && message.result instanceof Uint8Array ? [message.result.buffer as ArrayBuffer] : [];
    parentPort!.postMessage(message, moved);
  } catch (err) {
    // a result that cannot be copied to the main thread (a bug): the request fails instead of waiting forever
    if (message.kind === 'done') parentPort!.postMessage({ kind: 'failed', id: message.id, error: serialize(err) } satisfies FromThread);
    else throw err;
  }
}

async function run(task: TaskMessage): Promise<void> {
  try {
    if (!isHeavyOperation(task.op)) throw new Error(`unknown operation ${task.op}`);
    const rules = licenceRules(task.licence);
    const views = task.builds.map((build) => new ReleaseView(storeFor(build), rules, build.label, build));
    const result = await runOperation(task.op, views, task.args as never, { semanticIndexes });
    send({ kind: 'done', id: task.id, result: task.json ? utf8Json(result) : result });
  } catch (err) {
    send({ kind: 'failed', id: task.id, error: serialize(err) });
  }
}

function retain(builds: readonly ReleaseBuild[]): void {
  const served = new Set(builds.map((b) => b.dir));
  for (const [dir, store] of stores) {
    if (served.has(dir)) continue;
    stores.delete(dir);
    retired.add(store);
    setTimeout(() => {
      retired.delete(store);
      store.close();
    }, RETIRE_DELAY_MS).unref();
  }
  semanticIndexes.retain(builds);
  for (const build of builds) {
    try {
      storeFor(build);
    } catch {
      // reported by the task that needs it
    }
  }
}

parentPort!.on('message', (message: ToThread) => {
  switch (message.kind) {
    case 'task':
      void run(message);
      return;
    case 'retain':
      retain(message.builds);
      return;
    case 'hold':
      Atomics.wait(new Int32Array(message.gate), 0, 0);
      return;
    case 'open-builds':
      send({ kind: 'open-builds', id: message.id, dirs: [...stores.keys()] });
      return;
    case 'close':
      void closeAndExit();
      return;
  }
});

/** Closes every store and vector index, then lets the thread end (nothing left to wait for once the port is closed). */
async function closeAndExit(): Promise<void> {
  for (const store of [...stores.values(), ...retired]) store.close();
  stores.clear();
  retired.clear();
  await semanticIndexes.close();
  parentPort!.close();
  // Ends this thread only (process.exit in a worker thread), whatever timers are left.
  process.exit(0);
}

await semanticIndexes.prepare();
send({ kind: 'ready' });
