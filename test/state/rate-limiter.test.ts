/**
 * The rate limits (Limits: 2 requests/second by default; Retry-After on 429), one semantics on every backend: a rate r
 * is enforced as P requests per window of W whole seconds (rateWindow), so that over any T seconds a key gets at most
 * r × T + P (one burst). Checked on the memory limiter with a fake clock, and on Redis and PostgreSQL with two limiters
 * ("two nodes") sharing one backend under a few seconds of concurrent load; an outage of Redis (a TCP proxy cut in the
 * test) refuses with StateUnavailableError and service resumes when it is back.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrate } from '../../src/state/postgres/migrations.js';
import { parsePostgresUrl, PgDatabase } from '../../src/state/postgres/pg-database.js';
import { postgresRateLimiter } from '../../src/state/postgres/postgres-rate-limiter.js';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import {
  FlexibleRateLimiter,
  MAX_RATE_WINDOW_SECONDS,
  memoryRateLimiter,
  RATE_LEASE_SECONDS,
  RATE_LEASE_TTL_MS,
  rateWindow,
  type RateLimiter,
} from '../../src/state/rate-limiter.js';
import { parseRedisUrl, redisRateLimiter } from '../../src/state/redis/redis-rate-limiter.js';
import { StateUnavailableError } from '../../src/state/state-errors.js';
import { freshPostgresSchema, freshRedisPrefix, postgresMissing, redisMissing, TcpProxy, throughPort } from '../helpers/state-backends.js';

const noPostgres = await postgresMissing();
const noRedis = await redisMissing();

describe('rateWindow: a rate as whole requests per whole seconds', () => {
  it.each([
    [2, 2, 1],
    [1, 1, 1],
    [100_000, 100_000, 1],
    [0.5, 1, 2],
    [2.5, 5, 2],
    [1 / 3, 1, 3],
    [0.3, 3, 10],
    [0.01, 1, 100],
  ])('%d/s is %d per %d s', (rate, points, seconds) => {
    expect(rateWindow(rate)).toEqual({ points, durationSeconds: seconds });
  });

  it('a rate no whole window gives exactly is the closest from below; a rate under one a day is one a day', () => {
    const w = rateWindow(Math.PI);
    expect(w.points / w.durationSeconds).toBeLessThanOrEqual(Math.PI);
    expect(w.points / w.durationSeconds).toBeGreaterThan(Math.PI - 0.01);
    expect(rateWindow(1e-9)).toEqual({ points: 1, durationSeconds: MAX_RATE_WINDOW_SECONDS });
  });

  it('refuses a rate that is not a positive number', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => rateWindow(bad)).toThrow(RangeError);
  });
});

describe('the memory limiter (the default), on a fake clock', () => {
  afterEach(() => vi.useRealTimers());
  const at = (ms: number) => vi.setSystemTime(ms);

  it('allows one window of requests, then refuses with Retry-After until the window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(1_000_000);
    const limiter = memoryRateLimiter();
    expect(await limiter.take('k', 2)).toEqual({ allowed: true, limit: 2, remaining: 1, reset_epoch_seconds: 1001, retry_after_seconds: 0 });
    expect(await limiter.take('k', 2)).toMatchObject({ allowed: true, remaining: 0 });
    at(1_000_400);
    expect(await limiter.take('k', 2)).toEqual({ allowed: false, limit: 2, remaining: 0, reset_epoch_seconds: 1001, retry_after_seconds: 1 });
    at(1_001_000);
    expect(await limiter.take('k', 2)).toMatchObject({ allowed: true, remaining: 1, reset_epoch_seconds: 1002 });
    // Another id has a budget of its own.
    expect(await limiter.take('other', 2)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('a fractional rate is counted over its window: 0.5/s is one request per 2 s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    at(5_000_000);
    const limiter = memoryRateLimiter();
    expect((await limiter.take('k', 0.5)).allowed).toBe(true);
    at(5_001_000);
    expect(await limiter.take('k', 0.5)).toMatchObject({ allowed: false, limit: 0.5, retry_after_seconds: 1, reset_epoch_seconds: 5002 });
    at(5_002_000);
    expect((await limiter.take('k', 0.5)).allowed).toBe(true);
  });

  it('over any stretch of time, accepted requests stay within rate × seconds + one burst', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const rate = 3;
    const limiter = memoryRateLimiter();
    // A request every 50 ms for 10 s, from a start in the middle of a second.
    const accepted: number[] = [];
    for (let t = 7_000_250; t < 7_010_250; t += 50) {
      at(t);
      if ((await limiter.take('k', rate)).allowed) accepted.push(t);
    }
    expect(accepted.length).toBeGreaterThanOrEqual(rate * 9);
    for (const span of [500, 1000, 2500, 4000]) {
      for (const start of accepted) {
        const inSpan = accepted.filter((t) => t >= start && t < start + span).length;
        expect(inSpan).toBeLessThanOrEqual(rate * (span / 1000) + rate);
      }
    }
  });
});

/** Two limiters on one backend ("two nodes") take from one key concurrently for `seconds`: what they accepted, and the time it took. */
async function loadTwoNodes(a: RateLimiter, b: RateLimiter, rate: number, seconds: number): Promise<{ accepted: number; elapsedS: number }> {
  const started = Date.now();
  const deadline = started + seconds * 1000;
  let accepted = 0;
  const worker = async (limiter: RateLimiter) => {
    while (Date.now() < deadline) if ((await limiter.take('key:shared', rate)).allowed) accepted += 1;
  };
  await Promise.all([a, b].flatMap((limiter) => Array.from({ length: 6 }, () => worker(limiter))));
  return { accepted, elapsedS: (Date.now() - started) / 1000 };
}

