/**
 * The mapping confidence model (E10): a deterministic weighted sum of five scores in [0, 1] (name similarity,
 * relationship kind, fan-out, target status, hierarchy agreement) per valid 'Maps to' / 'Maps to value' row, and
 * its bands.
 */
import { contentTokens } from '../search-model/stop-words.js';
import { tokenize } from '../search-model/text-normalization.js';
import type { MappingSignals, QualityBand, WeakSignal } from '../store/mapping-quality-records.js';

export const CONFIDENCE_WEIGHTS = {
  name_similarity: 0.3,
  relationship_kind: 0.15,
  fan_out: 0.2,
  target_status: 0.2,
  domain_agreement: 0.15,
} as const;

/** Relationship kinds analysed, with their relationship-kind score. */
export const RELATIONSHIP_KIND_SCORES: Readonly<Record<string, number>> = { 'Maps to': 1, 'Maps to value': 0.5 };
export const MAPPING_RELATIONSHIP_IDS = Object.keys(RELATIONSHIP_KIND_SCORES);

export const TARGET_STATUS_SCORES = { valid_standard: 1, valid_non_standard: 0.5, invalid: 0 } as const;

/** Confidences are rounded to this many decimals, so that band boundaries are exact. */
export const CONFIDENCE_DECIMALS = 4;
/** Confidences × this are integers (the keys of a confidence distribution). */
export const CONFIDENCE_SCALE = 10 ** CONFIDENCE_DECIMALS;

export const BAND_THRESHOLDS = { excellent: 0.9, good: 0.7, moderate: 0.5 } as const;
export const HIGH_QUALITY_THRESHOLD = 0.8;

export const CONFIDENCE_CALCULATION_METHOD =
  'omopterm heuristic v1 (Athena publishes no mapping confidence). Per valid mapping row: ' +
  `${CONFIDENCE_WEIGHTS.name_similarity} × name similarity (token Dice coefficient of source and target content words; 1 for a self-map) + ` +
  `${CONFIDENCE_WEIGHTS.relationship_kind} × relationship kind ('Maps to' 1, 'Maps to value' 0.5) + ` +
  `${CONFIDENCE_WEIGHTS.fan_out} × fan-out (1 / number of mapping rows of the source concept) + ` +
  `${CONFIDENCE_WEIGHTS.target_status} × target status (valid standard 1, valid non-standard 0.5, invalid 0) + ` +
  `${CONFIDENCE_WEIGHTS.domain_agreement} × hierarchy agreement (1 when source and target share the domain), ` +
  `rounded to ${CONFIDENCE_DECIMALS} decimals. CONCEPT_RELATIONSHIP_METADATA is not loaded, so no mapping has curated quality data. ` +
  'Bands: excellent ≥ 0.9, good 0.7 to < 0.9, moderate 0.5 to < 0.7, poor < 0.5; high quality means above 0.8.';

/** The content words of a concept name, as compared by the name-similarity signal. */
export function nameWords(name: string): Set<string> {
  return new Set(contentTokens(tokenize(name)));
}

/** Token Dice coefficient of two word sets, in [0, 1]; 0 when either is empty. */
export function diceSimilarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const word of small) if (large.has(word)) shared++;
  return (2 * shared) / (a.size + b.size);
}

export function targetStatusScore(standard: string | null, invalidReason: string | null): number {
  if (invalidReason) return TARGET_STATUS_SCORES.invalid;
  return standard === 'S' ? TARGET_STATUS_SCORES.valid_standard : TARGET_STATUS_SCORES.valid_non_standard;
}

/** Rounds to CONFIDENCE_DECIMALS decimals (the form every confidence is compared and reported in). */
export function roundConfidence(value: number): number {
  return Math.round(value * CONFIDENCE_SCALE) / CONFIDENCE_SCALE;
}

export function mappingConfidence(s: MappingSignals): number {
  const w = CONFIDENCE_WEIGHTS;
  const raw =
    w.name_similarity * s.similarity +
    w.relationship_kind * (RELATIONSHIP_KIND_SCORES[s.relationship_id] ?? 0) +
    w.fan_out * (1 / Math.max(1, s.fan_out)) +
    w.target_status * targetStatusScore(s.target_standard, s.target_invalid) +
    w.domain_agreement * (s.same_domain ? 1 : 0);
  return roundConfidence(raw);
}

/** The spec's confidence band of a (rounded) confidence. */
export function qualityBand(confidence: number): QualityBand {
  if (confidence >= BAND_THRESHOLDS.excellent) return 'excellent';
  if (confidence >= BAND_THRESHOLDS.good) return 'good';
  if (confidence >= BAND_THRESHOLDS.moderate) return 'moderate';
  return 'poor';
}

/** Below this name similarity, a mapping's names are said to share few words. */
export const LOW_SIMILARITY = 0.3;

export const WEAK_SIGNAL_DESCRIPTIONS: Readonly<Record<WeakSignal, string>> = {
  low_name_similarity: `source and target names share few words (name similarity below ${LOW_SIMILARITY})`,
  partial_relationship: "relationship is 'Maps to value', the value half of a split composite",
  one_to_many: 'source concept maps to more than one target (one-to-many)',
  invalid_target: 'target concept is invalid',
  non_standard_target: 'target concept is not standard',
  domain_mismatch: 'source and target are in different domains',
};

/** The signals of a mapping that fell short of their best score. */
export function weakSignals(s: MappingSignals): WeakSignal[] {
  const out: WeakSignal[] = [];
  if (s.similarity < LOW_SIMILARITY) out.push('low_name_similarity');
  if (s.relationship_id !== 'Maps to') out.push('partial_relationship');
  if (s.fan_out > 1) out.push('one_to_many');
  if (s.target_invalid) out.push('invalid_target');
  else if (s.target_standard !== 'S') out.push('non_standard_target');
  if (!s.same_domain) out.push('domain_mismatch');
  return out;
}
