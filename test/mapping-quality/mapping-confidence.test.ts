/** Module contract of the confidence model and its bands (spec "Confidence bands", E10). */
import { describe, expect, it } from 'vitest';
import {
  CONFIDENCE_WEIGHTS,
  diceSimilarity,
  mappingConfidence,
  nameWords,
  qualityBand,
} from '../../src/mapping-model/mapping-confidence.js';
import type { MappingSignals } from '../../src/store/mapping-quality-records.js';
import { summariseDistribution } from '../../src/services/mapping-quality/confidence-distribution.js';

const perfect: MappingSignals = {
  similarity: 1,
  relationship_id: 'Maps to',
  fan_out: 1,
  target_standard: 'S',
  target_invalid: null,
  same_domain: true,
};

describe('qualityBand (spec: excellent ≥ 0.9, good 0.7 to < 0.9, moderate 0.5 to < 0.7, poor < 0.5)', () => {
  it.each([
    [1, 'excellent'],
    [0.9, 'excellent'],
    [0.8999, 'good'],
    [0.7, 'good'],
    [0.6999, 'moderate'],
    [0.5, 'moderate'],
    [0.4999, 'poor'],
    [0, 'poor'],
  ])('%s is %s', (confidence, band) => {
    expect(qualityBand(confidence)).toBe(band);
  });
});

describe('name similarity', () => {
  it('is the Dice coefficient of the content words, accents, case, punctuation and stop words ignored', () => {
    expect(diceSimilarity(nameWords('Type 2 diabetes mellitus'), nameWords('type-2 Diabetes, mellitus'))).toBe(1);
    // {fracture, femur} vs {femur, fracture, closed}: 2·2 / (2 + 3)
    expect(diceSimilarity(nameWords('Fracture of femur'), nameWords('Closed fracture of the femur'))).toBe(0.8);
    expect(diceSimilarity(nameWords('Sjögren syndrome'), nameWords('sjogren SYNDROME'))).toBe(1);
    expect(diceSimilarity(nameWords('of the'), nameWords('of the'))).toBe(0);
    expect(diceSimilarity(nameWords('alpha'), nameWords('beta'))).toBe(0);
  });
});

describe('mappingConfidence', () => {
  it('is 1 when every signal is at its best and the weights sum to 1', () => {
    expect(Object.values(CONFIDENCE_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(mappingConfidence(perfect)).toBe(1);
  });

  it('lands exactly on the band boundaries 0.9, 0.7 and 0.5 (rounded to 4 decimals)', () => {
    // 0.3 × 2/3 + 0.15 + 0.2 + 0.2 + 0.15
    const ninety = mappingConfidence({ ...perfect, similarity: 2 / 3 });
    expect(ninety).toBe(0.9);
    expect(qualityBand(ninety)).toBe('excellent');
    // 0 + 0.15 + 0.2 + 0.2 + 0.15
    const seventy = mappingConfidence({ ...perfect, similarity: 0 });
    expect(seventy).toBe(0.7);
    expect(qualityBand(seventy)).toBe('good');
    // 0 + 0.15 + 0.2/2 + 0.2×0.5 + 0.15
    const fifty = mappingConfidence({ ...perfect, similarity: 0, fan_out: 2, target_standard: null });
    expect(fifty).toBe(0.5);
    expect(qualityBand(fifty)).toBe('moderate');
    // 0 + 0.15 + 0.2 + 0.1 + 0
    const below = mappingConfidence({ ...perfect, similarity: 0, target_standard: 'C', same_domain: false });
    expect(below).toBe(0.45);
    expect(qualityBand(below)).toBe('poor');
  });

  it('scores each weak signal lower, and is always within 0–1', () => {
    const weaker: Array<Partial<MappingSignals>> = [
      { similarity: 0.5 },
      { relationship_id: 'Maps to value' },
      { fan_out: 3 },
      { target_standard: null },
      { target_invalid: 'D' },
      { same_domain: false },
    ];
    for (const w of weaker) {
      const c = mappingConfidence({ ...perfect, ...w });
      expect(c).toBeLessThan(1);
      expect(c).toBeGreaterThanOrEqual(0);
    }
    const worst = mappingConfidence({ similarity: 0, relationship_id: 'Maps to value', fan_out: 1000, target_standard: null, target_invalid: 'D', same_domain: false });
    expect(worst).toBeGreaterThanOrEqual(0);
    expect(worst).toBeLessThan(0.1);
  });
});

describe('summariseDistribution', () => {
  it('computes exact mean, median, percentiles and histogram from value counts', () => {
    // values 0.5 ×2, 0.7 ×1, 0.9 ×1 (keys are value × 10^4)
    const s = summariseDistribution([
      [5000, 2],
      [7000, 1],
      [9000, 1],
    ]);
    expect(s.total).toBe(4);
    expect(s.mean).toBe(0.65);
    expect(s.median).toBe(0.5); // nearest rank: 2nd of 4
    expect(s.percentiles!.p75).toBe(0.7);
    expect(s.percentiles!.p95).toBe(0.9);
    expect(s.histogram_bins.map((b) => b.count)).toEqual([0, 0, 0, 0, 0, 2, 0, 1, 0, 1]);
    expect(s.histogram_bins[9]).toEqual({ range_start: 0.9, range_end: 1, count: 1 });
    expect(s.std_dev).toBeCloseTo(Math.sqrt((0.15 ** 2 * 2 + 0.05 ** 2 + 0.25 ** 2) / 4), 4);
  });

  it('is empty without values', () => {
    const s = summariseDistribution([]);
    expect(s).toMatchObject({ total: 0, mean: null, median: null, skewness: null, kurtosis: null });
  });
});
