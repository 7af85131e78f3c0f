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
}

/**
 * A RateLimiter over rate-limiter-flexible limiters, one per distinct window (limiters are cheap objects; the counters
 * live in the backend). The library refuses with a RateLimiterRes and fails with an Error: the latter becomes
 * StateUnavailableError, so that the gate answers 503 and admits nothing without a decision.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<number, RateLimiterAbstract>();

  constructor(
    private readonly makeLimiter: FlexibleLimiterFactory,
    private readonly options: FlexibleRateLimiterOptions,
  ) {}

  get backend(): RateLimitBackend {
    return this.options.backend;
  }

  async take(id: string, ratePerSecond: number): Promise<RateDecision> {
    const limiter = this.limiterFor(ratePerSecond);
    let res: RateLimiterRes;
    let allowed = true;
    try {
      res = await limiter.consume(id);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw new StateUnavailableError(this.options.backend, error);
      res = error;
      allowed = false;
    }
    const nowMs = Date.now();
    // A negative msBeforeNext means "no expiry", which no window here has; read it as a full window.
    const msLeft = res.msBeforeNext >= 0 ? res.msBeforeNext : limiter.duration * 1000;
    return {
      allowed,
      limit: Math.round(ratePerSecond * 1000) / 1000,
      remaining: allowed ? Math.max(0, res.remainingPoints) : 0,
      reset_epoch_seconds: Math.ceil((nowMs + msLeft) / 1000),
      retry_after_seconds: allowed ? 0 : Math.max(1, Math.ceil(msLeft / 1000)),
    };
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
