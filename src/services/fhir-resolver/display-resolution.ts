/**
 * Resolves a display text (E7 rule 3, `semantic_match`): candidates from semantic or keyword search among the
 * valid standard concepts the caller may see, each scored on its best name or synonym and kept above
 * DISPLAY_MATCH_THRESHOLD.
 */
import type { ReleaseView } from '../release-view.js';
import { contentTokens } from '../../search-model/stop-words.js';
import { indexText, tokenize } from '../../search-model/text-normalization.js';
import type { SearchFilters } from '../search/search-filters.js';
import {
  candidateConcepts,
  conceptTexts,
  keywordCandidates,
  rememberingScorer,
  roundScore,
  scoreConcepts,
  semanticScorer,
  typoTolerantKeywordQueries,
  type SemanticContext,
  type TextScorer,
} from '../semantic/semantic-candidates.js';
import { semanticQuery } from '../semantic/semantic-query.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';

/**
 * Least score of a match (0..1); below it a display resolves to nothing. Text unrelated to any
 * concept ("parking ticket", "lorem ipsum dolor sit amet") scores about 0.1–0.3 on the evaluation's
 * map-by-name release; at the first threshold, 0.5, the evaluation left 498 of its 1,641
 * differing-name displays unresolved (0.4: 162) and top-1 fell from 0.406 without threshold to
 * 0.330 (0.4: 0.393). README, "How well semantic search works".
 */
export const DISPLAY_MATCH_THRESHOLD = 0.4;
/** Without vectors: how many of the display's content words (longest first) are also keyword-searched alone. */
export const LEXICAL_WORD_QUERIES = 4;
/** Weight of the text similarity (meaning) in the score. */
export const TEXT_WEIGHT = 0.8;
/** Weight of an exact match of the display's words with the matched name or synonym. */
export const EXACT_WEIGHT = 0.1;
/** Weight of the concept's domain preference (its rank among the resource type's expected domains). */
export const DOMAIN_WEIGHT = 0.1;

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
  /** 0..1: the combined resolution score the list is ordered by. */
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
  const query = semanticQuery(display, 'display');
  const method = ctx.semantic ? 'semantic' : 'lexical';
  const domains = options.domainIds?.length ? options.domainIds : undefined;
  const exactWordings = new Set([indexText(query.text), indexText(query.searchText)]);
  const threshold = options.threshold ?? DISPLAY_MATCH_THRESHOLD;
  const filters: SearchFilters = { domainIds: domains ? [...domains] : undefined, standardConcepts: ['S'], includeInvalid: false };
  const matches = (await scoredMatches(ctx, query.searchText, exactWordings, filters, domains, options.limit)).filter((m) => m.score >= threshold);
  return { matches: matches.slice(0, options.limit), method };
}

/** 1 − i/n for the i-th of n preferred domains, 0 outside them (never a candidate there), 1 for all when there is no preference. */
export function domainPreference(domainId: string, preferred: readonly string[] | undefined): number {
  if (!preferred) return 1;
  const i = preferred.indexOf(domainId);
  return i < 0 ? 0 : 1 - i / preferred.length;
}

/** The `n` longest distinct content words of a text (stop words left out), longest first. */
function longestContentWords(text: string, n: number): string[] {
  const words = [...new Set(contentTokens(tokenize(text)))];
  return words.length < 2 ? [] : words.sort((a, b) => b.length - a.length || a.localeCompare(b)).slice(0, n);
}

/** The candidates of one pass, scored (step 3), best first. */
async function scoredMatches(
  ctx: DisplayResolutionContext,
  text: string,
  exactWordings: ReadonlySet<string>,
  filters: SearchFilters,
  preferredDomains: readonly string[] | undefined,
  wanted: number,
): Promise<DisplayMatch[]> {
  const keywordQueries = typoTolerantKeywordQueries(text);
  const lexical = rememberingScorer((texts) => ctx.lexical(text, texts));
  let concepts: ConceptRecord[];
  let meaning = lexical;
  if (ctx.semantic) {
    const candidates = await candidateConcepts(ctx.semantic, { text, filters, wanted, keywordQueries });
    concepts = candidates.concepts;
    meaning = semanticScorer(ctx.semantic.provider, text, candidates);
  } else {
    const byId = new Map<number, ConceptRecord>();
    for (const q of [...keywordQueries, ...longestContentWords(text, LEXICAL_WORD_QUERIES)]) for (const c of keywordCandidates(ctx.view, q, filters)) byId.set(c.concept_id, c);
    concepts = [...byId.values()];
  }

  const textScore: TextScorer = async (texts) => {
    const s = await meaning(texts);
    return texts.map((t, i) => TEXT_WEIGHT * s[i]! + EXACT_WEIGHT * (exactWordings.has(indexText(t)) ? 1 : 0));
  };
  const best = await scoreConcepts(concepts, conceptTexts({ view: ctx.view, index: ctx.semantic?.index ?? null }, concepts), textScore);
  const similarity = await meaning(best.map((m) => m.matched_text));
  const out = best.map((m, i): DisplayMatch => ({
    concept: m.concept,
    similarity_score: roundScore(similarity[i]!),
    score: roundScore(m.similarity_score + DOMAIN_WEIGHT * domainPreference(m.concept.domain_id, preferredDomains)),
    matched_text: m.matched_text,
  }));
  return out.sort((a, b) => b.score - a.score || a.concept.concept_id - b.concept.concept_id);
}
