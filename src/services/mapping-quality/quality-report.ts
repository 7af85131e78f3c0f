/**
 * GET /v1/mappings/quality/{source}/{target} (E10): formats the pair's load-time aggregate into the report, kept
 * per open release, pair and flags; figures the release cannot support are null with their reason.
 */
import type { ReleaseView } from '../release-view.js';
import { LruCache } from '../../lru-cache.js';
import type { VocabularyRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { requireVocabulary } from '../vocabularies/vocabulary-catalog.js';
import { percentage, summariseDistribution, weightedSlope } from './confidence-distribution.js';
import {
  CONFIDENCE_CALCULATION_METHOD,
  CONFIDENCE_SCALE,
  HIGH_QUALITY_THRESHOLD,
  MAPPING_RELATIONSHIP_IDS,
  qualityBand,
  roundConfidence,
  WEAK_SIGNAL_DESCRIPTIONS,
  weakSignals,
} from '../../mapping-model/mapping-confidence.js';
import { emptyPairAggregate, HIGH_SIMILARITY } from '../../mapping-model/quality-aggregate.js';
import type { ConfidenceTally, MappingExample, PairQualityAggregate, QualityBand, WeakSignal } from '../../store/mapping-quality-records.js';

export interface QualityReportOptions {
  include_outliers?: boolean;
  include_trends?: boolean;
  include_recommendations?: boolean;
}

export const NO_VALIDATION_REASON =
  'Athena releases carry no validation or dispute status for mappings (that would come from CONCEPT_RELATIONSHIP_METADATA, which omopterm does not load).';
export const NO_METADATA_REASON =
  'CONCEPT_RELATIONSHIP_METADATA (mapping source, predicate, reviewer) is not loaded, so no mapping carries curated quality data; every confidence is the heuristic of confidence_calculation_method.';
const NO_MAPPINGS_REASON = 'the source vocabulary has no valid mapping row into the target vocabulary in this release';
const EQUIVALENCE_REASON =
  "Athena does not record whether a 'Maps to' target is broader, narrower or related; only 'exact' (identical content words of source and target names, self-maps included) is derived. The other mappings are counted as 'unclassified'.";
const TRENDS_BASIS =
  "Years are those of the mapping rows' valid_start_date (the year a mapping row became valid); Athena dates rows that predate its history 1970-01-01.";

/** Formatted reports kept per open release (a release never changes): pair × flags. */
const REPORT_CACHE_SIZE = 256;
const reportCache = new WeakMap<ReleaseStore, LruCache<Record<string, unknown>>>();

const pairLabel = (a: PairQualityAggregate) => `${a.source_vocabulary_id}→${a.target_vocabulary_id}`;
const average = (t: { total: number; confidence_sum: number }) => (t.total ? roundConfidence(t.confidence_sum / t.total) : null);

export function mappingQualityReport(
  view: ReleaseView,
  sourceVocabularyId: string,
  targetVocabularyId: string,
  options: QualityReportOptions,
): { data: Record<string, unknown>; meta: Record<string, unknown> } {
  const started = performance.now();
  const source = requireVocabulary(view, sourceVocabularyId);
  const target = requireVocabulary(view, targetVocabularyId);
  let cache = reportCache.get(view.store);
  if (!cache) reportCache.set(view.store, (cache = new LruCache(REPORT_CACHE_SIZE)));
  const flags = [options.include_outliers, options.include_trends, options.include_recommendations].map((f) => (f ? 1 : 0)).join('');
  const key = `${source.vocabulary_id}\u0000${target.vocabulary_id}\u0000${flags}`;
  let data = cache.get(key);
  if (!data) cache.set(key, (data = reportData(view.store, source, target, options)));

  const sections = ['quality_overview', 'quality_by_vocabulary_pair', 'quality_by_domain', 'quality_metrics'];
  if (options.include_outliers) sections.push('quality_outliers');
  if (options.include_trends) sections.push('quality_trends');
  if (options.include_recommendations) sections.push('recommendations');
  const meta = {
    analysis_date: new Date().toISOString(),
    data_freshness: {
      vocab_release: view.store.manifest.label,
      release_date: view.store.manifest.release_date,
      source_vocabulary_version: view.store.manifest.source_vocabulary_version,
      loaded_at: view.store.manifest.loaded_at,
      aggregates_computed: 'when the release was loaded',
    },
    analysis_scope: {
      source_vocabulary: source.vocabulary_id,
      target_vocabulary: target.vocabulary_id,
      relationship_ids: MAPPING_RELATIONSHIP_IDS,
      rows: 'valid mapping rows (invalid_reason empty) whose target concept is in CONCEPT',
      domain_basis: "quality_by_domain is keyed by the source concept's domain",
      sections,
    },
    calculation_time_ms: Math.round((performance.now() - started) * 100) / 100,
    confidence_calculation_method: CONFIDENCE_CALCULATION_METHOD,
  };
  return { data, meta };
}

/** The report's data (everything but the per-request meta): a function of the release, the pair and the flags. */
function reportData(
  store: ReleaseStore,
  source: VocabularyRecord,
  target: VocabularyRecord,
  options: QualityReportOptions,
): Record<string, unknown> {
  const aggregate = store.mappingQuality.pairQuality(source.vocabulary_id, target.vocabulary_id) ?? emptyPairAggregate(source.vocabulary_id, target.vocabulary_id);
  const distribution = summariseDistribution(aggregate.confidence_counts);
  const total = aggregate.total;
  const highQuality = aggregate.confidence_counts.reduce((n, [key, count]) => (key / CONFIDENCE_SCALE > HIGH_QUALITY_THRESHOLD ? n + count : n), 0);
  const rating = distribution.mean === null ? null : qualityBand(distribution.mean);
  const domainNames = new Map(store.metadata.domains().map((d) => [d.domain_id, d.domain_name]));
  const notes = [NO_VALIDATION_REASON, NO_METADATA_REASON];
  if (total === 0) {
    const reverse = store.mappingQuality.pairQuality(target.vocabulary_id, source.vocabulary_id)?.total ?? 0;
    const hint = reverse
      ? ` The release has ${reverse} mapping rows in the other direction: GET /v1/mappings/quality/${target.vocabulary_id}/${source.vocabulary_id}.`
      : '';
    notes.unshift(`No mappings to analyse: ${NO_MAPPINGS_REASON}; averages, ratings and percentages are null.${hint}`);
  }

  const data: Record<string, unknown> = {
    source_vocabulary: source.vocabulary_id,
    target_vocabulary: target.vocabulary_id,
    quality_overview: {
      total_mappings_analyzed: total,
      mappings_with_quality_data: 0,
      mappings_with_quality_data_reason: NO_METADATA_REASON,
      overall_average_confidence: distribution.mean,
      overall_quality_rating: rating,
      high_quality_percentage: percentage(highQuality, total),
      validated_percentage: null,
      validated_percentage_reason: NO_VALIDATION_REASON,
      disputed_percentage: null,
      disputed_percentage_reason: NO_VALIDATION_REASON,
    },
    quality_by_vocabulary_pair: {
      [source.vocabulary_id]: {
        vocabulary_name: source.vocabulary_name,
        overall_outgoing_quality: distribution.mean,
        target_vocabularies: {
          [target.vocabulary_id]: {
            target_vocabulary_name: target.vocabulary_name,
            total_mappings: total,
            average_confidence: distribution.mean,
            median_confidence: distribution.median,
            confidence_std_dev: distribution.std_dev,
            equivalence_distribution: {
              exact: aggregate.identical_names,
              broader: null,
              narrower: null,
              related: null,
              unclassified: total - aggregate.identical_names,
              reason: EQUIVALENCE_REASON,
            },
            validation_rate: null,
            validation_rate_reason: NO_VALIDATION_REASON,
            quality_rating: rating,
            primary_use_cases: primaryUseCases(aggregate, domainNames),
          },
        },
      },
    },
    quality_by_domain: qualityByDomain(aggregate, domainNames),
    quality_metrics: {
      confidence_score_distribution: {
        histogram_bins: distribution.histogram_bins,
        percentiles: distribution.percentiles,
        skewness: distribution.skewness,
        kurtosis: distribution.kurtosis,
      },
      semantic_similarity_analysis: similarityAnalysis(aggregate),
      mapping_source_analysis: {
        official_mappings: {
          count: total,
          percentage: percentage(total, total),
          description: 'Every analysed row is a mapping published in the Athena release (OHDSI vocabulary team).',
        },
        community_mappings: { count: null, percentage: null, reason: NO_METADATA_REASON },
        algorithmic_mappings: { count: null, percentage: null, reason: NO_METADATA_REASON },
        manual_mappings: { count: null, percentage: null, reason: NO_METADATA_REASON },
      },
      validation_impact_analysis: {
        validated_vs_unvalidated: null,
        validation_accuracy: null,
        disputed_mapping_characteristics: null,
        reason: NO_VALIDATION_REASON,
      },
      signal_summary: {
        by_relationship: aggregate.by_relationship,
        one_to_one: aggregate.one_to_one,
        one_to_many: aggregate.one_to_many,
        self_maps: aggregate.self_maps,
        target_status: aggregate.target_status,
        domain_mismatches: aggregate.domain_mismatches,
      },
    },
    notes,
  };
  if (options.include_outliers) data.quality_outliers = outliers(store, aggregate);
  if (options.include_trends) data.quality_trends = trends(aggregate);
  if (options.include_recommendations) data.recommendations = recommendations(aggregate, highQuality);
  return data;
}

/** The source domains with the most mappings: what the pair is mostly used for. */
function primaryUseCases(a: PairQualityAggregate, domainNames: Map<string, string>): string[] {
  return Object.entries(a.by_domain)
    .sort((x, y) => y[1].total - x[1].total || x[0].localeCompare(y[0]))
    .slice(0, 3)
    .map(([domain, t]) => `${domainNames.get(domain) ?? domain} concepts of ${a.source_vocabulary_id} to ${a.target_vocabulary_id} (${t.total} mappings)`);
}

function qualityByDomain(a: PairQualityAggregate, domainNames: Map<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [domain, tally] of Object.entries(a.by_domain).sort((x, y) => x[0].localeCompare(y[0]))) {
    const avg = average(tally)!;
    const band = qualityBand(avg);
    const entry = { source_vocabulary_id: a.source_vocabulary_id, target_vocabulary_id: a.target_vocabulary_id, average_confidence: avg };
    out[domain] = {
      domain_name: domainNames.get(domain) ?? domain,
      total_mappings: tally.total,
      average_confidence: avg,
      quality_distribution: tally.bands,
      // One pair per report: it is "reliable" in a domain when its average there is good or excellent.
      most_reliable_vocabulary_pairs: band === 'excellent' || band === 'good' ? [entry] : [],
      least_reliable_vocabulary_pairs: band === 'moderate' || band === 'poor' ? [entry] : [],
      quality_challenges: domainChallenges(tally),
    };
  }
  return out;
}

