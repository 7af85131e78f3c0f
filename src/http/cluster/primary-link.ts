/**
 * A worker's side of `serve --workers N`: asks the primary for rate decisions (every admission of one event-loop turn
 * in one message) and MCP session records, and passes mapping-job kicks and cancels on, through the cluster IPC channel.
 */
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

interface Waiting<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

interface RateQuestion extends Waiting<RateDecision> {
  bucket: string;
  rate: number;
}

export class PrimaryLink {
  private nextId = 1;
  private broken: Error | null = null;
  /** Rate questions of this turn, sent together at its end (setImmediate). */
  private batch: RateQuestion[] = [];
  private readonly rateAnswers = new Map<number, RateQuestion[]>();
  private readonly sessionAnswers = new Map<number, Waiting<boolean>>();

  constructor(private readonly channel: PrimaryChannel) {
    channel.onMessage((message) => this.receive(message));
  }

  /** The rate decision of one admission: asked of the primary with the other admissions of this turn. */
  readonly takeToken = (bucket: string, rate: number): Promise<RateDecision> =>
    new Promise((resolve, reject) => {
      if (this.broken) return reject(this.broken);
      if (this.batch.length === 0) setImmediate(() => this.sendBatch());
      this.batch.push({ bucket, rate, resolve, reject });
    });

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
    return { takeToken: this.takeToken, mcpSessions: this.mcpSessions, mappingJobRelay: runsMappingJobs ? null : this.mappingJobRelay };
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
    const waiting = [...this.batch, ...[...this.rateAnswers.values()].flat(), ...this.sessionAnswers.values()];
    this.batch = [];
    this.rateAnswers.clear();
    this.sessionAnswers.clear();
    for (const w of waiting) w.reject(this.broken);
  }

  private sendBatch(): void {
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0) return;
    if (this.broken) {
      for (const q of batch) q.reject(this.broken);
      return;
    }
    const id = this.nextId++;
    this.rateAnswers.set(id, batch);
    this.channel.send({ t: 'rate', id, q: batch.map((q) => [q.bucket, q.rate]) });
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
      batch?.forEach((q, i) => q.resolve(fromWire(message.d[i]!)));
    } else if (message.t === 'mcp') {
      const waiting = this.sessionAnswers.get(message.id);
      this.sessionAnswers.delete(message.id);
      waiting?.resolve(message.ok);
    }
  }
}
