/**
 * In-memory token buckets, one per key (or anonymous client address): a bucket holds at most one second's worth of
 * tokens and refills continuously at `rate` per second, so a 2/s key may make 2 back-to-back requests and then one
 * every 500 ms. Time comes from the injected clock, so tests never depend on the wall clock.
 */
import type { RateDecision } from './state-store.js';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** Buckets idle this long are full again and can be forgotten. */
const IDLE_EVICTION_MS = 60_000;

export type Clock = () => number;

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweepMs = 0;

  constructor(private readonly now: Clock = Date.now) {}

  /**
   * Takes a token (or, for `upTo` > 1, as many as the bucket holds up to `upTo`: a lease of tokens another process
   * spends); `granted` says how many were taken, the decision is the first one's.
   */
  take(id: string, rate: number, upTo = 1): RateDecision & { granted: number } {
    const nowMs = this.now();
    const capacity = Math.max(1, rate);
    let bucket = this.buckets.get(id);
    if (!bucket) {
      bucket = { tokens: capacity, updatedMs: nowMs };
      this.buckets.set(id, bucket);
    } else {
      const elapsed = Math.max(0, nowMs - bucket.updatedMs) / 1000;
      bucket.tokens = Math.min(capacity, bucket.tokens + elapsed * rate);
      bucket.updatedMs = nowMs;
    }
    const granted = Math.max(0, Math.min(upTo, Math.floor(bucket.tokens)));
    const allowed = granted >= 1;
    bucket.tokens -= granted;
    const missing = capacity - bucket.tokens;
    const reset = Math.ceil((nowMs + (missing / rate) * 1000) / 1000);
    const retryAfter = allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
    this.sweep(nowMs);
    return {
      allowed,
      limit: Math.round(rate * 1000) / 1000,
      remaining: Math.max(0, Math.floor(bucket.tokens)),
      reset_epoch_seconds: reset,
      retry_after_seconds: retryAfter,
      granted,
    };
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweepMs < IDLE_EVICTION_MS) return;
    this.lastSweepMs = nowMs;
    for (const [id, bucket] of this.buckets) {
      if (nowMs - bucket.updatedMs > IDLE_EVICTION_MS) this.buckets.delete(id);
    }
  }
}