function domainChallenges(tally: ConfidenceTally): string[] {
  const out: string[] = [];
  const poor = tally.bands.poor;
  const moderate = tally.bands.moderate;
  if (poor) out.push(`${poor} of ${tally.total} mappings (${percentage(poor, tally.total)} %) are in the poor band (confidence below 0.5)`);
  if (moderate) out.push(`${moderate} of ${tally.total} mappings (${percentage(moderate, tally.total)} %) are in the moderate band (0.5 to below 0.7)`);
  return out;
}

function similarityAnalysis(a: PairQualityAggregate): Record<string, unknown> {
  const n = a.total;
  let correlation: number | null = null;
  if (n > 1) {
    const cov = a.similarity_confidence_product_sum / n - (a.similarity_sum / n) * (a.confidence_sum / n);
    const varS = a.similarity_square_sum / n - (a.similarity_sum / n) ** 2;
    const varC = a.confidence_square_sum / n - (a.confidence_sum / n) ** 2;
    if (varS > 1e-12 && varC > 1e-12) correlation = roundConfidence(Math.max(-1, Math.min(1, cov / Math.sqrt(varS * varC))));
  }
  return {
    average_similarity: n ? roundConfidence(a.similarity_sum / n) : null,
    similarity_confidence_correlation: correlation,
    low_similarity_high_confidence: a.low_similarity_high_confidence,
    high_similarity_low_confidence: a.high_similarity_low_confidence,
    definitions: {
      similarity: 'token Dice coefficient of the content words of source and target names (1 for a self-map)',
      similarity_confidence_correlation: 'Pearson correlation of similarity and confidence over the analysed rows; null without spread',
      low_similarity_high_confidence: `rows with similarity below 0.3 and confidence above ${HIGH_QUALITY_THRESHOLD}`,
      high_similarity_low_confidence: `rows with similarity ${HIGH_SIMILARITY} or more and confidence below 0.5`,
    },
  };
}

