/**
 * A worker's side of `serve --workers N`: asks the primary for rate decisions (every admission of one event-loop turn
 * in one message; fast keys lease tokens) and MCP session records, and passes mapping-job kicks and cancels on,
 * through the cluster IPC channel.
 */
import { hostname } from 'node:os';
import { ServiceError } from '../../services/errors.js';
import type { RateDecision } from '../../state/state-store.js';
import type { MappingJobRelay } from '../mapping-jobs/mapping-job-runner.js';
import type { McpSessionDirectory } from '../mcp-sessions.js';
import type { WorkerGroupLink } from '../start-server.js';
import { fromWire, type PrimaryMessage, type WorkerMessage } from './cluster-messages.js';

/** The IPC channel to the primary (process.send and process.on('message') in a worker; a pair of emitters in tests). */
export interface PrimaryChannel {
  send(message: WorkerMessage): void;
  onMessage(listener: (message: PrimaryMessage) => void): void;
}

/**
 * A key at least this fast takes its tokens from the primary this many seconds' worth at a time (a lease of 2 or
 * more) and spends them here: one message per lease instead of per request. Every token is still taken from the one
 * bucket, so the key's accepted requests stay within rate × seconds + one burst.
 */
export const LEASE_SECONDS = 0.01;
/** Leased tokens not spent within this time are dropped (never given back: the bound holds either way). */
export const LEASE_TTL_MS = 1000;

interface Waiting<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

/** One question to the primary about one bucket: one token (exact), or a lease for the admissions waiting on it. */
interface BucketAsk {
  bucket: string;
  rate: number;
  /** 1: one admission; more: a lease (when sent: for at least as many admissions as wait on it). */
  want: number;
  waiters: Array<Waiting<RateDecision>>;
}

interface Lease {
  tokens: number;
  expiresAtMs: number;
  /** The primary's decision when it granted the lease. */
  decision: RateDecision;
}

export class PrimaryLink {
  private nextId = 1;
  private broken: Error | null = null;
  /** Questions of this turn, sent together at its end (setImmediate). */
  private batch: BucketAsk[] = [];
  private readonly rateAnswers = new Map<number, BucketAsk[]>();
  /** The lease question of a bucket not answered yet: later admissions wait on it rather than ask again. */
  private readonly leaseAsks = new Map<string, BucketAsk>();
  private readonly leases = new Map<string, Lease>();
  private readonly sessionAnswers = new Map<number, Waiting<boolean>>();

  constructor(
    private readonly channel: PrimaryChannel,
    private readonly now: () => number = Date.now,
  ) {
    channel.onMessage((message) => this.receive(message));
  }

  /** The rate decision of one admission: asked of the primary with the other admissions of this turn, or leased. */
  readonly takeToken = (bucket: string, rate: number): Promise<RateDecision> => {
    if (this.broken) return Promise.reject(this.broken);
    const leaseSize = Math.floor(rate * LEASE_SECONDS);
    if (leaseSize < 2) return new Promise((resolve, reject) => this.enqueue({ bucket, rate, want: 1, waiters: [{ resolve, reject }] }));
    const lease = this.leases.get(bucket);
    if (lease && lease.tokens >= 1 && this.now() < lease.expiresAtMs) {
      lease.tokens -= 1;
      return Promise.resolve({ ...lease.decision, allowed: true, remaining: lease.decision.remaining + lease.tokens, retry_after_seconds: 0 });
    }
    return new Promise((resolve, reject) => {
      const asked = this.leaseAsks.get(bucket);
      if (asked) return asked.waiters.push({ resolve, reject });
      const ask: BucketAsk = { bucket, rate, want: leaseSize, waiters: [{ resolve, reject }] };
      this.leaseAsks.set(bucket, ask);
      this.enqueue(ask);
    });
  };

  readonly mcpSessions: McpSessionDirectory = {
    open: async (session, key) => {
      await this.askSession('open', session, key);
    },
    touch: (session, key) => this.askSession('touch', session, key),
    end: async (session) => {
      await this.askSession('end', session, '');
    },
  };

  /** For the workers that do not run the mapping jobs: kick and cancel go to the one that does. */
  readonly mappingJobRelay: MappingJobRelay = {
    kick: () => this.tell({ t: 'jobs', op: 'kick' }),
    cancel: (job) => this.tell({ t: 'jobs', op: 'cancel', job }),
  };

