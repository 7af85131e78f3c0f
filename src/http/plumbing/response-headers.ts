/**
 * Headers every response carries, errors included: X-Request-Id (equal to meta.request_id),
 * X-RateLimit-Limit/Remaining/Reset, Cache-Control: no-store, and no entity tags.
 */
import type { FastifyInstance } from 'fastify';

export function installResponseHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Request-Id', request.id);
    reply.header('Cache-Control', 'no-store');
    reply.removeHeader('ETag');
    reply.removeHeader('Last-Modified');
    const rate = request.rateDecision;
    if (rate) {
      reply.header('X-RateLimit-Limit', String(rate.limit));
      reply.header('X-RateLimit-Remaining', String(rate.remaining));
      reply.header('X-RateLimit-Reset', String(rate.reset_epoch_seconds));
    }
    return payload;
  });
}
