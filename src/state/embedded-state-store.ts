/**
 * Single-node StateStore: keys, monthly usage, OAuth clients and tokens, sessions and mapping jobs in `<data-dir>/state.sqlite`
 * (WAL, shared by the CLI and several server processes); rate limits through a RateLimiter (process memory by default).
 */
import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { makeDirectory } from '../store/make-directory.js';
import { EmbeddedBrowserSessions } from './embedded-browser-sessions.js';
import { EmbeddedMappingJobs } from './embedded-mapping-jobs.js';
import { EmbeddedOAuthClients } from './embedded-oauth-clients.js';
import type { MappedTermQuery, MappingJobRecord, MappingJobState, NewMappingJob, ReviewProgress } from './mapping-job-store.js';
import type { MappedTerm, SourceTerm, TermCandidate, TermReview } from '../services/source-mapping/mapping-types.js';
import { hashSecret } from './secrets.js';
import { ambiguousKeyNameError, decideAdmission, keyNameTakenError, newApiKey, noActiveKeyError, type AdmissionBackend } from './admission.js';
import { memoryRateLimiter, type RateLimiter } from './rate-limiter.js';
import { ACCESS_TOKEN_PREFIX, BROWSER_SESSION_LIFETIME_SECONDS } from './state-store.js';
import type {
  Admission,
  AdmissionRequest,
  ApiKeyRecord,
  BrowserSession,
  Clock,
  IssuedAccessToken,
  NewApiKey,
  NewOAuthClient,
  OAuthClientRecord,
  QuotaDecision,
  StateHealth,
  StateStore,
} from './state-store.js';
import { StateUnavailableError } from './state-errors.js';
import { UsageMeter } from './usage-meter.js';

const STATE_DDL = `
CREATE TABLE IF NOT EXISTS api_key (
  id                   TEXT PRIMARY KEY,
  name                 TEXT NOT NULL,
  secret_sha256        TEXT NOT NULL UNIQUE,
  rate_per_second      REAL NOT NULL,
  monthly_quota        INTEGER,
  cpt4_validated_until TEXT,
  created_at           TEXT NOT NULL,
  revoked_at           TEXT
);
CREATE TABLE IF NOT EXISTS monthly_usage (
  key_id TEXT NOT NULL,
  month  TEXT NOT NULL,  -- YYYY-MM (UTC)
  calls  INTEGER NOT NULL,
  PRIMARY KEY (key_id, month)
) WITHOUT ROWID;
`;

export interface EmbeddedStateStoreOptions {
  /** How often buffered usage (keys without a quota) is written (0 = only on flush/close). Default 1000 ms. */
  flushIntervalMs?: number;
  /** Epoch milliseconds; months and expiries are read from it. Default Date.now. */
  now?: Clock;
  /** Where the rate limits are counted (default: this process's memory). Closed with the store. */
  rateLimiter?: RateLimiter;
  /** The rate limiter's backend, as /health names it (default 'memory'). */
  rateLimitStore?: string;
  /** Told when a periodic usage write fails (the counts are kept and retried). */
  onNotice?: (line: string) => void;
}

export class EmbeddedStateStore implements StateStore {
  private readonly db: Database.Database;
  private readonly now: Clock;
  private readonly rateLimiter: RateLimiter;
  private readonly rateLimitStore: string;
  private readonly usage: UsageMeter;
  private readonly admission: AdmissionBackend;
  private readonly oauthClients: EmbeddedOAuthClients;
  private readonly sessions: EmbeddedBrowserSessions;
  private readonly mappingJobs: EmbeddedMappingJobs;
  private readonly stmts;

