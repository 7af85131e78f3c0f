/** The FHIR resolver's context for one request: its display fallback (the meaning-based step) runs on the worker pool. */
import type { FastifyRequest } from 'fastify';
import { resolverContextFor, type ResolverContext } from '../../services/fhir-resolver/resolver-context.js';
import { computeHeavy } from '../plumbing/heavy-work.js';

/** The FHIR resolver's context for this request: structured steps here, a display resolution on a worker thread. */
export function resolverContextOf(request: FastifyRequest): ResolverContext {
  return resolverContextFor(request.server.semanticIndexes, request.view, (display, options) =>
    computeHeavy(request, 'resolveDisplay', request.view, { display, options }),
  );
}
