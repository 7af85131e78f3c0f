/**
 * Similar concepts (POST /v1/search/similar): concepts like a given concept, name or query, scored on their best
 * text by meaning (`semantic`), TF-IDF (`lexical`) or the shared candidate ranking (`hybrid`, the default), at or
 * above `similarity_threshold`.
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
  sharedRanks,
  typoTolerantKeywordQueries,
  type SemanticContext,
} from './semantic-candidates.js';
import { semanticQuery } from './semantic-query.js';
import { semanticResult, type SemanticResult } from './semantic-search.js';
import { gatherCandidates, rankGathered, weightsFor } from './ranked-candidates.js';
import { candidateScore, coverageWords, wordCoverage, type RankingWeights } from '../../search-model/candidate-ranking.js';

export type SimilarityAlgorithm = 'semantic' | 'lexical' | 'hybrid';
export const SIMILARITY_ALGORITHMS: readonly SimilarityAlgorithm[] = ['semantic', 'lexical', 'hybrid'];
export const SIMILAR_DEFAULT_ALGORITHM: SimilarityAlgorithm = 'hybrid';
export const SIMILAR_DEFAULT_THRESHOLD = 0.7;
export const SIMILAR_DEFAULT_PAGE_SIZE = 20;
/** The weights of `hybrid`, the shared candidate ranking's. */
export { RANKING_WEIGHTS as HYBRID_WEIGHTS } from '../../search-model/candidate-ranking.js';
export const SIMILAR_MAX_PAGE_SIZE = 1000;

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
  const filters = request.filters ?? {};
  if (algorithm === 'hybrid') return withMetadata(await hybridSimilar(ctx, source, filters, threshold, pageSize, request));
  const candidates = await candidateConcepts(ctx, {
    text: source.text,
    filters,
    wanted: pageSize,
    excludeConceptIds: source.exclude,
    keywordQueries: algorithm === 'semantic' ? [source.text] : typoTolerantKeywordQueries(source.text),
  });

  const concepts = candidates.concepts;
  // remembered (semanticScorer remembers already): the scores and explanations below ask again for the texts that matched
  const meaning = semanticScorer(ctx.provider, source.text, candidates);
  const words = rememberingScorer((texts) => ctx.lexical(source.text, texts));
  const scorer = { semantic: meaning, lexical: words }[algorithm];
  const scored = (await scoreConcepts(concepts, conceptTexts(ctx, concepts), scorer)).filter((m) => m.similarity_score >= threshold).slice(0, pageSize);

  const results: SimilarConcept[] = scored.map(semanticResult);
  if (request.include_scores || request.include_explanations) {
    const matched = scored.map((m) => m.matched_text);
    const s = await meaning(matched);
    const l = await words(matched);
    // the hybrid score of a text chosen by another algorithm: the model with what it knows of the text alone
    const w: RankingWeights = weightsFor({ candidates: [], withMeaning: true });
    // the lexical and meaning orders among these results stand for the candidates' (lexicalRank, meaningRank)
    const ranksOf = (scores: readonly number[]) => sharedRanks(scores.map(roundScore)).map((r) => 1 / r);
    const [lexicalRank, meaningRank] = [ranksOf(l), ranksOf(s)];
    results.forEach((r, i) => {
      const coverage = wordCoverage(coverageWords(source.text), coverageWords(r.matched_text));
      const hybrid = candidateScore({ lexical: l[i]!, meaning: s[i]!, coverage, exact: 0, lexicalRank: lexicalRank[i]!, meaningRank: meaningRank[i]! }, w);
      const parts = { semantic: roundScore(s[i]!), lexical: roundScore(l[i]!), hybrid: roundScore(hybrid) };
      if (request.include_scores) r.scores = parts;
      if (request.include_explanations) {
        r.explanation =
          `'${r.matched_text}' scored ${parts[algorithm]} by the ${algorithm} algorithm ` +
          `(meaning ${parts.semantic}, words and characters ${parts.lexical}; hybrid is the shared candidate ranking).`;
      }
    });
  }
  return withMetadata({ results, totalCandidates: concepts.length });

  function withMetadata(found: { results: SimilarConcept[]; totalCandidates: number }): SimilarResult {
    return {
      similar_concepts: found.results,
      search_metadata: {
        original_query: source.text,
        algorithm_used: algorithm,
        similarity_threshold: threshold,
        total_candidates: found.totalCandidates,
        results_returned: found.results.length,
        processing_time_ms: performance.now() - started,
      },
    };
  }
}

/** `hybrid`: the shared candidate ranking (src/search-model/candidate-ranking.ts), its score as similarity_score. */
async function hybridSimilar(
  ctx: SimilarContext,
  source: { text: string; exclude: number[] },
  filters: SearchFilters,
  threshold: number,
  pageSize: number,
  request: SimilarRequest,
): Promise<{ results: SimilarConcept[]; totalCandidates: number }> {
  const gathered = await gatherCandidates(ctx, { text: source.text, filters, k: pageSize, excludeConceptIds: source.exclude });
  const ranked = rankGathered(gathered)
    .filter((c) => c.score >= threshold)
    .slice(0, pageSize);
  const results = ranked.map((c): SimilarConcept => {
    const r: SimilarConcept = semanticResult({ concept: c.concept, similarity_score: c.score, matched_text: c.matched_text });
    const parts = { semantic: c.components.meaning, lexical: c.components.lexical, hybrid: c.score };
    if (request.include_scores) r.scores = parts;
    if (request.include_explanations) {
      r.explanation =
        `'${c.matched_text}' scored ${c.score} by the hybrid algorithm, the shared candidate ranking ` +
        `(meaning ${parts.semantic}, words and characters ${parts.lexical}, query words found ${c.components.coverage}, exact ${c.components.exact}; ` +
        `proposed by ${c.reasons.join(', ')}).`;
    }
    return r;
  });
  return { results, totalCandidates: gathered.candidates.length };
}
