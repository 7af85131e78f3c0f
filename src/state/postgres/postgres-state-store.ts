/**
 * The StateStore on PostgreSQL, shared by every node: keys, monthly usage, OAuth clients and tokens, browser sessions
 * and mapping jobs in one schema (versioned migrations), rate limits through a RateLimiter (Redis or PostgreSQL).
 * `admit` costs one cached key lookup (at most AUTH_CACHE_MS old, so a revocation reaches every node within a
 * second), the rate limiter's round trip and, for a key with a quota, one atomic upsert.
 */
import { LruCache } from '../../lru-cache.js';
import { ambiguousKeyNameError, decideAdmission, keyNameTakenError, newApiKey, noActiveKeyError, type AdmissionBackend } from '../admission.js';
import type { MappedTermQuery, MappingJobRecord, MappingJobState, NewMappingJob, ReviewProgress } from '../mapping-job-store.js';
import type { MappedTerm, SourceTerm, TermCandidate, TermReview } from '../../services/source-mapping/mapping-types.js';
import type { RateLimiter } from '../rate-limiter.js';
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, hashSecret, newSecret, secretMatchesHash, SESSION_ID_PREFIX } from '../secrets.js';
import { StateUnavailableError } from '../state-errors.js';
import {
  ACCESS_TOKEN_PREFIX,
  BROWSER_SESSION_LIFETIME_SECONDS,
  MAX_SESSION_DATA_BYTES,
  type Admission,
  type AdmissionRequest,
  type ApiKeyRecord,
  type BrowserSession,
  type Clock,
  type IssuedAccessToken,
  type NewApiKey,
  type NewOAuthClient,
  type OAuthClientRecord,
  type QuotaDecision,
  type StateHealth,
  type StateStore,
} from '../state-store.js';
import { UsageMeter } from '../usage-meter.js';
import { PostgresMappingJobs } from './postgres-mapping-jobs.js';
import type { PgDatabase, Queryable } from './pg-database.js';

/** Longest a node trusts what it read of a key, token or session: a revocation on another node takes effect within it. */
export const AUTH_CACHE_MS = 500;
const AUTH_CACHE_ENTRIES = 10_000;
/** How often expired tokens, sessions and rate-limit rows are deleted. */
const SWEEP_INTERVAL_MS = 5 * 60_000;

const KEY_FIELDS = 'id, name, rate_per_second, monthly_quota, cpt4_validated_until, created_at, revoked_at';
const KEY_COLUMNS = KEY_FIELDS.split(', ').map((f) => `k.${f}`).join(', ');
const CLIENT_FIELDS = 'client_id, key_id, token_lifetime_seconds, created_at, revoked_at';
const CLIENT_COLUMNS = CLIENT_FIELDS.split(', ').map((f) => `c.${f}`).join(', ');

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

export interface PostgresStateStoreOptions {
  /** The pool the per-request counters (usage, quotas) are written through (asyncCommit); default the store's own. Closed with the store. */
  counters?: PgDatabase;
  /** Where the rate limits are counted (Redis, or this database). Closed with the store. */
  rateLimiter: RateLimiter;
  /** The rate limiter's backend, as /health names it. */
  rateLimitStore: string;
  /** How often buffered usage (keys without a quota) is written (0 = only on flush/close). Default 1000 ms. */
  flushIntervalMs?: number;
  now?: Clock;
  onNotice?: (line: string) => void;
}

interface LiveSession {
  session: Omit<BrowserSession, 'id'>;
  key: ApiKeyRecord | null;
}

/** A value read at `readAt` (ms): trusted for AUTH_CACHE_MS. */
interface Fresh<V> {
  value: V;
  readAt: number;
}

