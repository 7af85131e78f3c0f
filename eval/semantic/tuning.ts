/**
 * Chooses the shared ranking's weights and the display resolver's domain weight and threshold on the tuning halves:
 * each tuning query's candidates and their features are gathered once (as semantic search gathers them), then every
 * grid point re-ranks them without touching the release again.
 */
import { expectedDomains } from '../../src/services/fhir-resolver/cdm-target.js';
import { displayCandidates, domainPreference, type DisplayResolutionContext } from '../../src/services/fhir-resolver/display-resolution.js';
import type { ResourceType } from '../../src/services/fhir-resolver/resolution.js';
import { ServiceError } from '../../src/services/errors.js';
import { gatherCandidates, weightsFor, type RankingContext } from '../../src/services/semantic/ranked-candidates.js';
import { semanticQuery } from '../../src/services/semantic/semantic-query.js';
import { SEMANTIC_DEFAULT_THRESHOLD } from '../../src/services/semantic/semantic-search.js';
import { type RankingWeights } from '../../src/search-model/candidate-ranking.js';
import { summariseRanks, type RankSummary } from './metrics.js';
import { RANK_DEPTH, type EvalQuery } from './query-outcomes.js';

/** One query's candidates: FEATURE_COUNT features per text (lexical, meaning, coverage, exact, lexical rank, meaning rank), the candidate owning each text. */
const FEATURE_COUNT = 6;

export interface TuningQuery {
  features: Float64Array;
  owner: Int32Array;
  conceptIds: Int32Array;
  isTarget: Uint8Array;
  withMeaning: boolean;
}

const EMPTY: TuningQuery = { features: new Float64Array(0), owner: new Int32Array(0), conceptIds: new Int32Array(0), isTarget: new Uint8Array(0), withMeaning: true };

/** What semantic search would gather for the query (its text enhanced as semantic search does; a refused text: nothing). */
export async function gatherTuningQuery(ctx: RankingContext, query: EvalQuery): Promise<TuningQuery> {
  let text: string;
  try {
    text = semanticQuery(query.text).searchText;
  } catch (err) {
    if (err instanceof ServiceError) return EMPTY;
    throw err;
  }
  const gathered = await gatherCandidates(ctx, { text, filters: {}, k: RANK_DEPTH + 1 });
  const n = gathered.candidates.reduce((sum, c) => sum + c.texts.length, 0);
  const out: TuningQuery = {
    features: new Float64Array(n * FEATURE_COUNT),
    owner: new Int32Array(n),
    conceptIds: new Int32Array(gathered.candidates.length),
    isTarget: new Uint8Array(gathered.candidates.length),
    withMeaning: gathered.withMeaning,
  };
  let at = 0;
  gathered.candidates.forEach((c, i) => {
    out.conceptIds[i] = c.concept.concept_id;
    out.isTarget[i] = query.targets.has(c.concept.concept_id) ? 1 : 0;
    for (const t of c.texts) {
      out.features.set(
        [t.features.lexical, t.features.meaning, t.features.coverage, t.features.exact, t.features.lexicalRank, t.features.meaningRank],
        at * FEATURE_COUNT,
      );
      out.owner[at++] = i;
    }
  });
  return out;
}

/** 1-based rank of the best-placed target under the weights (scores at 4 decimals, ties by concept id), null beyond RANK_DEPTH. */
export function rankUnder(q: TuningQuery, weights: RankingWeights): number | null {
  return outcomeUnder(q, weights, false).rank;
}

/** The rank of the target and the concept ranked first under the weights (what semantic search would answer). */
export function outcomeUnder(q: TuningQuery, weights: RankingWeights, withFirst = true): { rank: number | null; first: number | null } {
  const w = weightsFor({ candidates: [], withMeaning: q.withMeaning }, weights);
  const total = w.lexical + w.meaning + w.coverage + w.exact + w.lexicalRank + w.meaningRank;
  const best = new Float64Array(q.conceptIds.length).fill(-1);
  const f = q.features;
  for (let t = 0; t < q.owner.length; t++) {
    const o = t * FEATURE_COUNT;
    const s = Math.round(
      ((w.lexical * f[o]! + w.meaning * f[o + 1]! + w.coverage * f[o + 2]! + w.exact * f[o + 3]! + w.lexicalRank * f[o + 4]! + w.meaningRank * f[o + 5]!) / total) * 1e4,
    );
    const c = q.owner[t]!;
    if (s > best[c]!) best[c] = s;
  }
  let rank: number | null = null;
  let first: number | null = null;
  if (withFirst) {
    let at = -1;
    for (let c = 0; c < best.length; c++) if (at < 0 || best[c]! > best[at]! || (best[c] === best[at] && q.conceptIds[c]! < q.conceptIds[at]!)) at = c;
    first = at < 0 ? null : q.conceptIds[at]!;
  }
  for (let c = 0; c < best.length; c++) {
    if (!q.isTarget[c]) continue;
    let ahead = 0;
    for (let o = 0; o < best.length; o++) if (best[o]! > best[c]! || (best[o] === best[c] && q.conceptIds[o]! < q.conceptIds[c]!)) ahead++;
    if (rank === null || ahead + 1 < rank) rank = ahead + 1;
  }
  return { rank: rank !== null && rank <= RANK_DEPTH ? rank : null, first };
}