  constructor(file: string, options: EmbeddedStateStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.rateLimiter = options.rateLimiter ?? memoryRateLimiter();
    this.rateLimitStore = options.rateLimitStore ?? 'memory';
    makeDirectory(dirname(file));
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(STATE_DDL);
    this.stmts = {
      insert: this.db.prepare(
        `INSERT INTO api_key (id, name, secret_sha256, rate_per_second, monthly_quota, cpt4_validated_until, created_at)
         VALUES (@id, @name, @secret_sha256, @rate_per_second, @monthly_quota, @cpt4_validated_until, @created_at)`,
      ),
      list: this.db.prepare('SELECT * FROM api_key ORDER BY created_at, id'),
      bySecret: this.db.prepare('SELECT * FROM api_key WHERE secret_sha256 = ? AND revoked_at IS NULL'),
      activeById: this.db.prepare('SELECT * FROM api_key WHERE id = ? AND revoked_at IS NULL'),
      activeByName: this.db.prepare('SELECT * FROM api_key WHERE name = ? AND revoked_at IS NULL ORDER BY created_at, id'),
      revoke: this.db.prepare('UPDATE api_key SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING *'),
      readUsage: this.db.prepare('SELECT calls FROM monthly_usage WHERE key_id = ? AND month = ?'),
      addUsage: this.db.prepare(
        `INSERT INTO monthly_usage (key_id, month, calls) VALUES (?, ?, ?)
         ON CONFLICT (key_id, month) DO UPDATE SET calls = calls + excluded.calls`,
      ),
      // One statement, so atomic across every process sharing the file (SQLite serialises writers).
      countWithinQuota: this.db.prepare(
        `INSERT INTO monthly_usage (key_id, month, calls) VALUES (?, ?, 1)
         ON CONFLICT (key_id, month) DO UPDATE SET calls = calls + 1 WHERE calls < ? RETURNING calls`,
      ),
    };
    this.oauthClients = new EmbeddedOAuthClients(this.db, this.now);
    this.sessions = new EmbeddedBrowserSessions(this.db, this.now);
    this.mappingJobs = new EmbeddedMappingJobs(this.db, this.now);
    const addUsage = this.db.transaction((rows: readonly { keyId: string; month: string; calls: number }[]) => {
      for (const row of rows) this.stmts.addUsage.run(row.keyId, row.month, row.calls);
    });
    this.usage = new UsageMeter(
      {
        readCalls: async (keyId, month) => this.readStored(keyId, month),
        addCalls: async (rows) => addUsage(rows),
        countWithinQuota: async (keyId, month, quota) => (this.stmts.countWithinQuota.get(keyId, month, quota) as { calls: number } | undefined)?.calls ?? null,
      },
      {
        now: this.now,
        flushIntervalMs: options.flushIntervalMs ?? 1000,
        onFlushError: (error, pending) => options.onNotice?.(`usage not written yet (${pending} calls kept for the next try): ${(error as Error).message}`),
      },
    );
    this.admission = {
      keyForSecret: async (secret, acceptAccessToken) => this.findKeyFor(secret, acceptAccessToken),
      liveSession: async (id) => this.sessions.find(id),
      rateLimiter: this.rateLimiter,
      meter: (key) => this.usage.meter(key),
    };
  }

  async admit(request: AdmissionRequest): Promise<Admission> {
    return decideAdmission(request, this.admission);
  }

  async meter(key: ApiKeyRecord): Promise<QuotaDecision> {
    return this.usage.meter(key);
  }

  async health(): Promise<StateHealth> {
    const report = { backend: 'sqlite', rate_limit_store: this.rateLimitStore } as const;
    try {
      this.db.prepare('SELECT 1').get();
      await this.rateLimiter.health();
      return { state: 'ok', ...report };
    } catch (error) {
      if (error instanceof StateUnavailableError) return { state: 'unavailable', ...report };
      throw error;
    }
  }

  async createSession(keyId: string | null, lifetimeSeconds = BROWSER_SESSION_LIFETIME_SECONDS): Promise<BrowserSession> {
    const key = keyId === null ? null : (this.stmts.activeById.get(keyId) as ApiKeyRecord | undefined);
    if (key === undefined) throw new Error(`no active API key with id '${keyId}'`);
    return this.sessions.create(key && stripSecret(key as ApiKeyRecord & { secret_sha256?: string }), lifetimeSeconds);
  }

  async endSession(id: string): Promise<void> {
    this.sessions.end(id);
  }

  async readSessionData(id: string): Promise<string | undefined> {
    return this.sessions.readData(id);
  }

  async writeSessionData(id: string, data: string): Promise<boolean> {
    return this.sessions.writeData(id, data);
  }

  async createKey(key: NewApiKey): Promise<{ record: ApiKeyRecord; secret: string }> {
    const { record, secret } = newApiKey(key, this.now());
    const insertUnlessNameTaken = this.db.transaction(() => {
      const holder = this.stmts.activeByName.get(key.name) as ApiKeyRecord | undefined;
      if (holder) throw keyNameTakenError(key.name, holder.id);
      this.stmts.insert.run({ ...record, secret_sha256: hashSecret(secret) });
    });
    insertUnlessNameTaken.immediate();
    return { record, secret };
  }

  async listKeys(): Promise<ApiKeyRecord[]> {
    return (this.stmts.list.all() as (ApiKeyRecord & { secret_sha256?: string })[]).map(stripSecret);
  }

  async revokeKey(idOrName: string): Promise<ApiKeyRecord | null> {
    const revoke = this.db.transaction((): ApiKeyRecord | null => {
      const target = this.activeKeyByIdOrName(idOrName, 'revoke');
      if (!target) return null;
      const revokedAt = new Date(this.now()).toISOString();
      const row = this.stmts.revoke.get(revokedAt, target.id) as ApiKeyRecord;
      this.oauthClients.revokeAllOfKey(target.id, revokedAt);
      return stripSecret(row);
    });
    return revoke.immediate();
  }

  async createClient(client: NewOAuthClient): Promise<{ record: OAuthClientRecord; secret: string }> {
    const create = this.db.transaction(() => {
      const key = this.activeKeyByIdOrName(client.key, 'bind a client to');
      if (!key) throw noActiveKeyError(client.key);
      return this.oauthClients.create(key, client.token_lifetime_seconds);
    });
    return create.immediate();
  }