function expectWithinRate(result: { accepted: number; elapsedS: number }, rate: number): void {
  // Upper: the contract. Lower: under continuous load every whole second but the first and last gives a full window.
  expect(result.accepted).toBeLessThanOrEqual(rate * result.elapsedS + rate);
  expect(result.accepted).toBeGreaterThanOrEqual(rate * (Math.floor(result.elapsedS) - 1));
}

/**
 * Two limiters with leases over one shared counter (a memory limiter both reach, standing for Redis or PostgreSQL), with
 * the number of round trips to it counted and the lease clock in the test's hands.
 */
function leasingNodes() {
  const shared = new Map<string, RateLimiterMemory>();
  const trips = { count: 0 };
  let nowMs = 1_000_000;
  const node = () =>
    new FlexibleRateLimiter(
      (window) => {
        let limiter = shared.get(window.keyPrefix);
        if (!limiter) shared.set(window.keyPrefix, (limiter = new RateLimiterMemory(window)));
        const counting = Object.create(limiter) as RateLimiterMemory;
        counting.consume = (key, points) => {
          trips.count += 1;
          return limiter.consume(key, points);
        };
        return counting;
      },
      { backend: 'shared', lease: true, now: () => nowMs },
    );
  return { a: node(), b: node(), trips, advance: (ms: number) => (nowMs += ms) };
}

describe('leases: a fast key takes its requests from a shared counter several at a time', () => {
  // 4,001 requests per 2 s (rateWindow): a window long enough for the test, a lease of 20 requests.
  const rate = 2000.5;
  const window = rateWindow(rate);
  const leaseSize = Math.floor(rate * RATE_LEASE_SECONDS);

  it('two nodes admit no more than the window, lose at most a lease each, and ask the counter about once a lease', async () => {
    expect(window).toEqual({ points: 4001, durationSeconds: 2 });
    const { a, b, trips } = leasingNodes();
    let allowed = 0;
    const takes = 6000;
    for (let done = 0; done < takes; done += 64) {
      const batch = await Promise.all(Array.from({ length: 64 }, (_, i) => (i % 2 ? a : b).take('key:fast', rate)));
      allowed += batch.filter((d) => d.allowed).length;
    }
    expect(allowed).toBeLessThanOrEqual(window.points);
    expect(allowed).toBeGreaterThanOrEqual(window.points - 2 * (leaseSize - 1));
    // a question per lease while the window lasts, then one refusal per node answered locally until the window ends
    expect(trips.count).toBeLessThanOrEqual(Math.ceil(window.points / leaseSize) + 8);
  });

  it('a lease is not used after RATE_LEASE_TTL_MS: the next request asks the counter again', async () => {
    const { a, trips, advance } = leasingNodes();
    expect((await a.take('key:fast', rate)).allowed).toBe(true);
    expect(trips.count).toBe(1);
    expect((await a.take('key:fast', rate)).allowed).toBe(true);
    expect(trips.count).toBe(1);
    advance(RATE_LEASE_TTL_MS);
    expect((await a.take('key:fast', rate)).allowed).toBe(true);
    expect(trips.count).toBe(2);
  });

  it('a slow key asks the counter on every request', async () => {
    const { a, trips } = leasingNodes();
    for (let i = 0; i < 5; i++) await a.take('key:slow', 150);
    expect(trips.count).toBe(5);
  });
});

