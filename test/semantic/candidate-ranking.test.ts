/**
 * The candidate ranking model's contract (src/search-model/candidate-ranking.ts): a weighted mean of six 0..1
 * features, monotone in each, 1 only for an exact text, ties broken by concept id.
 */
import { describe, expect, it } from 'vitest';
import {
  candidateScore,
  compareScored,
  coverageWords,
  DISPLAY_DOMAIN_WEIGHT,
  DISPLAY_MATCH_THRESHOLD,
  displayScore,
  RANKING_WEIGHTS,
  weightsWithoutMeaning,
  wordCoverage,
  type CandidateFeatures,
} from '../../src/search-model/candidate-ranking.js';
import { SEMANTIC_DEFAULT_THRESHOLD } from '../../src/services/semantic/semantic-search.js';
import { meaningAloneReachesThreshold } from '../../eval/semantic/tuning.js';

const FEATURES: ReadonlyArray<keyof CandidateFeatures> = ['lexical', 'meaning', 'coverage', 'exact', 'lexicalRank', 'meaningRank'];

/** A small seeded generator (mulberry32), so the sampled feature vectors are the same on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the weights', () => {
  it('are non-negative, sum to 1, and give the exact feature a share (so only an exact text reaches 1)', () => {
    const values = FEATURES.map((f) => RANKING_WEIGHTS[f]);
    for (const v of values) expect(v).toBeGreaterThanOrEqual(0);
    expect(values.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    expect(RANKING_WEIGHTS.exact).toBeGreaterThan(0);
  });

  it('without vectors the meaning weights move to the lexical ones: the meaning features no longer count, the scale stays', () => {
    const w = weightsWithoutMeaning();
    expect(w.meaning).toBe(0);
    expect(w.meaningRank).toBe(0);
    expect(w.lexical).toBeCloseTo(RANKING_WEIGHTS.lexical + RANKING_WEIGHTS.meaning, 9);
    expect(w.lexicalRank).toBeCloseTo(RANKING_WEIGHTS.lexicalRank + RANKING_WEIGHTS.meaningRank, 9);
    const f = { lexical: 0.6, meaning: 0.9, coverage: 0.5, exact: 0, lexicalRank: 0.5, meaningRank: 0.25 };
    expect(candidateScore(f, w)).toBeCloseTo(candidateScore({ ...f, meaning: 0.1, meaningRank: 1 }, w), 9);
    expect(candidateScore({ lexical: 1, meaning: 0, coverage: 1, exact: 1, lexicalRank: 1, meaningRank: 1 }, w)).toBe(1);
  });
});

describe('a match by meaning alone', () => {
  it("reaches semantic search's default threshold (0.5) when the provider scores it 0.9 and it is the nearest by meaning, sharing no word", () => {
    const f: CandidateFeatures = { lexical: 0, meaning: 0.9, coverage: 0, exact: 0, lexicalRank: 1 / 50, meaningRank: 1 };
    expect(candidateScore(f)).toBeGreaterThanOrEqual(SEMANTIC_DEFAULT_THRESHOLD);
    expect(meaningAloneReachesThreshold(RANKING_WEIGHTS)).toBe(true);
    // the weights the tuning halves chose without that constraint (docs/semantic-search.md) would not
    const lexicalHeavy = { lexical: 0.5, meaning: 0.25, coverage: 0, exact: 0.1, lexicalRank: 0, meaningRank: 0.15 };
    expect(meaningAloneReachesThreshold(lexicalHeavy)).toBe(false);
    expect(candidateScore({ ...f, lexicalRank: 0 }, lexicalHeavy)).toBeLessThan(SEMANTIC_DEFAULT_THRESHOLD);
  });
});

describe('the score', () => {
  it('is 1 for an exact text, and an exact name beats a near miss that is as good on every other feature', () => {
    expect(candidateScore({ lexical: 1, meaning: 1, coverage: 1, exact: 1, lexicalRank: 1, meaningRank: 1 })).toBe(1);
    const nearMiss = { lexical: 0.97, meaning: 0.99, coverage: 1, exact: 0, lexicalRank: 1, meaningRank: 1 };
    expect(candidateScore(nearMiss)).toBeLessThan(1);
    expect(candidateScore({ ...nearMiss, exact: 1 })).toBeGreaterThan(candidateScore(nearMiss));
  });

  it('is 0 for a text sharing nothing with the query, and stays within 0..1', () => {
    expect(candidateScore({ lexical: 0, meaning: 0, coverage: 0, exact: 0, lexicalRank: 0, meaningRank: 0 })).toBe(0);
    const next = random(7);
    for (let i = 0; i < 500; i++) {
      const s = candidateScore({ lexical: next(), meaning: next(), coverage: next(), exact: next() < 0.5 ? 0 : 1, lexicalRank: 1 / (1 + Math.floor(next() * 50)), meaningRank: 1 / (1 + Math.floor(next() * 50)) });
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
  });

  it('is monotone in each feature: raising one never lowers the score, and raises it when the feature has weight', () => {
    const next = random(24);
    for (let i = 0; i < 300; i++) {
      const f: CandidateFeatures = { lexical: next(), meaning: next(), coverage: next(), exact: next() < 0.5 ? 0 : 1, lexicalRank: 1 / (2 + Math.floor(next() * 50)), meaningRank: 1 / (2 + Math.floor(next() * 50)) };
      for (const name of FEATURES) {
        const raised = { ...f, [name]: name === 'exact' ? 1 : name === 'lexicalRank' || name === 'meaningRank' ? 1 : Math.min(1, f[name] + 0.1) };
        if (raised[name] === f[name]) continue;
        const before = candidateScore(f);
        const after = candidateScore(raised);
        if (RANKING_WEIGHTS[name] > 0) expect(after, `${name}`).toBeGreaterThan(before);
        else expect(after).toBe(before);
      }
    }
  });

  it('orders best first, equal scores by concept id ascending whatever order they come in', () => {
    const items = [
      { score: 0.5, conceptId: 30 },
      { score: 0.9, conceptId: 40 },
      { score: 0.5, conceptId: 10 },
      { score: 0.5, conceptId: 20 },
    ];
    for (const order of [items, [...items].reverse()]) {
      expect([...order].sort(compareScored).map((x) => x.conceptId)).toEqual([40, 10, 20, 30]);
    }
  });
});

describe('word coverage', () => {
  it("is the share of the query's distinct content words found in the text, a number glued to its unit split off", () => {
    expect(wordCoverage(coverageWords('atenolol 50mg tablet'), coverageWords('atenolol 50 MG Oral Tablet'))).toBe(1);
    expect(wordCoverage(coverageWords('fracture of the collar bone'), coverageWords('Fracture of clavicle'))).toBe(1 / 3);
    expect(wordCoverage(coverageWords('heart attack'), coverageWords('Myocardial infarction'))).toBe(0);
    // stop words do not count; a query of stop words alone has nothing to cover
    expect(coverageWords('the of and')).toEqual(new Set());
    expect(wordCoverage(coverageWords('the of and'), coverageWords('the'))).toBe(0);
  });
});

describe('display resolution score', () => {
  it('blends the model score with the domain preference, within 0..1, the threshold inside the range', () => {
    expect(displayScore(1, 1)).toBeCloseTo(1, 9);
    expect(displayScore(0, 0)).toBe(0);
    expect(displayScore(0.8, 1) - displayScore(0.8, 0)).toBeCloseTo(DISPLAY_DOMAIN_WEIGHT, 9);
    expect(displayScore(0.9, 0.5)).toBeGreaterThan(displayScore(0.8, 0.5));
    expect(DISPLAY_MATCH_THRESHOLD).toBeGreaterThan(0);
    expect(DISPLAY_MATCH_THRESHOLD).toBeLessThan(1);
  });
});
