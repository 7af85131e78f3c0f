/**
 * The rate-limit seam of `admit`: one async `take(id, rate)` with implementations on rate-limiter-flexible's limiters
 * (in-process memory, the default; Redis; PostgreSQL; or any other of its limiters, e.g. RateLimiterCluster for worker
 * processes that ask their primary). One semantics for every backend, the library's fixed window; see docs/operations.md.
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { StateUnavailableError } from './state-errors.js';
import type { RateDecision } from './state-store.js';

export interface RateLimiter {
  /** Takes one request from the budget of `id` (a key, or a client address) allowed `ratePerSecond`. */
  take(id: string, ratePerSecond: number): Promise<RateDecision>;
  /** Rejects with StateUnavailableError when the backend cannot be reached (the memory limiter never does). */
  health(): Promise<void>;
  close(): Promise<void>;
}

/** The names of the backends, as `--rate-limit-store` and /health spell them. */
export type RateLimitBackend = 'memory' | 'redis' | 'postgres' | (string & {});

/**
 * A rate as the library enforces it: at most `points` requests in a window of `durationSeconds` whole seconds, opened by
 * the first request and closed `durationSeconds` later (Redis keeps windows in whole seconds).
 */
export interface RateWindow {
  points: number;
  durationSeconds: number;
}

/** The longest window a rate is enforced over: a rate below one request a day is one request a day. */
export const MAX_RATE_WINDOW_SECONDS = 86_400;

/**
 * The window of a rate: for a whole number r, r requests per second; otherwise the shortest window of at most
 * max(60, 1/r) seconds in which a whole number of requests gives the rate exactly (0.5/s: 1 per 2 s; 2.5/s: 5 per 2 s),
 * or, when none does, the window whose whole number of requests comes closest to the rate from below.
 */
export function rateWindow(ratePerSecond: number): RateWindow {
  if (!(ratePerSecond > 0) || !Number.isFinite(ratePerSecond)) throw new RangeError(`a rate must be a positive number (got ${ratePerSecond})`);
  const longest = Math.min(MAX_RATE_WINDOW_SECONDS, Math.max(60, Math.ceil(1 / ratePerSecond)));
  let best: RateWindow | null = null;
  for (let seconds = 1; seconds <= longest; seconds += 1) {
    const exact = ratePerSecond * seconds;
    const points = Math.floor(exact + 1e-9);
    if (points < 1) continue;
    if (!best || points / seconds > best.points / best.durationSeconds + 1e-12) best = { points, durationSeconds: seconds };
    if (Math.abs(points - exact) < 1e-9) break;
  }
  return best ?? { points: 1, durationSeconds: MAX_RATE_WINDOW_SECONDS };
}

/** Makes the library's limiter for one window; `keyPrefix` keeps the counters of different windows apart. */
export type FlexibleLimiterFactory = (options: { points: number; duration: number; keyPrefix: string }) => RateLimiterAbstract;

export interface FlexibleRateLimiterOptions {
  backend: RateLimitBackend;
  /** Prefix of every counter (e.g. a Redis key prefix shared by the nodes of one deployment). */
  keyPrefix?: string;
  /** Checks that the backend answers (default: nothing to check). */
  ping?: () => Promise<void>;
  /** Releases the backend's connection (default: nothing to release). */
  release?: () => Promise<void>;
  /**
   * Take the requests of a fast key from the shared counter in leases (RATE_LEASE_SECONDS of its rate at once) instead
   * of one round trip per request: for backends other processes share (Redis, PostgreSQL). Default false.
   */
  lease?: boolean;
  /** The clock (tests). */
  now?: () => number;
}

/** A key allowed this many seconds' worth of requests ≥ 2 takes them from a shared counter that many at a time. */
export const RATE_LEASE_SECONDS = 0.01;
/** Leased requests not used within this long are given up (they stay counted: the key may get fewer, never more). */
export const RATE_LEASE_TTL_MS = 50;

/** Requests taken from the shared counter and not used yet, with the decision that granted them. */
interface RateLease {
  tokens: number;
  expiresAtMs: number;
  decision: RateDecision;
}

