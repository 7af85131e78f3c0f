/**
 * Browser sessions in the embedded state file: a random id (kept only as its SHA-256 hash) bound to an API key, or
 * to no key when the server lets the browser run anonymously, with a CSRF token, an absolute expiry and the page
 * state the browser keeps there (concept sets). Each use joins session → key, so revoking a key ends its sessions.
 */
import type Database from 'better-sqlite3';
import { hashSecret, newSecret, SESSION_ID_PREFIX } from './secrets.js';
import { MAX_SESSION_DATA_BYTES, type ApiKeyRecord, type BrowserSession } from './state-store.js';
import type { Clock } from './state-store.js';

export const SESSION_DDL = `
CREATE TABLE IF NOT EXISTS browser_session (
  id_sha256     TEXT PRIMARY KEY,
  key_id        TEXT REFERENCES api_key (id),
  csrf_token    TEXT NOT NULL,
  created_at_ms INTEGER NOT NULL,
  expires_at_ms INTEGER NOT NULL,
  data          TEXT NOT NULL DEFAULT '{}'
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS browser_session_by_expiry ON browser_session (expires_at_ms);
`;

const KEY_COLUMNS = 'k.id, k.name, k.rate_per_second, k.monthly_quota, k.cpt4_validated_until, k.created_at, k.revoked_at';

interface SessionRow {
  key_id: string | null;
  csrf_token: string;
  expires_at_ms: number;
  key_revoked_at: string | null;
}

export class EmbeddedBrowserSessions {
  private readonly stmts;
  private lastPurgeMs = 0;

  constructor(
    db: Database.Database,
    private readonly now: Clock,
  ) {
    db.exec(SESSION_DDL);
    this.stmts = {
      insert: db.prepare(
        'INSERT INTO browser_session (id_sha256, key_id, csrf_token, created_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?)',
      ),
      find: db.prepare(
        `SELECT s.key_id, s.csrf_token, s.expires_at_ms, k.revoked_at AS key_revoked_at
         FROM browser_session s LEFT JOIN api_key k ON k.id = s.key_id WHERE s.id_sha256 = ?`,
      ),
      keyOf: db.prepare(`SELECT ${KEY_COLUMNS} FROM api_key k WHERE k.id = ? AND k.revoked_at IS NULL`),
      remove: db.prepare('DELETE FROM browser_session WHERE id_sha256 = ?'),
      purge: db.prepare('DELETE FROM browser_session WHERE expires_at_ms <= ?'),
      readData: db.prepare('SELECT data FROM browser_session WHERE id_sha256 = ? AND expires_at_ms > ?'),
      writeData: db.prepare('UPDATE browser_session SET data = ? WHERE id_sha256 = ? AND expires_at_ms > ?'),
    };
  }

  create(key: ApiKeyRecord | null, lifetimeSeconds: number): BrowserSession {
    const id = newSecret(SESSION_ID_PREFIX, 32);
    const csrfToken = newSecret('', 32);
    const now = this.now();
    const expiresAt = now + lifetimeSeconds * 1000;
    this.purgeExpired(now);
    this.stmts.insert.run(hashSecret(id), key?.id ?? null, csrfToken, now, expiresAt);
    return { id, keyId: key?.id ?? null, csrfToken, expiresAtMs: expiresAt };
  }

  /**
   * The live session with this id and its key (null for an anonymous session); undefined when the session is
   * unknown, expired, or its key has been revoked (such a session is deleted).
   */
  find(id: string): { session: BrowserSession; key: ApiKeyRecord | null } | undefined {
    const idHash = hashSecret(id);
    const row = this.stmts.find.get(idHash) as SessionRow | undefined;
    if (!row) return undefined;
    if (row.expires_at_ms <= this.now() || (row.key_id !== null && row.key_revoked_at !== null)) {
      this.stmts.remove.run(idHash);
      return undefined;
    }
    const key = row.key_id === null ? null : ((this.stmts.keyOf.get(row.key_id) as ApiKeyRecord | undefined) ?? undefined);
    if (key === undefined) return undefined;
    return { session: { id, keyId: row.key_id, csrfToken: row.csrf_token, expiresAtMs: row.expires_at_ms }, key };
  }

  end(id: string): void {
    this.stmts.remove.run(hashSecret(id));
  }

  readData(id: string): string | undefined {
    const row = this.stmts.readData.get(hashSecret(id), this.now()) as { data: string } | undefined;
    return row?.data;
  }

  writeData(id: string, data: string): boolean {
    if (Buffer.byteLength(data) > MAX_SESSION_DATA_BYTES) {
      throw new RangeError(`session data of ${Buffer.byteLength(data)} bytes is over the limit of ${MAX_SESSION_DATA_BYTES} bytes`);
    }
    return this.stmts.writeData.run(data, hashSecret(id), this.now()).changes === 1;
  }

  /** Deletes expired sessions, at most once a minute (on session creation). */
  private purgeExpired(now: number): void {
    if (now - this.lastPurgeMs < 60_000) return;
    this.lastPurgeMs = now;
    this.stmts.purge.run(now);
  }
}
