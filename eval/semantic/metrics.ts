/**
 * Retrieval metrics over rankings of distinct concepts. A ranking is the list of concept ids a
 * method returned, best first; a concept listed again (a second matching synonym) does not take a
 * second place. A query is answered right when any of its target concepts is ranked.
 */

/** 1-based position of the first target among the distinct concepts of `ranking`, or null when absent. */
export function rankOf(ranking: readonly number[], targets: ReadonlySet<number>): number | null {
  const seen = new Set<number>();
  for (const id of ranking) {
    if (seen.has(id)) continue;
    seen.add(id);
    if (targets.has(id)) return seen.size;
  }
  return null;
}

/** Share of queries whose target is within the first k (0 for no queries). */
export function recallAtK(ranks: ReadonlyArray<number | null>, k: number): number {
  if (ranks.length === 0) return 0;
  return ranks.filter((r) => r !== null && r <= k).length / ranks.length;
}

/** Mean of 1/rank, a query without its target counting 0 (0 for no queries). */
export function meanReciprocalRank(ranks: ReadonlyArray<number | null>): number {
  if (ranks.length === 0) return 0;
  return ranks.reduce<number>((sum, r) => sum + (r === null ? 0 : 1 / r), 0) / ranks.length;
}

export interface RankSummary {
  queries: number;
  recallAt1: number;
  recallAt10: number;
  mrr: number;
}

export function summariseRanks(ranks: ReadonlyArray<number | null>): RankSummary {
  return { queries: ranks.length, recallAt1: recallAtK(ranks, 1), recallAt10: recallAtK(ranks, 10), mrr: meanReciprocalRank(ranks) };
}
