/**
 * The request gate, run once for every request before any route code, deciding on the matched route: transport,
 * rate, API key (or OAuth token on /fhir and /mcp), monthly quota, release selection and the request's release view (the
 * release with the key's licence rules), through one call to the state store. /mcp meters and selects per tool call.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LicenceRules } from '../../licences/licence-rules.js';
import { quotaExceededError, rateLimitError } from '../../services/admission-errors.js';
import { ServiceError } from '../../services/errors.js';
import { ReleaseView } from '../../services/release-view.js';
import { StateUnavailableError } from '../../state/state-errors.js';
import { ACCESS_TOKEN_PREFIX, ANONYMOUS_SESSION_LIFETIME_SECONDS, type Admission, type AdmissionRequest, type RateDecision, type StateStore } from '../../state/state-store.js';
import type { ReleaseRegistry } from '../../store/release-registry.js';
import { sendError } from './error-responses.js';
import { assertCsrf, changesState, sessionIdOf, setSessionCookie } from './browser-session.js';
import { resolveRelease } from './release-resolution.js';
import { normalisedPath, surfaceOfPath, type PageAccess, type Surface } from './request-context.js';

export interface GatekeeperOptions {
  state: StateStore;
  registry: ReleaseRegistry;
  /** Rate for requests without a valid key, per client address. */
  anonymousRatePerSecond: number;
  /**
   * Let the browser's pages run without a key, under the anonymous rate and licence rules (`serve
   * --browse-without-key`; off by default: pages then need a signed-in session).
   */
  anonymousBrowsing?: boolean;
}

/** Release selector headers, in order of precedence after the query parameter. */
export const RELEASE_HEADERS = ['x-vocab-release', 'x-vocab-version', 'x-vocabulary-version'] as const;

function bearerSecret(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s*(.*)$/i.exec(header.trim());
  if (!match) return '';
  return match[1]!.trim();
}

function isSecureTransport(request: FastifyRequest): boolean {
  // request.protocol honours X-Forwarded-Proto only when the peer is a trusted proxy.
  return request.protocol === 'https';
}

/** The browser page access of the matched route; undefined for API routes. */
function pageAccessOf(request: FastifyRequest): PageAccess | undefined {
  return request.routeOptions.url === undefined ? undefined : request.routeOptions.config?.page;
}

/** True when the request matched a route that needs an API key (every route not declared public, pages excepted). */
function requiresKey(request: FastifyRequest): boolean {
  return request.routeOptions.url !== undefined && request.routeOptions.config?.public !== true && pageAccessOf(request) === undefined;
}

/** True when the route admits the calls a request carries one by one (MCP): see FastifyContextConfig.perCallAdmission. */
function admitsPerCall(request: FastifyRequest): boolean {
  return request.routeOptions.url !== undefined && request.routeOptions.config?.perCallAdmission === true;
}

/** True when the matched route reads a release: every API route that needs a key (but MCP's, whose tools name theirs), and every signed-in page. */
function readsRelease(request: FastifyRequest): boolean {
  return (requiresKey(request) && !admitsPerCall(request)) || pageAccessOf(request) === 'signed-in';
}

/**
 * Error shape of a request: a page for page routes, else from the matched route's template or the normalised path;
 * a browser asking for HTML at a path that is neither /v1 nor /fhir gets its 404 as a page.
 */
function surfaceOfRequest(request: FastifyRequest): Surface {
  if (pageAccessOf(request) !== undefined) return 'page';
  if (request.routeOptions.url === undefined) {
    const path = normalisedPath(request.url);
    const api = path === '/v1' || path.startsWith('/v1/') || surfaceOfPath(path) === 'fhir' || path.startsWith('/oauth2');
    if (!api && String(request.headers.accept ?? '').includes('text/html')) return 'page';
    return surfaceOfPath(path);
  }
  return surfaceOfPath(request.routeOptions.url);
}

