/** Reads `--state postgres://…` (without loading the driver, so that a command on the default state never loads it). */
import { userInfo } from 'node:os';

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
