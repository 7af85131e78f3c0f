/**
 * The versioned schema of the PostgreSQL state: an ordered list of migrations, each applied once and recorded in
 * `schema_migrations`, all in one transaction under an advisory lock, so that nodes starting together apply each once.
 * Never edit a migration that has shipped: add the next one.
 */
import type { PgDatabase, Queryable } from './pg-database.js';

export interface Migration {
  version: number;
  name: string;
  /** The statements, given the quoted schema every table is created in. */
  sql: (schema: string) => string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'keys, usage, OAuth clients and tokens, browser sessions, mapping jobs, rate limits',
    sql: (s) => `
CREATE TABLE ${s}.api_key (
  id                   text PRIMARY KEY,
  name                 text NOT NULL,
  secret_sha256        text NOT NULL UNIQUE,
  rate_per_second      double precision NOT NULL,
  monthly_quota        bigint,
  cpt4_validated_until text,
  created_at           text NOT NULL,
  revoked_at           text
);
-- Names are unique among active keys, whichever node creates them.
CREATE UNIQUE INDEX api_key_active_name ON ${s}.api_key (name) WHERE revoked_at IS NULL;
CREATE TABLE ${s}.monthly_usage (
  key_id text NOT NULL,
  month  text NOT NULL,
  calls  bigint NOT NULL,
  PRIMARY KEY (key_id, month)
);
CREATE TABLE ${s}.oauth_client (
  client_id              text PRIMARY KEY,
  key_id                 text NOT NULL REFERENCES ${s}.api_key (id),
  secret_sha256          text NOT NULL,
  token_lifetime_seconds integer NOT NULL,
  created_at             text NOT NULL,
  revoked_at             text
);
CREATE INDEX oauth_client_by_key ON ${s}.oauth_client (key_id);
CREATE TABLE ${s}.oauth_access_token (
  token_sha256  text PRIMARY KEY,
  client_id     text NOT NULL REFERENCES ${s}.oauth_client (client_id),
  expires_at_ms bigint NOT NULL
);
CREATE INDEX oauth_access_token_by_expiry ON ${s}.oauth_access_token (expires_at_ms);
CREATE INDEX oauth_access_token_by_client ON ${s}.oauth_access_token (client_id);
CREATE TABLE ${s}.browser_session (
  id_sha256     text PRIMARY KEY,
  key_id        text REFERENCES ${s}.api_key (id),
  csrf_token    text NOT NULL,
  created_at_ms bigint NOT NULL,
  expires_at_ms bigint NOT NULL,
  data          text NOT NULL DEFAULT '{}'
);
CREATE INDEX browser_session_by_expiry ON ${s}.browser_session (expires_at_ms);
CREATE TABLE ${s}.mapping_job (
  id                   text PRIMARY KEY,
  owner_key_id         text,
  name                 text NOT NULL,
  release_label        text NOT NULL,
  cpt4_validated_until text,
  options              text NOT NULL,
  columns              text NOT NULL,
  state                text NOT NULL,
  total_terms          integer NOT NULL,
  mapped_terms         integer NOT NULL DEFAULT 0,
  error                text,
  created_at           text NOT NULL,
  created_seq          bigint GENERATED ALWAYS AS IDENTITY,
  updated_at           text NOT NULL,
  finished_at          text
);
CREATE INDEX mapping_job_by_owner ON ${s}.mapping_job (owner_key_id, created_seq);
CREATE INDEX mapping_job_by_state ON ${s}.mapping_job (state, created_seq);
CREATE TABLE ${s}.mapping_term (
  job_id           text NOT NULL REFERENCES ${s}.mapping_job (id) ON DELETE CASCADE,
  term_index       integer NOT NULL,
  line             integer NOT NULL,
  source_code      text NOT NULL,
  source_name      text NOT NULL,
  source_frequency double precision NOT NULL,
  additional_info  text NOT NULL,
  hints            text,
  candidates       text,
  status           text NOT NULL,
  review           text NOT NULL,
  review_kept      boolean NOT NULL DEFAULT false,
  PRIMARY KEY (job_id, term_index)
);
CREATE INDEX mapping_term_by_frequency ON ${s}.mapping_term (job_id, source_frequency DESC, term_index);
CREATE INDEX mapping_term_by_status ON ${s}.mapping_term (job_id, status, source_frequency DESC, term_index);
-- rate-limiter-flexible's RateLimiterPostgres table (its own layout), for --rate-limit-store postgres.
CREATE TABLE ${s}.rate_limit (
  key    varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
CREATE INDEX rate_limit_by_expiry ON ${s}.rate_limit (expire);
`,
  },
  {
    version: 2,
    name: 'mapping job leases (one runner per job across nodes)',
    sql: (s) => `
CREATE TABLE ${s}.mapping_job_lease (
  job_id        text PRIMARY KEY REFERENCES ${s}.mapping_job (id) ON DELETE CASCADE,
  runner        text NOT NULL,
  expires_at_ms bigint NOT NULL
);
`,
  },
];

/** The first key of the advisory lock migrations hold ('OMOP'); the second is the schema's hash. */
const MIGRATION_LOCK_CLASS = 0x4f4d4f50;

/** Applies the migrations the schema has not had yet; answers the versions applied now (none when up to date). */
export async function migrate(db: PgDatabase, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return db.transaction(async (client: Queryable) => {
    // Held until commit: a second node starting now waits here, then finds everything applied.
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, db.schemaName]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${db.schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${db.schema}.schema_migrations (
         version    integer PRIMARY KEY,
         name       text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set((await client.query<{ version: number }>(`SELECT version FROM ${db.schema}.schema_migrations`)).rows.map((r) => r.version));
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql(db.schema));
      await client.query(`INSERT INTO ${db.schema}.schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      applied.push(migration.version);
    }
    return applied;
  });
}
