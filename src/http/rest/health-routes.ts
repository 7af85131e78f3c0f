/** GET /health — unauthenticated liveness and readiness: the releases served, and whether the state backend answers (503 when not). */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { STATE_RETRY_AFTER_SECONDS } from '../../state/state-errors.js';
import type { StateStore } from '../../state/state-store.js';
import type { ReleaseRegistry } from '../../store/release-registry.js';

const HealthBody = Type.Object({
  status: Type.String({ description: "'ok'; 'no_release_loaded' when no release is loaded; 'state_unavailable' when the state backend does not answer" }),
  version: Type.String(),
  releases: Type.Array(Type.String()),
  default_release: Type.Union([Type.String(), Type.Null()]),
  state: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')], {
    description: 'whether the state backend (API keys, usage, sessions, jobs) and the rate-limit store answer now',
  }),
  state_backend: Type.String({ description: "'sqlite' (the data directory's state.sqlite) or 'postgres'" }),
  rate_limit_store: Type.String({ description: "'memory' (per process), 'primary' (a worker of `serve --workers N` asking its primary), 'redis' or 'postgres'" }),
  pid: Type.Integer({ description: 'The process that answered: with `serve --workers N`, one of the worker processes' }),
});

export function registerHealthRoutes(app: FastifyInstance, registry: ReleaseRegistry, version: string, state: StateStore): void {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['Server'],
        summary: 'Liveness and readiness (no API key needed); 503 while the state backend is unreachable',
        response: { 200: HealthBody, 503: HealthBody },
      },
    },
    async (_request, reply) => {
      const health = await state.health();
      const down = health.state === 'unavailable';
      if (down) reply.code(503).header('Retry-After', String(STATE_RETRY_AFTER_SECONDS));
      return {
        status: down ? 'state_unavailable' : registry.labels().length ? 'ok' : 'no_release_loaded',
        version,
        releases: registry.labels(),
        default_release: registry.getDefaultLabel(),
        state: health.state,
        state_backend: health.backend,
        rate_limit_store: health.rate_limit_store,
        pid: process.pid,
      };
    },
  );
}
