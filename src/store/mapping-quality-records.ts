/**
 * The records of the mapping quality report (E10) and of mapping coverage as the loader stores them
 * and MappingQualityStore returns them; src/mapping-model/ computes them (the confidence model and
 * the one-pass aggregates).
 */

export type QualityBand = 'excellent' | 'good' | 'moderate' | 'poor';

/** The signals a mapping can fall short on (outlier reports and patterns). */
export type WeakSignal =
  | 'low_name_similarity'
  | 'partial_relationship'
  | 'one_to_many'
  | 'invalid_target'
  | 'non_standard_target'
  | 'domain_mismatch';

/** What the model reads about one mapping row. */
export interface MappingSignals {
  /** Name similarity in [0, 1] (see diceSimilarity; 1 for a self-map). */
  similarity: number;
  relationship_id: string;
  /** Number of valid mapping rows of the source concept (≥ 1). */
  fan_out: number;
  target_standard: string | null;
  target_invalid: string | null;
  same_domain: boolean;
}

export interface SourceDomainCoverage {
  source_vocabulary_id: string;
  domain_id: string;
  source_concepts: number;
  /** The first valid concept ids of the source vocabulary in this domain, ascending (unmapped to any vocabulary it never maps to). */
  first_concepts: number[];
}

export interface TargetDomainCoverage {
  source_vocabulary_id: string;
  domain_id: string;
  target_vocabulary_id: string;
  mapped_concepts: number;
  /** The first valid source concept ids of this domain without a 'Maps to' into the target vocabulary, ascending. */
  unmapped_concepts: number[];
}

export type BandCounts = Record<QualityBand, number>;

export interface ConfidenceTally {
  total: number;
  confidence_sum: number;
  bands: BandCounts;
}

/** One mapping row as kept for the outlier section. */
export interface MappingExample extends MappingSignals {
  source_concept_id: number;
  target_concept_id: number;
  confidence: number;
}

export interface PairQualityAggregate {
  source_vocabulary_id: string;
  target_vocabulary_id: string;
  total: number;
  /** [confidence × 10^4, number of rows], ascending. */
  confidence_counts: Array<[number, number]>;
  confidence_sum: number;
  confidence_square_sum: number;
  similarity_sum: number;
  similarity_square_sum: number;
  similarity_confidence_product_sum: number;
  /** Rows whose normalised name word sets are identical (similarity 1), self-maps included. */
  identical_names: number;
  self_maps: number;
  low_similarity_high_confidence: number;
  high_similarity_low_confidence: number;
  by_relationship: Record<string, number>;
  one_to_one: number;
  one_to_many: number;
  target_status: { valid_standard: number; valid_non_standard: number; invalid: number };
  /** Keyed by the source concept's domain. */
  by_domain: Record<string, ConfidenceTally>;
  /** Keyed by the year of the mapping row's valid_start_date. */
  by_year: Record<string, ConfidenceTally>;
  /** Keyed by source domain, then year. */
  by_domain_year: Record<string, Record<string, { total: number; confidence_sum: number }>>;
  /** How often each weak signal occurs among poor-band rows. */
  poor_band_signals: Partial<Record<WeakSignal, number>>;
  domain_mismatches: number;
  lowest: MappingExample[];
  highest: MappingExample[];
  /** First rows (in source concept order) whose source and target domains differ. */
  domain_mismatch_examples: MappingExample[];
}
