/**
 * Monthly usage, the same way on every backend: a key with a quota is counted at admission by one atomic statement of
 * the backend (so N nodes admit exactly N calls), an unlimited key's calls are buffered here and added once a second.
 * A failed write keeps the buffered counts for the next one: while the backend is away they wait in this process.
 */
import type { ApiKeyRecord, Clock, QuotaDecision } from './state-store.js';

/** The statements a backend gives the meter. */
export interface UsageBackend {
  /** Calls stored for the key in the month (0 when none). */
  readCalls(keyId: string, month: string): Promise<number>;
  /** Adds buffered counts, in one transaction. */
  addCalls(rows: readonly { keyId: string; month: string; calls: number }[]): Promise<void>;
  /** Counts one call unless the month already holds `quota` calls: the count after it, or null when refused. */
  countWithinQuota(keyId: string, month: string, quota: number): Promise<number | null>;
}

export function monthOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 7);
}

function nextMonthStartEpochSeconds(epochMs: number): number {
  const d = new Date(epochMs);
  return Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000);
}

interface BufferedUsage {
  keyId: string;
  month: string;
  /** Calls counted in this process and not yet written. */
  pending: number;
  /** Calls stored when last read (by any process). */
  stored: number;
}

export interface UsageMeterOptions {
  now: Clock;
  /** How often buffered counts are written (0 = only on flush/close). */
  flushIntervalMs: number;
  /** Told when a periodic write fails (the counts are kept and retried). */
  onFlushError?: (error: unknown, pendingCalls: number) => void;
}

export class UsageMeter {
  private readonly buffered = new Map<string, BufferedUsage>();
  private readonly timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly backend: UsageBackend,
    private readonly options: UsageMeterOptions,
  ) {
    if (options.flushIntervalMs > 0) {
      this.timer = setInterval(() => {
        this.flush().catch((error: unknown) => options.onFlushError?.(error, this.pendingCalls()));
      }, options.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Counts one call of the key, refusing it when its monthly quota is used up. */
  async meter(key: ApiKeyRecord): Promise<QuotaDecision> {
    const now = this.options.now();
    const month = monthOf(now);
    const resets = nextMonthStartEpochSeconds(now);
    if (key.monthly_quota !== null) {
      const used = await this.backend.countWithinQuota(key.id, month, key.monthly_quota);
      return used === null
        ? { allowed: false, used: key.monthly_quota, quota: key.monthly_quota, resets_at_epoch_seconds: resets }
        : { allowed: true, used, quota: key.monthly_quota, resets_at_epoch_seconds: resets };
    }
    const id = `${key.id}\u0000${month}`;
    let entry = this.buffered.get(id);
    if (!entry) {
      entry = { keyId: key.id, month, pending: 0, stored: await this.backend.readCalls(key.id, month) };
      this.buffered.set(id, this.buffered.get(id) ?? entry);
      entry = this.buffered.get(id)!;
    }
    entry.pending += 1;
    return { allowed: true, used: entry.stored + entry.pending, quota: null, resets_at_epoch_seconds: resets };
  }

  /** Calls of a key in a month: stored, plus those this process has not written yet. */
  async usageOf(keyId: string, month: string): Promise<number> {
    return (await this.backend.readCalls(keyId, month)) + (this.buffered.get(`${keyId}\u0000${month}`)?.pending ?? 0);
  }

  /** Writes the buffered counts (one write at a time); on failure they stay buffered and the error is thrown. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.write();
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  /** Stops the timer and writes what is buffered. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  /** Calls counted here and not written yet. */
  pendingCalls(): number {
    let n = 0;
    for (const entry of this.buffered.values()) n += entry.pending;
    return n;
  }

  private async write(): Promise<void> {
    const taken = [...this.buffered.values()].filter((e) => e.pending > 0).map((entry) => ({ entry, calls: entry.pending }));
    if (taken.length > 0) {
      await this.backend.addCalls(taken.map(({ entry, calls }) => ({ keyId: entry.keyId, month: entry.month, calls })));
      for (const { entry, calls } of taken) {
        // Calls counted while the write was on its way stay pending; the stored count picks up other processes' calls.
        entry.pending -= calls;
        entry.stored = await this.backend.readCalls(entry.keyId, entry.month);
      }
    }
    const month = monthOf(this.options.now());
    for (const [id, entry] of this.buffered) if (entry.month !== month && entry.pending === 0) this.buffered.delete(id);
  }
}
