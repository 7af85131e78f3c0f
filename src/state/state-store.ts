/**
 * Shared mutable state: API keys, metered usage and rate-limit buckets.
 *
 * Everything else a server needs is immutable (the release stores). This interface is the one place
 * where server instances would have to agree, so it is the seam for multi-node deployments: the
 * embedded implementation (SQLite file in the data directory + in-process buckets) is the
 * single-node default; a backend on an existing shared engine implements the same interface.
 */

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** Requests per second (token-bucket refill rate; the bucket holds one second's worth). */
  rate_per_second: number;
  /** Calls allowed per calendar month (UTC); null = unlimited. */
  monthly_quota: number | null;
  /** Last day (YYYY-MM-DD, inclusive) on which the key may read CPT4; null = never validated. */
  cpt4_validated_until: string | null;
  created_at: string;
  revoked_at: string | null;
}

export interface NewApiKey {
  name: string;
  rate_per_second: number;
  monthly_quota: number | null;
  cpt4_validated_until: string | null;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the bucket is full again. */
  reset_epoch_seconds: number;
  /** Seconds to wait before retrying (only meaningful when not allowed). */
  retry_after_seconds: number;
}

export interface QuotaDecision {
  allowed: boolean;
  used: number;
  quota: number | null;
  /** Unix epoch seconds at which the monthly counter restarts. */
  resets_at_epoch_seconds: number;
}

export interface StateStore {
  createKey(key: NewApiKey): { record: ApiKeyRecord; secret: string };
  listKeys(): ApiKeyRecord[];
  /** Revokes by id or name; returns the revoked records (empty when nothing matched). */
  revokeKey(idOrName: string): ApiKeyRecord[];
  /** The active (not revoked) key with this secret, if any. */
  authenticate(secret: string): ApiKeyRecord | undefined;
  /** Takes one token from the key's bucket (or the anonymous bucket of a client address). */
  consumeRate(bucketId: string, ratePerSecond: number, now?: number): RateDecision;
  /** Counts one call against the key's monthly quota, refusing it when the quota is used up. */
  meterCall(key: ApiKeyRecord, now?: number): QuotaDecision;
  /** Writes buffered usage counts to durable storage. */
  flush(): void;
  close(): void;
}
