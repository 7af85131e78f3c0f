/**
 * One pool of worker threads for heavy work: each thread opens the release builds read-only (and their vectors) with
 * the server's openers and runs the operations of ./heavy-operations.ts on the caller's views, one task at a time;
 * tasks wait in a bounded queue, a thread that dies is replaced, and threads open and close builds as the registry
 * changes. Without threads (or for a view without a build) a task runs here, one per event-loop turn (./turn-queue.ts).
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { EmbeddingProviderChoice } from '../search-model/semantic/embedding-provider.js';
import { ServiceError } from '../services/errors.js';
import type { ReleaseView } from '../services/release-view.js';
import { searchSettings, type SearchSettings } from '../services/search/search-settings.js';
import { SemanticIndexRegistry } from '../services/semantic/semantic-index-registry.js';
import type { ReleaseBuild } from '../store/data-dir.js';
import { DEFAULT_RELEASE_STORE_KIND, type ReleaseStoreKind } from '../store/openers/release-store-openers.js';
import { openSqliteSemanticIndex } from '../store/sqlite/sqlite-semantic-index.js';
import { runOperation, type HeavyOperationName, type OperationArgs, type OperationEnv, type OperationResult } from './heavy-operations.js';
import { startModuleWorker } from '../module-worker.js';
import { TurnQueue } from './turn-queue.js';
import type { VectorHost, VectorHostConnection } from './vector-host.js';

/** Tasks that may wait for a thread, per thread (see docs/operations.md#worker-threads for the bound's choice). */
export const DEFAULT_QUEUE_PER_THREAD = 64;
/** How long close() waits for a thread to close its files and exit before it terminates the thread. */
const THREAD_EXIT_MS = 5_000;
/** A task running longer than this is taken as hung: its thread is terminated and replaced, the request fails. */
export const DEFAULT_TASK_TIMEOUT_MS = 120_000;
/** The Retry-After of the 503 a request gets when the queue is full. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** The caller's licence as a task carries it: the two fields that remake its LicenceRules, and what they hide (checked). */
export interface TaskLicence {
  cpt4ValidatedUntil: string | null;
  today: string;
  hidden: string[];
}

export interface TaskMessage {
  kind: 'task';
  id: number;
  op: HeavyOperationName;
  /** The builds of the task's views, in order (`[build]`, or `[before, after]`). */
  builds: ReleaseBuild[];
  licence: TaskLicence;
  args: unknown;
  /** Answer the result as UTF-8 JSON (a large answer: bytes moved, not copied, and no serialisation left to the event loop). */
  json?: boolean;
}

/** The builds served: a thread opens them ahead of their first task and closes the others. */
export interface RetainMessage {
  kind: 'retain';
  builds: ReleaseBuild[];
}

/** Test hooks: block the thread until the gate is opened; list the builds it has open. */
export type TestMessage = { kind: 'hold'; gate: SharedArrayBuffer } | { kind: 'open-builds'; id: number };

/** The pool is closing: the thread closes its stores and vector indexes and exits by itself (see WorkerPool.close). */
export interface CloseMessage {
  kind: 'close';
}

export type ToThread = TaskMessage | RetainMessage | CloseMessage | TestMessage;

