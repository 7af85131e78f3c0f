/** Rate limits counted in PostgreSQL (`--rate-limit-store postgres`): rate-limiter-flexible's RateLimiterPostgres on the state's pool and schema. */
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { FlexibleRateLimiter, type RateLimiter } from '../rate-limiter.js';
import type { PgDatabase } from './pg-database.js';

/** The counters live in `<schema>.rate_limit` (created by the migrations); the store that owns `db` closes it. */
export function postgresRateLimiter(db: PgDatabase): RateLimiter {
  return new FlexibleRateLimiter(
    (window) =>
      new RateLimiterPostgres({
        ...window,
        storeClient: db.pool,
        storeType: 'pool',
        schemaName: db.schemaName,
        tableName: 'rate_limit',
        tableCreated: true,
        // The state store deletes old rows (one sweep, rather than one timer per window).
        clearExpiredByTimeout: false,
      }),
    { backend: 'postgres', ping: () => db.ping(), lease: true },
  );
}
