/**
 * Contract of the rate limiter (Limits: 2 requests/second default; Retry-After on 429), on an
 * injected clock: the buckets read time only from the `now()` they are given.
 */
import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../src/state/token-buckets.js';

/** A clock that moves only when the test says so. */
function manualClock(startMs: number): { now: () => number; advance(ms: number): void } {
  let current = startMs;
  return { now: () => current, advance: (ms) => void (current += ms) };
}

describe('token buckets (Limits)', () => {
  it('allows a one-second burst, then refuses with Retry-After', () => {
    const clock = manualClock(1_000_000);
    const b = new TokenBuckets(clock.now);
    expect(b.take('k', 2)).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(b.take('k', 2)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = b.take('k', 2);
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retry_after_seconds).toBe(1);
  });

  it('refills at the rate: one token every 1/rate seconds', () => {
    const clock = manualClock(5_000_000);
    const b = new TokenBuckets(clock.now);
    b.take('k', 2);
    b.take('k', 2);
    clock.advance(400);
    expect(b.take('k', 2).allowed).toBe(false);
    clock.advance(100); // 500 ms after the burst: one token back
    expect(b.take('k', 2).allowed).toBe(true);
    expect(b.take('k', 2).allowed).toBe(false);
  });

  it('never holds more than one second of tokens, however long it was idle', () => {
    const clock = manualClock(0);
    const b = new TokenBuckets(clock.now);
    b.take('k', 3);
    clock.advance(3_600_000);
    const outcomes = [b.take('k', 3), b.take('k', 3), b.take('k', 3), b.take('k', 3)].map((d) => d.allowed);
    expect(outcomes).toEqual([true, true, true, false]);
  });

  it('keeps buckets separate per id', () => {
    const clock = manualClock(0);
    const b = new TokenBuckets(clock.now);
    b.take('a', 1);
    expect(b.take('a', 1).allowed).toBe(false);
    expect(b.take('b', 1).allowed).toBe(true);
  });

  it('reports reset as the epoch second when the bucket is full again', () => {
    const clock = manualClock(10_000);
    const b = new TokenBuckets(clock.now);
    expect(b.take('k', 1).reset_epoch_seconds).toBe(11);
    clock.advance(250);
    const refused = b.take('k', 1);
    expect(refused.reset_epoch_seconds).toBe(11);
    expect(refused.retry_after_seconds).toBe(1);
  });

  it('a slow rate (below 1/s) waits whole seconds before the next token', () => {
    const clock = manualClock(0);
    const b = new TokenBuckets(clock.now);
    expect(b.take('k', 0.25).allowed).toBe(true);
    const refused = b.take('k', 0.25);
    expect(refused.allowed).toBe(false);
    expect(refused.retry_after_seconds).toBe(4);
    clock.advance(3_999);
    expect(b.take('k', 0.25).allowed).toBe(false);
    clock.advance(1);
    expect(b.take('k', 0.25).allowed).toBe(true);
  });
});
