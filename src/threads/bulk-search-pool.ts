/**
 * Bulk search on more than one core: when cores are spare, a bulk request is split and helper threads run parts of
 * it on their own read-only connections while this thread runs the first part, then waits for their answers on a
 * shared flag (Atomics.wait) for a time bounded by its own part's; why so is in docs/internals.md.
 */
import { searchSettings, type SearchSettings } from '../services/search/search-settings.js';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { bulkSearch, checkBulkBody, type BulkSearchBody, type BulkSearchOutcome } from '../services/search/bulk-search.js';
import type { ReleaseView } from '../services/release-view.js';
import type { ReleaseBuild } from '../store/data-dir.js';
import { DEFAULT_RELEASE_STORE_KIND, type ReleaseStoreKind } from '../store/openers/release-store-openers.js';

/** Each part of a split request has at least this many searches (smaller parts are not worth a hand-over). */
export const MIN_SEARCHES_PER_PART = 4;
/**
 * The longest wait for a helper's part, as a multiple of the time this thread took for its own part.
 * Parts have as many searches, not the same cost: measured at scale 0.1 (search-unseen-bulk at
 * concurrency 1), a wait of 0.5× gave up on a helper that was merely slower in 22 of ~400 requests
 * (each then costing its part twice) and 2× (with 10 ms at least) in 2.
 */
export const HELPER_GRACE_RATIO = 2;
/** The wait for a helper's part is never shorter than this (a thread wake-up, a message copy, a busy core). */
export const MIN_HELPER_GRACE_MS = 10;
/**
 * A helper's part that is late (past the wait above) is run in this thread this many searches at a
 * time, looking for the helper's answer between them: the part costs this thread at most its own
 * time, and a helper that answers meanwhile saves the rest of it.
 */
export const LATE_PART_CHUNK = 4;
/** A helper busy with one part for longer than this is considered hung and terminated (then replaced). */
export const DEFAULT_HELPER_TIMEOUT_MS = 10_000;

/** A part of a bulk request sent to a helper thread. */
export interface BulkJob {
  id: number;
  build: ReleaseBuild;
  cpt4ValidatedUntil: string | null;
  body: BulkSearchBody;
  firstIndex: number;
}

export type BulkJobReply = { id: number; outcomes: BulkSearchOutcome[] } | { id: number; error: string };

/** A helper's first message on its reply port: it has loaded and listens for jobs. */
export const HELPER_READY = { id: 0, ready: true } as const;

/** Given to a helper as workerData: which store implementation opens builds. */
export interface HelperData {
  storeKind: ReleaseStoreKind;
  /** The server's search settings (see src/services/search/search-settings.ts). */
  search: SearchSettings;
}

/** Sent once to a helper: where to answer, and the flag to raise when it has. */
export interface HelperChannel {
  replies: MessagePort;
  done: SharedArrayBuffer;
}

/** Tells a helper which builds are served: it opens them ahead of their first part and closes the others. */
export interface RetainMessage {
  retain: ReleaseBuild[];
}

/** Test hook: the helper blocks for `stallMs` before its next message (a slow or hung helper). */
export interface StallMessage {
  stallMs: number;
}

interface Helper {
  worker: Worker;
  /** Set once the helper has said it is ready (a helper still starting is not given work). */
  ready: boolean;
  replies: MessagePort;
  /** [0] is set to 1 by the helper when an answer is on `replies`. */
  done: Int32Array;
  /** The part the helper is running, answered or not: a busy helper is given no other part. */
  busy?: { id: number; since: number };
  /** Terminated as hung: out of use until its exit replaces it (and not reported twice). */
  terminating?: boolean;
}

export interface BulkSearchPoolOptions {
  /** Helper threads (default: cores − 1, at most 3; 0 disables the pool). */
  threads?: number;
  /** The store implementation helpers open builds with (default: the server's, see release-store-openers.ts). */
  storeKind?: ReleaseStoreKind;
  /** Search settings for the helpers (default: this thread's, see search-settings.ts). */
  search?: SearchSettings;
  /** A helper busy with one part for longer than this is terminated and replaced (default 10 s). */
  helperTimeoutMs?: number;
  /** The shortest wait for a helper's part (default MIN_HELPER_GRACE_MS). */
  minHelperGraceMs?: number;
  /** Told when a helper fails or its part has to run in the calling thread instead. */
  onProblem?: (message: string) => void;
}

