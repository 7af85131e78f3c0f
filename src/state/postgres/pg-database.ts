/**
 * The connection to PostgreSQL of the shared state: a node-postgres pool on a `postgres://` URL whose `schema` (or
 * `options=-c search_path=…`) names the schema every table is qualified with; connection failures become
 * StateUnavailableError, and the pool reconnects by itself when the server is back.
 */
import { userInfo } from 'node:os';
import pg from 'pg';
import { StateUnavailableError } from '../state-errors.js';

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

/** The parts of a `--state postgres://…` value. */
export interface PostgresLocation {
  /** The URL node-postgres connects with (without omopterm's `schema` parameter). */
  connectionString: string;
  schema: string;
  /** The URL without its password, for messages. */
  display: string;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Reads a PostgreSQL state URL; throws an Error that says what to give instead. */
export function parsePostgresUrl(value: string): PostgresLocation {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`'${value}' is not a URL: give postgres://user@host:5432/database (optionally ?schema=name)`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error(`'${url.protocol}' is not a PostgreSQL URL: give postgres://user@host:5432/database`);
  }
  if (!url.hostname && !url.searchParams.get('host')) throw new Error(`the PostgreSQL URL '${value}' names no host: give postgres://user@host:5432/database`);
  const searchPath = /(?:^|\s)-c\s*search_path=("?)([^",\s]+)\1/.exec(url.searchParams.get('options') ?? '')?.[2];
  const schema = url.searchParams.get('schema') ?? searchPath ?? 'public';
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`'${schema}' is not a schema name omopterm can use: letters, digits and _, starting with a letter or _ (at most 63)`);
  }
  url.searchParams.delete('schema');
  // As libpq does: without a user in the URL or PGUSER, the operating-system user's name.
  if (!url.username && !process.env.PGUSER) url.username = encodeURIComponent(userInfo().username);
  const shown = new URL(url.href);
  if (shown.password) shown.password = '***';
  return { connectionString: url.href, schema, display: shown.href };
}

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
      connectionString: location.connectionString,
      max: POOL_SIZE,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
      idleTimeoutMillis: 30_000,
      application_name: 'omopterm',
      types: TYPES,
    });
    // An idle connection whose server went away: the pool drops it and opens a new one on the next query.
    this.pool.on('error', (error) => onNotice(`PostgreSQL state: an idle connection failed (${error.message}); it will be reopened`));
    // Queued before the first query of each new connection. Measured here, one key admitted by 32 concurrent callers with
    // its rate window in PostgreSQL: 377 admits/s waiting for each commit to reach disk, 2,695/s without.
    if (options.asyncCommit) this.pool.on('connect', (client) => void client.query('SET synchronous_commit TO off').catch(() => {}));
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