/** An error crossing from a thread: a ServiceError's fields (status and code set), or another error's message. */
export interface SerializedError {
  status?: number;
  code?: string;
  message: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export type FromThread =
  | { kind: 'ready' }
  | { kind: 'done'; id: number; result: unknown }
  | { kind: 'failed'; id: number; error: SerializedError }
  | { kind: 'open-builds'; id: number; dirs: string[] };

/** Given to a thread as workerData: names, since a function cannot cross to a thread. */
export interface PoolThreadData {
  storeKind: ReleaseStoreKind;
  /** The server's search settings (src/services/search/search-settings.ts). */
  search: SearchSettings;
  /** The provider whose vectors the thread searches (the server's). */
  embeddings: EmbeddingProviderChoice;
  /** The process's vector host, which opens the vector files for this thread (absent: the thread opens them itself). */
  vectors?: VectorHostConnection;
}

export interface WorkerPoolOptions {
  /** Worker threads (default: the machine's cores); 0 runs every task in this thread, one per event-loop turn. */
  threads?: number;
  /** Tasks that may wait for a thread (default DEFAULT_QUEUE_PER_THREAD × threads); one more is refused with a 503. */
  queueLimit?: number;
  storeKind?: ReleaseStoreKind;
  search?: SearchSettings;
  embeddings?: EmbeddingProviderChoice;
  /** The server's vectors, for tasks run in this thread (default: a registry of the pool's own). */
  semanticIndexes?: SemanticIndexRegistry;
  /** The process's vector host: the threads search vector files through it instead of each opening them (./vector-host.ts). */
  vectorHost?: VectorHost;
  /** A task running longer than this fails and its thread is replaced (default DEFAULT_TASK_TIMEOUT_MS). */
  taskTimeoutMs?: number;
  /** Told when a thread fails or is replaced. */
  onProblem?: (message: string) => void;
  /** What the threads are called in messages (default 'worker'). */
  name?: string;
  /** Start the threads at the first task rather than now (a pool that may never be used: mapping jobs, the CLI). */
  lazy?: boolean;
}

export interface RunOptions {
  /** Asked when the task's turn comes: true (the client has gone) skips it, and the task fails. */
  abandoned?: () => boolean;
}

interface Pending {
  message: TaskMessage;
  views: readonly ReleaseView[];
  resolve(result: unknown): void;
  reject(error: Error): void;
  abandoned?: () => boolean;
}

interface PoolThread {
  worker: Worker;
  /** Set once the thread has loaded and listens (a thread still starting is given no task). */
  ready: boolean;
  task?: Pending;
  timer?: NodeJS.Timeout;
  /** Why the thread is being terminated (its exit then fails its task with this). */
  stopping?: string;
}

/** The error of a task whose client went away before its turn (nobody reads the answer). */
export class AbandonedTask extends Error {
  constructor() {
    super('the client closed the connection before the request was computed');
    this.name = 'AbandonedTask';
  }
}

/** The caller's licence of a task's views (one caller: every view carries the same rules). */
function licenceOf(views: readonly ReleaseView[]): TaskLicence {
  const rules = views[0]!.licences;
  if (views.some((v) => v.licences !== rules)) throw new Error('the views of one task must carry one caller\'s licence rules');
  return { cpt4ValidatedUntil: rules.cpt4ValidatedUntil, today: rules.today, hidden: rules.hiddenVocabularyIds() };
}

/** UTF-8 bytes of a value's JSON, in a buffer of their own (so that a thread can hand it over without a copy). */
export function utf8Json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value));
}

/** The error a thread sent, as it was raised there (a ServiceError keeps its status, code, details and headers). */
export function reviveError(error: SerializedError): Error {
  if (error.status !== undefined && error.code !== undefined) return new ServiceError(error.status, error.code, error.message, error.details, error.headers);
  return new Error(error.message);
}

export class WorkerPool {
  private readonly threads: PoolThread[] = [];
  private readonly queue: Pending[] = [];
  private readonly here = new TurnQueue();
  private readonly data: PoolThreadData;
  private readonly queueLimit: number;
  private readonly name: string;
  private ownIndexes: SemanticIndexRegistry | null = null;
  private retained: RetainMessage = { kind: 'retain', builds: [] };
  private nextId = 1;
  private closed = false;
  /** Threads to run (started now, or at the first task when lazy). */
  readonly capacity: number;
  private started = false;
  private readonly buildQueries = new Map<number, (dirs: string[]) => void>();
  /**
   * Tasks given to threads, run in this thread, refused (queue full), skipped (client gone), and threads started to
   * replace one that died.
   */
  readonly stats = { threadTasks: 0, inlineTasks: 0, refused: 0, abandoned: 0, restarts: 0 };

  constructor(private readonly options: WorkerPoolOptions = {}) {
    const threads = Math.max(0, options.threads ?? availableParallelism());
    this.capacity = threads;
    this.queueLimit = options.queueLimit ?? DEFAULT_QUEUE_PER_THREAD * Math.max(1, threads);
    this.name = options.name ?? 'worker';
    this.data = {
      storeKind: options.storeKind ?? DEFAULT_RELEASE_STORE_KIND,
      search: options.search ?? { ...searchSettings() },
      embeddings: options.embeddings ?? { kind: 'lexicon' },
    };
    if (!options.lazy) this.start();
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    for (let i = 0; i < this.capacity; i++) this.startThread();
  }

  /** Threads alive (started, possibly still loading). */
  get size(): number {
    return this.threads.length;
  }

  /** Threads ready and without a task. */
  get idle(): number {
    return this.threads.filter((t) => t.ready && !t.task).length;
  }

