/**
 * When the primary of `serve --workers N` replaces a worker that exited: at once after a worker that had been serving
 * for a while, with a doubling delay after each quick failure in a row, and never again after MAX_QUICK_FAILURES of them
 * (a worker that dies in a loop at start would otherwise restart for ever).
 */

export interface RestartPolicyOptions {
  /** Delay before the replacement of the first quick failure; doubles with each further one in a row. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A worker that served at least this long did not fail quickly: the count of quick failures restarts. */
  stableAfterMs: number;
  /** Quick failures in a row (of one slot) after which the primary gives up. */
  maxQuickFailures: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicyOptions = { baseDelayMs: 250, maxDelayMs: 10_000, stableAfterMs: 10_000, maxQuickFailures: 5 };

/** How a worker ended: whether it had reported listening, and how long it had run. */
export interface WorkerEnd {
  listened: boolean;
  uptimeMs: number;
}

export type RestartDecision = { restart: true; delayMs: number } | { restart: false; quickFailures: number };

export class RestartPolicy {
  private readonly quickFailures = new Map<number, number>();

  constructor(private readonly options: RestartPolicyOptions = DEFAULT_RESTART_POLICY) {}

  /** The decision for the worker of `slot` that just exited (unasked: the server was not stopping). */
  onExit(slot: number, end: WorkerEnd): RestartDecision {
    const quick = !end.listened || end.uptimeMs < this.options.stableAfterMs;
    const failures = quick ? (this.quickFailures.get(slot) ?? 0) + 1 : 0;
    this.quickFailures.set(slot, failures);
    if (failures >= this.options.maxQuickFailures) return { restart: false, quickFailures: failures };
    const delayMs = failures === 0 ? 0 : Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (failures - 1));
    return { restart: true, delayMs };
  }
}
