/**
 * Per vocabulary pair, everything the mapping quality report (E10) is made from, accumulated in one pass over the
 * mapping rows by the loader (src/importer/mapping-quality-summary.ts) and only formatted by requests; pure, no
 * SQL, no HTTP.
 */
import {
  CONFIDENCE_SCALE,
  HIGH_QUALITY_THRESHOLD,
  LOW_SIMILARITY,
  mappingConfidence,
  qualityBand,
  weakSignals,
} from './mapping-confidence.js';
import type {
  BandCounts,
  ConfidenceTally,
  MappingExample,
  MappingSignals,
  PairQualityAggregate,
  QualityBand,
  WeakSignal,
} from '../store/mapping-quality-records.js';

/** Lowest and highest rows kept per pair for the outlier section. */
export const OUTLIER_LIMIT = 20;
/** At or above this similarity a mapping's names are said to agree (high_similarity_low_confidence). */
export const HIGH_SIMILARITY = 0.8;

const SCALE = CONFIDENCE_SCALE;

/** One analysed mapping row. */
export interface MappingRowInput extends MappingSignals {
  source_concept_id: number;
  source_domain_id: string;
  target_concept_id: number;
  /** YYYYMMDD of the relationship row. */
  valid_start_date: number;
}

const emptyBands = (): BandCounts => ({ excellent: 0, good: 0, moderate: 0, poor: 0 });
const emptyTally = (): ConfidenceTally => ({ total: 0, confidence_sum: 0, bands: emptyBands() });

function addToTally(tally: ConfidenceTally, confidence: number, band: QualityBand): void {
  tally.total++;
  tally.confidence_sum += confidence;
  tally.bands[band]++;
}

/** Worse first: lower confidence, then lower source id, then lower target id. */
const ascending = (a: MappingExample, b: MappingExample) =>
  a.confidence - b.confidence || a.source_concept_id - b.source_concept_id || a.target_concept_id - b.target_concept_id;
const descending = (a: MappingExample, b: MappingExample) =>
  b.confidence - a.confidence || a.source_concept_id - b.source_concept_id || a.target_concept_id - b.target_concept_id;

/** Keeps the first `limit` items in `order` (stable for equal keys: an earlier row wins a tie). */
function keepBest(list: MappingExample[], item: MappingExample, order: (a: MappingExample, b: MappingExample) => number): void {
  if (list.length >= OUTLIER_LIMIT && order(item, list[list.length - 1]!) >= 0) return;
  let at = list.length;
  while (at > 0 && order(item, list[at - 1]!) < 0) at--;
  list.splice(at, 0, item);
  if (list.length > OUTLIER_LIMIT) list.pop();
}

/** The aggregate of a pair without any mapping row. */
export function emptyPairAggregate(sourceVocabularyId: string, targetVocabularyId: string): PairQualityAggregate {
  return {
    source_vocabulary_id: sourceVocabularyId,
    target_vocabulary_id: targetVocabularyId,
    total: 0,
    confidence_counts: [],
    confidence_sum: 0,
    confidence_square_sum: 0,
    similarity_sum: 0,
    similarity_square_sum: 0,
    similarity_confidence_product_sum: 0,
    identical_names: 0,
    self_maps: 0,
    low_similarity_high_confidence: 0,
    high_similarity_low_confidence: 0,
    by_relationship: {},
    one_to_one: 0,
    one_to_many: 0,
    target_status: { valid_standard: 0, valid_non_standard: 0, invalid: 0 },
    by_domain: {},
    by_year: {},
    by_domain_year: {},
    poor_band_signals: {},
    domain_mismatches: 0,
    lowest: [],
    highest: [],
    domain_mismatch_examples: [],
  };
}

export class PairQualityAccumulator {
  private readonly counts = new Map<number, number>();
  private readonly agg: PairQualityAggregate;

  constructor(sourceVocabularyId: string, targetVocabularyId: string) {
    this.agg = emptyPairAggregate(sourceVocabularyId, targetVocabularyId);
  }

  add(row: MappingRowInput): void {
    const a = this.agg;
    const confidence = mappingConfidence(row);
    const band = qualityBand(confidence);
    const key = Math.round(confidence * SCALE);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    a.total++;
    a.confidence_sum += confidence;
    a.confidence_square_sum += confidence * confidence;
    a.similarity_sum += row.similarity;
    a.similarity_square_sum += row.similarity * row.similarity;
    a.similarity_confidence_product_sum += row.similarity * confidence;
    if (row.similarity === 1) a.identical_names++;
    if (row.source_concept_id === row.target_concept_id) a.self_maps++;
    if (row.similarity < LOW_SIMILARITY && confidence > HIGH_QUALITY_THRESHOLD) a.low_similarity_high_confidence++;
    if (row.similarity >= HIGH_SIMILARITY && band === 'poor') a.high_similarity_low_confidence++;
    a.by_relationship[row.relationship_id] = (a.by_relationship[row.relationship_id] ?? 0) + 1;
    if (row.fan_out > 1) a.one_to_many++;
    else a.one_to_one++;
    if (row.target_invalid) a.target_status.invalid++;
    else if (row.target_standard === 'S') a.target_status.valid_standard++;
    else a.target_status.valid_non_standard++;
    addToTally((a.by_domain[row.source_domain_id] ??= emptyTally()), confidence, band);
    const year = String(Math.floor(row.valid_start_date / 10000));
    addToTally((a.by_year[year] ??= emptyTally()), confidence, band);
    const domainYear = ((a.by_domain_year[row.source_domain_id] ??= {})[year] ??= { total: 0, confidence_sum: 0 });
    domainYear.total++;
    domainYear.confidence_sum += confidence;

    const example = (): MappingExample => ({
      source_concept_id: row.source_concept_id,
      target_concept_id: row.target_concept_id,
      confidence,
      similarity: row.similarity,
      relationship_id: row.relationship_id,
      fan_out: row.fan_out,
      target_standard: row.target_standard,
      target_invalid: row.target_invalid,
      same_domain: row.same_domain,
    });
    if (band === 'poor') {
      for (const signal of weakSignals(row)) a.poor_band_signals[signal] = (a.poor_band_signals[signal] ?? 0) + 1;
    }
    if (!row.same_domain) {
      a.domain_mismatches++;
      if (a.domain_mismatch_examples.length < OUTLIER_LIMIT) a.domain_mismatch_examples.push(example());
    }
    const low = a.lowest;
    if (low.length < OUTLIER_LIMIT || confidence < low[low.length - 1]!.confidence) keepBest(low, example(), ascending);
    const high = a.highest;
    if (high.length < OUTLIER_LIMIT || confidence > high[high.length - 1]!.confidence) keepBest(high, example(), descending);
  }

  result(): PairQualityAggregate {
    this.agg.confidence_counts = [...this.counts.entries()].sort((x, y) => x[0] - y[0]);
    return this.agg;
  }
}
