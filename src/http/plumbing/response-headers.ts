/**
 * Headers every response carries, errors included: X-Request-Id (equal to meta.request_id),
 * X-RateLimit-Limit/Remaining/Reset (when a rate decision was taken), Cache-Control: no-store,
 * and no entity tags.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RateDecision } from '../../state/state-store.js';

/** The X-RateLimit-* headers of a rate decision (also written by the transport, ../raw-error-response.ts). */
export function rateLimitHeaders(rate: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(rate.limit),
    'X-RateLimit-Remaining': String(rate.remaining),
    'X-RateLimit-Reset': String(rate.reset_epoch_seconds),
  };
}

export function applyResponseHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('X-Request-Id', request.id);
  if (request.routeOptions.config?.cacheable !== true || reply.statusCode !== 200) reply.header('Cache-Control', 'no-store');
  reply.removeHeader('ETag');
  reply.removeHeader('Last-Modified');
  if (request.rateDecision) reply.headers(rateLimitHeaders(request.rateDecision));
}

export function installResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    applyResponseHeaders(request, reply);
    done(null, payload);
  });
}
