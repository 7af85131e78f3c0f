/**
 * Runs the queued mapping jobs of the state store in the background, one at a time, oldest first, saving results per
 * batch; on start it resumes unfinished jobs (only their terms without candidates), and a cancel stops between batches.
 * A runner holds a lease on the job it maps (renewed as it saves), so that with several nodes on one state each job is
 * mapped by one of them; a job whose runner died is taken over by another once its lease expires, found by a poll.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { LicenceRules } from '../../licences/licence-rules.js';
import { ReleaseView } from '../../services/release-view.js';
import type { SemanticIndexRegistry } from '../../services/semantic/semantic-index-registry.js';
import type { MappingOptions, SourceTerm } from '../../services/source-mapping/mapping-types.js';
import { mappingRankingContext, mapTermBatch, type TermMappingResult } from '../../services/source-mapping/term-mapping.js';
import type { MappingJobRecord } from '../../state/mapping-job-store.js';
import { StateUnavailableError } from '../../state/state-errors.js';
import type { StateStore } from '../../state/state-store.js';
import type { OpenRelease, ReleaseRegistry } from '../../store/release-registry.js';
import type { MappingPool } from '../../threads/mapping-pool.js';

/** One call of a mapper: these terms, with the job's options and its owner's licence; results handed over per batch. */
export interface MapTermsRequest {
  release: OpenRelease;
  cpt4ValidatedUntil: string | null;
  terms: SourceTerm[];
  options: MappingOptions;
  /** Aborted on cancel or shutdown: the mapper stops between batches (results of a batch after it are not wanted). */
  signal: AbortSignal;
  onBatch(results: TermMappingResult[]): Promise<void>;
}

/** Maps terms: the mapping worker pool (both cores) on a server; in-process where there is no pool. */
export type TermMapper = (request: MapTermsRequest) => Promise<void>;

/** Terms read from the state and handed to the mapper at a time (the mapper saves them in its own, smaller batches). */
export const RUNNER_CHUNK_TERMS = 2000;
/** While the state backend is unreachable, the runner looks again this often (the interrupted job stays `running`). */
const STATE_RETRY_MS = 5000;
/** How long a runner's claim on a job lasts without renewal: a runner that dies holds its job this long at most. */
export const MAPPING_JOB_LEASE_MS = 60_000;
/** How often a runner looks for jobs nobody runs (submitted on another node, or left by a runner that died). */
export const MAPPING_JOB_POLL_MS = 30_000;
/** Terms per batch of the in-process mapper: between batches the event loop answers other requests. */
export const IN_PROCESS_BATCH_TERMS = 8;

