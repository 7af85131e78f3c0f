/** Contract of the rate limiter (Limits: 2 requests/second default; Retry-After on 429). */
import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../src/state/token-buckets.js';

describe('token buckets', () => {
  it('allows a one-second burst, then refuses with Retry-After', () => {
    const b = new TokenBuckets();
    const t0 = 1_000_000;
    expect(b.take('k', 2, t0)).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(b.take('k', 2, t0)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = b.take('k', 2, t0);
    expect(refused.allowed).toBe(false);
    expect(refused.retry_after_seconds).toBe(1);
  });

  it('refills at the rate: one token every 1/rate seconds', () => {
    const b = new TokenBuckets();
    const t0 = 5_000_000;
    b.take('k', 2, t0);
    b.take('k', 2, t0);
    expect(b.take('k', 2, t0 + 400).allowed).toBe(false);
    expect(b.take('k', 2, t0 + 1000).allowed).toBe(true);
  });

  it('keeps buckets separate per id', () => {
    const b = new TokenBuckets();
    b.take('a', 1, 0);
    expect(b.take('a', 1, 0).allowed).toBe(false);
    expect(b.take('b', 1, 0).allowed).toBe(true);
  });

  it('reports reset as the epoch second when the bucket is full again', () => {
    const b = new TokenBuckets();
    const d = b.take('k', 1, 10_000);
    expect(d.reset_epoch_seconds).toBe(11);
  });
});
