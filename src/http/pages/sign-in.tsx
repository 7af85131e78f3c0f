/**
 * Sign-in and sign-out. The browser gives its API key once; the server checks it, starts a session in the state
 * store (a fresh id every time, so a planted cookie is never promoted) and from then on knows the browser by the
 * session cookie alone: the key never reaches page JavaScript. The sign-in form itself is protected against
 * cross-site posting by a pre-session token (double-submit: a cookie and the same value in the form).
 */
import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { listReleases } from '../../services/vocabularies/release-catalog.js';
import type { StateStore } from '../../state/state-store.js';
import { localReturnPath } from '../plumbing/gatekeeper.js';
import { assertCsrf, clearSessionCookie, CSRF_FIELD, sessionIdOf, setSessionCookie } from '../plumbing/browser-session.js';
import { sendPage } from './layout.js';
import { pageContext, type PagesOptions } from './page-context.js';

const SIGN_IN_COOKIE = 'omopterm_sign_in';
/** Longest API key the form takes (keys are about 35 characters). */
const MAX_KEY_LENGTH = 200;

interface SignInBody {
  api_key?: unknown;
  next?: unknown;
  _csrf?: unknown;
}

function signInToken(request: FastifyRequest): string | null {
  try {
    const value = request.headers.cookie ? parseCookie(request.headers.cookie)[SIGN_IN_COOKIE] : undefined;
    return value && /^[A-Za-z0-9_-]{20,80}$/.test(value) ? value : null;
  } catch {
    return null;
  }
}

function SignInForm({ next, token, error, anonymousBrowsing }: { next: string; token: string; error?: string; anonymousBrowsing: boolean }): VNode {
  return (
    <section class="sign-in">
      <h1>Sign in</h1>
      <p>
        Give your omopterm API key once; the server then keeps a session for this browser (8 hours, or until you sign
        out). Your key's licences, rate limit and monthly quota apply to every page, as they do to its API calls.
      </p>
      {error ? (
        <p class="error" role="alert" id="sign-in-error">
          {error}
        </p>
      ) : null}
      <form method="post" action="/sign-in" class="stack">
        <input type="hidden" name={CSRF_FIELD} value={token} />
        <input type="hidden" name="next" value={next} />
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api_key"
          type="password"
          autocomplete="current-password"
          required
          maxLength={MAX_KEY_LENGTH}
          aria-describedby={error ? 'sign-in-error key-help' : 'key-help'}
          autofocus
        />
        <p id="key-help" class="hint">
          An administrator creates keys with <code>omopterm keys create --name NAME</code>; <code>omopterm demo</code> prints
          the demo's key.
        </p>
        <button type="submit">Sign in</button>
      </form>
      {anonymousBrowsing ? (
        <p>
          This server also lets you <a href={next}>browse without a key</a>, under the anonymous rate limit and licence
          rules.
        </p>
      ) : null}
    </section>
  );
}

export function registerSignInPages(app: FastifyInstance, options: PagesOptions & { state: StateStore }): void {
  const showForm = (request: FastifyRequest, reply: FastifyReply, next: string, status = 200, error?: string) => {
    const token = randomBytes(24).toString('base64url');
    reply.header(
      'Set-Cookie',
      serializeCookie(SIGN_IN_COOKIE, token, { httpOnly: true, secure: true, sameSite: 'strict', path: '/sign-in', maxAge: 3600 }),
    );
    const ctx = pageContext(request, options);
    const releases = listReleases(options.registry).releases;
    return sendPage(reply, ctx, {
      title: 'Sign in',
      section: 'sign-in',
      status,
      body: [
        <SignInForm next={next} token={token} error={error} anonymousBrowsing={options.anonymousBrowsing} />,
        <section class="about" aria-labelledby="about-heading">
          <h2 id="about-heading">This server</h2>
          <p>
            omopterm serves the OMOP standardized vocabularies (SNOMED, LOINC, RxNorm, ICD10CM, … as published by OHDSI
            Athena): a browser for people, an OMOPHub-compatible REST API under <code>/v1</code> and a FHIR terminology
            server under <code>/fhir/r4</code>, <code>/fhir/r4b</code>, <code>/fhir/r5</code> and <code>/fhir/r6</code>.
          </p>
          <p>
            Releases loaded:{' '}
            {releases.length ? releases.map((r, i) => [i ? ', ' : '', <code>{r.label}</code>, r.is_default ? ' (default)' : '']) : 'none yet'}
            .
          </p>
        </section>,
      ],
    });
  };

  app.get<{ Querystring: { next?: string } }>(
    '/sign-in',
    { config: { page: 'open' }, schema: { hide: true, querystring: { type: 'object', properties: { next: { type: 'string', maxLength: 2000 } } } } },
    async (request, reply) => {
      const next = localReturnPath(request.query.next ?? '/');
      if (request.browserSession?.keyId) return reply.redirect(next, 303);
      return showForm(request, reply, next);
    },
  );

  app.post<{ Body: SignInBody }>('/sign-in', { config: { page: 'open' }, schema: { hide: true } }, async (request, reply) => {
    const body = (request.body ?? {}) as SignInBody;
    const next = localReturnPath(typeof body.next === 'string' ? body.next : '/');
    assertCsrf(request, signInToken(request));
    const secret = typeof body.api_key === 'string' ? body.api_key.trim() : '';
    if (secret === '' || secret.length > MAX_KEY_LENGTH) {
      return showForm(request, reply, next, 400, `Give an API key (at most ${MAX_KEY_LENGTH} characters).`);
    }
    const key = await options.state.authenticate(secret);
    if (!key) return showForm(request, reply, next, 401, 'That API key is not valid or has been revoked.');
    const prior = sessionIdOf(request);
    if (prior) await options.state.endSession(prior);
    const session = await options.state.createSession(key.id);
    setSessionCookie(reply, session);
    return reply.redirect(next, 303);
  });

  app.post('/sign-out', { config: { page: 'open' }, schema: { hide: true } }, async (request, reply) => {
    const session = request.browserSession;
    if (session) {
      assertCsrf(request, session.csrfToken);
      await options.state.endSession(session.id);
    }
    clearSessionCookie(reply);
    return reply.redirect('/sign-in', 303);
  });
}