function outliers(store: ReleaseStore, a: PairQualityAggregate): Record<string, unknown> {
  const ids = new Set<number>();
  for (const e of [...a.lowest, ...a.highest, ...a.domain_mismatch_examples]) ids.add(e.source_concept_id).add(e.target_concept_id);
  const names = new Map(store.concepts.byIds([...ids]).map((c) => [c.concept_id, c.concept_name]));
  const describe = (e: MappingExample, reason: string) => ({
    source_concept_id: e.source_concept_id,
    source_concept_name: names.get(e.source_concept_id) ?? null,
    target_concept_id: e.target_concept_id,
    target_concept_name: names.get(e.target_concept_id) ?? null,
    relationship_id: e.relationship_id,
    confidence_score: e.confidence,
    name_similarity: roundConfidence(e.similarity),
    outlier_reason: reason,
    potential_issues: weakSignals(e).map((s) => WEAK_SIGNAL_DESCRIPTIONS[s]),
  });
  const poorRows = a.confidence_counts.reduce((n, [key, count]) => (qualityBand(key / CONFIDENCE_SCALE) === 'poor' ? n + count : n), 0);
  const patterns = (Object.entries(a.poor_band_signals) as Array<[WeakSignal, number]>)
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .map(([signal, count]) => ({
      pattern: signal,
      description: WEAK_SIGNAL_DESCRIPTIONS[signal],
      affected_mappings: count,
      percentage_of_poor_mappings: percentage(count, poorRows),
    }));
  return {
    low_quality_outliers: a.lowest
      .filter((e) => qualityBand(e.confidence) === 'poor')
      .map((e) => describe(e, `confidence ${e.confidence} is in the poor band (below 0.5); one of the ${a.lowest.length} lowest of the pair`)),
    high_quality_outliers: a.highest
      .filter((e) => qualityBand(e.confidence) === 'excellent')
      .map((e) => describe(e, `confidence ${e.confidence} is in the excellent band (0.9 or above); one of the ${a.highest.length} highest of the pair`)),
    inconsistent_mappings: a.domain_mismatch_examples.map((e) => describe(e, 'source and target concepts are in different domains')),
    inconsistent_mappings_total: a.domain_mismatches,
    outlier_patterns: patterns,
    definitions: {
      low_quality_outliers: 'the lowest-confidence rows of the pair (at most 20) that are in the poor band',
      high_quality_outliers: 'the highest-confidence rows of the pair (at most 20) that are in the excellent band',
      inconsistent_mappings: 'the first rows (at most 20, by source concept id) whose source and target domains differ',
      outlier_patterns: 'how often each weak signal occurs among the poor-band rows',
    },
  };
}