/**
 * A RateLimiter over rate-limiter-flexible limiters, one per distinct window (limiters are cheap objects; the counters
 * live in the backend). The library refuses with a RateLimiterRes and fails with an Error: the latter becomes
 * StateUnavailableError, so that the gate answers 503 and admits nothing without a decision.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<number, RateLimiterAbstract>();
  /** Leases by window and id (see RATE_LEASE_SECONDS), and the lease being asked for, which later takes wait for. */
  private readonly leases = new Map<string, RateLease>();
  private readonly leaseAsks = new Map<string, Promise<unknown>>();
  private readonly now: () => number;

  constructor(
    private readonly makeLimiter: FlexibleLimiterFactory,
    private readonly options: FlexibleRateLimiterOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  get backend(): RateLimitBackend {
    return this.options.backend;
  }

  async take(id: string, ratePerSecond: number): Promise<RateDecision> {
    const leaseSize = this.options.lease ? Math.floor(ratePerSecond * RATE_LEASE_SECONDS) : 0;
    if (leaseSize < 2) return (await this.consume(id, ratePerSecond, 1)).decision;
    const slot = `${ratePerSecond}\u0000${id}`;
    for (;;) {
      const lease = this.leases.get(slot);
      if (lease && this.now() < lease.expiresAtMs) {
        // A refusal holds until its window ends (a fixed window frees nothing before): no question meanwhile.
        if (!lease.decision.allowed) return lease.decision;
        if (lease.tokens >= 1) {
          lease.tokens -= 1;
          return { ...lease.decision, remaining: lease.decision.remaining + lease.tokens };
        }
      }
      const asked = this.leaseAsks.get(slot);
      if (asked) {
        await asked.catch(() => undefined);
        continue;
      }
      // One question for every take of this key that finds no lease now; they share what it brings.
      const ask = this.consume(id, ratePerSecond, leaseSize);
      this.leaseAsks.set(slot, ask);
      try {
        const { decision, granted, msLeft } = await ask;
        // Used within the window that counted them, and soon (unused ones are the key's loss, not an excess).
        this.leases.set(slot, { tokens: Math.max(0, granted - 1), expiresAtMs: this.now() + Math.min(RATE_LEASE_TTL_MS, msLeft), decision });
        if (granted < 1) return decision;
        if (this.leases.size > 10_000) this.dropExpiredLeases();
        return { ...decision, remaining: decision.remaining + granted - 1 };
      } finally {
        this.leaseAsks.delete(slot);
      }
    }
  }

  /**
   * Counts `points` requests of `id` in the backend. Refused (the window has fewer left), the library has counted them
   * all the same: the ones that were still within the window's budget are granted (no other taker can have them).
   */
  private async consume(id: string, ratePerSecond: number, points: number): Promise<{ decision: RateDecision; granted: number; msLeft: number }> {
    const limiter = this.limiterFor(ratePerSecond);
    let res: RateLimiterRes;
    let granted = points;
    try {
      res = await limiter.consume(id, points);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw new StateUnavailableError(this.options.backend, error);
      res = error;
      granted = Math.min(points, Math.max(0, limiter.points - (res.consumedPoints - points)));
    }
    const nowMs = this.now();
    // A negative msBeforeNext means "no expiry", which no window here has; read it as a full window.
    const msLeft = res.msBeforeNext >= 0 ? res.msBeforeNext : limiter.duration * 1000;
    const allowed = granted >= 1;
    const decision: RateDecision = {
      allowed,
      limit: Math.round(ratePerSecond * 1000) / 1000,
      remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
      reset_epoch_seconds: Math.ceil((nowMs + msLeft) / 1000),
      retry_after_seconds: allowed ? 0 : Math.max(1, Math.ceil(msLeft / 1000)),
    };
    return { decision, granted, msLeft };
  }

  private dropExpiredLeases(): void {
    const nowMs = this.now();
    for (const [slot, lease] of this.leases) if (lease.expiresAtMs <= nowMs || lease.tokens < 1) this.leases.delete(slot);
  }

  async health(): Promise<void> {
    if (!this.options.ping) return;
    try {
      await this.options.ping();
    } catch (error) {
      throw error instanceof StateUnavailableError ? error : new StateUnavailableError(this.options.backend, error);
    }
  }

  async close(): Promise<void> {
    await this.options.release?.();
  }

  private limiterFor(ratePerSecond: number): RateLimiterAbstract {
    let limiter = this.limiters.get(ratePerSecond);
    if (!limiter) {
      const window = rateWindow(ratePerSecond);
      const keyPrefix = `${this.options.keyPrefix ?? ''}rl:${window.points}/${window.durationSeconds}s`;
      limiter = this.makeLimiter({ points: window.points, duration: window.durationSeconds, keyPrefix });
      this.limiters.set(ratePerSecond, limiter);
    }
    return limiter;
  }
}

/** The default: counters in this process's memory (each process, and each node, enforces the full rate). */
export function memoryRateLimiter(): RateLimiter {
  return new FlexibleRateLimiter((options) => new RateLimiterMemory(options), { backend: 'memory' });
}

/** Takes one token from a bucket (`key:<id>` or `ip:<address>`) refilled at `ratePerSecond`: a rate decision made elsewhere. */
export type TakeToken = (bucketId: string, ratePerSecond: number) => RateDecision | Promise<RateDecision>;

/**
 * A RateLimiter whose decisions another party makes: the workers of `serve --workers N` with the embedded state ask
 * their primary (src/http/cluster/), whose token buckets are shared by every worker, so one key's rate is one rate.
 */
export function delegatedRateLimiter(take: TakeToken, backend: RateLimitBackend = 'primary'): RateLimiter & { backend: RateLimitBackend } {
  return {
    backend,
    take: async (id, ratePerSecond) => take(id, ratePerSecond),
    health: async () => {},
    close: async () => {},
  };
}
