/**
 * Computes a release's vectors and publishes them with its build (layout and atomic publish:
 * src/store/semantic-dir.ts), for `omopterm embed --release X` and for `omopterm load`, which embeds inside its
 * temp build dir before publishing.
 */
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { EmbeddingProvider, EmbeddingProviderChoice } from '../search-model/semantic/embedding-provider.js';
import { ReleaseLexiconBuilder } from '../search-model/semantic/lexicon/build-release-lexicon.js';
import { loadGloveVectors } from '../search-model/semantic/lexicon/glove-vectors.js';
import { decodeLexicon, encodeLexicon } from '../search-model/semantic/lexicon/lexicon-codec.js';
import { createLexiconProvider } from '../search-model/semantic/lexicon/lexicon-provider.js';
import { loadLocalModelProvider } from '../search-model/semantic/local-model-provider.js';
import { listReleaseBuilds, resolveDataDir } from '../store/data-dir.js';
import {
  createEmbeddingWorkspace,
  discardEmbeddingWorkspace,
  newEmbeddingId,
  publishEmbedding,
  type CurrentEmbedding,
  type EmbeddingFiles,
} from '../store/semantic-dir.js';
import { EmbeddingSetWriter } from './embed-index-writer.js';
import { EmbeddingThread } from './embed-worker-client.js';
import { entriesToEmbed, namePairs } from './embed-source.js';
import { LoadError, throwIfAborted } from './load-error.js';
import { cpuStopwatch, type LoadProgressListener } from './progress-events.js';

/** Texts embedded (and vectors inserted) per batch. */
const EMBED_BATCH = 2048;
/** Rows read between progress events (and abort checks) while reading. */
const READ_PROGRESS_EVERY = 50_000;
/** Texts from which the default provider embeds in helper threads (below, starting them costs more than it saves). */
const EMBED_IN_THREAD_FROM = 50_000;
/**
 * Helper threads that embed with the default provider: two, so that with this thread summing and quantising the
 * vectors two cores stay busy (one helper left the machine at 1.2–1.3 cores at full size).
 */
const EMBED_THREADS = 2;

export interface EmbedBuildOptions {
  label: string;
  /** The build directory (published, or the temp dir of a load). */
  buildDir: string;
  /** Its store.sqlite (opened read-only). */
  storePath: string;
  choice: EmbeddingProviderChoice;
  /** The local model of a `local-model` choice, already loaded (by a load, to fail before its tables); closed by its owner. */
  localModel?: EmbeddingProvider;
  /** Texts from which the default provider embeds in a helper thread (default 50,000; tests lower it). */
  threadFrom?: number;
  /** Cores the run may keep busy (default 2): 1 embeds and builds the vector lists on this thread alone. */
  threads?: number;
  onProgress?: LoadProgressListener;
  /** Aborting stops the run at the next batch; nothing is published. */
  signal?: AbortSignal;
}

export interface EmbedResult {
  label: string;
  embeddingId: string;
  provider: string;
  dimension: number;
  entryCount: number;
  conceptCount: number;
  elapsedMs: number;
  /** The published embedding set. */
  files: EmbeddingFiles;
  entriesBytes: number;
  vectorsBytes: number;
}

export interface EmbedReleaseOptions {
  /** Data directory (default: OMOPTERM_DATA_DIR, then ./omopterm-data). */
  dataDir?: string;
  label: string;
  choice: EmbeddingProviderChoice;
  onProgress?: LoadProgressListener;
  signal?: AbortSignal;
}

/** Embeds (again) a published release; running servers switch to the new vectors once published. */
export async function embedRelease(options: EmbedReleaseOptions): Promise<EmbedResult> {
  const dataDir = resolveDataDir(options.dataDir);
  const builds = listReleaseBuilds(dataDir);
  const build = builds.find((b) => b.label === options.label);
  if (!build) {
    const loaded = builds.map((b) => b.label);
    throw new LoadError(
      `release ${options.label} is not loaded in ${dataDir}` + (loaded.length ? ` (loaded: ${loaded.join(', ')})` : ' (no release is loaded)'),
    );
  }
  return embedBuild({ label: build.label, buildDir: build.dir, storePath: build.storePath, choice: options.choice, onProgress: options.onProgress, signal: options.signal });
}

