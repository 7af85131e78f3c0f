/**
 * THE CANDIDATE RANKING MODEL: one score (0..1) per candidate text from four features, a fixed weighted mean whose
 * weights were chosen by grid search on the tuning halves of `npm run eval:semantic` (docs/semantic-search.md).
 */
import { contentTokens } from './stop-words.js';
import { tokenize } from './text-normalization.js';

/** What the model knows of one candidate text against the query; every feature is 0..1 and higher is better. */
export interface CandidateFeatures {
  /** Plain TF-IDF of words and character trigrams (src/services/semantic/lexical-similarity.ts). */
  lexical: number;
  /** The embedding provider's similarity (0 when the release has no vectors: see weightsWithoutMeaning). */
  meaning: number;
  /** Share of the query's distinct content words (digits split from letters) that the text has. */
  coverage: number;
  /** 1 when the text is the query (exact name or synonym) or the concept has the source code, else 0. */
  exact: number;
  /**
   * The lexical score's own order, as reciprocal rank: 1/r for the candidate whose best text is r-th by the lexical
   * score among the query's candidates (at 4 decimals; equal scores share r = 1 + the candidates scoring more), the
   * same for each of its texts. The plain lexical order is the baseline the ranking must never lose to; this feature
   * lets the weighted mean keep its top few near the top whatever their meaning scores (a linear mean of the scores
   * alone could not: docs/semantic-search.md).
   */
  lexicalRank: number;
  /**
   * The meaning score's own order, as reciprocal rank: 1/r for the candidate whose best text is r-th by `meaning`
   * among the query's candidates (equal scores sharing r, as for lexicalRank). With lexicalRank it fuses the two
   * orders by their positions (reciprocal rank fusion), which does not depend on how the two scores are spread: a
   * query whose meaning scores all sit close together still has a first, second, … by meaning. Without vectors it is
   * the lexical rank.
   */
  meaningRank: number;
}

export type RankingWeights = Readonly<CandidateFeatures>;

/**
 * The weights of the shared ranking, as the tuning halves chose them: a grid of 0.05 steps summing to 1 (exact fixed
 * at 0.1, it only sets the scale), least total shortfall against the lexical baseline's top-1 and top-10 over the
 * tuning halves, then the best mean of top-1, top-10 and MRR. `npm run eval:semantic` prints its pick and says when
 * these differ. Coverage came out 0: the lexical score already rewards the query's words.
 */
export const RANKING_WEIGHTS: RankingWeights = Object.freeze({ lexical: 0.25, meaning: 0.65, coverage: 0, exact: 0.1, lexicalRank: 0, meaningRank: 0 });

/**
 * Without vectors the meaning weight goes to the lexical score and the meaning rank's to the lexical rank, so the
 * scale (and thresholds) stay comparable.
 */
export function weightsWithoutMeaning(weights: RankingWeights = RANKING_WEIGHTS): RankingWeights {
  return { ...weights, lexical: weights.lexical + weights.meaning, meaning: 0, lexicalRank: weights.lexicalRank + weights.meaningRank, meaningRank: 0 };
}

/** The weighted mean of the features (0..1); monotone in each feature, 1 only for an exact text that scores 1 throughout. */
export function candidateScore(f: CandidateFeatures, weights: RankingWeights = RANKING_WEIGHTS): number {
  const total = weights.lexical + weights.meaning + weights.coverage + weights.exact + weights.lexicalRank + weights.meaningRank;
  const s =
    (weights.lexical * f.lexical +
      weights.meaning * f.meaning +
      weights.coverage * f.coverage +
      weights.exact * f.exact +
      weights.lexicalRank * f.lexicalRank +
      weights.meaningRank * f.meaningRank) /
    total;
  return Number.isFinite(s) ? Math.min(1, Math.max(0, s)) : 0;
}

/** Best first; equal scores by concept id ascending, so a ranking never depends on the order candidates were found in. */
export function compareScored(a: { score: number; conceptId: number }, b: { score: number; conceptId: number }): number {
  return b.score - a.score || a.conceptId - b.conceptId;
}

/**
 * Display resolution (POST /v1/fhir/resolve, a display alone): share of the domain preference (1 for the resource
 * type's most expected domain, 1 − i/n for the i-th of n) in the resolution score; the rest is the model's score.
 * The tuning halves chose 0: the expected domains already filter the candidates, and preferring the first of them
 * did not put the target first more often.
 */
export const DISPLAY_DOMAIN_WEIGHT = 0;
/**
 * Least resolution score of a display match; below it the display resolves to nothing. Chosen on the tuning halves
 * as the highest threshold (by 0.01) that still resolves 95 % of the displays whose first match is right; text
 * unrelated to any concept ("xylophone orchestra rehearsal") scores below it.
 */
export const DISPLAY_MATCH_THRESHOLD = 0.36;

/** The resolution score of a display match: the model's score blended with the domain preference. */
export function displayScore(modelScore: number, domainPreference: number): number {
  return (1 - DISPLAY_DOMAIN_WEIGHT) * modelScore + DISPLAY_DOMAIN_WEIGHT * domainPreference;
}

const LETTERS_AND_DIGITS = /\d+|\D+/g;

/** Distinct content words, a token mixing digits and letters split between them ("200mg" → 200, mg). */
export function coverageWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const token of contentTokens(tokenize(text))) {
    if (/^(?:\d+|\D+)$/.test(token)) out.add(token);
    else for (const part of token.match(LETTERS_AND_DIGITS)!) out.add(part);
  }
  return out;
}

/** The coverage feature: share of the query's words found in the text's (0 for a query without content words). */
export function wordCoverage(queryWords: ReadonlySet<string>, textWords: ReadonlySet<string>): number {
  if (queryWords.size === 0) return 0;
  let found = 0;
  for (const w of queryWords) if (textWords.has(w)) found++;
  return found / queryWords.size;
}
