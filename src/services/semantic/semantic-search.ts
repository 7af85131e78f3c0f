/**
 * Semantic search (GET /v1/search/semantic): the shared candidate ranking (./ranked-candidates.ts), those at or
 * above `threshold` best first, one page, with a lower-bound total and an exact `has_next`.
 */
import { briefConcept, type ConceptBrief } from '../concepts/concept-brief.js';
import { facetsOf, type SearchFacets } from '../search/facets.js';
import type { SearchFilters } from '../search/search-filters.js';
import { gatherCandidates, rankGathered } from './ranked-candidates.js';
import type { ScoredConcept, SemanticContext } from './semantic-candidates.js';
import { semanticQuery, type QueryEnhancement } from './semantic-query.js';

export const SEMANTIC_DEFAULT_THRESHOLD = 0.5;
export const SEMANTIC_DEFAULT_PAGE_SIZE = 20;
export const SEMANTIC_MAX_PAGE_SIZE = 100;

export interface SemanticSearchRequest {
  query: unknown;
  filters?: SearchFilters;
  /** 0..1; default SEMANTIC_DEFAULT_THRESHOLD. */
  threshold?: number;
  page?: number;
  pageSize?: number;
  /** Also count the results known above the threshold by vocabulary, domain, class and standard flag (the browser's facets). */
  withFacets?: boolean;
}

/** One result (client contract §1.2 SemanticResult): the concept's list fields, its score and the text that matched. */
export interface SemanticResult extends ConceptBrief {
  similarity_score: number;
  matched_text: string;
}

export interface SemanticSearchResult {
  query: string;
  enhancement: QueryEnhancement;
  threshold: number;
  results: SemanticResult[];
  /** Results known at or above the threshold (a lower bound of all of them). */
  totalAboveThreshold: number;
  /** Concepts scored. */
  totalCandidates: number;
  page: number;
  pageSize: number;
  processingMs: number;
  /** With `withFacets`: counts over the `totalAboveThreshold` results. */
  facets?: SearchFacets;
}

/** What semantic search ranks with: the release's vectors and provider, the caller's licence, a lexical scorer. */
export interface SemanticSearchContext extends SemanticContext {
  /** Plain TF-IDF (words + character trigrams) of the query against each text, 0..1. */
  lexical: (query: string, texts: readonly string[]) => number[];
}

export function semanticResult(m: ScoredConcept): SemanticResult {
  const result = briefConcept(m.concept) as SemanticResult;
  result.similarity_score = m.similarity_score;
  result.matched_text = m.matched_text;
  return result;
}

export async function semanticSearch(ctx: SemanticSearchContext, request: SemanticSearchRequest): Promise<SemanticSearchResult> {
  const started = process.hrtime.bigint();
  const query = semanticQuery(request.query);
  const threshold = request.threshold ?? SEMANTIC_DEFAULT_THRESHOLD;
  const page = request.page ?? 1;
  const pageSize = request.pageSize ?? SEMANTIC_DEFAULT_PAGE_SIZE;
  const offset = (page - 1) * pageSize;
  const gathered = await gatherCandidates(ctx, { text: query.searchText, filters: request.filters ?? {}, k: offset + pageSize + 1 });
  const scored = rankGathered(gathered).map((c): ScoredConcept => ({ concept: c.concept, similarity_score: c.score, matched_text: c.matched_text }));
  const above = scored.filter((m) => m.similarity_score >= threshold);
  return {
    query: query.text,
    enhancement: query.enhancement,
    threshold,
    results: above.slice(offset, offset + pageSize).map(semanticResult),
    totalAboveThreshold: above.length,
    totalCandidates: scored.length,
    page,
    pageSize,
    processingMs: Number(process.hrtime.bigint() - started) / 1e6,
    ...(request.withFacets ? { facets: facetsOf(ctx.view.store, above.map((m) => m.concept)) } : {}),
  };
}

/** The answer's `data` on the wire, one shape for REST (GET /v1/search/semantic) and MCP (semantic_search). */
export function semanticSearchData(result: SemanticSearchResult) {
  return {
    query: result.query,
    results: result.results,
    search_metadata: {
      query: result.query,
      threshold: result.threshold,
      total_candidates: result.totalCandidates,
      processing_time_ms: result.processingMs,
      query_enhancement: result.enhancement,
    },
  };
}