  /** What start-server.ts takes (`runsMappingJobs`: this worker is the one that runs them). */
  groupLink(runsMappingJobs: boolean): WorkerGroupLink {
    return {
      takeToken: this.takeToken,
      mcpSessions: this.mcpSessions,
      mappingJobRelay: runsMappingJobs ? null : this.mappingJobRelay,
      // Named after the primary: a replacement of a worker that died takes its job back at once instead of waiting for
      // the lease to expire (only one worker of a primary runs jobs).
      mappingJobRunnerId: `${hostname()}:${process.ppid}:jobs`,
    };
  }

  /** Sends a message that needs no answer (ignored once the channel is gone). */
  tell(message: WorkerMessage): void {
    if (!this.broken) this.channel.send(message);
  }

  /**
   * The primary is gone: every question waiting, and every later one, fails closed (no rate decision, no request).
   */
  disconnected(): void {
    this.broken = new ServiceError(503, 'service_unavailable', 'The server is restarting: retry the request in a moment.', undefined, { 'Retry-After': '1' });
    const waiting: Array<{ reject(error: Error): void }> = [...this.batch, ...[...this.rateAnswers.values()].flat()].flatMap((ask) => ask.waiters);
    waiting.push(...this.sessionAnswers.values());
    this.batch = [];
    this.rateAnswers.clear();
    this.leaseAsks.clear();
    this.leases.clear();
    this.sessionAnswers.clear();
    for (const w of waiting) w.reject(this.broken);
  }

  private enqueue(ask: BucketAsk): void {
    if (this.batch.length === 0) setImmediate(() => this.sendBatch());
    this.batch.push(ask);
  }

  private sendBatch(): void {
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0 || this.broken) return;
    const id = this.nextId++;
    this.rateAnswers.set(id, batch);
    for (const ask of batch) ask.want = Math.max(ask.want, ask.waiters.length);
    this.channel.send({ t: 'rate', id, q: batch.map((ask) => [ask.bucket, ask.rate, ask.want]) });
  }

  /** Hands out the tokens the primary granted for `ask` to its waiters, keeping the rest as the bucket's lease. */
  private answered(ask: BucketAsk, decision: RateDecision, granted: number): void {
    if (ask.want === 1) return ask.waiters[0]!.resolve(decision);
    if (this.leaseAsks.get(ask.bucket) === ask) this.leaseAsks.delete(ask.bucket);
    const served = Math.min(granted, ask.waiters.length);
    ask.waiters.slice(0, served).forEach((w, k) => w.resolve({ ...decision, allowed: true, remaining: decision.remaining + granted - k - 1, retry_after_seconds: 0 }));
    this.leases.set(ask.bucket, { tokens: granted - served, expiresAtMs: this.now() + LEASE_TTL_MS, decision });
    const rest = ask.waiters.slice(served);
    if (rest.length === 0) return;
    if (granted < ask.want) {
      // The bucket ran dry: the admissions left over are refused, as the primary would have refused them.
      const refusal: RateDecision = { ...decision, allowed: false, remaining: 0, retry_after_seconds: Math.max(1, decision.retry_after_seconds) };
      for (const w of rest) w.resolve(refusal);
    } else {
      // They came after the question was sent: they ask again.
      for (const w of rest) this.takeToken(ask.bucket, ask.rate).then(w.resolve, w.reject);
    }
  }

  private askSession(op: 'open' | 'touch' | 'end', session: string, key: string): Promise<boolean> {
    return new Promise((resolve, reject) => {
      if (this.broken) return reject(this.broken);
      const id = this.nextId++;
      this.sessionAnswers.set(id, { resolve, reject });
      this.channel.send({ t: 'mcp', id, op, session, key });
    });
  }

  private receive(message: PrimaryMessage): void {
    if (message.t === 'rate') {
      const batch = this.rateAnswers.get(message.id);
      this.rateAnswers.delete(message.id);
      batch?.forEach((ask, i) => {
        const { decision, granted } = fromWire(message.d[i]!);
        this.answered(ask, decision, granted);
      });
    } else if (message.t === 'mcp') {
      const waiting = this.sessionAnswers.get(message.id);
      this.sessionAnswers.delete(message.id);
      waiting?.resolve(message.ok);
    }
  }
}
