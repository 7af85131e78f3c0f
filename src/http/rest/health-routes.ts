/** GET /health — unauthenticated liveness and readiness. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { ReleaseRegistry } from '../../store/release-registry.js';

export function registerHealthRoutes(app: FastifyInstance, registry: ReleaseRegistry, version: string): void {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['Server'],
        summary: 'Liveness and readiness (no API key needed)',
        response: {
          200: Type.Object({
            status: Type.String(),
            version: Type.String(),
            releases: Type.Array(Type.String()),
            default_release: Type.Union([Type.String(), Type.Null()]),
            pid: Type.Integer({ description: 'The process that answered: with `serve --workers N`, one of the worker processes' }),
          }),
        },
      },
    },
    async () => ({
      status: registry.labels().length ? 'ok' : 'no_release_loaded',
      version,
      releases: registry.labels(),
      default_release: registry.getDefaultLabel(),
      pid: process.pid,
    }),
  );
}
