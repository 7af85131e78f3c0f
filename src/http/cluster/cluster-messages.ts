/**
 * The messages between the primary of `serve --workers N` and its workers (Node's cluster IPC, JSON): what a worker
 * reports, what it asks the primary to decide (rate, MCP sessions) and what the primary tells it.
 */
import type { RateDecision } from '../../state/state-store.js';

/** Worker → primary. `id` pairs a question with its answer. */
export type WorkerMessage =
  | { t: 'listening'; url: string; endpoints: string; releases: number }
  | { t: 'start-failed'; message: string }
  | { t: 'notice'; line: string }
  /**
   * Rate decisions for a batch of [bucket id, rate per second, tokens wanted]: the admissions of one event-loop turn
   * (more than one token wanted: a lease, see primary-link.ts).
   */
  | { t: 'rate'; id: number; q: Array<[string, number, number]> }
  | { t: 'mcp'; id: number; op: 'open' | 'touch' | 'end'; session: string; key: string }
  | { t: 'jobs'; op: 'kick' }
  | { t: 'jobs'; op: 'cancel'; job: string }
  /** It has stopped taking connections and requests (the answer to 'shutdown'). */
  | { t: 'draining' }
  | { t: 'stopped'; unfinishedConnections: number };

/** A rate decision on the wire: [allowed 0|1, limit, remaining, reset epoch s, retry after s, tokens granted]. */
export type WireRateDecision = [number, number, number, number, number, number];

/** Primary → worker. */
export type PrimaryMessage =
  | { t: 'rate'; id: number; d: WireRateDecision[] }
  | { t: 'mcp'; id: number; ok: boolean }
  /** To the worker that runs the mapping jobs: one was submitted, or is to stop, on another worker. */
  | { t: 'jobs'; op: 'kick' }
  | { t: 'jobs'; op: 'cancel'; job: string }
  /** Something changed in the data directory's releases: rescan now. */
  | { t: 'rescan' }
  /** Stop accepting, finish in-flight requests within the grace period, report 'stopped', exit. */
  | { t: 'shutdown' };

export function toWire(d: RateDecision & { granted: number }): WireRateDecision {
  return [d.allowed ? 1 : 0, d.limit, d.remaining, d.reset_epoch_seconds, d.retry_after_seconds, d.granted];
}

export function fromWire(w: WireRateDecision): { decision: RateDecision; granted: number } {
  return { decision: { allowed: w[0] === 1, limit: w[1], remaining: w[2], reset_epoch_seconds: w[3], retry_after_seconds: w[4] }, granted: w[5] };
}

/** The environment variable that carries a worker's server options (JSON) and its slot number. */
export const WORKER_OPTIONS_ENV = 'OMOPTERM_WORKER_OPTIONS';
export const WORKER_SLOT_ENV = 'OMOPTERM_WORKER_SLOT';
/** The slot whose worker runs the mapping jobs (slots are 1 … N; a replacement takes its predecessor's slot). */
export const MAPPING_JOBS_SLOT = 1;
