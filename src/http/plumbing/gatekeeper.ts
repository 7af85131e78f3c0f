/**
 * The request gate, run once for every request before any route code:
 *   1. transport: HTTPS, or plain HTTP from a trusted proxy that says X-Forwarded-Proto: https;
 *   2. API key (Bearer) on /v1 and /fhir — missing → 401 missing_api_key, unknown → 401 invalid_api_key;
 *   3. rate limit per key, shared by both surfaces (anonymous requests: per client address);
 *   4. monthly quota per key (a batch or bulk request is one call);
 *   5. release selection (vocab_release / X-Vocab-Release / X-Vocab-Version / X-Vocabulary-Version).
 * The rate decision is kept on the request so that every response, errors included, carries the
 * X-RateLimit-* headers.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AccessPolicy } from '../../services/access-policy.js';
import { ServiceError } from '../../services/errors.js';
import type { StateStore } from '../../state/state-store.js';
import type { ReleaseRegistry } from '../../store/release-registry.js';
import { sendError } from './error-responses.js';
import { surfaceOf } from './request-context.js';

export interface GatekeeperOptions {
  state: StateStore;
  registry: ReleaseRegistry;
  /** Rate for requests without a valid key, per client address. */
  anonymousRatePerSecond: number;
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
  app.decorateRequest('surface', 'public');
  app.decorateRequest('caller', null as never);
  app.decorateRequest('release', null as never);
  app.decorateRequest('rateDecision', undefined);
  app.decorateRequest('startedAt', 0n);

  app.addHook('onRequest', async (request, reply) => {
    request.startedAt = process.hrtime.bigint();
    request.surface = surfaceOf(request.url);
    // Conditional requests never yield 304 (Common REST conventions 5).
    delete request.headers['if-none-match'];
    delete request.headers['if-modified-since'];

    const secret = bearerSecret(request);
    const key = secret ? state.authenticate(secret) : undefined;
    request.rateDecision = key
      ? state.consumeRate(`key:${key.id}`, key.rate_per_second)
      : state.consumeRate(`ip:${request.ip}`, options.anonymousRatePerSecond);

    if (!isSecureTransport(request)) {
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
    if (request.routeOptions.config?.public || request.surface === 'public') return;

    if (secret === null) {
      return sendError(
        request,
        reply,
        new ServiceError(401, 'missing_api_key', 'An API key is required: send the header "Authorization: Bearer <API key>".'),
      );
    }
    if (!key) {
      return sendError(request, reply, new ServiceError(401, 'invalid_api_key', 'The API key is not valid or has been revoked.'));
    }
    const rate = request.rateDecision;
    if (!rate.allowed) {
      return sendError(
        request,
        reply,
        new ServiceError(
          429,
          'rate_limit_exceeded',
          `Rate limit exceeded: this key allows ${rate.limit} requests per second. Retry after ${rate.retry_after_seconds} s.`,
          { limit_per_second: rate.limit, retry_after_seconds: rate.retry_after_seconds },
          { 'Retry-After': String(rate.retry_after_seconds) },
        ),
      );
    }
    const quota = state.meterCall(key);
    if (!quota.allowed) {
      const retryAfter = Math.max(1, quota.resets_at_epoch_seconds - Math.floor(Date.now() / 1000));
      return sendError(
        request,
        reply,
        new ServiceError(
          429,
          'monthly_quota_exceeded',
          `Monthly quota exhausted: this key has used all ${quota.quota} calls of the current month; the quota resets at ${new Date(
            quota.resets_at_epoch_seconds * 1000,
          ).toISOString()}.`,
          { quota: quota.quota, used: quota.used, resets_at: new Date(quota.resets_at_epoch_seconds * 1000).toISOString() },
          { 'Retry-After': String(retryAfter) },
        ),
      );
    }
    request.caller = { key, policy: new AccessPolicy(key.cpt4_validated_until) };
  });

  // Release selection needs the parsed query string, so it runs after parsing.
  app.addHook('preValidation', async (request, reply) => {
    if (request.routeOptions.config?.public || request.surface === 'public') return;
    const selection = registry.select(releaseSelector(request));
    if (selection.ok) {
      request.release = selection.release;
      return;
    }
    if (selection.reason === 'none_loaded') {
      return sendError(
        request,
        reply,
        new ServiceError(503, 'service_unavailable', 'No vocabulary release is loaded on this server yet: run `omopterm load <athena-dir> --release YYYY.Q`.'),
      );
    }
    const wanted = releaseSelector(request);
    return sendError(
      request,
      reply,
      new ServiceError(
        request.surface === 'fhir' ? 404 : 400,
        'release_not_found',
        `Unknown vocabulary release '${wanted}'. Releases on this server: ${selection.available.join(', ')} (or latest/default/current).`,
        { requested: wanted, available_releases: selection.available },
      ),
    );
  });
}
