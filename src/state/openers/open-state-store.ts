/**
 * The one place a StateStore is chosen and opened: `--state` (sqlite, the default: `<data-dir>/state.sqlite`; or
 * postgres://…) and `--rate-limit-store` (memory, the default with sqlite; postgres, the default with a PostgreSQL
 * state; or redis://…), read and checked by `stateChoice`, opened by `openStateStore` (PostgreSQL migrated first).
 */
import { EmbeddedStateStore } from '../embedded-state-store.js';
import { parsePostgresUrl, type PostgresLocation } from '../postgres/postgres-url.js';
import { memoryRateLimiter, type RateLimiter } from '../rate-limiter.js';
import { parseRedisUrl, type RedisLocation } from '../redis/redis-url.js';
import { StateUnavailableError } from '../state-errors.js';
import type { Clock, StateStore } from '../state-store.js';

export type StateLocation = { kind: 'sqlite'; file: string } | { kind: 'postgres'; location: PostgresLocation };
export type RateLimitLocation = { kind: 'memory' } | { kind: 'redis'; location: RedisLocation } | { kind: 'postgres' };

export interface StateChoice {
  state: StateLocation;
  rateLimits: RateLimitLocation;
}

/** The `--state` values besides a postgres:// URL. */
export const EMBEDDED_STATE = 'sqlite';
/** The `--rate-limit-store` values besides a redis:// URL. */
export const RATE_LIMIT_STORES = ['memory', 'postgres'] as const;

/** Checks a `--state` value alone (the CLI's parser); throws an Error that says what to give instead. */
export function checkStateValue(value: string): string {
  const v = value.trim();
  if (v === EMBEDDED_STATE) return v;
  if (/^postgres(ql)?:/i.test(v)) {
    parsePostgresUrl(v);
    return v;
  }
  throw new Error(`--state must be '${EMBEDDED_STATE}' (the data directory's state.sqlite) or a postgres://user@host:5432/database URL (got '${value}')`);
}

/** Checks a `--rate-limit-store` value alone (the CLI's parser). */
export function checkRateLimitStoreValue(value: string): string {
  const v = value.trim();
  if ((RATE_LIMIT_STORES as readonly string[]).includes(v)) return v;
  if (/^rediss?:/i.test(v)) {
    parseRedisUrl(v);
    return v;
  }
  throw new Error(`--rate-limit-store must be memory, postgres (the --state database) or a redis://host:6379 URL (got '${value}')`);
}

/**
 * The state and rate-limit backends of a command: `state` default sqlite at `sqliteFile`; `rateLimitStore` default
 * memory with sqlite, postgres with a PostgreSQL state.
 */
export function stateChoice(options: { sqliteFile: string; state?: string; rateLimitStore?: string }): StateChoice {
  const stateValue = checkStateValue(options.state ?? EMBEDDED_STATE);
  const state: StateLocation = stateValue === EMBEDDED_STATE ? { kind: 'sqlite', file: options.sqliteFile } : { kind: 'postgres', location: parsePostgresUrl(stateValue) };
  const limitValue = checkRateLimitStoreValue(options.rateLimitStore ?? (state.kind === 'postgres' ? 'postgres' : 'memory'));
  if (limitValue === 'postgres' && state.kind !== 'postgres') {
    throw new Error('--rate-limit-store postgres counts in the --state database: give --state postgres://… too, or use memory or a redis:// URL');
  }
  const rateLimits: RateLimitLocation =
    limitValue === 'memory' ? { kind: 'memory' } : limitValue === 'postgres' ? { kind: 'postgres' } : { kind: 'redis', location: parseRedisUrl(limitValue) };
  return { state, rateLimits };
}

