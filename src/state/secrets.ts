/**
 * Secrets handed out by the state store (API keys, OAuth client secrets, access tokens): random,
 * prefixed so that each kind is recognisable, and stored only as their SHA-256 hash.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Keys look like OMOPHub keys (`oh_` prefix) so that client-side checks accept them. */
export const API_KEY_PREFIX = 'oh_';
export const SESSION_ID_PREFIX = 'ohs_';
export const CLIENT_ID_PREFIX = 'ohc_';
export const CLIENT_SECRET_PREFIX = 'ohcs_';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** `prefix` followed by `bytes` random bytes in base64url. */
export function newSecret(prefix: string, bytes: number): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/** Whether `secret` hashes to `storedHash`, compared in constant time. */
export function secretMatchesHash(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
