/**
 * Checks every percentage (0–100) and every fraction (0–1) in a mapping quality or coverage
 * response, wherever it appears (null stands for "not supported by the data" and is allowed).
 */
import { expect } from 'vitest';

const PERCENTAGE = /(^|_)percentage$|^overall_coverage$|^percentage_of_/;
const FRACTION =
  /^(overall_average_confidence|overall_outgoing_quality|average_confidence|median_confidence|confidence_score|name_similarity|average_similarity|validation_rate|quality_improvement_rate|confidence_std_dev|range_start|range_end|p\d+)$/;

/** Walks `value` and returns how many bounded figures it checked. */
export function expectBoundedFigures(value: unknown, path = 'data'): number {
  let checked = 0;
  if (Array.isArray(value)) {
    value.forEach((v, i) => (checked += expectBoundedFigures(v, `${path}[${i}]`)));
    return checked;
  }
  if (value === null || typeof value !== 'object') return 0;
  for (const [key, v] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (typeof v === 'number' && PERCENTAGE.test(key)) {
      expect(v, at).toBeGreaterThanOrEqual(0);
      expect(v, at).toBeLessThanOrEqual(100);
      checked++;
    } else if (typeof v === 'number' && FRACTION.test(key)) {
      expect(v, at).toBeGreaterThanOrEqual(0);
      expect(v, at).toBeLessThanOrEqual(1);
      checked++;
    } else if (key === 'similarity_confidence_correlation' && typeof v === 'number') {
      expect(Math.abs(v), at).toBeLessThanOrEqual(1);
      checked++;
    } else {
      checked += expectBoundedFigures(v, at);
    }
  }
  return checked;
}
