/**
 * Similar concepts (POST /v1/search/similar): concepts like a given concept, name or query, scored by the
 * `semantic`, `lexical` or `hybrid` (default) algorithm on their best text, at or above `similarity_threshold`.
 */
import { notFound, validationError } from '../errors.js';
import type { SearchFilters } from '../search/search-filters.js';
import {
  candidateConcepts,
  conceptTexts,
  rememberingScorer,
  roundScore,
  semanticScorer,
  scoreConcepts,
  typoTolerantKeywordQueries,
  type SemanticContext,
  type TextScorer,
} from './semantic-candidates.js';
import { semanticQuery } from './semantic-query.js';
import { semanticResult, type SemanticResult } from './semantic-search.js';

export type SimilarityAlgorithm = 'semantic' | 'lexical' | 'hybrid';
export const SIMILARITY_ALGORITHMS: readonly SimilarityAlgorithm[] = ['semantic', 'lexical', 'hybrid'];
export const SIMILAR_DEFAULT_ALGORITHM: SimilarityAlgorithm = 'hybrid';
export const SIMILAR_DEFAULT_THRESHOLD = 0.7;
export const SIMILAR_DEFAULT_PAGE_SIZE = 20;
export const SIMILAR_MAX_PAGE_SIZE = 1000;
/** Weight of the meaning part of a hybrid score. */
export const HYBRID_SEMANTIC_WEIGHT = 0.6;
/** Weight of the word-and-character part of a hybrid score. */
export const HYBRID_LEXICAL_WEIGHT = 0.4;

/** Scores a query against texts lexically (0..1 each); S1's plain TF-IDF words + trigrams scorer. */
export type LexicalScoring = (query: string, texts: readonly string[]) => number[];

export interface SimilarContext extends SemanticContext {
  lexical: LexicalScoring;
}

export interface SimilarRequest {
  concept_id?: number;
  concept_name?: unknown;
  query?: unknown;
  algorithm?: SimilarityAlgorithm;
  similarity_threshold?: number;
  page_size?: number;
  filters?: SearchFilters;
  include_scores?: boolean;
  include_explanations?: boolean;
}

export interface SimilarConcept extends SemanticResult {
  scores?: { semantic: number; lexical: number; hybrid: number };
  explanation?: string;
}

export interface SimilarResult {
  similar_concepts: SimilarConcept[];
  search_metadata: {
    original_query: string;
    algorithm_used: SimilarityAlgorithm;
    similarity_threshold: number;
    total_candidates: number;
    results_returned: number;
    processing_time_ms: number;
  };
}

/** The text to find similar concepts for, and the concept to leave out. */
function sourceOf(ctx: SemanticContext, request: SimilarRequest): { text: string; exclude: number[] } {
  const given = (['concept_id', 'concept_name', 'query'] as const).filter((k) => request[k] !== undefined && request[k] !== null);
  if (given.length !== 1) {
    throw validationError(
      `Give exactly one of 'concept_id', 'concept_name' or 'query' (${given.length ? `got ${given.map((g) => `'${g}'`).join(' and ')}` : 'got none'}).`,
      { parameter: given.length ? given.join(',') : 'concept_id' },
    );
  }
  if (request.concept_id !== undefined) {
    const concept = ctx.view.store.concepts.byId(request.concept_id);
    if (!concept) {
      throw notFound(`Concept ${request.concept_id} was not found in release ${ctx.view.store.manifest.label}.`, 'concept_not_found', {
        concept_id: request.concept_id,
      });
    }
    ctx.view.assertVisible(concept.vocabulary_id);
    return { text: concept.concept_name, exclude: [concept.concept_id] };
  }
  const parameter = given[0]!;
  return { text: semanticQuery(request[parameter], parameter).searchText, exclude: [] };
}

export async function similarConcepts(ctx: SimilarContext, request: SimilarRequest): Promise<SimilarResult> {
  const started = performance.now();
  const algorithm = request.algorithm ?? SIMILAR_DEFAULT_ALGORITHM;
  const threshold = request.similarity_threshold ?? SIMILAR_DEFAULT_THRESHOLD;
  const pageSize = request.page_size ?? SIMILAR_DEFAULT_PAGE_SIZE;
  const source = sourceOf(ctx, request);
  const candidates = await candidateConcepts(ctx, {
    text: source.text,
    filters: request.filters ?? {},
    wanted: pageSize,
    excludeConceptIds: source.exclude,
    keywordQueries: algorithm === 'semantic' ? [source.text] : typoTolerantKeywordQueries(source.text),
  });

  const concepts = candidates.concepts;
  // remembered (semanticScorer remembers already): the scores and explanations below ask again for the texts that matched
  const meaning = semanticScorer(ctx.provider, source.text, candidates);
  const words = rememberingScorer((texts) => ctx.lexical(source.text, texts));
  const hybrid: TextScorer = async (texts) => {
    const [s, l] = [await meaning(texts), await words(texts)];
    return s.map((v, i) => HYBRID_SEMANTIC_WEIGHT * v + HYBRID_LEXICAL_WEIGHT * l[i]!);
  };
  const scorer = { semantic: meaning, lexical: words, hybrid }[algorithm];
  const scored = (await scoreConcepts(concepts, conceptTexts(ctx, concepts), scorer)).filter((m) => m.similarity_score >= threshold).slice(0, pageSize);

  const results: SimilarConcept[] = scored.map(semanticResult);
  if (request.include_scores || request.include_explanations) {
    const matched = scored.map((m) => m.matched_text);
    const s = await meaning(matched);
    const l = await words(matched);
    results.forEach((r, i) => {
      const parts = { semantic: roundScore(s[i]!), lexical: roundScore(l[i]!), hybrid: roundScore(HYBRID_SEMANTIC_WEIGHT * s[i]! + HYBRID_LEXICAL_WEIGHT * l[i]!) };
      if (request.include_scores) r.scores = parts;
      if (request.include_explanations) {
        r.explanation =
          `'${r.matched_text}' scored ${parts[algorithm]} by the ${algorithm} algorithm ` +
          `(meaning ${parts.semantic}, words and characters ${parts.lexical}; hybrid = ${HYBRID_SEMANTIC_WEIGHT} × meaning + ${HYBRID_LEXICAL_WEIGHT} × words and characters).`;
      }
    });
  }
  return {
    similar_concepts: results,
    search_metadata: {
      original_query: source.text,
      algorithm_used: algorithm,
      similarity_threshold: threshold,
      total_candidates: concepts.length,
      results_returned: results.length,
      processing_time_ms: performance.now() - started,
    },
  };
}