  /** Tasks waiting for a thread. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Runs an operation on the caller's views (`[view]`, or `[before, after]`) on a thread, and answers what it returned
   * or throws what it threw (a ServiceError as it was raised). A full queue is a 503 service_unavailable with
   * Retry-After.
   */
  run<K extends HeavyOperationName>(op: K, views: ReleaseView | readonly ReleaseView[], args: OperationArgs<K>, options: RunOptions = {}): Promise<OperationResult<K>> {
    return this.submit(op, views, args, options, false) as Promise<OperationResult<K>>;
  }

  /**
   * The same, answering the result as UTF-8 JSON (the bytes of JSON.stringify of what `run` answers), made on the
   * thread and moved here without a copy: for answers of hundreds of kilobytes, whose copy, serialisation and encoding
   * would otherwise hold the event loop for tens of ms.
   */
  runJson<K extends HeavyOperationName>(op: K, views: ReleaseView | readonly ReleaseView[], args: OperationArgs<K>, options: RunOptions = {}): Promise<Uint8Array> {
    return this.submit(op, views, args, options, true) as Promise<Uint8Array>;
  }

  private submit<K extends HeavyOperationName>(op: K, views: ReleaseView | readonly ReleaseView[], args: OperationArgs<K>, options: RunOptions, json: boolean): Promise<unknown> {
    const list: readonly ReleaseView[] = Array.isArray(views) ? views : [views as ReleaseView];
    if (!this.closed) this.start();
    // A thread opens builds: a view of a bare store (no build) is computed here.
    const builds = list.map((v) => v.build);
    if (this.closed || this.threads.length === 0 || builds.some((b) => b === undefined)) return this.runHere(op, list, args, options, json);
    if (this.queue.length >= this.queueLimit) {
      this.stats.refused++;
      return Promise.reject(
        new ServiceError(
          503,
          'service_unavailable',
          `The server is busy: ${this.queue.length} heavy requests are already waiting for a worker thread. Retry in ${BUSY_RETRY_AFTER_SECONDS} s.`,
          { waiting: this.queue.length, limit: this.queueLimit },
          { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
        ),
      );
    }
    const message: TaskMessage = { kind: 'task', id: this.nextId++, op, builds: builds as ReleaseBuild[], licence: licenceOf(list), args, ...(json ? { json } : {}) };
    return new Promise<unknown>((resolve, reject) => {
      this.queue.push({ message, views: list, resolve, reject, abandoned: options.abandoned });
      this.pump();
    });
  }

  /** The builds served: every thread opens them (ahead of their first task) and closes the others. */
  retain(builds: readonly ReleaseBuild[]): void {
    this.retained = { kind: 'retain', builds: [...builds] };
    for (const t of this.threads) t.worker.postMessage(this.retained);
    this.ownIndexes?.retain(builds);
  }

  /** Test hook: the thread objects alive, to make one fail (terminate). */
  get workersForTest(): readonly Worker[] {
    return this.threads.map((t) => t.worker);
  }

  /** Test hook: every thread blocks before its next message until the returned function is called. */
  holdForTest(): () => void {
    const gate = new SharedArrayBuffer(4);
    for (const t of this.threads) t.worker.postMessage({ kind: 'hold', gate } satisfies TestMessage);
    return () => {
      const flag = new Int32Array(gate);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    };
  }

  /** Test hook: the build directories each ready thread has open (after the messages sent before). */
  openBuildsForTest(): Promise<string[][]> {
    return Promise.all(
      this.threads
        .filter((t) => t.ready)
        .map(
          (t) =>
            new Promise<string[]>((resolve) => {
              const id = this.nextId++;
              this.buildQueries.set(id, resolve);
              t.worker.postMessage({ kind: 'open-builds', id } satisfies TestMessage);
            }),
        ),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads.splice(0);
    for (const pending of this.queue.splice(0)) pending.reject(new ServiceError(503, 'service_unavailable', 'The server is shutting down.'));
    for (const t of threads) {
      clearTimeout(t.timer);
      t.task?.reject(new ServiceError(503, 'service_unavailable', 'The server is shutting down.'));
    }
    // Each thread is asked to close its stores and vector indexes and exit by itself (after the task it is running):
    // terminating a thread inside a native call (usearch, SQLite) or with native objects still open can abort the whole
    // process. A thread that has not exited within THREAD_EXIT_MS (a hung task) is terminated after all.
    await Promise.all(
      threads.map(
        (t) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => void t.worker.terminate(), THREAD_EXIT_MS);
            t.worker.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            t.worker.postMessage({ kind: 'close' } satisfies CloseMessage);
          }),
      ),
    );
    await this.ownIndexes?.close();
  }

  /** Runs the task here, in its own event-loop turn after the tasks queued here before it. */
  private async runHere<K extends HeavyOperationName>(op: K, views: readonly ReleaseView[], args: OperationArgs<K>, options: RunOptions, json: boolean): Promise<unknown> {
    this.stats.inlineTasks++;
    const env = this.env();
    const outcome = await this.here.run(
      () => ({ result: runOperation(op, views, args, env) }),
      options.abandoned,
    );
    if (!outcome) {
      this.stats.abandoned++;
      throw new AbandonedTask();
    }
    return json ? utf8Json(await outcome.result) : outcome.result;
  }

  private env(): OperationEnv {
    this.ownIndexes ??= this.options.semanticIndexes ? null : new SemanticIndexRegistry({ choice: this.data.embeddings, openIndex: openSqliteSemanticIndex });
    return { semanticIndexes: this.options.semanticIndexes ?? this.ownIndexes! };
  }

  /** Hands queued tasks to ready threads without a task. */
  private pump(): void {
    for (const thread of this.threads) {
      if (!thread.ready || thread.task || thread.stopping) continue;
      let pending: Pending | undefined;
      while ((pending = this.queue.shift())) {
        if (!pending.abandoned?.()) break;
        this.stats.abandoned++;
        pending.reject(new AbandonedTask());
      }
      if (!pending) return;
      thread.task = pending;
      this.stats.threadTasks++;
      const timeout = this.options.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
      thread.timer = setTimeout(() => this.stop(thread, `a ${this.name} thread took longer than ${timeout / 1000} s over one request: it was restarted`), timeout);
      thread.timer.unref();
      thread.worker.postMessage(pending.message);
    }
  }

  /** Terminates a thread (its exit fails its task with `why` and starts a replacement). */
  private stop(thread: PoolThread, why: string): void {
    if (thread.stopping) return;
    thread.stopping = why;
    this.options.onProblem?.(why);
    void thread.worker.terminate();
  }

  private startThread(): void {
    const vectors = this.options.vectorHost?.connect();
    const workerData: PoolThreadData = vectors ? { ...this.data, vectors } : this.data;
    const transferList = vectors ? [vectors.port] : [];
    const worker = startModuleWorker(import.meta.url, './pool-thread', { workerData, transferList });
    worker.unref();
    const thread: PoolThread = { worker, ready: false };
    worker.postMessage(this.retained);
    worker.on('message', (message: FromThread) => this.take(thread, message));
    worker.on('error', (err) => this.options.onProblem?.(`a ${this.name} thread failed: ${err.message}`));
    worker.on('exit', (code) => this.exited(thread, code));
    this.threads.push(thread);
  }

  private take(thread: PoolThread, message: FromThread): void {
    if (message.kind === 'ready') {
      thread.ready = true;
    } else if (message.kind === 'open-builds') {
      this.buildQueries.get(message.id)?.(message.dirs);
      this.buildQueries.delete(message.id);
      return;
    } else {
      const task = thread.task;
      if (!task || task.message.id !== message.id) return;
      clearTimeout(thread.timer);
      thread.task = undefined;
      if (message.kind === 'done') task.resolve(message.result);
      else task.reject(reviveError(message.error));
    }
    this.pump();
  }

  private exited(thread: PoolThread, code: number): void {
    const index = this.threads.indexOf(thread);
    if (index < 0) return; // closed
    this.threads.splice(index, 1);
    clearTimeout(thread.timer);
    const why = thread.stopping ?? `a ${this.name} thread stopped (exit code ${code}) while computing this request`;
    thread.task?.reject(new ServiceError(500, 'internal_server_error', `${why.replace(/: it was restarted$/, '')}; try again.`));
    if (this.closed) return;
    if (!thread.stopping) this.options.onProblem?.(`a ${this.name} thread exited (${code})`);
    // A thread that never got ready cannot load (a broken installation): restarting it would loop.
    if (thread.ready) {
      this.stats.restarts++;
      this.startThread();
    } else {
      this.options.onProblem?.(`a ${this.name} thread could not start; ${this.threads.length ? 'the others go on' : 'heavy requests run on the event loop'}`);
    }
    if (this.threads.length === 0) {
      // No thread left: what waits runs here.
      for (const pending of this.queue.splice(0)) {
        const { op, args, json } = pending.message;
        this.runHere(op, pending.views, args as never, { abandoned: pending.abandoned }, json === true).then(pending.resolve, pending.reject);
      }
    }
    this.pump();
  }
}