export class BulkSearchPool {
  private readonly helpers: Helper[] = [];
  private nextId = 1;
  private closed = false;
  /** The builds last given to retain() (a replacement helper opens them too). */
  private retained: RetainMessage = { retain: [] };
  /**
   * Requests split with helpers, searches the helpers ran, helper parts that had to run here
   * instead, and helpers started to replace one that died.
   */
  readonly stats = { splitRequests: 0, helperSearches: 0, fallbacks: 0, restarts: 0 };

  constructor(private readonly options: BulkSearchPoolOptions = {}) {
    const threads = options.threads ?? Math.min(3, Math.max(0, availableParallelism() - 1));
    for (let i = 0; i < threads; i++) this.startHelper();
  }

  /** Number of helper threads alive (started, possibly still loading). */
  get size(): number {
    return this.helpers.length;
  }

  /** Test hook: the helper threads alive, to make one fail (terminate) or stall. */
  get workersForTest(): readonly Worker[] {
    return this.helpers.map((h) => h.worker);
  }

  private startHelper(): void {
    const source = import.meta.url.endsWith('.ts');
    const url = new URL(source ? './bulk-search-worker.ts' : './bulk-search-worker.js', import.meta.url);
    const workerData: HelperData = { storeKind: this.options.storeKind ?? DEFAULT_RELEASE_STORE_KIND, search: this.options.search ?? { ...searchSettings() } };
    // Run from TypeScript sources (tests, `tsx`), the helper registers the TypeScript loader first.
    const worker = source
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`, { eval: true, workerData })
      : new Worker(fileURLToPath(url), { workerData });
    worker.unref();
    const { port1, port2 } = new MessageChannel();
    const done = new SharedArrayBuffer(4);
    const channel: HelperChannel = { replies: port2, done };
    worker.postMessage(channel, [port2]);
    worker.postMessage(this.retained);
    const helper: Helper = { worker, ready: false, replies: port1, done: new Int32Array(done) };
    const drop = (message: string) => {
      const index = this.helpers.indexOf(helper);
      if (index < 0) return;
      this.helpers.splice(index, 1);
      this.takeMessages(helper);
      port1.close();
      if (this.closed) return;
      this.options.onProblem?.(message);
      // A helper that never got ready cannot load (a broken installation): restarting would loop.
      if (helper.ready) {
        this.stats.restarts++;
        this.startHelper();
      }
    };
    worker.on('error', (err) => drop(`bulk search helper failed: ${err.message}`));
    worker.on('exit', (code) => drop(`bulk search helper exited (${code})`));
    this.helpers.push(helper);
  }

  /** The builds served: every helper opens them (ahead of their first part) and closes the others. */
  retain(builds: readonly ReleaseBuild[]): void {
    this.retained = { retain: [...builds] };
    for (const h of this.helpers) h.worker.postMessage(this.retained);
  }

  /**
   * A bulk search (same contract as bulkSearch), split with the helpers when it is worth it:
   * enough searches, idle helpers, and cores to spare (`otherRequests`, the bulk searches waiting
   * for this thread besides this one, fewer than the helpers).
   */
  run(view: ReleaseView, body: BulkSearchBody, load: { otherRequests?: number } = {}): BulkSearchOutcome[] {
    const searches = checkBulkBody(body);
    const spare = (load.otherRequests ?? 0) < this.helpers.length;
    // Helpers open the same build: a view of a bare store (no build) is searched here.
    const build = view.build;
    const idle = spare && !this.closed && build ? this.idleHelpers() : [];
    const parts = Math.min(idle.length + 1, Math.floor(searches.length / MIN_SEARCHES_PER_PART));
    if (parts < 2) return bulkSearch(view, body);
    const size = Math.ceil(searches.length / parts);
    this.stats.splitRequests++;
    const remote = idle.slice(0, parts - 1).map((helper, k) => {
      const firstIndex = size * (k + 1);
      const part: BulkSearchBody = { searches: searches.slice(firstIndex, firstIndex + size), defaults: body.defaults };
      const job: BulkJob = { id: this.nextId++, build: build!, cpt4ValidatedUntil: view.licences.cpt4ValidatedUntil, body: part, firstIndex };
      helper.busy = { id: job.id, since: performance.now() };
      helper.worker.postMessage(job);
      return { helper, job };
    });
    const started = performance.now();
    const local = bulkSearch(view, { searches: searches.slice(0, size), defaults: body.defaults });
    const finished = performance.now();
    const grace = Math.max(this.options.minHelperGraceMs ?? MIN_HELPER_GRACE_MS, (finished - started) * HELPER_GRACE_RATIO);
    const deadline = finished + grace;
    const answers = remote.map(({ helper, job }) => {
      const reply = this.awaitReply(helper, job.id, deadline);
      if (reply && 'outcomes' in reply) {
        this.stats.helperSearches += reply.outcomes.length;
        return reply.outcomes;
      }
      if (reply) {
        this.reportFallback(reply.error);
        return bulkSearch(view, job.body, job.firstIndex);
      }
      // Late: run the part here a few searches at a time, and take the helper's answer if it comes
      // meanwhile (a helper that was merely slower than this thread usually answers soon after).
      const part = job.body.searches ?? [];
      const done: BulkSearchOutcome[] = [];
      let problem: string | undefined;
      for (let start = 0; start < part.length; start += LATE_PART_CHUNK) {
        const late = problem === undefined ? this.awaitReply(helper, job.id, 0) : undefined;
        if (late && 'outcomes' in late) {
          this.stats.helperSearches += late.outcomes.length;
          return late.outcomes;
        }
        if (late) problem = late.error;
        const chunk: BulkSearchBody = { searches: part.slice(start, start + LATE_PART_CHUNK), defaults: job.body.defaults };
        done.push(...bulkSearch(view, chunk, job.firstIndex + start));
      }
      this.reportFallback(problem ?? 'the helper did not answer in time');
      return done;
    });
    return [...local, ...answers.flat()];
  }

  /** Counts and reports a helper's part run in this thread instead. */
  private reportFallback(reason: string): void {
    this.stats.fallbacks++;
    this.options.onProblem?.(`bulk search part ran in the request thread instead: ${reason}`);
  }

  /**
   * Helpers that are ready and not busy, after taking every message waiting on their ports (the
   * ready message, answers to parts given up earlier). A helper busy beyond the timeout is
   * terminated here (its exit replaces it).
   */
  private idleHelpers(): Helper[] {
    const now = performance.now();
    const timeout = this.options.helperTimeoutMs ?? DEFAULT_HELPER_TIMEOUT_MS;
    return this.helpers.filter((helper) => {
      if (helper.terminating) return false;
      this.takeMessages(helper);
      if (helper.busy && now - helper.busy.since > timeout) {
        helper.terminating = true;
        this.options.onProblem?.(`bulk search helper busy for over ${timeout} ms: restarting it`);
        void helper.worker.terminate();
        return false;
      }
      return helper.ready && !helper.busy;
    });
  }

  /** Takes every message waiting on the helper's port (see take). */
  private takeMessages(helper: Helper): void {
    for (let m = receiveMessageOnPort(helper.replies); m; m = receiveMessageOnPort(helper.replies)) this.take(helper, m.message);
  }

  /** Records what a helper's message says about it: it is ready, or done with its part. */
  private take(helper: Helper, message: BulkJobReply | typeof HELPER_READY): void {
    if ('ready' in message) helper.ready = true;
    else if (helper.busy?.id === message.id) helper.busy = undefined;
  }

  /** Blocks until the helper has answered job `id`, or until `deadline` (performance.now() time). */
  private awaitReply(helper: Helper, id: number, deadline: number): BulkJobReply | undefined {
    for (;;) {
      const message = receiveMessageOnPort(helper.replies)?.message as BulkJobReply | typeof HELPER_READY | undefined;
      if (message) {
        this.take(helper, message);
        if (message.id === id && !('ready' in message)) return message;
        continue;
      }
      const left = deadline - performance.now();
      if (left <= 0) return undefined;
      Atomics.wait(helper.done, 0, 0, left);
      Atomics.store(helper.done, 0, 0);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const helpers = this.helpers.splice(0);
    // Their exit no longer reaches drop() (they are out of the list): close their ports here.
    for (const h of helpers) h.replies.close();
    await Promise.all(helpers.map((h) => h.worker.terminate()));
  }
}