function trends(a: PairQualityAggregate): Record<string, unknown> {
  const years = Object.keys(a.by_year).sort();
  const quality_over_time = years.map((year) => {
    const t = a.by_year[year]!;
    const avg = average(t)!;
    return {
      date: year,
      new_mappings: t.total,
      average_confidence: avg,
      validation_rate: null,
      new_mappings_quality: { quality_rating: qualityBand(avg), quality_distribution: t.bands },
    };
  });
  const slopeOf = (byYear: Record<string, { total: number; confidence_sum: number }>) =>
    weightedSlope(Object.entries(byYear).map(([year, t]) => ({ x: Number(year), y: t.confidence_sum / t.total, weight: t.total })));
  const slope = slopeOf(a.by_year);
  const areas = Object.entries(a.by_domain_year)
    .map(([domain, byYear]) => ({ domain, slope: slopeOf(byYear) }))
    .filter((d): d is { domain: string; slope: number } => d.slope !== null && Math.abs(d.slope) > 1e-9);
  const area = (d: { domain: string; slope: number }) => ({
    domain_id: d.domain,
    vocabulary_pair: pairLabel(a),
    change_in_average_confidence_per_year: roundConfidence(d.slope),
  });
  return {
    quality_over_time,
    quality_improvement_rate: slope === null ? null : roundConfidence(Math.min(1, Math.max(0, slope))),
    quality_improvement_rate_reason:
      slope === null
        ? 'fewer than two years of mapping rows: no trend can be computed'
        : 'least-squares slope of the yearly average confidence (weighted by rows) per year, clamped to 0–1 (a decline is 0; see declining_quality_areas)',
    validation_rate_reason: NO_VALIDATION_REASON,
    fastest_improving_areas: areas.filter((d) => d.slope > 0).sort((x, y) => y.slope - x.slope || x.domain.localeCompare(y.domain)).slice(0, 5).map(area),
    declining_quality_areas: areas.filter((d) => d.slope < 0).sort((x, y) => x.slope - y.slope || x.domain.localeCompare(y.domain)).slice(0, 5).map(area),
    basis: TRENDS_BASIS,
  };
}

