/**
 * Worker thread of MappingPool (./mapping-pool.ts): maps batches of source terms, one at a time, on its own read-only
 * connection to the release build and its vectors (opened once per build, as the server opens them).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LicenceRules } from '../licences/licence-rules.js';
import { ReleaseView } from '../services/release-view.js';
import { configureSearch } from '../services/search/search-settings.js';
import { SemanticIndexRegistry } from '../services/semantic/semantic-index-registry.js';
import { mapTermBatch, mappingRankingContext } from '../services/source-mapping/term-mapping.js';
import { buildDirName, type ReleaseBuild } from '../store/data-dir.js';
import { releaseStoreOpener } from '../store/openers/release-store-openers.js';
import type { ReleaseStore } from '../store/release-store.js';
import { openSqliteSemanticIndex } from '../store/sqlite/sqlite-semantic-index.js';
import type { MappingBatchJob, MappingBatchReply, MappingWorkerData } from './mapping-pool.js';

const data = workerData as MappingWorkerData;
const openStore = releaseStoreOpener(data.storeKind);
configureSearch(data.search);
const semanticIndexes = new SemanticIndexRegistry({ choice: data.embeddings, openIndex: openSqliteSemanticIndex, recheckIntervalMs: 60_000 });
const stores = new Map<string, ReleaseStore>();

function storeFor(build: ReleaseBuild): ReleaseStore {
  const key = buildDirName(build.label, build.buildId);
  let store = stores.get(key);
  if (!store) stores.set(key, (store = openStore(build)));
  return store;
}

async function run(job: MappingBatchJob): Promise<MappingBatchReply> {
  try {
    const view = new ReleaseView(storeFor(job.build), new LicenceRules(job.cpt4ValidatedUntil), job.build.label, job.build);
    const lookup = await semanticIndexes.get(view);
    const ctx = mappingRankingContext(view, lookup.ok ? lookup : null);
    const results = await mapTermBatch(ctx, job.terms, job.options, { now: new Date(job.now) });
    return { id: job.id, results, semantic: lookup.ok };
  } catch (err) {
    return { id: job.id, error: (err as Error).message };
  }
}

// One batch at a time: batches of several runs (jobs) queue here in arrival order.
let queue: Promise<unknown> = Promise.resolve();
parentPort?.on('message', (job: MappingBatchJob) => {
  queue = queue.then(async () => parentPort!.postMessage(await run(job)));
});