/** Where the sign-in page sends the browser back to: a path on this server (never another origin). */
export function localReturnPath(url: string): string {
  // Browsers drop tabs and newlines from URLs and read a backslash as a slash, so "/\t/evil.example" or
  // "/\\evil.example" would leave the server: only printable ASCII, and never a second slash or backslash first.
  return url.startsWith('/') && !/^.[/\\]/.test(url) && /^[\x21-\x7e]*$/.test(url) ? url : '/';
}

/** True when the request matched a FHIR or MCP route that needs a key: only there is an OAuth access token a key. */
function acceptsAccessToken(request: FastifyRequest): boolean {
  return requiresKey(request) && (surfaceOfPath(request.routeOptions.url!) === 'fhir' || admitsPerCall(request));
}

export function admissionRequest(request: FastifyRequest, anonymousRatePerSecond: number, meter: boolean): AdmissionRequest {
  return { secret: bearerSecret(request), clientAddress: request.ip, anonymousRatePerSecond, meter, acceptAccessToken: acceptsAccessToken(request) };
}

/** The 401 for a request without an Authorization header; FHIR routes also take an access token. */
function missingCredentialError(request: FastifyRequest): ServiceError {
  const message = acceptsAccessToken(request)
    ? 'An API key or an OAuth 2.0 access token (POST /oauth2/token) is required: send the header "Authorization: Bearer <key or token>".'
    : 'An API key is required: send the header "Authorization: Bearer <API key>".';
  return new ServiceError(401, 'missing_api_key', message);
}

/** The 401 for a secret that is not an active key (or, on FHIR routes, not a valid access token). */
function invalidCredentialError(request: FastifyRequest): ServiceError {
  if (acceptsAccessToken(request)) {
    return new ServiceError(401, 'invalid_api_key', 'The API key or OAuth 2.0 access token is not valid, has expired or has been revoked.');
  }
  if (bearerSecret(request)?.startsWith(ACCESS_TOKEN_PREFIX)) {
    return new ServiceError(
      401,
      'invalid_api_key',
      'OAuth 2.0 access tokens are accepted on the FHIR surface (/fhir) and by the MCP server (/mcp) only; send an API key: "Authorization: Bearer <API key>".',
    );
  }
  return new ServiceError(401, 'invalid_api_key', 'The API key is not valid or has been revoked.');
}

export { rateLimitError };

export function releaseSelector(request: FastifyRequest): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.vocab_release;
  if (typeof fromQuery === 'string' && fromQuery.trim() !== '') return fromQuery;
  for (const name of RELEASE_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return undefined;
}