/** Share of queries whose target is among the candidates at all (what no weighting can exceed). */
export function candidateRecall(queries: readonly TuningQuery[]): number {
  return queries.length ? queries.filter((q) => q.isTarget.some((x) => x === 1)).length / queries.length : 0;
}

export interface TuningSet {
  name: string;
  /** Indices into the tuning queries. */
  members: number[];
  /** The lexical baseline on this set's tuning half. */
  baseline: RankSummary;
  /** Counts in the objective (aggregates and identical-name sets only constrain). */
  primary: boolean;
}

export interface WeightChoice {
  weights: RankingWeights;
  /** Every set's constraint (≥ baseline top-1 and top-10 on the tuning half) held. */
  feasible: boolean;
  objective: number;
  bySet: Map<string, RankSummary>;
  gridPoints: number;
}

/** Grid step of the weights (each a multiple, summing to 1). */
export const WEIGHT_STEP = 0.05;
/**
 * The exact weight is not searched: an exact text already scores 1 on every other feature, so it only sets the
 * scale — an exact text reaches 1, every other text at most 1 − EXACT_WEIGHT — which clients' thresholds read.
 */
export const FIXED_EXACT_WEIGHT = 0.1;

/**
 * A text sharing no word with the query that the provider scores this similar (a local model's cosine for "heart
 * attack" and "Myocardial infarction" is above it) must reach semantic search's default threshold when it is the
 * query's nearest by meaning: the grid keeps only weights with meaning × MEANING_ONLY_SIMILARITY + meaningRank ≥
 * SEMANTIC_DEFAULT_THRESHOLD. Without it the tuning halves of the built-in provider (whose meaning part is mostly
 * words) chose lexical 0.5, meaning 0.25, meaning rank 0.15, under which such a match scores 0.375 and semantic search
 * answers nothing for it by default.
 */
export const MEANING_ONLY_SIMILARITY = 0.9;

/** True when a match by meaning alone (MEANING_ONLY_SIMILARITY, nearest by meaning, no shared word) reaches the default threshold. */
export function meaningAloneReachesThreshold(w: RankingWeights): boolean {
  return w.meaning * MEANING_ONLY_SIMILARITY + w.meaningRank >= SEMANTIC_DEFAULT_THRESHOLD - 1e-9;
}

export function chooseWeights(queries: readonly TuningQuery[], sets: readonly TuningSet[]): WeightChoice {
  const steps = Math.round((1 - FIXED_EXACT_WEIGHT) / WEIGHT_STEP);
  const at = (i: number) => Number((i * WEIGHT_STEP).toFixed(2));
  let best: (WeightChoice & { shortfall: number }) | null = null;
  let gridPoints = 0;
  for (let l = 0; l <= steps; l++) {
    for (let m = 0; l + m <= steps; m++) {
      for (let r = 0; l + m + r <= steps; r++) {
        for (let mr = 0; l + m + r + mr <= steps; mr++) {
          const weights = { lexical: at(l), meaning: at(m), coverage: at(steps - l - m - r - mr), exact: FIXED_EXACT_WEIGHT, lexicalRank: at(r), meaningRank: at(mr) };
          if (!meaningAloneReachesThreshold(weights)) continue;
          gridPoints++;
          const evaluated = evaluateWeights(queries, sets, weights);
          const better =
            !best ||
            evaluated.shortfall < best.shortfall - 1e-12 ||
            (Math.abs(evaluated.shortfall - best.shortfall) <= 1e-12 && evaluated.objective > best.objective + 1e-12);
          if (better) best = { ...evaluated, weights, gridPoints: 0 };
        }
      }
    }
  }
  return { ...best!, gridPoints };
}