/** Embeds one build (see the module comment). */
export async function embedBuild(options: EmbedBuildOptions): Promise<EmbedResult> {
  const started = Date.now();
  const progress = options.onProgress ?? (() => {});
  const signal = options.signal;
  // A local model that cannot load fails the run before any work.
  const choice = options.choice;
  const ownModel = choice.kind === 'local-model' && !options.localModel;
  const localModel =
    choice.kind === 'lexicon'
      ? null
      : (options.localModel ?? (await timedStep(progress, 'embeddings: loading the local model', () => loadLocalModelProvider(choice.modelDir))));
  const embeddingId = newEmbeddingId();
  const workspace = createEmbeddingWorkspace(options.buildDir, embeddingId);
  const store = new Database(options.storePath, { readonly: true, fileMustExist: true });
  const threads = options.threads ?? 2;
  const writer = new EmbeddingSetWriter(workspace, { listThreads: threads });
  let published: EmbeddingFiles | null = null;
  try {
    store.pragma('cache_size = -131072');
    // 1. entries (+ the release lexicon for the default provider)
    const lexiconBuilder = localModel ? null : new ReleaseLexiconBuilder();
    const readStep = 'embeddings: texts to embed';
    const counts = await timedStep(progress, readStep, async () => {
      let read = 0;
      for (const entry of entriesToEmbed(store)) {
        writer.addEntry(entry);
        lexiconBuilder?.addEntryText(entry.text);
        if (++read % READ_PROGRESS_EVERY === 0) await checkpoint(progress, readStep, read, null, 'texts', signal);
      }
      return writer.finishEntries();
    });

    let provider: EmbeddingProvider;
    let providerState: Uint8Array | null = null;
    if (lexiconBuilder) {
      const pairStep = 'embeddings: learning word equivalences';
      await timedStep(progress, pairStep, async () => {
        let pairs = 0;
        for (const [a, b] of namePairs(store)) {
          lexiconBuilder.addNamePair(a, b);
          if (++pairs % READ_PROGRESS_EVERY === 0) await checkpoint(progress, pairStep, pairs, null, 'name pairs', signal);
        }
        progress({ type: 'note', message: `${pairStep}: ${pairs.toLocaleString('en-US')} name pairs` });
      });
      const lexicon = await timedStep(progress, 'embeddings: release lexicon', async () => lexiconBuilder.finish({ glove: loadGloveVectors() }));
      providerState = encodeLexicon(lexicon);
      // Vectors are computed from the stored lexicon, exactly as a server decodes it for queries.
      provider = createLexiconProvider(decodeLexicon(providerState));
    } else {
      provider = localModel!;
    }
    store.close();
    throwIfAborted(signal, 'the embedding run');

    // 2. vectors, batch by batch; the next batches are embedded (in helper threads when large) while
    //    the current one is summed per concept and quantised
    const vectorStep = `embeddings: vectors (${provider.id}, ${provider.dimension} dimensions)`;
    const total = counts.entryCount;
    // with two cores or more, two helper threads embed (each a batch ahead) while this thread sums and quantises
    const helperCount = providerState && threads > 1 && total >= (options.threadFrom ?? EMBED_IN_THREAD_FROM) ? Math.min(EMBED_THREADS, threads) : 0;
    const helpers = await Promise.all(Array.from({ length: helperCount }, () => EmbeddingThread.start(providerState!)));
    const embedBatch = (from: number): Promise<Float32Array> => {
      const texts = writer.texts(from, Math.min(total, from + EMBED_BATCH));
      const helper = helpers.length ? helpers[(from / EMBED_BATCH) % helpers.length]! : null;
      return helper ? helper.embed(texts) : provider.embed(texts).then((vectors) => rowMatrix(vectors, provider.dimension));
    };
    /** Batches being embedded, in key order: one per helper thread (one when this thread embeds). */
    const inFlight: Array<Promise<Float32Array>> = [];
    let scheduled = 0;
    const schedule = () => {
      for (; inFlight.length < Math.max(1, helpers.length) && scheduled < total; scheduled += EMBED_BATCH) inFlight.push(embedBatch(scheduled));
    };
    try {
      await timedStep(progress, vectorStep, async () => {
        schedule();
        for (let from = 0; from < total; from += EMBED_BATCH) {
          const matrix = await inFlight.shift()!;
          schedule();
          writer.addVectors(from, matrix, provider.dimension);
          await checkpoint(progress, vectorStep, Math.min(total, from + EMBED_BATCH), total, 'vectors', signal);
        }
      });
    } finally {
      for (const batch of inFlight) batch.catch(() => {}); // batches still embedding when the run stops
      await Promise.all(helpers.map((helper) => helper.close()));
    }

    // 3. the vector lists (two rounds of k-means over the distinct vectors), then save and publish
    const listStep = 'embeddings: vector lists';
    await timedStep(progress, listStep, async () => {
      let last = 0;
      const written = writer.finishVectors(provider.dimension, (done, all) => {
        if (done - last < all / 20 && done < all) return;
        last = done;
        progress({ type: 'step-progress', step: listStep, done, total: all, unit: 'assignments' });
      });
      progress({ type: 'note', message: `${listStep}: ${written.lists.toLocaleString('en-US')} lists, ${written.probe} read per search` });
    });
    // lets the event loop run (IPC, signals) before saving, and stops if aborted meanwhile
    await new Promise<void>((resolveTick) => setImmediate(resolveTick));
    throwIfAborted(signal, 'the embedding run');
    const builtAt = new Date().toISOString();
    const meta = { provider: provider.id, dimension: provider.dimension, entryCount: counts.entryCount, conceptCount: counts.conceptCount, builtAt, embeddingId };
    await timedStep(progress, 'embeddings: saving', async () => writer.finish(meta, providerState));
    throwIfAborted(signal, 'the embedding run');
    const current: CurrentEmbedding = { ...meta, elapsedMs: Date.now() - started };
    published = publishEmbedding(options.buildDir, workspace, current);
    return {
      label: options.label,
      embeddingId,
      provider: provider.id,
      dimension: provider.dimension,
      entryCount: counts.entryCount,
      conceptCount: counts.conceptCount,
      elapsedMs: current.elapsedMs,
      files: published,
      entriesBytes: statSync(published.entriesPath).size,
      vectorsBytes: statSync(published.vectorsPath).size,
    };
  } finally {
    if (ownModel) await localModel?.close?.();
    if (store.open) store.close();
    if (published === null) {
      writer.abandon();
      discardEmbeddingWorkspace(workspace);
    }
  }
}

/** Vectors as one row-major matrix, checking their length. */
function rowMatrix(vectors: readonly Float32Array[], dimension: number): Float32Array {
  const matrix = new Float32Array(vectors.length * dimension);
  vectors.forEach((v, i) => {
    if (v.length !== dimension) throw new Error(`the embedding provider returned a vector of length ${v.length}, expected ${dimension}`);
    matrix.set(v, i * dimension);
  });
  return matrix;
}

async function timedStep<T>(progress: LoadProgressListener, step: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const cpu = cpuStopwatch();
  progress({ type: 'step-start', step });
  const result = await work();
  progress({ type: 'step-done', step, elapsedMs: Date.now() - started, cpuMs: cpu() });
  return result;
}

/** Reports progress, lets the event loop run (IPC, signals), and stops if aborted. */
async function checkpoint(
  progress: LoadProgressListener,
  step: string,
  done: number,
  total: number | null,
  unit: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  progress({ type: 'step-progress', step, done, total, unit });
  await new Promise<void>((resolveTick) => setImmediate(resolveTick));
  throwIfAborted(signal, 'the embedding run');
}
