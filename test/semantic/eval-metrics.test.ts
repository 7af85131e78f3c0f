/** The evaluation's metric functions (eval/semantic/): recall@k and MRR on hand-made rankings, subsets, the issue's target checks. */
import { describe, expect, it } from 'vitest';
import { meanReciprocalRank, rankOf, recallAtK, summariseRanks } from '../../eval/semantic/metrics.js';
import { concatOutcomes, summariseSubset } from '../../eval/semantic/query-outcomes.js';
import { formatTargetChecks, issueTargetChecks } from '../../eval/semantic/results-table.js';

describe('rankOf', () => {
  it('is the 1-based position of the first target', () => {
    expect(rankOf([7, 3, 9], new Set([3]))).toBe(2);
    expect(rankOf([7, 3, 9], new Set([7]))).toBe(1);
  });

  it('counts distinct concepts: a concept listed again takes no second place', () => {
    // 7 appears twice (name and synonym): 9 is the third distinct concept, not the fourth entry
    expect(rankOf([7, 7, 3, 9], new Set([9]))).toBe(3);
  });

  it('takes the best-placed of several targets', () => {
    expect(rankOf([5, 4, 3, 2], new Set([2, 4]))).toBe(2);
  });

  it('is null when no target is ranked', () => {
    expect(rankOf([1, 2, 3], new Set([4]))).toBeNull();
    expect(rankOf([], new Set([4]))).toBeNull();
  });
});

describe('recallAtK and MRR', () => {
  const ranks = [1, 3, null, 12, 2];

  it('recall@k is the share of queries ranked within k', () => {
    expect(recallAtK(ranks, 1)).toBeCloseTo(1 / 5);
    expect(recallAtK(ranks, 3)).toBeCloseTo(3 / 5);
    expect(recallAtK(ranks, 10)).toBeCloseTo(3 / 5);
    expect(recallAtK(ranks, 12)).toBeCloseTo(4 / 5);
  });

  it('MRR averages 1/rank, a missing target counting 0', () => {
    expect(meanReciprocalRank(ranks)).toBeCloseTo((1 + 1 / 3 + 0 + 1 / 12 + 1 / 2) / 5);
  });

  it('no queries give 0, not NaN', () => {
    expect(recallAtK([], 10)).toBe(0);
    expect(meanReciprocalRank([])).toBe(0);
  });

  it('summariseRanks reports recall@1, recall@10 and MRR together', () => {
    expect(summariseRanks(ranks)).toEqual({
      queries: 5,
      recallAt1: recallAtK(ranks, 1),
      recallAt10: recallAtK(ranks, 10),
      mrr: meanReciprocalRank(ranks),
    });
  });
});

describe('subsets and the issue targets', () => {
  const outcomes = new Map([
    ['hybrid', [{ rank: 1, first: 10 }, { rank: 4, first: 7 }, { rank: null, first: 3 }, { rank: 2, first: 8 }]],
    ['TF-IDF', [{ rank: 2, first: 9 }, { rank: null, first: 7 }, { rank: null, first: 3 }, { rank: 1, first: 11 }]],
  ]);

  it('summariseSubset summarises only the selected queries, per method', () => {
    const even = summariseSubset(outcomes, (i) => i % 2 === 0);
    expect(even.queries).toBe(2);
    expect(even.byMethod.get('hybrid')).toEqual(summariseRanks([1, null]));
    expect(even.byMethod.get('TF-IDF')).toEqual(summariseRanks([2, null]));
  });

  it('concatOutcomes appends the queries of several sets method by method', () => {
    const both = concatOutcomes([outcomes, outcomes]);
    expect(both.get('hybrid')!.map((o) => o.rank)).toEqual([1, 4, null, 2, 1, 4, null, 2]);
  });

  it('the targets pass or miss by the shortfall (hold-out recall@10 ≥ 0.90; top-1 ≥ baseline + 0.10; top-10 ≥ 0.90)', () => {
    const results = [
      { subset: 'hold-out', queries: 4, byMethod: summariseSubset(outcomes, () => true).byMethod },
      { subset: 'differing', queries: 4, byMethod: summariseSubset(outcomes, () => true).byMethod },
    ];
    const checks = issueTargetChecks(results, { holdOut: 'hold-out', differing: 'differing' }, { hybrid: 'hybrid', baseline: 'TF-IDF' });
    // hybrid: recall@10 3/4, recall@1 1/4; TF-IDF recall@1 1/4
    expect(checks.map((c) => [c.actual, c.required])).toEqual([
      [0.75, 0.9],
      [0.25, 0.25 + 0.1],
      [0.75, 0.9],
    ]);
    const text = formatTargetChecks(checks);
    expect(text).toContain('0.750 (needs ≥ 0.900) → MISS by 0.150');
    expect(text).toContain('0.250 (needs ≥ 0.350 = TF-IDF 0.250 + 0.100) → MISS by 0.100');
    expect(formatTargetChecks([{ description: 'x', actual: 0.95, required: 0.9 }])).toBe('- x: 0.950 (needs ≥ 0.900) → PASS');
    expect(formatTargetChecks([{ description: 'x', actual: null, required: 0.9 }])).toBe('- x: not measured (method unavailable)');
  });
});
