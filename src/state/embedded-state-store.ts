/**
 * Single-node StateStore: keys, monthly usage, OAuth clients and tokens, sessions and mapping jobs in `<data-dir>/state.sqlite` (WAL,
 * shared by the CLI and several server processes), rate-limit buckets in process memory, usage increments buffered
 * and written once a second and on close.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { makeDirectory } from '../store/make-directory.js';
import { EmbeddedBrowserSessions } from './embedded-browser-sessions.js';
import { EmbeddedMappingJobs } from './embedded-mapping-jobs.js';
import { EmbeddedOAuthClients } from './embedded-oauth-clients.js';
import type { MappedTermQuery, MappingJobRecord, MappingJobState, NewMappingJob, ReviewProgress } from './mapping-job-store.js';
import type { MappedTerm, SourceTerm, TermCandidate, TermReview } from '../services/source-mapping/mapping-types.js';
import { hashSecret, newSecret } from './secrets.js';
import { ACCESS_TOKEN_PREFIX, BROWSER_SESSION_LIFETIME_SECONDS } from './state-store.js';
import type {
  Admission,
  AdmissionRequest,
  ApiKeyRecord,
  BrowserSession,
  IssuedAccessToken,
  NewApiKey,
  NewOAuthClient,
  OAuthClientRecord,
  QuotaDecision,
  RateDecision,
  StateStore,
} from './state-store.js';
import { TokenBuckets, type Clock } from './token-buckets.js';

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

/** Keys look like OMOPHub keys (`oh_` prefix) so that client-side checks accept them. */
const KEY_PREFIX = 'oh_';

export function monthOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 7);
}

function nextMonthStartEpochSeconds(epochMs: number): number {
  const d = new Date(epochMs);
  return Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000);
}

interface PendingUsage {
  month: string;
  /** Calls counted in this process and not yet written. */
  pending: number;
  /** Calls already persisted for this month when last read (by any process). */
  persisted: number;
}

export interface EmbeddedStateStoreOptions {
  /** How often buffered usage is written (0 = only on flush/close). Default 1000 ms. */
  flushIntervalMs?: number;
  /** Epoch milliseconds; rate buckets and months are read from it. Default Date.now. */
  now?: Clock;
  /**
   * Makes the rate decisions instead of this process's own buckets (the workers of `serve --workers N` ask their
   * primary, so that one key's rate is one rate whatever the worker).
   */
  takeToken?: TakeToken;
}

/** Takes one token from a bucket (`key:<id>` or `ip:<address>`) refilled at `ratePerSecond`: the rate decision. */
export type TakeToken = (bucketId: string, ratePerSecond: number) => RateDecision | Promise<RateDecision>;

