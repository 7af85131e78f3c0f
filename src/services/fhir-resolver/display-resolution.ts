/**
 * Resolves a display text (E7 rule 3, `semantic_match`): candidates from semantic or keyword search among the
 * valid standard concepts the caller may see, each scored on its best name or synonym and kept above
 * DISPLAY_MATCH_THRESHOLD.
 */
import type { ReleaseView } from '../release-view.js';
import type { SearchFilters } from '../search/search-filters.js';
import { gatherCandidates, rankGathered, type RankingContext } from '../semantic/ranked-candidates.js';
import { roundScore, type SemanticContext } from '../semantic/semantic-candidates.js';
import { semanticQuery } from '../semantic/semantic-query.js';
import { DISPLAY_MATCH_THRESHOLD, displayScore } from '../../search-model/candidate-ranking.js';
import type { ConceptRecord } from '../../store/records.js';

/** Least resolution score of a match (0..1); below it a display resolves to nothing (chosen on the evaluation's tuning halves). */
export { DISPLAY_MATCH_THRESHOLD, DISPLAY_DOMAIN_WEIGHT } from '../../search-model/candidate-ranking.js';

export interface DisplayResolutionContext {
  view: ReleaseView;
  /** The release's vectors and provider; null when the release has none (then keyword + lexical only). */
  semantic: SemanticContext | null;
  /**
   * Lexical (TF-IDF words + trigrams) scorer of the release (createLexicalScorer in
   * ../semantic/lexical-similarity.ts; the server builds it in src/http/rest/semantic-context.ts).
   */
  lexical: (query: string, texts: readonly string[]) => number[];
}

export interface DisplayMatch {
  /** A valid standard ('S') concept the caller may see. */
  concept: ConceptRecord;
  /** 0..1: the provider's similarity of the display and matched_text (the lexical score when there are no vectors). */
  similarity_score: number;
  /** 0..1: the shared candidate ranking's score of the concept (src/search-model/candidate-ranking.ts). */
  ranking_score: number;
  /** 0..1: the resolution score the list is ordered by, displayScore(ranking_score, domain preference). */
  score: number;
  /** The concept's name or synonym that scored best. */
  matched_text: string;
}

export interface DisplayResolution {
  matches: DisplayMatch[];
  /** `lexical`: the release has no vectors, so the display was matched by keyword search and lexical similarity only. */
  method: 'semantic' | 'lexical';
}

export interface DisplayResolutionOptions {
  /** The resource type's expected domains, most expected first (cdm-target.ts expectedDomains), or undefined. */
  domainIds?: readonly string[];
  /** At most this many matches. */
  limit: number;
  /** Least score of a match (0..1); default DISPLAY_MATCH_THRESHOLD. */
  threshold?: number;
}

/** Best first, at most `limit`, only matches with score ≥ the threshold (DISPLAY_MATCH_THRESHOLD). A blank or over-long display is a 400 naming `display`. */
export async function resolveDisplay(ctx: DisplayResolutionContext, display: string, options: DisplayResolutionOptions): Promise<DisplayResolution> {
  const method = ctx.semantic ? 'semantic' : 'lexical';
  const threshold = options.threshold ?? DISPLAY_MATCH_THRESHOLD;
  const matches = (await displayCandidates(ctx, display, options)).filter((m) => m.score >= threshold);
  return { matches: matches.slice(0, options.limit), method };
}

/** Every candidate of a display with its resolution score, best first, no threshold (the evaluation tunes on these). */
export async function displayCandidates(ctx: DisplayResolutionContext, display: string, options: DisplayResolutionOptions): Promise<DisplayMatch[]> {
  const query = semanticQuery(display, 'display');
  const domains = options.domainIds?.length ? options.domainIds : undefined;
  const filters: SearchFilters = { domainIds: domains ? [...domains] : undefined, standardConcepts: ['S'], includeInvalid: false };
  const ranking: RankingContext = { view: ctx.view, index: ctx.semantic?.index ?? null, provider: ctx.semantic?.provider ?? null, lexical: ctx.lexical };
  const gathered = await gatherCandidates(ranking, { text: query.searchText, filters, k: options.limit });
  const out = rankGathered(gathered).map((c): DisplayMatch => ({
    concept: c.concept,
    similarity_score: gathered.withMeaning ? c.components.meaning : c.components.lexical,
    ranking_score: c.score,
    score: roundScore(displayScore(c.score, domainPreference(c.concept.domain_id, domains))),
    matched_text: c.matched_text,
  }));
  return out.sort((a, b) => b.score - a.score || a.concept.concept_id - b.concept.concept_id);
}

/** 1 − i/n for the i-th of n preferred domains, 0 outside them (never a candidate there), 1 for all when there is no preference. */
export function domainPreference(domainId: string, preferred: readonly string[] | undefined): number {
  if (!preferred) return 1;
  const i = preferred.indexOf(domainId);
  return i < 0 ? 0 : 1 - i / preferred.length;
}