describe.skipIf(noRedis)('rate limits in Redis, shared by two nodes', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('two nodes under concurrent load accept no more than the one rate (rate × seconds + one burst)', async () => {
    const redis = freshRedisPrefix();
    cleanups.push(redis.clean);
    const a = await redisRateLimiter(parseRedisUrl(redis.url));
    const b = await redisRateLimiter(parseRedisUrl(redis.url));
    cleanups.push(() => a.close(), () => b.close());
    expectWithinRate(await loadTwoNodes(a, b, 20, 3), 20);
  });

  it('the same for a fast key, whose requests each node takes in leases', async () => {
    const redis = freshRedisPrefix();
    cleanups.push(redis.clean);
    const a = await redisRateLimiter(parseRedisUrl(redis.url));
    const b = await redisRateLimiter(parseRedisUrl(redis.url));
    cleanups.push(() => a.close(), () => b.close());
    expectWithinRate(await loadTwoNodes(a, b, 1000, 3), 1000);
  });

  it('Redis gone: StateUnavailableError at once (no decision, nothing admitted); back: the same limiter decides again', async () => {
    const redis = freshRedisPrefix();
    cleanups.push(redis.clean);
    const proxy = await TcpProxy.start(redis.url);
    cleanups.push(() => proxy.close());
    const limiter = await redisRateLimiter(parseRedisUrl(throughPort(redis.url, proxy.port)));
    cleanups.push(() => limiter.close());
    expect((await limiter.take('key:k', 5)).allowed).toBe(true);
    await proxy.cut();
    await expect(limiter.take('key:k', 5)).rejects.toBeInstanceOf(StateUnavailableError);
    await expect(limiter.health()).rejects.toBeInstanceOf(StateUnavailableError);
    await proxy.restore();
    // ioredis reconnects on its own schedule (at most 2 s between attempts).
    let decided: boolean | undefined;
    for (let attempt = 0; attempt < 50 && decided === undefined; attempt += 1) {
      decided = await limiter.take('key:k', 5).then((d) => d.allowed, () => undefined);
      if (decided === undefined) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(decided).toBe(true);
    await expect(limiter.health()).resolves.toBeUndefined();
  });

  it('a Redis that does not answer at start stops the start with a message naming it', async () => {
    const proxy = await TcpProxy.start('redis://127.0.0.1:6379');
    await proxy.cut();
    await expect(redisRateLimiter(parseRedisUrl(`redis://127.0.0.1:${proxy.port}`))).rejects.toThrow(`cannot reach Redis at redis://127.0.0.1:${proxy.port}`);
  });
});

describe.skipIf(noPostgres)('rate limits in PostgreSQL, shared by two nodes', () => {
  it('two nodes under concurrent load accept no more than the one rate (rate × seconds + one burst)', async () => {
    const schema = freshPostgresSchema();
    const dbA = new PgDatabase(parsePostgresUrl(schema.url));
    const dbB = new PgDatabase(parsePostgresUrl(schema.url));
    try {
      await migrate(dbA);
      expectWithinRate(await loadTwoNodes(postgresRateLimiter(dbA), postgresRateLimiter(dbB), 20, 3), 20);
    } finally {
      await dbA.close();
      await dbB.close();
      await schema.drop();
    }
  });
});

describe('URLs of the rate-limit store', () => {
  it('take a key prefix and hide the password in messages; anything but redis:// is refused with what to give', () => {
    expect(parseRedisUrl('redis://:s3cret@cache.internal:6380/2?prefix=prod:')).toEqual({
      url: 'redis://:s3cret@cache.internal:6380/2',
      prefix: 'prod:',
      display: 'redis://:***@cache.internal:6380/2',
    });
    expect(parseRedisUrl('rediss://cache.internal').prefix).toBe('omopterm:');
    expect(() => parseRedisUrl('http://cache.internal')).toThrow('give redis://host:6379');
    expect(() => parseRedisUrl('cache.internal:6379')).toThrow('give redis://host:6379');
  });
});
