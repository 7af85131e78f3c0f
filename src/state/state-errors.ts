/** The one failure of the shared state the adapters answer specially: its backend cannot be reached (HTTP 503 state_unavailable). */

/** Seconds a client is told to wait before retrying while the state backend is unreachable. */
export const STATE_RETRY_AFTER_SECONDS = 2;

/**
 * The state backend (PostgreSQL, or the Redis / PostgreSQL of the rate limits) did not answer: nothing was decided, so
 * nothing may be served. Connection failures, timeouts and server shutdowns become this; a query's own error does not.
 */
export class StateUnavailableError extends Error {
  readonly retryAfterSeconds = STATE_RETRY_AFTER_SECONDS;

  constructor(
    /** Which backend: 'postgres', 'redis', … */
    readonly backend: string,
    cause?: unknown,
  ) {
    super(`the ${backend} state backend is unavailable${cause instanceof Error && cause.message ? `: ${cause.message}` : ''}`, { cause });
    this.name = 'StateUnavailableError';
  }
}