/** The mapper without worker threads: batches of terms on this thread, yielding to the event loop between them. */
export function inProcessTermMapper(semanticIndexes: SemanticIndexRegistry, batchTerms = IN_PROCESS_BATCH_TERMS): TermMapper {
  return async ({ release, cpt4ValidatedUntil, terms, options, signal, onBatch }) => {
    const view = ReleaseView.ofRelease(release, new LicenceRules(cpt4ValidatedUntil));
    const lookup = await semanticIndexes.get(view);
    const ctx = mappingRankingContext(view, lookup.ok ? lookup : null);
    for (let at = 0; at < terms.length && !signal.aborted; at += batchTerms) {
      const results = await mapTermBatch(ctx, terms.slice(at, at + batchTerms), options);
      if (signal.aborted) return;
      await onBatch(results);
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
}

/** The mapper of a server: batches on the mapping worker pool's threads, off the event loop. */
export function poolTermMapper(pool: MappingPool): TermMapper {
  return async ({ release, cpt4ValidatedUntil, terms, options, signal, onBatch }) => {
    await pool.mapTerms({ view: ReleaseView.ofRelease(release, new LicenceRules(cpt4ValidatedUntil)), terms, options, signal, onBatch });
  };
}

/** Where kick and cancel go when another process runs the jobs (the workers of `serve --workers N` but one). */
export interface MappingJobRelay {
  kick(): void;
  cancel(jobId: string): void;
}

export interface MappingJobRunnerOptions {
  state: StateStore;
  /** Set when another process runs the jobs: this runner then runs none and passes kick and cancel on. */
  relay?: MappingJobRelay;
  registry: ReleaseRegistry;
  mapTerms: TermMapper;
  chunkTerms?: number;
  onNotice?: (line: string) => void;
  /**
   * Its name in the leases it holds (default: host, process and a random part). A runner that takes over from a dead
   * one under the same name (a replaced worker process) resumes its job at once.
   */
  runnerId?: string;
  /** Lease length and poll interval (tests shorten them). */
  leaseMs?: number;
  pollMs?: number;
  now?: () => number;
}

export class MappingJobRunner {
  private running: Promise<void> | null = null;
  /** Set when a job was submitted while the loop ran: it looks again before stopping. */
  private again = false;
  private closed = false;
  private current: { id: string; controller: AbortController } | null = null;
  private poll: NodeJS.Timeout | null = null;
  readonly runnerId: string;
  private readonly now: () => number;
  private readonly leaseMs: number;

  constructor(private readonly options: MappingJobRunnerOptions) {
    this.now = options.now ?? Date.now;
    this.runnerId = options.runnerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = options.leaseMs ?? MAPPING_JOB_LEASE_MS;
  }

  /** Runs the queued and interrupted jobs of the state store (call once the server is up, and after each submit). */
  kick(): void {
    if (this.closed) return;
    if (this.options.relay) {
      this.options.relay.kick();
      return;
    }
    this.again = true;
    if (!this.poll) {
      this.poll = setInterval(() => this.kick(), this.options.pollMs ?? MAPPING_JOB_POLL_MS);
      this.poll.unref();
    }
    if (this.running) return;
    this.running = this.loop()
      .catch((error: unknown) => {
        // The state backend went away: nothing is lost (a job stays `running`); look again later.
        if (!(error instanceof StateUnavailableError)) throw error;
        this.options.onNotice?.(`mapping jobs paused: ${error.message}; retrying in ${STATE_RETRY_MS / 1000} s`);
        setTimeout(() => this.kick(), STATE_RETRY_MS).unref();
      })
      .catch((error: unknown) => this.options.onNotice?.(`mapping job runner stopped: ${(error as Error).message}`))
      .finally(() => {
        this.running = null;
      });
  }

  /** Stops the job's mapping between batches if this runner runs it (its state is the caller's to set). */
  cancel(jobId: string): void {
    this.options.relay?.cancel(jobId);
    if (this.current?.id === jobId) this.current.controller.abort();
  }

  /** The id of the job being mapped now, if any. */
  get activeJobId(): string | null {
    return this.current?.id ?? null;
  }

  /** Waits until no job is queued (tests, and shutdown after close()). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops after the batch in progress; an interrupted job stays `running` and resumes at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    this.current?.controller.abort();
    await this.idle();
  }

  private async loop(): Promise<void> {
    while (this.again && !this.closed) {
      this.again = false;
      for (;;) {
        if (this.closed) return;
        const next = await this.options.state.claimMappingJob(this.runnerId, this.now() + this.leaseMs);
        if (!next) break;
        await this.run(next);
      }
    }
  }

  private async run(job: MappingJobRecord): Promise<void> {
    const { state } = this.options;
    const selection = this.options.registry.select(job.release_label);
    if (!selection.ok || selection.release.label !== job.release_label) {
      await state.setMappingJobState(job.id, 'failed', `release ${job.release_label} is no longer loaded on this server`);
      return;
    }
    const started = await state.setMappingJobState(job.id, 'running');
    if (started?.state !== 'running') return;
    const controller = new AbortController();
    this.current = { id: job.id, controller };
    let renewedAt = this.now();
    let leaseLost = false;
    /** Renews the lease when due; stops this runner's mapping when another runner has taken the job over. */
    const keepLease = async (): Promise<void> => {
      // A quarter of the lease: three renewals may be slow or lost before another runner may take the job.
      if (this.now() - renewedAt < this.leaseMs / 4) return;
      if (await state.renewMappingJobLease(job.id, this.runnerId, this.now() + this.leaseMs)) {
        renewedAt = this.now();
        return;
      }
      leaseLost = true;
      this.options.onNotice?.(`mapping job ${job.id}: another runner took it over (this one did not renew its lease in time); stopping here`);
      controller.abort();
    };
    try {
      let mapped = started.mapped_terms;
      for (;;) {
        const terms = await state.pendingTerms(job.id, this.options.chunkTerms ?? RUNNER_CHUNK_TERMS);
        if (terms.length === 0) break;
        await this.options.mapTerms({
          release: selection.release,
          cpt4ValidatedUntil: job.cpt4_validated_until,
          terms,
          options: job.options,
          signal: controller.signal,
          onBatch: async (results) => {
            await state.saveMappedTerms(job.id, results);
            await keepLease();
          },
        });
        if (controller.signal.aborted) return;
        // Cancelled or deleted through another node (or process): stop between chunks.
        const now = await state.mappingJob(job.id, job.owner_key_id);
        if (now?.state !== 'running') return;
        // A mapper that saved nothing would be handed the same terms for ever.
        if (now.mapped_terms === mapped) throw new Error(`no term of the ${terms.length} handed to the mapper was saved`);
        mapped = now.mapped_terms;
      }
      await state.setMappingJobState(job.id, 'completed');
    } catch (error) {
      if (controller.signal.aborted) return;
      // An outage of the state is no failure of the job: it resumes where it stopped once the state is back.
      if (error instanceof StateUnavailableError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      this.options.onNotice?.(`mapping job ${job.id} failed: ${message}`);
      await state.setMappingJobState(job.id, 'failed', message);
    } finally {
      this.current = null;
      // Given up at once (stopping, cancelled, finished), so that another runner need not wait for it to expire.
      if (!leaseLost) await state.releaseMappingJobLease(job.id, this.runnerId).catch(() => undefined);
    }
  }
}
