/**
 * Maps source terms on worker threads (every core): batches of terms go to a WorkerPool of their own (./worker-pool.ts,
 * operation mapTermBatch: each thread opens the release build read-only and searches its vectors through one vector
 * host), to whichever thread is free, and each answer is reported as it comes (`onBatch`), so a caller can journal it.
 * Cancel stops handing out batches.
 */
import { availableParallelism } from 'node:os';
import type { EmbeddingProviderChoice } from '../search-model/semantic/embedding-provider.js';
import type { ReleaseView } from '../services/release-view.js';
import type { SearchSettings } from '../services/search/search-settings.js';
import type { MappingOptions, SourceTerm } from '../services/source-mapping/mapping-types.js';
import type { TermMappingResult } from '../services/source-mapping/term-mapping.js';
import type { ReleaseBuild } from '../store/data-dir.js';
import type { ReleaseStoreKind } from '../store/openers/release-store-openers.js';
import { VectorHost } from './vector-host.js';
import { WorkerPool } from './worker-pool.js';

/**
 * Terms per batch: small enough that cancel and progress come within a fraction of a second (a term takes a few ms),
 * large enough that the message round trip is negligible.
 */
export const DEFAULT_MAPPING_BATCH = 25;

export interface MappingPoolOptions {
  /** Worker threads (default: the machine's cores). */
  workers?: number;
  storeKind?: ReleaseStoreKind;
  search?: SearchSettings;
  /** The provider whose vectors the workers search (default: the built-in one); a release without them is ranked lexically. */
  embeddings?: EmbeddingProviderChoice;
  /** Told when a thread fails or is replaced. */
  onProblem?: (message: string) => void;
  /** The process's vector host, through which the threads search the vectors (default: one of the pool's own, ./vector-host.ts). */
  vectorHost?: VectorHost;
}

export interface MapTermsRequest {
  /** The release (its build: the threads open it) seen with the licence rules the candidates are computed under. */
  view: ReleaseView;
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

export class MappingPool {
  private readonly pool: WorkerPool;
  /** The vector host the pool started, when it was not given one. */
  private readonly ownHost: VectorHost | null;

  constructor(poolOptions: MappingPoolOptions = {}) {
    const threads = Math.max(1, poolOptions.workers ?? availableParallelism());
    this.ownHost = poolOptions.vectorHost ? null : new VectorHost();
    this.pool = new WorkerPool({
      vectorHost: poolOptions.vectorHost ?? this.ownHost!,
      threads,
      // a run keeps at most one batch per thread waiting
      queueLimit: Number.MAX_SAFE_INTEGER,
      storeKind: poolOptions.storeKind,
      search: poolOptions.search,
      embeddings: poolOptions.embeddings,
      onProblem: poolOptions.onProblem,
      name: 'mapping',
      // a server that never runs a job starts none
      lazy: true,
    });
  }

  /** Worker threads (started at the first run). */
  get size(): number {
    return this.pool.capacity;
  }

  /** Maps the terms in batches on the workers; resolves when all are mapped or, once cancelled, when the batches under way are in. */
  async mapTerms(request: MapTermsRequest): Promise<MapTermsOutcome> {
    const size = Math.max(1, request.batchSize ?? DEFAULT_MAPPING_BATCH);
    const now = (request.now ?? new Date()).toISOString();
    const batches: SourceTerm[][] = [];
    for (let i = 0; i < request.terms.length; i += size) batches.push(request.terms.slice(i, i + size));
    let next = 0;
    let mapped = 0;
    let semantic = false;
    let error: Error | null = null;
    const drive = async () => {
      while (!error && !request.signal?.aborted && next < batches.length) {
        const terms = batches[next++]!;
        try {
          const reply = await this.pool.run('mapTermBatch', request.view, { terms, options: request.options, now });
          semantic ||= reply.semantic;
          mapped += reply.results.length;
          await request.onBatch?.(reply.results);
        } catch (err) {
          error ??= err as Error;
        }
      }
    };
    await Promise.all(Array.from({ length: this.pool.capacity }, drive));
    if (error) throw error;
    return { mapped, cancelled: mapped < request.terms.length, semantic };
  }

  /** The builds served: the threads close the others (a job's build is opened by its first batch). */
  retain(builds: readonly ReleaseBuild[]): void {
    this.pool.retain(builds);
  }

  async close(): Promise<void> {
    await this.pool.close();
    await this.ownHost?.close();
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
