/**
 * What each method made of each query: the rank of the right concept and the concept it put first.
 * Kept per query so that any subset (identical names, ambiguous queries, …) can be summarised and
 * its misses explained afterwards.
 */
import type { ResourceType } from '../../src/services/fhir-resolver/resolution.js';
import { rankOf, summariseRanks, type RankSummary } from './metrics.js';
import type { RankingMethod } from './ranking-methods.js';

export interface EvalQuery {
  text: string;
  targets: ReadonlySet<number>;
  /** The FHIR resource type a client would resolve the text for (read by the resolver column only). */
  resourceType?: ResourceType;
}

export interface QueryOutcome {
  /** 1-based rank of the first target among distinct concepts, or null. */
  rank: number | null;
  /** The concept ranked first, or null when nothing was ranked. */
  first: number | null;
}

/** Outcomes per method name, one per query in query order. */
export type OutcomesByMethod = Map<string, QueryOutcome[]>;

/** Results asked of every method per query; MRR counts a target below this as not found. */
export const RANK_DEPTH = 50;

export async function runQueries(
  methods: readonly RankingMethod[],
  queries: readonly EvalQuery[],
  progress: (methodName: string, seconds: number) => void,
): Promise<OutcomesByMethod> {
  const out: OutcomesByMethod = new Map();
  for (const method of methods) {
    const started = Date.now();
    const outcomes: QueryOutcome[] = [];
    for (const q of queries) {
      const ranking = await method.rank(q.text, RANK_DEPTH, q.resourceType);
      outcomes.push({ rank: rankOf(ranking, q.targets), first: ranking[0] ?? null });
    }
    out.set(method.name, outcomes);
    progress(method.name, (Date.now() - started) / 1000);
  }
  return out;
}

/** The outcomes of the queries whose index passes `keep`, summarised per method. */
export function summariseSubset(outcomes: OutcomesByMethod, keep: (index: number) => boolean): { queries: number; byMethod: Map<string, RankSummary> } {
  const byMethod = new Map<string, RankSummary>();
  let queries = 0;
  for (const [name, all] of outcomes) {
    const ranks = all.filter((_, i) => keep(i)).map((o) => o.rank);
    queries = ranks.length;
    byMethod.set(name, summariseRanks(ranks));
  }
  return { queries, byMethod };
}

/** Several query sets' outcomes as one (same methods in each). */
export function concatOutcomes(parts: readonly OutcomesByMethod[]): OutcomesByMethod {
  const out: OutcomesByMethod = new Map();
  for (const part of parts) for (const [name, list] of part) out.set(name, [...(out.get(name) ?? []), ...list]);
  return out;
}
