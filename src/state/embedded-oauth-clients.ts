/**
 * OAuth 2.0 clients and their access tokens (Authentication 4, RFC 6749 §4.4 client_credentials) in the embedded
 * state file: a client is an id + secret bound to one API key, and its token acts as that key until it expires or
 * the client or key is revoked, checked on every use by joining token → client → key.
 */
import type Database from 'better-sqlite3';
import type { ApiKeyRecord, IssuedAccessToken, OAuthClientRecord } from './state-store.js';
import { ACCESS_TOKEN_PREFIX } from './state-store.js';
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, hashSecret, newSecret, secretMatchesHash } from './secrets.js';
import type { Clock } from './state-store.js';

export const OAUTH_DDL = `
CREATE TABLE IF NOT EXISTS oauth_client (
  client_id              TEXT PRIMARY KEY,
  key_id                 TEXT NOT NULL REFERENCES api_key (id),
  secret_sha256          TEXT NOT NULL,
  token_lifetime_seconds INTEGER NOT NULL,
  created_at             TEXT NOT NULL,
  revoked_at             TEXT
);
CREATE INDEX IF NOT EXISTS oauth_client_by_key ON oauth_client (key_id);
CREATE TABLE IF NOT EXISTS oauth_access_token (
  token_sha256  TEXT PRIMARY KEY,
  client_id     TEXT NOT NULL REFERENCES oauth_client (client_id),
  expires_at_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS oauth_access_token_by_expiry ON oauth_access_token (expires_at_ms);
CREATE INDEX IF NOT EXISTS oauth_access_token_by_client ON oauth_access_token (client_id);
`;


/** The columns of an ApiKeyRecord (never the secret's hash). */
const KEY_COLUMNS = 'k.id, k.name, k.rate_per_second, k.monthly_quota, k.cpt4_validated_until, k.created_at, k.revoked_at';
const CLIENT_FIELDS = ['client_id', 'key_id', 'token_lifetime_seconds', 'created_at', 'revoked_at'];
const CLIENT_COLUMNS = CLIENT_FIELDS.map((f) => `c.${f}`).join(', ');

export class EmbeddedOAuthClients {
  private readonly stmts;

  constructor(
    private readonly db: Database.Database,
    private readonly now: Clock,
  ) {
    db.exec(OAUTH_DDL);
    this.stmts = {
      insertClient: db.prepare(
        `INSERT INTO oauth_client (client_id, key_id, secret_sha256, token_lifetime_seconds, created_at)
         VALUES (@client_id, @key_id, @secret_sha256, @token_lifetime_seconds, @created_at)`,
      ),
      list: db.prepare(`SELECT ${CLIENT_COLUMNS} FROM oauth_client c ORDER BY c.created_at, c.client_id`),
      activeClientOfActiveKey: db.prepare(
        `SELECT ${CLIENT_COLUMNS}, c.secret_sha256 FROM oauth_client c JOIN api_key k ON k.id = c.key_id
         WHERE c.client_id = ? AND c.revoked_at IS NULL AND k.revoked_at IS NULL`,
      ),
      revokeClient: db.prepare(
        `UPDATE oauth_client SET revoked_at = ? WHERE client_id = ? AND revoked_at IS NULL RETURNING ${CLIENT_FIELDS.join(', ')}`,
      ),
      revokeClientsOfKey: db.prepare('UPDATE oauth_client SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL'),
      deleteTokensOfClient: db.prepare('DELETE FROM oauth_access_token WHERE client_id = ?'),
      deleteTokensOfKey: db.prepare('DELETE FROM oauth_access_token WHERE client_id IN (SELECT client_id FROM oauth_client WHERE key_id = ?)'),
      deleteExpiredTokens: db.prepare('DELETE FROM oauth_access_token WHERE expires_at_ms <= ?'),
      insertToken: db.prepare('INSERT INTO oauth_access_token (token_sha256, client_id, expires_at_ms) VALUES (?, ?, ?)'),
      keyOfToken: db.prepare(
        `SELECT ${KEY_COLUMNS} FROM oauth_access_token t
         JOIN oauth_client c ON c.client_id = t.client_id
         JOIN api_key k ON k.id = c.key_id
         WHERE t.token_sha256 = ? AND t.expires_at_ms > ? AND c.revoked_at IS NULL AND k.revoked_at IS NULL`,
      ),
    };
  }

  /** A new client for `key` (which the caller has checked is active); the secret is returned once. */
  create(key: ApiKeyRecord, tokenLifetimeSeconds: number): { record: OAuthClientRecord; secret: string } {
    const secret = newSecret(CLIENT_SECRET_PREFIX, 32);
    const record: OAuthClientRecord = {
      client_id: newSecret(CLIENT_ID_PREFIX, 12),
      key_id: key.id,
      token_lifetime_seconds: tokenLifetimeSeconds,
      created_at: new Date(this.now()).toISOString(),
      revoked_at: null,
    };
    this.stmts.insertClient.run({ ...record, secret_sha256: hashSecret(secret) });
    return { record, secret };
  }

  list(): OAuthClientRecord[] {
    return this.stmts.list.all() as OAuthClientRecord[];
  }

  revoke(clientId: string): OAuthClientRecord | null {
    const revoke = this.db.transaction((): OAuthClientRecord | null => {
      const row = this.stmts.revokeClient.get(new Date(this.now()).toISOString(), clientId) as OAuthClientRecord | undefined;
      if (row) this.stmts.deleteTokensOfClient.run(clientId);
      return row ?? null;
    });
    return revoke.immediate();
  }

  /** Revokes every client of a key being revoked (call inside the key's revocation transaction). */
  revokeAllOfKey(keyId: string, revokedAt: string): void {
    this.stmts.revokeClientsOfKey.run(revokedAt, keyId);
    this.stmts.deleteTokensOfKey.run(keyId);
  }

  issue(clientId: string, clientSecret: string): IssuedAccessToken | null {
    const row = this.stmts.activeClientOfActiveKey.get(clientId) as (OAuthClientRecord & { secret_sha256: string }) | undefined;
    if (!row || !secretMatchesHash(clientSecret, row.secret_sha256)) return null;
    const { secret_sha256: _omit, ...client } = row;
    const accessToken = newSecret(ACCESS_TOKEN_PREFIX, 32);
    const nowMs = this.now();
    const store = this.db.transaction(() => {
      this.stmts.deleteExpiredTokens.run(nowMs);
      this.stmts.insertToken.run(hashSecret(accessToken), clientId, nowMs + client.token_lifetime_seconds * 1000);
    });
    store.immediate();
    return { access_token: accessToken, expires_in: client.token_lifetime_seconds, client };
  }

  /** The active key an unexpired token of an active client stands for. */
  keyOfToken(token: string): ApiKeyRecord | undefined {
    return this.stmts.keyOfToken.get(hashSecret(token), this.now()) as ApiKeyRecord | undefined;
  }
}