  async listClients(): Promise<OAuthClientRecord[]> {
    return this.oauthClients.list();
  }

  async revokeClient(clientId: string): Promise<OAuthClientRecord | null> {
    return this.oauthClients.revoke(clientId);
  }

  async issueAccessToken(clientId: string, clientSecret: string): Promise<IssuedAccessToken | null> {
    return this.oauthClients.issue(clientId, clientSecret);
  }

  async authenticate(secret: string): Promise<ApiKeyRecord | undefined> {
    return this.findBySecret(secret);
  }

  async createMappingJob(job: NewMappingJob): Promise<MappingJobRecord> {
    return this.mappingJobs.create(job);
  }

  async mappingJob(id: string, ownerKeyId: string | null): Promise<MappingJobRecord | undefined> {
    return this.mappingJobs.find(id, ownerKeyId);
  }

  async listMappingJobs(ownerKeyId: string | null): Promise<MappingJobRecord[]> {
    return this.mappingJobs.list(ownerKeyId);
  }

  async claimMappingJob(runner: string, expiresAtMs: number): Promise<MappingJobRecord | undefined> {
    return this.mappingJobs.claim(runner, expiresAtMs);
  }

  async renewMappingJobLease(jobId: string, runner: string, expiresAtMs: number): Promise<boolean> {
    return this.mappingJobs.renewLease(jobId, runner, expiresAtMs);
  }

  async releaseMappingJobLease(jobId: string, runner: string): Promise<void> {
    this.mappingJobs.releaseLease(jobId, runner);
  }

  async pendingTerms(jobId: string, limit: number): Promise<SourceTerm[]> {
    return this.mappingJobs.pending(jobId, limit);
  }

  async saveMappedTerms(jobId: string, results: { index: number; candidates: TermCandidate[]; review: TermReview }[]): Promise<void> {
    this.mappingJobs.save(jobId, results);
  }

  async setMappingJobState(jobId: string, state: MappingJobState, error: string | null = null): Promise<MappingJobRecord | undefined> {
    return this.mappingJobs.setState(jobId, state, error);
  }

  async mappedTerms(jobId: string, query: MappedTermQuery): Promise<{ items: MappedTerm[]; total: number }> {
    return this.mappingJobs.terms(jobId, query);
  }

  async mappedTerm(jobId: string, index: number): Promise<MappedTerm | undefined> {
    return this.mappingJobs.term(jobId, index);
  }

  async updateReview(jobId: string, index: number, review: TermReview): Promise<MappedTerm | undefined> {
    return this.mappingJobs.updateReview(jobId, index, review);
  }

  async reviewProgress(jobId: string): Promise<ReviewProgress> {
    return this.mappingJobs.progress(jobId);
  }

  async deleteMappingJob(id: string, ownerKeyId: string | null): Promise<boolean> {
    return this.mappingJobs.delete(id, ownerKeyId);
  }

  async usageOf(keyId: string, month: string): Promise<number> {
    return this.usage.usageOf(keyId, month);
  }

  async flush(): Promise<void> {
    await this.usage.flush();
  }

  async close(): Promise<void> {
    try {
      await this.usage.close();
    } finally {
      await this.rateLimiter.close();
      this.db.close();
    }
  }

  /** The active key with this id, or else the one active key with this name (`action` words the error for duplicates). */
  private activeKeyByIdOrName(idOrName: string, action: string): ApiKeyRecord | undefined {
    const byId = this.stmts.activeById.get(idOrName) as ApiKeyRecord | undefined;
    if (byId) return byId;
    // Names are unique among active keys, but a data dir from before that rule may hold duplicates.
    const named = this.stmts.activeByName.all(idOrName) as ApiKeyRecord[];
    if (named.length > 1) throw ambiguousKeyNameError(idOrName, action, named.map((k) => k.id));
    return named[0];
  }

  /** The key a secret stands for: an API key, or (when accepted) an access token's key. */
  private findKeyFor(secret: string, acceptAccessToken: boolean): ApiKeyRecord | undefined {
    if (secret.startsWith(ACCESS_TOKEN_PREFIX)) return acceptAccessToken ? this.oauthClients.keyOfToken(secret) : undefined;
    return this.findBySecret(secret);
  }

  private findBySecret(secret: string): ApiKeyRecord | undefined {
    const row = this.stmts.bySecret.get(hashSecret(secret)) as ApiKeyRecord | undefined;
    return row ? stripSecret(row) : undefined;
  }

  private readStored(keyId: string, month: string): number {
    const row = this.stmts.readUsage.get(keyId, month) as { calls: number } | undefined;
    return row?.calls ?? 0;
  }
}

function stripSecret(row: ApiKeyRecord & { secret_sha256?: string }): ApiKeyRecord {
  const { secret_sha256: _omit, ...rest } = row;
  return rest;
}
