/**
 * The meaning-based services' context for one caller on one release: the release's vectors, the server's embedding
 * provider, a lexical scorer with the release's word weights and the caller's licence (REST routes and MCP tools).
 */
import { UNIFORM_IDF } from '../../search-model/semantic/lexicon/sparse-features.js';
import { ServiceError } from '../errors.js';
import type { ReleaseView } from '../release-view.js';
import { createLexicalScorer } from './lexical-similarity.js';
import type { SemanticIndexLookup, SemanticIndexRegistry } from './semantic-index-registry.js';
import type { SimilarContext } from './similar-concepts.js';

/** Lexical scoring with the release's word weights when its vectors carry them, else uniform weights. */
export function lexicalScoring(lookup: SemanticIndexLookup): SimilarContext['lexical'] {
  const lexical = createLexicalScorer((lookup.ok ? lookup.idf : null) ?? UNIFORM_IDF);
  return (query, texts) => lexical.score(query, texts);
}

/** The context, or the 503 that says why the release has no usable vectors. */
export async function semanticContextFor(indexes: SemanticIndexRegistry, view: ReleaseView): Promise<SimilarContext> {
  const found = await indexes.get(view);
  if (!found.ok) throw new ServiceError(found.status, found.code, found.message);
  return { index: found.index, provider: found.provider, view, lexical: lexicalScoring(found) };
}