export class PostgresStateStore implements StateStore {
  private readonly now: Clock;
  private readonly sql;
  private readonly usage: UsageMeter;
  private readonly admission: AdmissionBackend;
  private readonly jobs: PostgresMappingJobs;
  /** Secret hash → the active key (null: none), as read at most AUTH_CACHE_MS ago. */
  private readonly keys = new LruCache<Fresh<ApiKeyRecord | null>>(AUTH_CACHE_ENTRIES);
  /** Token hash → its key and expiry (null: no live token). */
  private readonly tokens = new LruCache<Fresh<{ key: ApiKeyRecord; expiresAtMs: number } | null>>(AUTH_CACHE_ENTRIES);
  private readonly sessions = new LruCache<Fresh<LiveSession | null>>(AUTH_CACHE_ENTRIES);
  private readonly sweepTimer: NodeJS.Timeout;
  private readonly notice: (line: string) => void;

  private constructor(
    private readonly db: PgDatabase,
    private readonly options: PostgresStateStoreOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.notice = options.onNotice ?? (() => {});
    const s = db.schema;
    this.sql = {
      insertKey: `INSERT INTO ${s}.api_key (id, name, secret_sha256, rate_per_second, monthly_quota, cpt4_validated_until, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      listKeys: `SELECT ${KEY_FIELDS} FROM ${s}.api_key ORDER BY created_at, id`,
      bySecret: { name: 'omopterm-key-by-secret', text: `SELECT ${KEY_FIELDS} FROM ${s}.api_key WHERE secret_sha256 = $1 AND revoked_at IS NULL` },
      activeById: `SELECT ${KEY_FIELDS} FROM ${s}.api_key WHERE id = $1 AND revoked_at IS NULL`,
      activeByName: `SELECT ${KEY_FIELDS} FROM ${s}.api_key WHERE name = $1 AND revoked_at IS NULL ORDER BY created_at, id`,
      revokeKey: `UPDATE ${s}.api_key SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING ${KEY_FIELDS}`,
      readUsage: { name: 'omopterm-read-usage', text: `SELECT calls FROM ${s}.monthly_usage WHERE key_id = $1 AND month = $2` },
      addUsage: `INSERT INTO ${s}.monthly_usage (key_id, month, calls) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
                 ON CONFLICT (key_id, month) DO UPDATE SET calls = monthly_usage.calls + excluded.calls`,
      // One statement: exactly `quota` calls are admitted whichever nodes ask at once.
      countWithinQuota: {
        name: 'omopterm-count-within-quota',
        text: `INSERT INTO ${s}.monthly_usage AS u (key_id, month, calls) VALUES ($1, $2, 1)
               ON CONFLICT (key_id, month) DO UPDATE SET calls = u.calls + 1 WHERE u.calls < $3 RETURNING calls`,
      },
      insertClient: `INSERT INTO ${s}.oauth_client (client_id, key_id, secret_sha256, token_lifetime_seconds, created_at) VALUES ($1, $2, $3, $4, $5)`,
      listClients: `SELECT ${CLIENT_FIELDS} FROM ${s}.oauth_client ORDER BY created_at, client_id`,
      activeClientOfActiveKey: `SELECT ${CLIENT_COLUMNS}, c.secret_sha256 FROM ${s}.oauth_client c JOIN ${s}.api_key k ON k.id = c.key_id
                                WHERE c.client_id = $1 AND c.revoked_at IS NULL AND k.revoked_at IS NULL`,
      revokeClient: `UPDATE ${s}.oauth_client SET revoked_at = $1 WHERE client_id = $2 AND revoked_at IS NULL RETURNING ${CLIENT_FIELDS}`,
      revokeClientsOfKey: `UPDATE ${s}.oauth_client SET revoked_at = $1 WHERE key_id = $2 AND revoked_at IS NULL`,
      deleteTokensOfClient: `DELETE FROM ${s}.oauth_access_token WHERE client_id = $1`,
      deleteTokensOfKey: `DELETE FROM ${s}.oauth_access_token WHERE client_id IN (SELECT client_id FROM ${s}.oauth_client WHERE key_id = $1)`,
      insertToken: `INSERT INTO ${s}.oauth_access_token (token_sha256, client_id, expires_at_ms) VALUES ($1, $2, $3)`,
      keyOfToken: {
        name: 'omopterm-key-of-token',
        text: `SELECT ${KEY_COLUMNS}, t.expires_at_ms FROM ${s}.oauth_access_token t JOIN ${s}.oauth_client c ON c.client_id = t.client_id JOIN ${s}.api_key k ON k.id = c.key_id
               WHERE t.token_sha256 = $1 AND t.expires_at_ms > $2 AND c.revoked_at IS NULL AND k.revoked_at IS NULL`,
      },
      insertSession: `INSERT INTO ${s}.browser_session (id_sha256, key_id, csrf_token, created_at_ms, expires_at_ms) VALUES ($1, $2, $3, $4, $5)`,
      findSession: {
        name: 'omopterm-find-session',
        text: `SELECT s.key_id, s.csrf_token, s.expires_at_ms, ${KEY_COLUMNS} FROM ${s}.browser_session s LEFT JOIN ${s}.api_key k ON k.id = s.key_id
               WHERE s.id_sha256 = $1`,
      },
      removeSession: `DELETE FROM ${s}.browser_session WHERE id_sha256 = $1`,
      readSessionData: `SELECT data FROM ${s}.browser_session WHERE id_sha256 = $1 AND expires_at_ms > $2`,
      writeSessionData: `UPDATE ${s}.browser_session SET data = $1 WHERE id_sha256 = $2 AND expires_at_ms > $3`,
      sweep: [
        `DELETE FROM ${s}.oauth_access_token WHERE expires_at_ms <= $1`,
        `DELETE FROM ${s}.browser_session WHERE expires_at_ms <= $1`,
        // rate-limiter-flexible's rows: a window over for an hour is of no use.
        `DELETE FROM ${s}.rate_limit WHERE expire < $1 - 3600000`,
      ],
    };
    this.jobs = new PostgresMappingJobs(db, this.now);
    const counters = options.counters ?? db;
    this.usage = new UsageMeter(
      {
        readCalls: async (keyId, month) => (await counters.query<{ calls: number }>({ ...this.sql.readUsage, values: [keyId, month] })).rows[0]?.calls ?? 0,
        addCalls: async (rows) => {
          await counters.query(this.sql.addUsage, [rows.map((r) => r.keyId), rows.map((r) => r.month), rows.map((r) => r.calls)]);
        },
        countWithinQuota: async (keyId, month, quota) =>
          (await counters.query<{ calls: number }>({ ...this.sql.countWithinQuota, values: [keyId, month, quota] })).rows[0]?.calls ?? null,
      },
      {
        now: this.now,
        flushIntervalMs: options.flushIntervalMs ?? 1000,
        onFlushError: (error, pending) => this.notice(`usage not written yet (${pending} calls kept for the next try): ${(error as Error).message}`),
      },
    );
    this.admission = {
      keyForSecret: (secret, acceptAccessToken) => this.keyForSecret(secret, acceptAccessToken),
      liveSession: (id) => this.liveSession(id),
      rateLimiter: options.rateLimiter,
      meter: (key) => this.usage.meter(key),
    };
    this.sweepTimer = setInterval(() => {
      // Housekeeping only: a failure is retried at the next sweep.
      for (const statement of this.sql.sweep) this.db.query(statement, [this.now()]).catch(() => {});
    }, SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  /**
   * Opens the store on a database whose migrations are applied (see migrate). Checks the connection once, so that a
   * wrong URL is reported at start, not at the first request.
   */
  static async open(db: PgDatabase, options: PostgresStateStoreOptions): Promise<PostgresStateStore> {
    await db.ping();
    return new PostgresStateStore(db, options);
  }

  async admit(request: AdmissionRequest): Promise<Admission> {
    return decideAdmission(request, this.admission);
  }

  async meter(key: ApiKeyRecord): Promise<QuotaDecision> {
    return this.usage.meter(key);
  }

  async health(): Promise<StateHealth> {
    const report = { backend: 'postgres', rate_limit_store: this.options.rateLimitStore } as const;
    try {
      await this.db.ping();
      await this.options.rateLimiter.health();
      return { state: 'ok', ...report };
    } catch (error) {
      if (error instanceof StateUnavailableError) return { state: 'unavailable', ...report };
      throw error;
    }
  }

  // ---- keys ----

  async createKey(key: NewApiKey): Promise<{ record: ApiKeyRecord; secret: string }> {
    const { record, secret } = newApiKey(key, this.now());
    try {
      await this.db.query(this.sql.insertKey, [
        record.id,
        record.name,
        hashSecret(secret),
        record.rate_per_second,
        record.monthly_quota,
        record.cpt4_validated_until,
        record.created_at,
      ]);
    } catch (error) {
      // The partial unique index on active names decides, whichever node inserts first.
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      const holder = (await this.db.query<ApiKeyRecord>(this.sql.activeByName, [key.name])).rows[0];
      throw keyNameTakenError(key.name, holder?.id ?? 'unknown');
    }
    return { record, secret };
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    return (await this.db.query<ApiKeyRecord>(this.sql.listKeys)).rows;
  }

  async revokeKey(idOrName: string): Promise<ApiKeyRecord | null> {
    const revoked = await this.db.transaction(async (client) => {
      const target = await this.activeKeyByIdOrName(client, idOrName, 'revoke');
      if (!target) return null;
      const revokedAt = new Date(this.now()).toISOString();
      const row = (await client.query<ApiKeyRecord>(this.sql.revokeKey, [revokedAt, target.id])).rows[0] ?? null;
      await client.query(this.sql.revokeClientsOfKey, [revokedAt, target.id]);
      await client.query(this.sql.deleteTokensOfKey, [target.id]);
      return row;
    });
    if (revoked) this.forgetAuthentications();
    return revoked;
  }

  async authenticate(secret: string): Promise<ApiKeyRecord | undefined> {
    if (secret.startsWith(ACCESS_TOKEN_PREFIX)) return undefined;
    return (await this.cached(this.keys, hashSecret(secret), async (hash) => (await this.db.query<ApiKeyRecord>({ ...this.sql.bySecret, values: [hash] })).rows[0] ?? null)) ?? undefined;
  }

  // ---- OAuth clients and tokens ----

  async createClient(client: NewOAuthClient): Promise<{ record: OAuthClientRecord; secret: string }> {
    return this.db.transaction(async (q) => {
      const key = await this.activeKeyByIdOrName(q, client.key, 'bind a client to');
      if (!key) throw noActiveKeyError(client.key);
      const secret = newSecret(CLIENT_SECRET_PREFIX, 32);
      const record: OAuthClientRecord = {
        client_id: newSecret(CLIENT_ID_PREFIX, 12),
        key_id: key.id,
        token_lifetime_seconds: client.token_lifetime_seconds,
        created_at: new Date(this.now()).toISOString(),
        revoked_at: null,
      };
      await q.query(this.sql.insertClient, [record.client_id, record.key_id, hashSecret(secret), record.token_lifetime_seconds, record.created_at]);
      return { record, secret };
    });
  }

  async listClients(): Promise<OAuthClientRecord[]> {
    return (await this.db.query<OAuthClientRecord>(this.sql.listClients)).rows;
  }

  async revokeClient(clientId: string): Promise<OAuthClientRecord | null> {
    const revoked = await this.db.transaction(async (q) => {
      const row = (await q.query<OAuthClientRecord>(this.sql.revokeClient, [new Date(this.now()).toISOString(), clientId])).rows[0];
      if (row) await q.query(this.sql.deleteTokensOfClient, [clientId]);
      return row ?? null;
    });
    if (revoked) this.forgetAuthentications();
    return revoked;
  }

  async issueAccessToken(clientId: string, clientSecret: string): Promise<IssuedAccessToken | null> {
    const row = (await this.db.query<OAuthClientRecord & { secret_sha256: string }>(this.sql.activeClientOfActiveKey, [clientId])).rows[0];
    if (!row || !secretMatchesHash(clientSecret, row.secret_sha256)) return null;
    const { secret_sha256: _omit, ...client } = row;
    const accessToken = newSecret(ACCESS_TOKEN_PREFIX, 32);
    await this.db.query(this.sql.insertToken, [hashSecret(accessToken), clientId, this.now() + client.token_lifetime_seconds * 1000]);
    return { access_token: accessToken, expires_in: client.token_lifetime_seconds, client };
  }

  // ---- browser sessions ----

  async createSession(keyId: string | null, lifetimeSeconds = BROWSER_SESSION_LIFETIME_SECONDS): Promise<BrowserSession> {
    if (keyId !== null && !(await this.db.query(this.sql.activeById, [keyId])).rows[0]) throw new Error(`no active API key with id '${keyId}'`);
    const id = newSecret(SESSION_ID_PREFIX, 32);
    const csrfToken = newSecret('', 32);
    const now = this.now();
    const expiresAtMs = now + lifetimeSeconds * 1000;
    await this.db.query(this.sql.insertSession, [hashSecret(id), keyId, csrfToken, now, expiresAtMs]);
    return { id, keyId, csrfToken, expiresAtMs };
  }

  async endSession(id: string): Promise<void> {
    const hash = hashSecret(id);
    await this.db.query(this.sql.removeSession, [hash]);
    this.sessions.set(hash, { value: null, readAt: this.now() });
  }

  async readSessionData(id: string): Promise<string | undefined> {
    return (await this.db.query<{ data: string }>(this.sql.readSessionData, [hashSecret(id), this.now()])).rows[0]?.data;
  }

  async writeSessionData(id: string, data: string): Promise<boolean> {
    if (Buffer.byteLength(data) > MAX_SESSION_DATA_BYTES) {
      throw new RangeError(`session data of ${Buffer.byteLength(data)} bytes is over the limit of ${MAX_SESSION_DATA_BYTES} bytes`);
    }
    return ((await this.db.query(this.sql.writeSessionData, [data, hashSecret(id), this.now()])).rowCount ?? 0) === 1;
  }

  // ---- usage ----

  async usageOf(keyId: string, month: string): Promise<number> {
    return this.usage.usageOf(keyId, month);
  }

  async flush(): Promise<void> {
    await this.usage.flush();
  }

  async close(): Promise<void> {
    clearInterval(this.sweepTimer);
    try {
      await this.usage.close();
    } catch (error) {
      this.notice(`${this.usage.pendingCalls()} metered calls of keys without a quota could not be written before closing: ${(error as Error).message}`);
    } finally {
      await this.options.rateLimiter.close();
      if (this.options.counters && this.options.counters !== this.db) await this.options.counters.close();
      await this.db.close();
    }
  }

  // ---- mapping jobs ----

  createMappingJob(job: NewMappingJob): Promise<MappingJobRecord> {
    return this.jobs.createMappingJob(job);
  }
  mappingJob(id: string, ownerKeyId: string | null): Promise<MappingJobRecord | undefined> {
    return this.jobs.mappingJob(id, ownerKeyId);
  }
  listMappingJobs(ownerKeyId: string | null): Promise<MappingJobRecord[]> {
    return this.jobs.listMappingJobs(ownerKeyId);
  }
  claimMappingJob(runner: string, expiresAtMs: number): Promise<MappingJobRecord | undefined> {
    return this.jobs.claimMappingJob(runner, expiresAtMs);
  }
  renewMappingJobLease(jobId: string, runner: string, expiresAtMs: number): Promise<boolean> {
    return this.jobs.renewMappingJobLease(jobId, runner, expiresAtMs);
  }
  releaseMappingJobLease(jobId: string, runner: string): Promise<void> {
    return this.jobs.releaseMappingJobLease(jobId, runner);
  }
  pendingTerms(jobId: string, limit: number): Promise<SourceTerm[]> {
    return this.jobs.pendingTerms(jobId, limit);
  }
  saveMappedTerms(jobId: string, results: { index: number; candidates: TermCandidate[]; review: TermReview }[]): Promise<void> {
    return this.jobs.saveMappedTerms(jobId, results);
  }
  setMappingJobState(jobId: string, state: MappingJobState, error?: string | null): Promise<MappingJobRecord | undefined> {
    return this.jobs.setMappingJobState(jobId, state, error);
  }
  mappedTerms(jobId: string, query: MappedTermQuery): Promise<{ items: MappedTerm[]; total: number }> {
    return this.jobs.mappedTerms(jobId, query);
  }
  mappedTerm(jobId: string, index: number): Promise<MappedTerm | undefined> {
    return this.jobs.mappedTerm(jobId, index);
  }
  updateReview(jobId: string, index: number, review: TermReview): Promise<MappedTerm | undefined> {
    return this.jobs.updateReview(jobId, index, review);
  }
  reviewProgress(jobId: string): Promise<ReviewProgress> {
    return this.jobs.reviewProgress(jobId);
  }
  deleteMappingJob(id: string, ownerKeyId: string | null): Promise<boolean> {
    return this.jobs.deleteMappingJob(id, ownerKeyId);
  }

  // ---- helpers ----

  /** The value cached under `id` if read less than AUTH_CACHE_MS ago, else read now (and cached). */
  private async cached<V>(cache: LruCache<Fresh<V>>, id: string, read: (id: string) => Promise<V>): Promise<V> {
    const now = this.now();
    const hit = cache.get(id);
    if (hit && now - hit.readAt < AUTH_CACHE_MS && now >= hit.readAt) return hit.value;
    const value = await read(id);
    cache.set(id, { value, readAt: now });
    return value;
  }

  /** After a revocation here: this node stops trusting what it read (other nodes within AUTH_CACHE_MS). */
  private forgetAuthentications(): void {
    for (const cache of [this.keys, this.tokens, this.sessions] as LruCache<unknown>[]) cache.clear();
  }

  private async keyForSecret(secret: string, acceptAccessToken: boolean): Promise<ApiKeyRecord | undefined> {
    if (!secret.startsWith(ACCESS_TOKEN_PREFIX)) return this.authenticate(secret);
    if (!acceptAccessToken) return undefined;
    const live = await this.cached(this.tokens, hashSecret(secret), async (hash) => {
      const row = (await this.db.query<ApiKeyRecord & { expires_at_ms: number }>({ ...this.sql.keyOfToken, values: [hash, this.now()] })).rows[0];
      return row ? { key: keyOfRow(row), expiresAtMs: row.expires_at_ms } : null;
    });
    return live && live.expiresAtMs > this.now() ? live.key : undefined;
  }

  /** A live session and its key; an expired session, or one whose key was revoked, is deleted. */
  private async liveSession(id: string): Promise<{ session: BrowserSession; key: ApiKeyRecord | null } | undefined> {
    const hash = hashSecret(id);
    const found = await this.cached(this.sessions, hash, async () => {
      const row = (await this.db.query<{ key_id: string | null; csrf_token: string; expires_at_ms: number } & Partial<ApiKeyRecord>>({ ...this.sql.findSession, values: [hash] }))
        .rows[0];
      if (!row) return null;
      if (row.key_id !== null && (row.id === null || row.revoked_at !== null)) {
        await this.db.query(this.sql.removeSession, [hash]);
        return null;
      }
      const key = row.key_id === null ? null : keyOfRow(row as ApiKeyRecord);
      return { session: { keyId: row.key_id, csrfToken: row.csrf_token, expiresAtMs: row.expires_at_ms }, key };
    });
    if (!found) return undefined;
    if (found.session.expiresAtMs <= this.now()) {
      await this.db.query(this.sql.removeSession, [hash]);
      this.sessions.set(hash, { value: null, readAt: this.now() });
      return undefined;
    }
    return { session: { id, ...found.session }, key: found.key };
  }

  /** The active key with this id, or else the one active key with this name (`action` words the error for duplicates). */
  private async activeKeyByIdOrName(q: Queryable, idOrName: string, action: string): Promise<ApiKeyRecord | undefined> {
    const byId = (await q.query<ApiKeyRecord>(this.sql.activeById, [idOrName])).rows[0];
    if (byId) return byId;
    const named = (await q.query<ApiKeyRecord>(this.sql.activeByName, [idOrName])).rows;
    if (named.length > 1) throw ambiguousKeyNameError(idOrName, action, named.map((k) => k.id));
    return named[0];
  }
}

function keyOfRow(row: ApiKeyRecord): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    rate_per_second: row.rate_per_second,
    monthly_quota: row.monthly_quota,
    cpt4_validated_until: row.cpt4_validated_until,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}