export function installGatekeeper(app: FastifyInstance, options: GatekeeperOptions): void {
  const { state, registry } = options;
  app.decorateRequest('surface', 'rest');
  app.decorateRequest('caller', null as never);
  app.decorateRequest('view', null as never);
  app.decorateRequest('rateDecision', undefined);
  app.decorateRequest('startedAt', 0n);

  app.decorateRequest('browserSession', null);

  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = process.hrtime.bigint();
    request.surface = surfaceOfRequest(request);
    // Conditional requests never yield 304 (Common REST conventions 5).
    delete request.headers['if-none-match'];
    delete request.headers['if-modified-since'];
    if (pageAccessOf(request) !== undefined) return admitPage(request, reply);

    const needsKey = requiresKey(request);
    const secure = isSecureTransport(request);
    let admission: Admission;
    try {
      admission = await state.admit(admissionRequest(request, options.anonymousRatePerSecond, needsKey && secure && !admitsPerCall(request)));
    } catch (error) {
      // Open routes answer without the state (/health reports the outage); every other request is refused by the
      // error handler: 503 state_unavailable, nothing served unchecked.
      if (error instanceof StateUnavailableError && secure && request.routeOptions.config?.public === true) return;
      throw error;
    }
    request.rateDecision = admission.rate;

    if (!secure) {
      const host = request.headers.host ?? 'this-server';
      return sendError(
        request,
        reply,
        new ServiceError(
          400,
          'https_required',
          `HTTPS is required: this server does not answer plain HTTP requests. Use https://${host}${request.url.split('?')[0]}`,
        ),
      );
    }
    if (request.routeOptions.config?.public === true) return;
    if (!admission.rate.allowed) return sendError(request, reply, rateLimitError(admission.rate, admission.key !== null));
    // No route matched: the not-found handler answers 404 (no data, so no key needed).
    if (!needsKey) return;

    if (bearerSecret(request) === null) {
      return sendError(request, reply, missingCredentialError(request));
    }
    const key = admission.key;
    if (!key) {
      return sendError(request, reply, invalidCredentialError(request));
    }
    const quota = admission.quota;
    if (quota && !quota.allowed) return sendError(request, reply, quotaExceededError(quota));
    request.caller = { key, licences: new LicenceRules(key.cpt4_validated_until) };
  });

  /**
   * The gate for browser pages: the session cookie stands for the key (same bucket, quota and licences as the key's
   * API calls); without a session a GET is sent to sign in, unless the server lets the browser run anonymously.
   */
  async function admitPage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const access = pageAccessOf(request)!;
    const secure = isSecureTransport(request);
    // Static files (fingerprinted, cacheable) draw on the address's bucket, not the key's: a page's own assets never
    // use up a person's rate.
    const staticFile = access === 'open' && request.routeOptions.config?.cacheable === true;
    const admission = await state.admit({
      secret: null,
      session: staticFile ? null : sessionIdOf(request),
      clientAddress: request.ip,
      anonymousRatePerSecond: options.anonymousRatePerSecond,
      meter: secure && access === 'signed-in',
    });
    request.rateDecision = admission.rate;
    request.browserSession = admission.session ?? null;
    if (!secure) {
      const host = request.headers.host ?? 'this-server';
      return sendError(request, reply, new ServiceError(400, 'https_required', `HTTPS is required: open https://${host}${request.url.split('?')[0]}`));
    }
    if (!admission.rate.allowed) return sendError(request, reply, rateLimitError(admission.rate, admission.key !== null));
    if (access === 'open') return undefined;

    if (admission.key) {
      const quota = admission.quota;
      if (quota && !quota.allowed) {
        return sendError(
          request,
          reply,
          new ServiceError(429, 'monthly_quota_exceeded', `Monthly quota exhausted: this key has used all ${quota.quota} calls of the current month.`),
        );
      }
      request.caller = { key: admission.key, licences: new LicenceRules(admission.key.cpt4_validated_until) };
      return undefined;
    }
    if (options.anonymousBrowsing) {
      if (!request.browserSession) {
        request.browserSession = await state.createSession(null, ANONYMOUS_SESSION_LIFETIME_SECONDS);
        setSessionCookie(reply, request.browserSession);
      }
      request.caller = { key: null, licences: new LicenceRules(null) };
      return undefined;
    }
    if (request.method === 'GET' || request.method === 'HEAD') {
      return reply.redirect(`/sign-in?next=${encodeURIComponent(localReturnPath(request.url))}`, 303);
    }
    return sendError(request, reply, new ServiceError(401, 'session_required', 'Your session has ended: sign in again with your API key.'));
  }

  // Release selection needs the parsed query string, so it runs after parsing; so does the CSRF check of page forms.
  app.addHook('preValidation', async (request, reply) => {
    if (pageAccessOf(request) === 'signed-in' && changesState(request)) {
      try {
        assertCsrf(request, request.browserSession?.csrfToken ?? null);
      } catch (error) {
        if (error instanceof ServiceError) return sendError(request, reply, error);
        throw error;
      }
    }
    if (!readsRelease(request)) return;
    try {
      request.view = ReleaseView.ofRelease(resolveRelease(registry, releaseSelector(request), { surface: request.surface }), request.caller.licences);
    } catch (error) {
      if (error instanceof ServiceError) return sendError(request, reply, error);
      throw error;
    }
  });
}
