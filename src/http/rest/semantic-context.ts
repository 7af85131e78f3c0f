/** The meaning-based services' context for one request (src/services/semantic/semantic-context.ts, shared with the MCP tools). */
import type { FastifyRequest } from 'fastify';
import { lexicalScoring, semanticContextFor } from '../../services/semantic/semantic-context.js';
import { resolverContextFor, type ResolverContext } from '../../services/fhir-resolver/resolver-context.js';
import type { SemanticIndexLookup } from '../../services/semantic/semantic-index-registry.js';
import type { SimilarContext } from '../../services/semantic/similar-concepts.js';

export { lexicalScoring };

/** The release's semantic index lookup (ok, or why there are no usable vectors). */
export function semanticLookupOf(request: FastifyRequest): Promise<SemanticIndexLookup> {
  return request.server.semanticIndexes.get(request.view);
}

/** The context, or the 503 that says why the release has no usable vectors. */
export function semanticContextOf(request: FastifyRequest): Promise<SimilarContext> {
  return semanticContextFor(request.server.semanticIndexes, request.view);
}

/** The FHIR resolver's context for this request. */
export function resolverContextOf(request: FastifyRequest): ResolverContext {
  return resolverContextFor(request.server.semanticIndexes, request.view);
}
