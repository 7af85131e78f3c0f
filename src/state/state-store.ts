/**
 * Shared mutable state: API keys, metered usage and rate-limit buckets.
 *
 * Everything else a server needs is immutable (the release stores). This interface is the one place
 * where server instances would have to agree, so it is THE SEAM FOR MULTI-NODE DEPLOYMENTS: the
 * embedded implementation (SQLite file in the data directory + in-process buckets) is the
 * single-node default; a backend on a shared engine (Redis, PostgreSQL) implements the same
 * interface without touching services or routes. Every method returns a Promise so that such a
 * backend can answer over the network, and the per-request work is one call, `admit`, so that it
 * costs one round trip.
 */

export interface ApiKeyRecord {
  id: string;
  /** Unique among active keys (a revoked key's name may be reused). */
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

/** What the gate knows about a request before deciding on it. */
export interface AdmissionRequest {
  /** The Bearer secret as sent; null when there is no Authorization header. */
  secret: string | null;
  /** Client address: requests without a valid key share this address's bucket. */
  clientAddress: string;
  /** Refill rate of the per-address bucket for requests without a valid key. */
  anonymousRatePerSecond: number;
  /** Count the call against the key's monthly quota (only done when the key is valid and within its rate). */
  meter: boolean;
}

/**
 * The outcome of one `admit` call. `rate` is always decided: the key's bucket for a valid key,
 * otherwise the client address's bucket. `quota` is set only when the call was metered.
 */
export interface Admission {
  /** The active key with the secret; null when the secret is missing, unknown or revoked. */
  key: ApiKeyRecord | null;
  rate: RateDecision;
  quota: QuotaDecision | null;
}

export interface StateStore {
  /**
   * The hot path, once per request: authenticates the secret, takes a token from the key's (or
   * the client address's) bucket and, when asked and allowed, meters one call.
   */
  admit(request: AdmissionRequest): Promise<Admission>;
  /** Refuses (rejects) a name already used by an active key. */
  createKey(key: NewApiKey): Promise<{ record: ApiKeyRecord; secret: string }>;
  listKeys(): Promise<ApiKeyRecord[]>;
  /**
   * Revokes the active key with this id, or else the one active key with this name; resolves to
   * null when nothing matched.
   */
  revokeKey(idOrName: string): Promise<ApiKeyRecord | null>;
  /** The active (not revoked) key with this secret, if any. */
  authenticate(secret: string): Promise<ApiKeyRecord | undefined>;
  /** Calls metered for a key in a month (YYYY-MM, UTC), including counts not yet flushed. */
  usageOf(keyId: string, month: string): Promise<number>;
  /** Writes buffered usage counts to durable storage. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
