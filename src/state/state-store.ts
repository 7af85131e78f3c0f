/**
 * Shared mutable state (API keys, metered usage, rate limits, OAuth clients and tokens, sessions, mapping jobs): the one
 * interface server processes and nodes agree through. Every method returns a Promise and a request costs one call,
 * `admit`; implementations: embedded SQLite (the default) and PostgreSQL (`postgres/`), opened by `openStateStore` (`openers/`).
 */
import type { MappingJobStore } from './mapping-job-store.js';

/** Epoch milliseconds (Date.now unless a test gives its own). */
export type Clock = () => number;

export interface ApiKeyRecord {
  id: string;
  /** Unique among active keys (a revoked key's name may be reused). */
  name: string;
  /** Requests per second (enforced in windows: see rateWindow in rate-limiter.ts). */
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
  /** Unix epoch seconds at which the budget is full again (the current window ends). */
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
  /** Client address: requests without a valid key share this address's rate limit. */
  clientAddress: string;
  /** Rate of the per-address limit for requests without a valid key. */
  anonymousRatePerSecond: number;
  /** Count the call against the key's monthly quota (only done when the key is valid and within its rate). */
  meter: boolean;
  /**
   * Also accept an unexpired OAuth 2.0 access token as the secret, standing for its client's key
   * (same rate limit, quota and licence). The gate sets it for FHIR routes only (Authentication 4).
   */
  acceptAccessToken?: boolean;
  /**
   * The browser's session id (cookie), for page routes: a live session stands for its key (or for an anonymous
   * visitor when the session has none). Used only when `secret` is null.
   */
  session?: string | null;
}

/** A browser session (pages): bound to an API key, or to none when the server lets the browser run anonymously. */
export interface BrowserSession {
  /** The random id the browser holds in its cookie (stored only as its hash). */
  id: string;
  keyId: string | null;
  /** Every form that changes state must send this back (synchronizer token). */
  csrfToken: string;
  expiresAtMs: number;
}

/** Lifetime of a browser session from sign-in (absolute, not sliding). */
export const BROWSER_SESSION_LIFETIME_SECONDS = 8 * 3600;
/** Lifetime of an anonymous browser session (`--browse-without-key`): shorter, as every cookie-less visitor opens one. */
export const ANONYMOUS_SESSION_LIFETIME_SECONDS = 3600;
/** Largest page state (JSON) a session keeps: the browser's concept sets. */
export const MAX_SESSION_DATA_BYTES = 2 * 1024 * 1024;

/**
 * The outcome of one `admit` call. `rate` is always decided: the key's rate limit for a valid key,
 * otherwise the client address's. `quota` is set only when the call was metered.
 */
export interface Admission {
  /** The active key with the secret; null when the secret is missing, unknown or revoked. */
  key: ApiKeyRecord | null;
  rate: RateDecision;
  quota: QuotaDecision | null;
  /** The live browser session named by `session`, if any (its key, if it has one, is `key`). */
  session?: BrowserSession | null;
}

/** Every access token starts with this (API keys start with `oh_`), so that a token is told from a key on sight. */
export const ACCESS_TOKEN_PREFIX = 'ohat_';

/** Lifetime of an access token when its client was created without one (RFC 6749 §4.4.3 `expires_in`). */
export const DEFAULT_ACCESS_TOKEN_LIFETIME_SECONDS = 3600;
/** Longest lifetime a client's access tokens may be given: tokens stay short-lived. */
export const MAX_ACCESS_TOKEN_LIFETIME_SECONDS = 86_400;

/**
 * An OAuth 2.0 client (RFC 6749 §4.4, client_credentials): a client id and secret bound to one API
 * key. Its access tokens act as that key, and stop working when the client or the key is revoked.
 */
export interface OAuthClientRecord {
  client_id: string;
  key_id: string;
  /** `expires_in` of the access tokens issued to this client. */
  token_lifetime_seconds: number;
  created_at: string;
  revoked_at: string | null;
}

export interface NewOAuthClient {
  /** Id, or name, of the active API key the client's tokens act as. */
  key: string;
  token_lifetime_seconds: number;
}

export interface IssuedAccessToken {
  access_token: string;
  /** Seconds from now until the token expires. */
  expires_in: number;
  client: OAuthClientRecord;
}

export interface StateStore extends MappingJobStore {
  /**
   * The hot path, once per request: authenticates the secret, takes one request from the key's (or the client
   * address's) rate limit and, when asked and allowed, meters one call. Rejects with StateUnavailableError when a
   * backend cannot be reached (nothing is decided, nothing metered).
   */
  admit(request: AdmissionRequest): Promise<Admission>;
  /**
   * Meters one call of an already admitted key, refusing it when the monthly quota is used up: for requests that hold
   * several calls (MCP over HTTP: the gate admits the request unmetered, each tool call is one call).
   */
  meter(key: ApiKeyRecord): Promise<QuotaDecision>;
  /** Refuses (rejects) a name already used by an active key. */
  createKey(key: NewApiKey): Promise<{ record: ApiKeyRecord; secret: string }>;
  listKeys(): Promise<ApiKeyRecord[]>;
  /**
   * Revokes the active key with this id, or else the one active key with this name, with its OAuth
   * clients and their tokens; resolves to null when nothing matched.
   */
  revokeKey(idOrName: string): Promise<ApiKeyRecord | null>;
  /** The active (not revoked) key with this secret, if any. */
  authenticate(secret: string): Promise<ApiKeyRecord | undefined>;
  /**
   * Creates an OAuth client for the active key with this id, or else the one active key with this
   * name; rejects when there is none, with a message naming what to give instead.
   */
  createClient(client: NewOAuthClient): Promise<{ record: OAuthClientRecord; secret: string }>;
  listClients(): Promise<OAuthClientRecord[]>;
  /** Revokes the active client with this id, and its tokens; resolves to null when nothing matched. */
  revokeClient(clientId: string): Promise<OAuthClientRecord | null>;
  /**
   * The client_credentials grant: a new access token for the client when the id and secret match
   * an active client of an active key; null otherwise (RFC 6749 `invalid_client`).
   */
  issueAccessToken(clientId: string, clientSecret: string): Promise<IssuedAccessToken | null>;
  /**
   * Starts a browser session for an active key (null: an anonymous session, for servers that let the browser run
   * without a key). The id is returned once; only its hash is kept.
   */
  createSession(keyId: string | null, lifetimeSeconds?: number): Promise<BrowserSession>;
  /** Ends a session (sign-out); unknown ids are ignored. */
  endSession(id: string): Promise<void>;
  /** The page state kept in a live session (JSON text; '{}' when nothing was saved); undefined when it has ended. */
  readSessionData(id: string): Promise<string | undefined>;
  /** Replaces a live session's page state; false when the session has ended; rejects data over MAX_SESSION_DATA_BYTES. */
  writeSessionData(id: string, data: string): Promise<boolean>;
  /** Calls metered for a key in a month (YYYY-MM, UTC), including counts not yet flushed. */
  usageOf(keyId: string, month: string): Promise<number>;
  /** Writes buffered usage counts to durable storage. */
  flush(): Promise<void>;
  /** Whether the backends answer now (never rejects: an unreachable backend is 'unavailable'). */
  health(): Promise<StateHealth>;
  close(): Promise<void>;
}

/** What /health reports of the state. */
export interface StateHealth {
  state: 'ok' | 'unavailable';
  /** Where keys, usage, sessions and jobs live. */
  backend: 'sqlite' | 'postgres';
  /** Where the rate-limit counters live. */
  rate_limit_store: string;
}
