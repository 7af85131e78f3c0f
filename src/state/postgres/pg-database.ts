/**
 * The connection to PostgreSQL of the shared state: a node-postgres pool on a `postgres://` URL whose `schema` (or
 * `options=-c search_path=…`) names the schema every table is qualified with; connection failures become
 * StateUnavailableError, and the pool reconnects by itself when the server is back.
 */
import pg from 'pg';
import { StateUnavailableError } from '../state-errors.js';
import type { PostgresLocation } from './postgres-url.js';

/** PostgreSQL's type id of bigint: counts and milliseconds fit a JS number, so they are read as numbers, not strings. */
const INT8_OID = 20;
const TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Longest wait for a connection, new or from the pool, before the request is refused as unreachable (503). A server that
 * refuses connections fails at once; this bounds a server that does not answer, and the queue of a pool that overload
 * keeps busy (2 s made 240 concurrent admits of one key on a machine loaded 16-fold give up: see shared-state-nodes.test.ts).
 */
const CONNECT_TIMEOUT_MS = 5000;
/** A query without an answer for this long fails (a server that accepts connections and then stalls). */
const QUERY_TIMEOUT_MS = 15_000;
const POOL_SIZE = 10;

/** SQLSTATE classes and codes that mean "the server is not there" rather than "this query is wrong". */
function isUnavailableCode(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300';
}

/** True when an error of node-postgres means the server cannot be reached or went away. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return isUnavailableCode(code);
  // Socket errors (ECONNREFUSED, ECONNRESET, …) and the pool's own: connection terminated, connect or query timeout.
  if (typeof code === 'string' && code.startsWith('E')) return true;
  return /connection|terminated|timeout|not queryable|ended/i.test(error.message) && !(error instanceof TypeError);
}

function asStateError(error: unknown): unknown {
  return isConnectionFailure(error) ? new StateUnavailableError('postgres', error) : error;
}

export { parsePostgresUrl, type PostgresLocation } from './postgres-url.js';

/** What a query runs on: the pool, or one client inside a transaction. */
export interface Queryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export interface PgDatabaseOptions {
  /**
   * Commit without waiting for the WAL to reach disk (`synchronous_commit = off`): for the counters every request
   * updates (rate windows, quota counts), whose hot rows would otherwise wait for one disk flush per request. A crash of
   * the PostgreSQL server may lose the last fraction of a second of such updates; nothing else is affected.
   */
  asyncCommit?: boolean;
}

/**
 * The connection string with a server setting added to its startup `options` (after any the URL has), so that every
 * connection of the pool has it from its start, with no query of its own racing the pool's first one. Used for
 * `synchronous_commit = off` on the counters' pool: measured here, one key admitted by 32 concurrent callers with its
 * rate window in PostgreSQL, 377 admits/s waiting for each commit to reach disk, 2,695/s without.
 */
export function withStartupOption(connectionString: string, option: string): string {
  const url = new URL(connectionString);
  const existing = url.searchParams.get('options');
  url.searchParams.set('options', existing ? `${existing} ${option}` : option);
  return url.href;
}

export class PgDatabase implements Queryable {
  readonly pool: pg.Pool;
  /** The quoted schema, to qualify table names with: `${db.schema}.api_key`. */
  readonly schema: string;
  readonly schemaName: string;

  constructor(
    readonly location: PostgresLocation,
    onNotice: (line: string) => void = () => {},
    options: PgDatabaseOptions = {},
  ) {
    this.schemaName = location.schema;
    this.schema = `"${location.schema}"`;
    this.pool = new pg.Pool({
      connectionString: options.asyncCommit ? withStartupOption(location.connectionString, '-c synchronous_commit=off') : location.connectionString,
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      application_name: 'omopterm',
      types: TYPES,
    });
    // An idle connection whose server went away: the pool drops it and opens a new one on the next query.
    this.pool.on('error', (error) => onNotice(`PostgreSQL state: an idle connection failed (${error.message}); it will be reopened`));
  }

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text as string, values);
    } catch (error) {
      throw asStateError(error);
    }
  }

  /** Runs `work` in one transaction on one connection (ROLLBACK when it throws). */
  async transaction<T>(work: (client: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw asStateError(error);
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isConnectionFailure(error)) broken = error as Error;
      else await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw asStateError(error);
    } finally {
      // A connection that failed is destroyed rather than handed to the next query.
      client.release(broken);
    }
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
