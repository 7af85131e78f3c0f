/**
 * The refusals of a call by the limits of its key, written once for every surface that admits calls (the HTTP gate,
 * the MCP tools over stdio and HTTP): an empty rate bucket, a used-up monthly quota.
 */
import { ServiceError } from './errors.js';

/** The parts of the state store's rate and quota decisions a refusal names (structural: services do not import state/). */
interface RateRefusal {
  limit: number;
  retry_after_seconds: number;
}

interface QuotaRefusal {
  quota: number | null;
  used: number;
  resets_at_epoch_seconds: number;
}

/** 429 for an empty bucket: the key's, or the client address's for requests without a valid key. */
export function rateLimitError(rate: RateRefusal, keyed: boolean): ServiceError {
  const whose = keyed ? 'this key allows' : 'requests without a valid API key are limited, per client address, to';
  return new ServiceError(
    429,
    'rate_limit_exceeded',
    `Rate limit exceeded: ${whose} ${rate.limit} requests per second. Retry after ${rate.retry_after_seconds} s.`,
    { limit_per_second: rate.limit, retry_after_seconds: rate.retry_after_seconds },
    { 'Retry-After': String(rate.retry_after_seconds) },
  );
}

/** 429 for a key whose monthly quota is used up. */
export function quotaExceededError(quota: QuotaRefusal, nowMs: number = Date.now()): ServiceError {
  const retryAfter = Math.max(1, quota.resets_at_epoch_seconds - Math.floor(nowMs / 1000));
  return new ServiceError(
    429,
    'monthly_quota_exceeded',
    `Monthly quota exhausted: this key has used all ${quota.quota} calls of the current month; the quota resets at ${new Date(
      quota.resets_at_epoch_seconds * 1000,
    ).toISOString()}.`,
    { quota: quota.quota, used: quota.used, resets_at: new Date(quota.resets_at_epoch_seconds * 1000).toISOString() },
    { 'Retry-After': String(retryAfter) },
  );
}

/** 503 while the shared state (keys, limits, quotas) cannot be reached: nothing is served without the check. */
export function stateUnavailableError(outage: { retryAfterSeconds: number }): ServiceError {
  return new ServiceError(
    503,
    'state_unavailable',
    `The server cannot reach its state backend (API keys, rate limits and quotas), so it cannot check this request. Retry after ${outage.retryAfterSeconds} s.`,
    { retry_after_seconds: outage.retryAfterSeconds },
    { 'Retry-After': String(outage.retryAfterSeconds) },
  );
}