export class EmbeddedStateStore implements StateStore {
  private readonly db: Database.Database;
  private readonly now: Clock;
  private readonly takeToken: TakeToken;
  private readonly usage = new Map<string, PendingUsage>();
  private readonly oauthClients: EmbeddedOAuthClients;
  private readonly sessions: EmbeddedBrowserSessions;
  private readonly mappingJobs: EmbeddedMappingJobs;
  private readonly stmts;
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(file: string, options: EmbeddedStateStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    if (options.takeToken) {
      this.takeToken = options.takeToken;
    } else {
      const buckets = new TokenBuckets(this.now);
      this.takeToken = (bucketId, rate) => buckets.take(bucketId, rate);
    }
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
    };
    this.oauthClients = new EmbeddedOAuthClients(this.db, this.now);
    this.sessions = new EmbeddedBrowserSessions(this.db, this.now);
    this.mappingJobs = new EmbeddedMappingJobs(this.db, this.now);
    const interval = options.flushIntervalMs ?? 1000;
    if (interval > 0) {
      this.flushTimer = setInterval(() => this.flushNow(), interval);
      this.flushTimer.unref();
    }
  }

  async admit(request: AdmissionRequest): Promise<Admission> {
    let key = request.secret ? this.findKeyFor(request.secret, request.acceptAccessToken === true) : undefined;
    let session: BrowserSession | null = null;
    if (!request.secret && request.session) {
      const found = this.sessions.find(request.session);
      if (found) {
        session = found.session;
        key = found.key ?? undefined;
      }
    }
    const rate = key
      ? await this.takeToken(`key:${key.id}`, key.rate_per_second)
      : await this.takeToken(`ip:${request.clientAddress}`, request.anonymousRatePerSecond);
    const quota = key && rate.allowed && request.meter ? this.meterCall(key) : null;
    return { key: key ?? null, rate, quota, session };
  }

  async meter(key: ApiKeyRecord): Promise<QuotaDecision> {
    return this.meterCall(key);
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
    const secret = newSecret(KEY_PREFIX, 24);
    const record: ApiKeyRecord = {
      id: randomUUID(),
      name: key.name,
      rate_per_second: key.rate_per_second,
      monthly_quota: key.monthly_quota,
      cpt4_validated_until: key.cpt4_validated_until,
      created_at: new Date(this.now()).toISOString(),
      revoked_at: null,
    };
    const insertUnlessNameTaken = this.db.transaction(() => {
      const holder = this.stmts.activeByName.get(key.name) as ApiKeyRecord | undefined;
      if (holder) {
        throw new Error(`an active key is already named '${key.name}' (id ${holder.id}): choose another --name, or revoke that key first`);
      }
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
      if (!key) throw new Error(`no active API key with id or name '${client.key}': see omopterm keys list`);
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

  async unfinishedMappingJobs(): Promise<MappingJobRecord[]> {
    return this.mappingJobs.unfinished();
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
    const entry = this.usage.get(keyId);
    const pending = entry && entry.month === month ? entry.pending : 0;
    return this.readPersisted(keyId, month) + pending;
  }

  async flush(): Promise<void> {
    this.flushNow();
  }

  async close(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    this.flushNow();
    this.db.close();
  }

  /** The active key with this id, or else the one active key with this name (`action` words the error for duplicates). */
  private activeKeyByIdOrName(idOrName: string, action: string): ApiKeyRecord | undefined {
    const byId = this.stmts.activeById.get(idOrName) as ApiKeyRecord | undefined;
    if (byId) return byId;
    // Names are unique among active keys, but a data dir from before that rule may hold duplicates.
    const named = this.stmts.activeByName.all(idOrName) as ApiKeyRecord[];
    if (named.length > 1) {
      throw new Error(`${named.length} active keys are named '${idOrName}': ${action} one by id (${named.map((k) => k.id).join(', ')})`);
    }
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

  /** Counts one call against the key's monthly quota, refusing it when the quota is used up. */
  private meterCall(key: ApiKeyRecord): QuotaDecision {
    const now = this.now();
    const month = monthOf(now);
    let entry = this.usage.get(key.id);
    if (!entry || entry.month !== month) {
      if (entry && entry.pending > 0) this.persist(key.id, entry);
      entry = { month, pending: 0, persisted: this.readPersisted(key.id, month) };
      this.usage.set(key.id, entry);
    }
    const used = entry.persisted + entry.pending;
    const resets = nextMonthStartEpochSeconds(now);
    if (key.monthly_quota !== null && used >= key.monthly_quota) {
      return { allowed: false, used, quota: key.monthly_quota, resets_at_epoch_seconds: resets };
    }
    entry.pending += 1;
    return { allowed: true, used: used + 1, quota: key.monthly_quota, resets_at_epoch_seconds: resets };
  }

  private flushNow(): void {
    const write = this.db.transaction(() => {
      for (const [keyId, entry] of this.usage) {
        if (entry.pending > 0) this.persist(keyId, entry);
        // Pick up what other processes metered meanwhile.
        entry.persisted = this.readPersisted(keyId, entry.month);
      }
    });
    write();
  }

  private persist(keyId: string, entry: PendingUsage): void {
    this.stmts.addUsage.run(keyId, entry.month, entry.pending);
    entry.persisted += entry.pending;
    entry.pending = 0;
  }

  private readPersisted(keyId: string, month: string): number {
    const row = this.stmts.readUsage.get(keyId, month) as { calls: number } | undefined;
    return row?.calls ?? 0;
  }
}

function stripSecret(row: ApiKeyRecord & { secret_sha256?: string }): ApiKeyRecord {
  const { secret_sha256: _omit, ...rest } = row;
  return rest;
}
