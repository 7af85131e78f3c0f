/**
 * The decision of `admit`, written once for every StateStore: the secret (or else the browser session) names the key,
 * the key's rate limit (or else the client address's) is taken, and an allowed call of a key is metered when asked.
 */
import { randomUUID } from 'node:crypto';
import type { RateLimiter } from './rate-limiter.js';
import { API_KEY_PREFIX, newSecret } from './secrets.js';
import type { Admission, AdmissionRequest, ApiKeyRecord, BrowserSession, NewApiKey, QuotaDecision } from './state-store.js';

/** What a backend answers for one admission. */
export interface AdmissionBackend {
  /** The active key a secret stands for: an API key, or (when accepted) an OAuth access token's key. */
  keyForSecret(secret: string, acceptAccessToken: boolean): Promise<ApiKeyRecord | undefined>;
  /** A live session and its key (null: anonymous); undefined when unknown, expired or its key revoked. */
  liveSession(id: string): Promise<{ session: BrowserSession; key: ApiKeyRecord | null } | undefined>;
  rateLimiter: RateLimiter;
  meter(key: ApiKeyRecord): Promise<QuotaDecision>;
}

export async function decideAdmission(request: AdmissionRequest, backend: AdmissionBackend): Promise<Admission> {
  let key = request.secret ? await backend.keyForSecret(request.secret, request.acceptAccessToken === true) : undefined;
  let session: BrowserSession | null = null;
  if (!request.secret && request.session) {
    const found = await backend.liveSession(request.session);
    if (found) {
      session = found.session;
      key = found.key ?? undefined;
    }
  }
  const rate = key
    ? await backend.rateLimiter.take(`key:${key.id}`, key.rate_per_second)
    : await backend.rateLimiter.take(`ip:${request.clientAddress}`, request.anonymousRatePerSecond);
  const quota = key && rate.allowed && request.meter ? await backend.meter(key) : null;
  return { key: key ?? null, rate, quota, session };
}

/** A new key's record (active, created now) and its secret, shown once; every backend stores only the secret's hash. */
export function newApiKey(key: NewApiKey, nowMs: number): { record: ApiKeyRecord; secret: string } {
  const record: ApiKeyRecord = {
    id: randomUUID(),
    name: key.name,
    rate_per_second: key.rate_per_second,
    monthly_quota: key.monthly_quota,
    cpt4_validated_until: key.cpt4_validated_until,
    created_at: new Date(nowMs).toISOString(),
    revoked_at: null,
  };
  return { record, secret: newSecret(API_KEY_PREFIX, 24) };
}

/** The error of a key named by neither id nor name (CLI: `clients create --key`). */
export function noActiveKeyError(idOrName: string): Error {
  return new Error(`no active API key with id or name '${idOrName}': see omopterm keys list`);
}

/** The error of a name held by several active keys (possible only in a data dir from before names were unique). */
export function ambiguousKeyNameError(idOrName: string, action: string, ids: readonly string[]): Error {
  return new Error(`${ids.length} active keys are named '${idOrName}': ${action} one by id (${ids.join(', ')})`);
}

/** The error of creating a key under a name an active key holds. */
export function keyNameTakenError(name: string, holderId: string): Error {
  return new Error(`an active key is already named '${name}' (id ${holderId}): choose another --name, or revoke that key first`);
}