/** One line for the startup message: where the state and the rate limits are kept. */
export function describeStateChoice(choice: StateChoice): string {
  const state = choice.state.kind === 'sqlite' ? `SQLite ${choice.state.file}` : `PostgreSQL ${choice.state.location.display} (schema ${choice.state.location.schema})`;
  const limits =
    choice.rateLimits.kind === 'memory'
      ? 'in this process (each process enforces the full rate)'
      : choice.rateLimits.kind === 'postgres'
        ? 'in PostgreSQL'
        : `in Redis ${choice.rateLimits.location.display}`;
  return `state: ${state}; rate limits ${limits}`;
}

export interface OpenStateOptions {
  /** How often buffered usage is written (0 = only on flush/close; the CLI's short commands). Default 1000 ms. */
  flushIntervalMs?: number;
  onNotice?: (line: string) => void;
  now?: Clock;
  /**
   * A rate limiter to use instead of the chosen one, e.g. worker processes that ask their primary
   * (`new FlexibleRateLimiter((w) => new RateLimiterCluster({ ...w, timeoutMs: 1000 }), { backend: 'cluster' })`).
   */
  rateLimiter?: RateLimiter;
}

/**
 * Opens the chosen store: for PostgreSQL, connects, applies the migrations it lacks and checks the connection once, so
 * that an unreachable server or a wrong URL stops the start with a message naming it. Rejects with StateUnavailableError
 * when a backend does not answer.
 */
export async function openStateStore(choice: StateChoice, options: OpenStateOptions = {}): Promise<StateStore> {
  const notice = options.onNotice ?? (() => {});
  const common = { flushIntervalMs: options.flushIntervalMs, now: options.now, onNotice: notice };
  const limitsName = options.rateLimiter ? ((options.rateLimiter as { backend?: string }).backend ?? 'custom') : choice.rateLimits.kind;
  // The drivers of PostgreSQL and Redis are loaded only when chosen (a second or more of start-up for every CLI command).
  const redisLimiter = async (location: RedisLocation) => (await import('../redis/redis-rate-limiter.js')).redisRateLimiter(location, notice);
  if (choice.state.kind === 'sqlite') {
    const rateLimiter = options.rateLimiter ?? (choice.rateLimits.kind === 'redis' ? await redisLimiter(choice.rateLimits.location) : memoryRateLimiter());
    return new EmbeddedStateStore(choice.state.file, { ...common, rateLimiter, rateLimitStore: limitsName });
  }
  const [{ PgDatabase }, { migrate }, { postgresRateLimiter }, { PostgresStateStore }] = await Promise.all([
    import('../postgres/pg-database.js'),
    import('../postgres/migrations.js'),
    import('../postgres/postgres-rate-limiter.js'),
    import('../postgres/postgres-state-store.js'),
  ]);
  const db = new PgDatabase(choice.state.location, notice);
  // The counters every request updates (rate windows, quota counts) commit without waiting for the disk.
  const counters = new PgDatabase(choice.state.location, notice, { asyncCommit: true });
  let rateLimiter: RateLimiter | undefined;
  try {
    try {
      const applied = await migrate(db);
      if (applied.length) notice(`PostgreSQL state ${choice.state.location.display}: applied migration(s) ${applied.join(', ')}`);
    } catch (error) {
      if (!(error instanceof StateUnavailableError)) throw error;
      throw new StateUnavailableError('postgres', new Error(`cannot reach PostgreSQL at ${choice.state.location.display}: ${(error.cause as Error)?.message ?? error.message}`));
    }
    rateLimiter =
      options.rateLimiter ??
      (choice.rateLimits.kind === 'redis'
        ? await redisLimiter(choice.rateLimits.location)
        : choice.rateLimits.kind === 'postgres'
          ? postgresRateLimiter(counters)
          : memoryRateLimiter());
    return await PostgresStateStore.open(db, { ...common, counters, rateLimiter, rateLimitStore: limitsName });
  } catch (error) {
    await rateLimiter?.close().catch(() => {});
    await counters.close().catch(() => {});
    await db.close().catch(() => {});
    throw error;
  }
}