interface Recommendation {
  recommendation_type: string;
  title: string;
  description: string;
  priority: 'high' | 'medium' | 'low';
  expected_improvement: string;
  affected_vocabulary_pairs: string[];
  implementation_effort: 'low' | 'medium' | 'high';
}

/** Data-driven suggestions: each one names the figure that triggered it. */
function recommendations(a: PairQualityAggregate, highQuality: number): Recommendation[] {
  const out: Recommendation[] = [];
  if (a.total === 0) return out;
  const pairs = [pairLabel(a)];
  const bands = Object.values(a.by_domain).reduce<Record<QualityBand, number>>(
    (acc, t) => ({ excellent: acc.excellent + t.bands.excellent, good: acc.good + t.bands.good, moderate: acc.moderate + t.bands.moderate, poor: acc.poor + t.bands.poor }),
    { excellent: 0, good: 0, moderate: 0, poor: 0 },
  );
  const invalidOrNonStandard = a.target_status.invalid + a.target_status.valid_non_standard;
  if (invalidOrNonStandard > 0) {
    out.push({
      recommendation_type: 'retarget_non_standard_targets',
      title: 'Re-target mappings to invalid or non-standard concepts',
      description: `${invalidOrNonStandard} mappings (${percentage(invalidOrNonStandard, a.total)} %) point at a target that is invalid (${a.target_status.invalid}) or not standard (${a.target_status.valid_non_standard}).`,
      priority: a.target_status.invalid > 0 ? 'high' : 'medium',
      expected_improvement: `these ${invalidOrNonStandard} mappings would gain up to 0.2 confidence each (target status signal)`,
      affected_vocabulary_pairs: pairs,
      implementation_effort: 'medium',
    });
  }
  if (bands.poor > 0) {
    out.push({
      recommendation_type: 'review_poor_mappings',
      title: 'Review the poor-band mappings',
      description: `${bands.poor} mappings (${percentage(bands.poor, a.total)} %) have a confidence below 0.5; include_outliers lists the lowest and the signals they fall short on.`,
      priority: (percentage(bands.poor, a.total) ?? 0) >= 10 ? 'high' : 'medium',
      expected_improvement: `high_quality_percentage is ${percentage(highQuality, a.total)} %; each reviewed poor mapping that is corrected or confirmed removes one from the poor band`,
      affected_vocabulary_pairs: pairs,
      implementation_effort: 'high',
    });
  }
  if (a.domain_mismatches > 0) {
    out.push({
      recommendation_type: 'check_domain_mismatches',
      title: 'Check mappings whose source and target domains differ',
      description: `${a.domain_mismatches} mappings (${percentage(a.domain_mismatches, a.total)} %) cross domains; include_outliers lists examples under inconsistent_mappings.`,
      priority: 'medium',
      expected_improvement: 'domain-consistent mappings land in the expected CDM table',
      affected_vocabulary_pairs: pairs,
      implementation_effort: 'medium',
    });
  }
  if (a.one_to_many > 0) {
    out.push({
      recommendation_type: 'review_one_to_many',
      title: 'Review one-to-many mappings',
      description: `${a.one_to_many} mappings (${percentage(a.one_to_many, a.total)} %) come from source concepts with more than one target; ETL must write one row per target.`,
      priority: 'low',
      expected_improvement: 'fewer ambiguous source concepts',
      affected_vocabulary_pairs: pairs,
      implementation_effort: 'high',
    });
  }
  return out;
}
