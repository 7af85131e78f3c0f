/**
 * Bulk search on more than one core. A bulk request's searches are independent, so when cores are
 * spare the request is split: helper threads run parts of it against their own read-only
 * connections to the same release build while this thread runs the first part, which roughly
 * halves a bulk request's latency on a two-core machine.
 *
 * The hand-over is synchronous: this thread waits for the helpers' answers on a shared flag
 * (Atomics.wait) and takes them straight off a message port, instead of through the event loop.
 * (An earlier asynchronous version let a helper's answer queue behind other requests under load:
 * tail latency grew from 0.4 s to 3 s at 32 concurrent bulk requests.) Under load (more requests in
 * flight than helpers) a request runs in this thread only. A helper that fails, dies or does not
 * answer within HELPER_TIMEOUT_MS only makes its part run here instead.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { ReleaseBuild } from '../../store/data-dir.js';
import type { OpenRelease } from '../../store/release-registry.js';
import type { AccessPolicy } from '../access-policy.js';
import { bulkSearch, checkBulkBody, type BulkSearchBody, type BulkSearchOutcome } from './bulk-search.js';

/** Each part of a split request has at least this many searches (smaller parts are not worth a hand-over). */
export const MIN_SEARCHES_PER_PART = 4;
/** A helper that has not answered its part within this time is given up (its part runs here). */
export const HELPER_TIMEOUT_MS = 10_000;

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

/** Sent once to a helper: where to answer, and the flag to raise when it has. */
export interface HelperChannel {
  replies: MessagePort;
  done: SharedArrayBuffer;
}

/** Tells a helper which builds are still served (it closes the others). */
export interface RetainMessage {
  retain: string[];
}

export const buildKey = (build: Pick<ReleaseBuild, 'label' | 'buildId'>) => `${build.label}__${build.buildId}`;

interface Helper {
  worker: Worker;
  /** Set once the helper has said it is ready (a helper still starting is not given work). */
  ready: boolean;
  replies: MessagePort;
  /** [0] is set to 1 by the helper when an answer is on `replies`. */
  done: Int32Array;
}

export interface BulkSearchPoolOptions {
  /** Helper threads (default: cores − 1, at most 3; 0 disables the pool). */
  threads?: number;
  /** Told when a helper fails or its part has to run in the calling thread instead. */
  onProblem?: (message: string) => void;
}

export class BulkSearchPool {
  private readonly helpers: Helper[] = [];
  private nextId = 1;
  private closed = false;
  /** Requests split with helpers, searches the helpers ran, and helper parts that had to run here instead. */
  readonly stats = { splitRequests: 0, helperSearches: 0, fallbacks: 0 };

  constructor(private readonly options: BulkSearchPoolOptions = {}) {
    const threads = options.threads ?? Math.min(3, Math.max(0, availableParallelism() - 1));
    for (let i = 0; i < threads; i++) this.startHelper();
  }

  /** Number of helper threads alive. */
  get size(): number {
    return this.helpers.length;
  }

  private startHelper(): void {
    const source = import.meta.url.endsWith('.ts');
    const url = new URL(source ? './bulk-search-worker.ts' : './bulk-search-worker.js', import.meta.url);
    // Run from TypeScript sources (tests, `tsx`), the helper registers the TypeScript loader first.
    const worker = source
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); });`, { eval: true })
      : new Worker(fileURLToPath(url));
    worker.unref();
    const { port1, port2 } = new MessageChannel();
    const done = new SharedArrayBuffer(4);
    const channel: HelperChannel = { replies: port2, done };
    worker.postMessage(channel, [port2]);
    const helper: Helper = { worker, ready: false, replies: port1, done: new Int32Array(done) };
    const drop = (message: string) => {
      const index = this.helpers.indexOf(helper);
      if (index < 0) return;
      this.helpers.splice(index, 1);
      port1.close();
      if (!this.closed) this.options.onProblem?.(message);
    };
    worker.on('error', (err) => drop(`bulk search helper failed: ${err.message}`));
    worker.on('exit', (code) => drop(`bulk search helper exited (${code})`));
    this.helpers.push(helper);
  }

  /** Closes, in every helper, the stores of builds not in `builds`. */
  retain(builds: ReadonlyArray<Pick<ReleaseBuild, 'label' | 'buildId'>>): void {
    const message: RetainMessage = { retain: builds.map(buildKey) };
    for (const h of this.helpers) h.worker.postMessage(message);
  }

  /**
   * A bulk search (same contract as bulkSearch), split with the helpers when it is worth it:
   * enough searches, and cores to spare (`otherRequests`, the requests the server is serving
   * besides this one, fewer than the helpers).
   */
  run(release: OpenRelease, policy: AccessPolicy, body: BulkSearchBody, load: { otherRequests?: number } = {}): BulkSearchOutcome[] {
    const searches = checkBulkBody(body);
    const ready = this.closed ? [] : this.helpers.filter((h) => h.ready || (h.ready = receiveMessageOnPort(h.replies)?.message?.ready === true));
    const spare = (load.otherRequests ?? 0) < this.helpers.length;
    const parts = spare ? Math.min(ready.length + 1, Math.floor(searches.length / MIN_SEARCHES_PER_PART)) : 1;
    if (parts < 2) return bulkSearch(release.store, policy, body);
    const size = Math.ceil(searches.length / parts);
    this.stats.splitRequests++;
    const remote = ready.slice(0, parts - 1).map((helper, k) => {
      const firstIndex = size * (k + 1);
      const part: BulkSearchBody = { searches: searches.slice(firstIndex, firstIndex + size), defaults: body.defaults };
      const job: BulkJob = { id: this.nextId++, build: release.build, cpt4ValidatedUntil: policy.cpt4ValidatedUntil, body: part, firstIndex };
      Atomics.store(helper.done, 0, 0);
      helper.worker.postMessage(job);
      return { helper, job };
    });
    const local = bulkSearch(release.store, policy, { searches: searches.slice(0, size), defaults: body.defaults });
    const answers = remote.map(({ helper, job }) => {
      const reply = this.awaitReply(helper, job.id);
      if (reply && 'outcomes' in reply) {
        this.stats.helperSearches += reply.outcomes.length;
        return reply.outcomes;
      }
      this.stats.fallbacks++;
      this.options.onProblem?.(`bulk search part ran in the request thread instead: ${reply ? reply.error : 'the helper did not answer'}`);
      return bulkSearch(release.store, policy, job.body, job.firstIndex);
    });
    return [...local, ...answers.flat()];
  }

  /** Blocks until the helper has answered job `id` (or HELPER_TIMEOUT_MS passed: the helper is then dropped). */
  private awaitReply(helper: Helper, id: number): BulkJobReply | undefined {
    const deadline = Date.now() + HELPER_TIMEOUT_MS;
    for (;;) {
      const message = receiveMessageOnPort(helper.replies)?.message as BulkJobReply | undefined;
      if (message?.id === id) return message;
      if (message) continue; // the ready message, or an answer to a job given up earlier
      const left = deadline - Date.now();
      if (left <= 0 || !this.helpers.includes(helper)) break;
      Atomics.wait(helper.done, 0, 0, Math.min(left, 1000));
      Atomics.store(helper.done, 0, 0);
    }
    if (this.helpers.includes(helper)) void helper.worker.terminate();
    return undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    const helpers = this.helpers.splice(0);
    await Promise.all(helpers.map((h) => h.worker.terminate()));
  }
}
