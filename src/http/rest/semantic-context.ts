/**
 * The meaning-based services' context for one request: the release's vectors, the server's embedding provider, a
 * lexical scorer with the release's word weights and the caller's licence.
 */
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../../services/errors.js';
import { createLexicalScorer } from '../../services/semantic/lexical-similarity.js';
import { UNIFORM_IDF } from '../../search-model/semantic/lexicon/sparse-features.js';
import type { SemanticIndexLookup } from '../../services/semantic/semantic-index-registry.js';
import type { SimilarContext } from '../../services/semantic/similar-concepts.js';

/** The release's semantic index lookup (ok, or why there are no usable vectors). */
export function semanticLookupOf(request: FastifyRequest): Promise<SemanticIndexLookup> {
  return request.server.semanticIndexes.get(request.view);
}

/** Lexical scoring with the release's word weights when its vectors carry them, else uniform weights. */
export function lexicalScoring(lookup: SemanticIndexLookup): SimilarContext['lexical'] {
  const lexical = createLexicalScorer((lookup.ok ? lookup.idf : null) ?? UNIFORM_IDF);
  return (query, texts) => lexical.score(query, texts);
}

/** The context, or the 503 that says why the release has no usable vectors. */
export async function semanticContextOf(request: FastifyRequest): Promise<SimilarContext> {
  const found = await semanticLookupOf(request);
  if (!found.ok) throw new ServiceError(found.status, found.code, found.message);
  return {
    index: found.index,
    provider: found.provider,
    view: request.view,
    lexical: lexicalScoring(found),
  };
}