/** Summaries per set, the objective (mean of top-1, top-10 and MRR over the primary sets) and the total shortfall against the baselines. */
export function evaluateWeights(queries: readonly TuningQuery[], sets: readonly TuningSet[], weights: RankingWeights) {
  const ranks = queries.map((q) => rankUnder(q, weights));
  const bySet = new Map<string, RankSummary>();
  let shortfall = 0;
  let objective = 0;
  let primary = 0;
  for (const set of sets) {
    const s = summariseRanks(set.members.map((i) => ranks[i]!));
    bySet.set(set.name, s);
    shortfall += Math.max(0, set.baseline.recallAt1 - s.recallAt1) + Math.max(0, set.baseline.recallAt10 - s.recallAt10);
    if (set.primary) {
      objective += (s.recallAt1 + s.recallAt10 + s.mrr) / 3;
      primary++;
    }
  }
  return { bySet, shortfall, feasible: shortfall <= 1e-12, objective: primary ? objective / primary : 0 };
}

/** One tuning display: its candidates' ranking scores and domain preferences. */
export interface DisplayTuningQuery {
  candidates: Array<{ conceptId: number; rankingScore: number; preference: number; isTarget: boolean }>;
}

export async function gatherDisplayQuery(ctx: DisplayResolutionContext, query: EvalQuery & { resourceType?: ResourceType }): Promise<DisplayTuningQuery> {
  const domains = query.resourceType ? expectedDomains(query.resourceType) : undefined;
  try {
    const matches = await displayCandidates(ctx, query.text, { domainIds: domains, limit: RANK_DEPTH });
    return {
      candidates: matches.map((m) => ({
        conceptId: m.concept.concept_id,
        rankingScore: m.ranking_score,
        preference: domainPreference(m.concept.domain_id, domains?.length ? domains : undefined),
        isTarget: query.targets.has(m.concept.concept_id),
      })),
    };
  } catch (err) {
    if (err instanceof ServiceError) return { candidates: [] };
    throw err;
  }
}

export interface DisplayChoice {
  domainWeight: number;
  threshold: number;
  /** Top-1 without threshold, and share of right decisions (resolve when the first is right, abstain when wrong) at the threshold. */
  top1: number;
  decisionsRight: number;
}

/** Share of the right first matches the display threshold must keep resolving (the rest may fall below it). */
export const DISPLAY_KEEP_RIGHT = 0.95;

/** The domain weight that most often puts the target first, then the highest threshold that keeps DISPLAY_KEEP_RIGHT of the right first matches. */
export function chooseDisplay(queries: readonly DisplayTuningQuery[]): DisplayChoice {
  const firstOf = (q: DisplayTuningQuery, d: number) => {
    let first: { score: number; conceptId: number; isTarget: boolean } | null = null;
    for (const c of q.candidates) {
      const score = Math.round(((1 - d) * c.rankingScore + d * c.preference) * 1e4) / 1e4;
      if (!first || score > first.score || (score === first.score && c.conceptId < first.conceptId)) first = { score, conceptId: c.conceptId, isTarget: c.isTarget };
    }
    return first;
  };
  let domainWeight = 0;
  let top1 = -1;
  for (let i = 0; i <= 6; i++) {
    const d = Number((i * 0.05).toFixed(2));
    const hits = queries.filter((q) => firstOf(q, d)?.isTarget).length / Math.max(1, queries.length);
    if (hits > top1 + 1e-12) [domainWeight, top1] = [d, hits];
  }
  const firsts = queries.map((q) => firstOf(q, domainWeight));
  // the highest threshold (by 0.01) that still resolves DISPLAY_KEEP_RIGHT of the displays whose first match is right
  const right = firsts.filter((f) => f?.isTarget).map((f) => f!.score).sort((a, b) => a - b);
  const cut = right.length ? right[Math.floor((1 - DISPLAY_KEEP_RIGHT) * right.length)]! : 0;
  const threshold = Math.floor(cut * 100 + 1e-9) / 100;
  const decisionsRight = firsts.filter((f) => (f !== null && f.score >= threshold ? f.isTarget : !f?.isTarget)).length / Math.max(1, firsts.length);
  return { domainWeight, threshold, top1, decisionsRight };
}
