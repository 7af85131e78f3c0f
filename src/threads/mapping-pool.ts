/**
 * Maps source terms on worker threads (every core): each worker opens the release build read-only with its vectors,
 * maps one batch of terms at a time and answers; batches are handed to whichever worker is free, and each answer is
 * reported as it comes (`onBatch`), so a caller can journal it. Cancel stops handing out batches.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { EmbeddingProviderChoice } from '../search-model/semantic/embedding-provider.js';
import { searchSettings, type SearchSettings } from '../services/search/search-settings.js';
import type { MappingOptions, SourceTerm } from '../services/source-mapping/mapping-types.js';
import type { TermMappingResult } from '../services/source-mapping/term-mapping.js';
import type { ReleaseBuild } from '../store/data-dir.js';
import { DEFAULT_RELEASE_STORE_KIND, type ReleaseStoreKind } from '../store/openers/release-store-openers.js';

/**
 * Terms per batch: small enough that cancel and progress come within a fraction of a second (a term takes a few ms),
 * large enough that the message round trip is negligible.
 */
export const DEFAULT_MAPPING_BATCH = 25;

/** Given to a mapping worker as workerData. */
export interface MappingWorkerData {
  storeKind: ReleaseStoreKind;
  search: SearchSettings;
  embeddings: EmbeddingProviderChoice;
}

export interface MappingBatchJob {
  id: number;
  build: ReleaseBuild;
  cpt4ValidatedUntil: string | null;
  terms: SourceTerm[];
  options: MappingOptions;
  /** ISO time the initial reviews are stamped with. */
  now: string;
}

export type MappingBatchReply = { id: number; results: TermMappingResult[]; semantic: boolean } | { id: number; error: string };

export interface MappingPoolOptions {
  /** Worker threads (default: the machine's cores). */
  workers?: number;
  storeKind?: ReleaseStoreKind;
  search?: SearchSettings;
  /** The provider whose vectors the workers search (default: the built-in one); a release without them is ranked lexically. */
  embeddings?: EmbeddingProviderChoice;
}

export interface MapTermsRequest {
  build: ReleaseBuild;
  /** The caller's CPT4 validation date (the licence the candidates are computed under). */
  cpt4ValidatedUntil: string | null;
  terms: readonly SourceTerm[];
  /** Checked already (checkMappingOptions). */
  options: MappingOptions;
  signal?: AbortSignal;
  /** Each batch's results as it is done (not in term order); the run waits for it (a journal write, a store update). */
  onBatch?: (results: TermMappingResult[]) => void | Promise<void>;
  batchSize?: number;
  now?: Date;
}

export interface MapTermsOutcome {
  mapped: number;
  /** True when the signal stopped the run before every term was mapped. */
  cancelled: boolean;
  /** Whether the release's vectors were used (false: lexical ranking only, the release has no usable vectors). */
  semantic: boolean;
}

interface PoolWorker {
  worker: Worker;
  busy: boolean;
}

export class MappingPool {
  private readonly workers: PoolWorker[] = [];
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: MappingBatchReply) => void; worker: PoolWorker }>();
  private failure: Error | null = null;

  constructor(options: MappingPoolOptions = {}) {
    const count = Math.max(1, options.workers ?? availableParallelism());
    const data: MappingWorkerData = {
      storeKind: options.storeKind ?? DEFAULT_RELEASE_STORE_KIND,
      search: options.search ?? { ...searchSettings() },
      embeddings: options.embeddings ?? { kind: 'lexicon' },
    };
    for (let i = 0; i < count; i++) this.workers.push({ worker: this.start(data), busy: false });
  }

  get size(): number {
    return this.workers.length;
  }

  private start(workerData: MappingWorkerData): Worker {
    const source = import.meta.url.endsWith('.ts');
    const url = new URL(source ? './mapping-worker.ts' : './mapping-worker.js', import.meta.url);
    const worker = source
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`, { eval: true, workerData })
      : new Worker(fileURLToPath(url), { workerData });
    worker.unref();
    worker.on('message', (reply: MappingBatchReply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      waiter.resolve(reply);
    });
    const fail = (message: string) => {
      this.failure ??= new Error(message);
      for (const [id, waiter] of this.waiting) {
        if (waiter.worker.worker !== worker) continue;
        this.waiting.delete(id);
        waiter.resolve({ id, error: message });
      }
    };
    worker.on('error', (err) => fail(`mapping worker failed: ${err.message}`));
    worker.on('exit', (code) => fail(`mapping worker exited (${code})`));
    return worker;
  }

  private run(w: PoolWorker, job: MappingBatchJob): Promise<MappingBatchReply> {
    w.busy = true;
    return new Promise((resolve) => {
      this.waiting.set(job.id, { resolve, worker: w });
      w.worker.postMessage(job);
    }).finally(() => {
      w.busy = false;
    }) as Promise<MappingBatchReply>;
  }

  /** Maps the terms in batches on the workers; resolves when all are mapped or, once cancelled, when the batches under way are in. */
  async mapTerms(request: MapTermsRequest): Promise<MapTermsOutcome> {
    if (this.failure) throw this.failure;
    const size = Math.max(1, request.batchSize ?? DEFAULT_MAPPING_BATCH);
    const now = (request.now ?? new Date()).toISOString();
    const batches: SourceTerm[][] = [];
    for (let i = 0; i < request.terms.length; i += size) batches.push(request.terms.slice(i, i + size));
    let next = 0;
    let mapped = 0;
    let semantic = false;
    let error: Error | null = null;
    const drive = async (w: PoolWorker) => {
      while (!error && !request.signal?.aborted && next < batches.length) {
        const terms = batches[next++]!;
        const reply = await this.run(w, { id: this.nextId++, build: request.build, cpt4ValidatedUntil: request.cpt4ValidatedUntil, terms, options: request.options, now });
        if ('error' in reply) {
          error ??= new Error(reply.error);
          return;
        }
        semantic ||= reply.semantic;
        mapped += reply.results.length;
        try {
          await request.onBatch?.(reply.results);
        } catch (err) {
          error ??= err as Error;
        }
      }
    };
    await Promise.all(this.workers.map(drive));
    if (error) throw error;
    return { mapped, cancelled: mapped < request.terms.length, semantic };
  }

  async close(): Promise<void> {
    const workers = this.workers.splice(0);
    this.failure ??= new Error('the mapping pool is closed');
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }
}

/** One run on a pool of its own (the CLI; a server keeps one MappingPool for its jobs). */
export async function mapTermsInPool(request: MapTermsRequest & MappingPoolOptions): Promise<MapTermsOutcome> {
  const pool = new MappingPool(request);
  try {
    return await pool.mapTerms(request);
  } finally {
    await pool.close();
  }
}
