/**
 * Request bodies are read as sent: a body declared with a Content-Encoding other than identity
 * (gzip, br, …) is refused with 415 unsupported_media_type instead of being parsed as if it were
 * plain JSON.
 */
import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../services/errors.js';

export function installBodyEncodingCheck(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const encoding = request.headers['content-encoding']?.trim().toLowerCase();
    if (!encoding || encoding === 'identity') return done(null, payload);
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (!hasBody) return done(null, payload);
    done(new ServiceError(
      415,
      'unsupported_media_type',
      `Unsupported Content-Encoding '${encoding}': send the request body uncompressed (identity).`,
      { header: 'content-encoding', reason: 'only identity is accepted' },
    ));
  });
}
