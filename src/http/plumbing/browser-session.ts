/**
 * The browser's session cookie and CSRF check, in one place for every page: the cookie holds only a random session
 * id (HttpOnly, Secure, SameSite=Strict, Max-Age = the session's lifetime); every state-changing page request must
 * send the session's synchronizer token (form field `_csrf`, or header X-CSRF-Token from the page's script), and a
 * cross-site Origin or Sec-Fetch-Site is refused as well.
 */
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../services/errors.js';
import type { BrowserSession } from '../../state/state-store.js';

export const SESSION_COOKIE = 'omopterm_session';
/** Form field and header that carry the CSRF token. */
export const CSRF_FIELD = '_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** The session id the browser sent, if any (a malformed Cookie header is treated as none). */
export function sessionIdOf(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  try {
    const value = parseCookie(header)[SESSION_COOKIE];
    return value && /^ohs_[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
  } catch {
    return null;
  }
}

export function setSessionCookie(reply: FastifyReply, session: BrowserSession, nowMs = Date.now()): void {
  reply.header(
    'Set-Cookie',
    serializeCookie(SESSION_COOKIE, session.id, {
      httpOnly: true,
      secure: true,
      sameSite: 'strict',
      path: '/',
      maxAge: Math.max(0, Math.round((session.expiresAtMs - nowMs) / 1000)),
    }),
  );
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('Set-Cookie', serializeCookie(SESSION_COOKIE, '', { httpOnly: true, secure: true, sameSite: 'strict', path: '/', maxAge: 0 }));
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** True for methods that change state (every page form that is not a GET). */
export function changesState(request: FastifyRequest): boolean {
  return request.method !== 'GET' && request.method !== 'HEAD';
}

/**
 * Refuses (403) a state-changing page request that does not carry `expected` (the session's token, or the sign-in
 * form's pre-session token), or that a browser says came from another site.
 */
export function assertCsrf(request: FastifyRequest, expected: string | null): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new ServiceError(403, 'csrf_rejected', 'This form was sent from another site; open the page on this server and send it again.');
  }
  const origin = request.headers.origin;
  const host = request.headers.host;
  if (origin !== undefined && origin !== 'null' && host !== undefined) {
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (originHost !== host) {
      throw new ServiceError(403, 'csrf_rejected', 'This form was sent from another origin; open the page on this server and send it again.');
    }
  }
  const body = request.body as Record<string, unknown> | undefined;
  const fromBody = body && typeof body === 'object' ? body[CSRF_FIELD] : undefined;
  const fromHeader = request.headers[CSRF_HEADER];
  const given = typeof fromBody === 'string' ? fromBody : typeof fromHeader === 'string' ? fromHeader : null;
  if (expected === null || given === null || !sameToken(given, expected)) {
    throw new ServiceError(
      403,
      'csrf_rejected',
      'The form is missing its security token or the token has expired (the session may have ended): reload the page and send it again.',
    );
  }
}
