/**
 * Exact statistics of a confidence distribution given as sparse [value × 10^4, count] pairs (mean, deviation,
 * percentiles, histogram, skewness, kurtosis) and the shares and trend slopes the reports print; pure.
 */
import { CONFIDENCE_SCALE, roundConfidence } from '../../mapping-model/mapping-confidence.js';

const SCALE = CONFIDENCE_SCALE;

export const PERCENTILES = [5, 10, 25, 50, 75, 90, 95] as const;
export const HISTOGRAM_BIN_WIDTH = 0.1;

export interface HistogramBin {
  /** Inclusive lower bound. */
  range_start: number;
  /** Exclusive upper bound, except the last bin, which includes 1.0. */
  range_end: number;
  count: number;
}

export interface DistributionSummary {
  total: number;
  mean: number | null;
  median: number | null;
  std_dev: number | null;
  percentiles: Record<string, number> | null;
  histogram_bins: HistogramBin[];
  /** Null with fewer than two values or no spread. */
  skewness: number | null;
  kurtosis: number | null;
}

/** Rounds a derived statistic for output (4 decimals, like the confidences). */
const round = (x: number) => roundConfidence(x);

export function summariseDistribution(counts: ReadonlyArray<readonly [number, number]>): DistributionSummary {
  const binCount = Math.round(1 / HISTOGRAM_BIN_WIDTH);
  const histogram: HistogramBin[] = Array.from({ length: binCount }, (_, i) => ({
    range_start: round(i * HISTOGRAM_BIN_WIDTH),
    range_end: round((i + 1) * HISTOGRAM_BIN_WIDTH),
    count: 0,
  }));
  let total = 0;
  let sum = 0;
  for (const [key, count] of counts) {
    total += count;
    sum += (key / SCALE) * count;
    histogram[Math.min(binCount - 1, Math.floor((key * binCount) / SCALE))]!.count += count;
  }
  if (total === 0) {
    return { total, mean: null, median: null, std_dev: null, percentiles: null, histogram_bins: histogram, skewness: null, kurtosis: null };
  }
  const mean = sum / total;
  let m2 = 0;
  let m3 = 0;
  let m4 = 0;
  for (const [key, count] of counts) {
    const d = key / SCALE - mean;
    m2 += d * d * count;
    m3 += d * d * d * count;
    m4 += d * d * d * d * count;
  }
  m2 /= total;
  m3 /= total;
  m4 /= total;
  const spread = total > 1 && m2 > 1e-12;
  const percentiles: Record<string, number> = {};
  for (const p of PERCENTILES) percentiles[`p${p}`] = percentile(counts, total, p);
  return {
    total,
    mean: round(mean),
    median: percentiles.p50!,
    std_dev: round(Math.sqrt(m2)),
    percentiles,
    histogram_bins: histogram,
    skewness: spread ? round(m3 / m2 ** 1.5) : null,
    kurtosis: spread ? round(m4 / (m2 * m2) - 3) : null,
  };
}

/** Nearest-rank percentile: the smallest value with at least p % of the values at or below it. */
function percentile(counts: ReadonlyArray<readonly [number, number]>, total: number, p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [key, count] of counts) {
    seen += count;
    if (seen >= rank) return key / SCALE;
  }
  return counts[counts.length - 1]![0] / SCALE;
}

/** Share in percent (0–100), 2 decimals; null when there is nothing to share. */
export function percentage(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 100 : null;
}

/** Least-squares slope of y over x, weighted; null with fewer than two distinct x. */
export function weightedSlope(points: ReadonlyArray<{ x: number; y: number; weight: number }>): number | null {
  const distinct = new Set(points.map((p) => p.x));
  if (distinct.size < 2) return null;
  let w = 0;
  let sx = 0;
  let sy = 0;
  for (const p of points) {
    w += p.weight;
    sx += p.weight * p.x;
    sy += p.weight * p.y;
  }
  const mx = sx / w;
  const my = sy / w;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += p.weight * (p.x - mx) * (p.y - my);
    sxx += p.weight * (p.x - mx) * (p.x - mx);
  }
  return sxx === 0 ? null : sxy / sxx;
}
