/**
 * GET /v1/mappings/quality/{source}/{target} (E10) and GET /v1/mappings/coverage through HTTPS, on a
 * fixture whose mappings are built to land on the confidence band boundaries 0.9, 0.7 and 0.5
 * (spec "Confidence bands"). Expected figures are computed here from the fixture rows and the
 * documented model (mapping-confidence.ts header), never read back from the code under test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { expectBoundedFigures } from './bounded-figures.js';

const target = (concept_id: number, concept_name: string, domain_id: string, standard_concept: 'S' | 'C' | null = 'S'): FixtureConcept => ({
  concept_id,
  concept_name,
  domain_id,
  standard_concept,
});
const source = (concept_id: number, concept_name: string, domain_id: string, invalid_reason: 'D' | null = null): FixtureConcept => ({
  concept_id,
  concept_name,
  domain_id,
  vocabulary_id: 'ICD10CM',
  concept_class_id: 'ICD10 code',
  standard_concept: null,
  invalid_reason,
});

const concepts: FixtureConcept[] = [
  target(1001, 'alpha beta delta', 'Condition'),
  target(1002, 'zeta eta theta', 'Procedure'),
  target(1003, 'kappa one', 'Measurement', 'C'),
  target(1004, 'lambda two', 'Measurement', null),
  target(1005, 'pi rho', 'Measurement', 'C'),
  target(1006, 'Aspirin 100 MG', 'Drug'),
  target(1007, 'alpha sigma', 'Condition'),
  target(1008, 'upsilon phi', 'Procedure'),
  target(1009, 'iota', 'Condition'),
  source(2001, 'alpha beta gamma', 'Condition'),
  source(2007, 'alpha tau', 'Condition'),
  source(2002, 'mu nu xi', 'Procedure'),
  source(2008, 'chi psi', 'Procedure'),
  source(2003, 'omega', 'Measurement'),
  source(2004, 'epsilon', 'Observation'),
  source(2006, 'ASPIRIN 100 mg', 'Drug'),
  source(2009, 'unmapped condition', 'Condition'),
  source(2010, 'deprecated code', 'Condition', 'D'),
  { concept_id: 3001, concept_name: 'loinc thing', domain_id: 'Measurement', vocabulary_id: 'LOINC', concept_class_id: 'Lab Test' },
  { concept_id: 4001, concept_name: 'cpt procedure', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', standard_concept: null },
  { concept_id: 5001, concept_name: 'meddra term', domain_id: 'Condition', vocabulary_id: 'MedDRA', concept_class_id: 'PT', standard_concept: null },
];

/**
 * The analysed rows with the confidence the documented model gives them:
 * 0.30 × similarity + 0.15 × kind + 0.20 / fan-out + 0.20 × target status + 0.15 × same domain.
 */
const mapped: Array<FixtureRelationship & { confidence: number; domain: string }> = [
  // {alpha, beta, gamma} vs {alpha, beta, delta}: Dice 2/3 → 0.2 + 0.7
  { concept_id_1: 2001, concept_id_2: 1001, relationship_id: 'Maps to', valid_start_date: '20200101', confidence: 0.9, domain: 'Condition' },
  // {alpha, tau} vs {alpha, sigma}: Dice 1/2 → 0.15 + 0.7
  { concept_id_1: 2007, concept_id_2: 1007, relationship_id: 'Maps to', valid_start_date: '20200101', confidence: 0.85, domain: 'Condition' },
  // no shared word, everything else at its best
  { concept_id_1: 2010, concept_id_2: 1001, relationship_id: 'Maps to', valid_start_date: '20200101', confidence: 0.7, domain: 'Condition' },
  { concept_id_1: 2002, concept_id_2: 1002, relationship_id: 'Maps to', valid_start_date: '20150601', confidence: 0.7, domain: 'Procedure' },
  // 'Maps to value': 0.15 × 0.5 + 0.2 + 0.2 + 0.15
  { concept_id_1: 2008, concept_id_2: 1008, relationship_id: 'Maps to value', valid_start_date: '20150601', confidence: 0.625, domain: 'Procedure' },
  // one-to-two, non-standard targets: 0.15 + 0.1 + 0.1 + 0.15
  { concept_id_1: 2003, concept_id_2: 1003, relationship_id: 'Maps to', valid_start_date: '20150601', confidence: 0.5, domain: 'Measurement' },
  { concept_id_1: 2003, concept_id_2: 1004, relationship_id: 'Maps to', valid_start_date: '20150601', confidence: 0.5, domain: 'Measurement' },
  // non-standard target in another domain: 0.15 + 0.2 + 0.1 + 0
  { concept_id_1: 2004, concept_id_2: 1005, relationship_id: 'Maps to', valid_start_date: '20100101', confidence: 0.45, domain: 'Observation' },
  // same words: 0.3 + 0.7
  { concept_id_1: 2006, concept_id_2: 1006, relationship_id: 'Maps to', valid_start_date: '20200101', confidence: 1, domain: 'Drug' },
];
const relationships: FixtureRelationship[] = [
  ...mapped,
  // Not analysed: an invalid mapping row, reverse rows, and licensed vocabularies' own pairs.
  { concept_id_1: 2009, concept_id_2: 1009, relationship_id: 'Maps to', invalid_reason: 'D' },
  { concept_id_1: 1001, concept_id_2: 2001, relationship_id: 'Mapped from' },
  { concept_id_1: 4001, concept_id_2: 1002, relationship_id: 'Maps to' },
  { concept_id_1: 5001, concept_id_2: 1001, relationship_id: 'Maps to' },
];

/** Spec bands, written out here independently of the code under test. */
const band = (c: number) => (c >= 0.9 ? 'excellent' : c >= 0.7 ? 'good' : c >= 0.5 ? 'moderate' : 'poor');
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** Coverage as the endpoint defines it, counted from the fixture rows. */
function expectedCoverage(sourceVocabulary: string, targetVocabulary: string, domains?: string[]) {
  const vocabOf = new Map(concepts.map((c) => [c.concept_id, c.vocabulary_id ?? 'SNOMED']));
  const sources = concepts.filter(
    (c) => (c.vocabulary_id ?? 'SNOMED') === sourceVocabulary && !c.invalid_reason && (!domains || domains.includes(c.domain_id!)),
  );
  const isMapped = (id: number) =>
    relationships.some((r) => r.concept_id_1 === id && r.relationship_id === 'Maps to' && !r.invalid_reason && vocabOf.get(r.concept_id_2) === targetVocabulary);
  return {
    total: sources.length,
    mapped: sources.filter((c) => isMapped(c.concept_id)).length,
    unmapped: sources.filter((c) => !isMapped(c.concept_id)).map((c) => c.concept_id).sort((a, b) => a - b),
    byDomain: (domain: string) => ({
      source: sources.filter((c) => c.domain_id === domain).length,
      mapped: sources.filter((c) => c.domain_id === domain && isMapped(c.concept_id)).length,
    }),
  };
}

let server: TestServer;
let validatedKey: string;

beforeAll(async () => {
  const dir = writeAthenaFixture({ concepts, relationships, domains: ['Condition', 'Procedure', 'Measurement', 'Observation', 'Drug'] });
  server = await startTestServer({ releases: [{ dir, label: '2025.2', makeDefault: true }] });
  validatedKey = await server.createKey({ cpt4_validated_until: '2999-12-31' });
}, 60_000);
afterAll(async () => server?.close());

describe('GET /v1/mappings/quality (E10)', () => {
  it('counts every valid mapping row of the pair and bands them exactly at 0.9, 0.7 and 0.5 (spec "Confidence bands")', async () => {
    const res = await server.request('/v1/mappings/quality/ICD10CM/SNOMED');
    expect(res.status).toBe(200);
    const data = res.body.data;
    const overview = data.quality_overview;
    expect(overview.total_mappings_analyzed).toBe(mapped.length);
    const average = round4(mapped.reduce((s, m) => s + m.confidence, 0) / mapped.length);
    expect(overview.overall_average_confidence).toBe(average);
    expect(overview.overall_quality_rating).toBe(band(average));
    const high = mapped.filter((m) => m.confidence > 0.8).length;
    expect(overview.high_quality_percentage).toBe(Math.round((high / mapped.length) * 10_000) / 100);
    expect(overview.mappings_with_quality_data).toBe(0);
    expect(overview.validated_percentage).toBeNull();
    expect(overview.validated_percentage_reason).toMatch(/validation/);

    for (const domain of new Set(mapped.map((m) => m.domain))) {
      const rows = mapped.filter((m) => m.domain === domain);
      const distribution = { excellent: 0, good: 0, moderate: 0, poor: 0 };
      for (const r of rows) distribution[band(r.confidence)]++;
      expect(data.quality_by_domain[domain], domain).toMatchObject({
        domain_name: domain,
        total_mappings: rows.length,
        average_confidence: round4(rows.reduce((s, m) => s + m.confidence, 0) / rows.length),
        quality_distribution: distribution,
      });
    }
    // The boundary rows, domain by domain: 0.9 is excellent, 0.7 good, 0.5 moderate, 0.45 poor.
    expect(data.quality_by_domain.Condition.quality_distribution).toEqual({ excellent: 1, good: 2, moderate: 0, poor: 0 });
    expect(data.quality_by_domain.Procedure.quality_distribution).toEqual({ excellent: 0, good: 1, moderate: 1, poor: 0 });
    expect(data.quality_by_domain.Measurement.quality_distribution).toEqual({ excellent: 0, good: 0, moderate: 2, poor: 0 });
    expect(data.quality_by_domain.Observation.quality_distribution).toEqual({ excellent: 0, good: 0, moderate: 0, poor: 1 });

    const pair = data.quality_by_vocabulary_pair.ICD10CM.target_vocabularies.SNOMED;
    expect(pair.total_mappings).toBe(mapped.length);
    const sorted = mapped.map((m) => m.confidence).sort((a, b) => a - b);
    expect(pair.median_confidence).toBe(sorted[Math.ceil(sorted.length / 2) - 1]); // nearest rank
    expect(pair.equivalence_distribution.exact).toBe(1); // "Aspirin 100 MG" = "ASPIRIN 100 mg"
    expect(pair.validation_rate).toBeNull();
    expect(data.quality_metrics.signal_summary).toMatchObject({
      by_relationship: { 'Maps to': 8, 'Maps to value': 1 },
      one_to_many: 2,
      target_status: { valid_standard: 6, valid_non_standard: 3, invalid: 0 },
      domain_mismatches: 1,
    });
    const bins: number[] = data.quality_metrics.confidence_score_distribution.histogram_bins.map((b: { count: number }) => b.count);
    expect(bins.reduce((a, b) => a + b, 0)).toBe(mapped.length);
    expect(bins[9]).toBe(mapped.filter((m) => m.confidence >= 0.9).length);
    expect(res.body.meta.confidence_calculation_method).toMatch(/Dice/);
    expect(res.body.meta.confidence_calculation_method).toMatch(/CONCEPT_RELATIONSHIP_METADATA/);
    expect(res.body.meta).toHaveProperty('calculation_time_ms');
    expect(res.body.meta.analysis_scope.sections).toEqual(['quality_overview', 'quality_by_vocabulary_pair', 'quality_by_domain', 'quality_metrics']);
    expect(data).not.toHaveProperty('quality_outliers');
    expect(data).not.toHaveProperty('quality_trends');
    expect(data).not.toHaveProperty('recommendations');
    expectBoundedFigures(data);
  });

  it('adds outliers, trends and recommendations when asked', async () => {
    const res = await server.request('/v1/mappings/quality/ICD10CM/SNOMED?include_outliers=true&include_trends=true&include_recommendations=true');
    expect(res.status).toBe(200);
    const { quality_outliers: outliers, quality_trends: trends, recommendations } = res.body.data;
    const poor = mapped.filter((m) => band(m.confidence) === 'poor');
    expect(outliers.low_quality_outliers.map((o: { source_concept_id: number }) => o.source_concept_id)).toEqual(poor.map((m) => m.concept_id_1));
    expect(outliers.low_quality_outliers[0]).toMatchObject({ target_concept_id: 1005, confidence_score: 0.45, source_concept_name: 'epsilon' });
    expect(outliers.low_quality_outliers[0].potential_issues.length).toBeGreaterThan(0);
    expect(outliers.high_quality_outliers.map((o: { confidence_score: number }) => o.confidence_score)).toEqual(
      mapped.filter((m) => m.confidence >= 0.9).map((m) => m.confidence).sort((a, b) => b - a),
    );
    expect(outliers.inconsistent_mappings).toHaveLength(1);
    expect(outliers.inconsistent_mappings[0]).toMatchObject({ source_concept_id: 2004, target_concept_id: 1005 });

    const years = [...new Set(mapped.map((m) => m.valid_start_date!.slice(0, 4)))].sort();
    expect(trends.quality_over_time.map((y: { date: string }) => y.date)).toEqual(years);
    for (const point of trends.quality_over_time) {
      const rows = mapped.filter((m) => m.valid_start_date!.startsWith(point.date));
      expect(point.new_mappings).toBe(rows.length);
      expect(point.average_confidence).toBe(round4(rows.reduce((s, m) => s + m.confidence, 0) / rows.length));
      expect(point.validation_rate).toBeNull();
    }
    // 2010: 0.45, 2015: 0.58125, 2020: 0.8625 → improving
    expect(trends.quality_improvement_rate).toBeGreaterThan(0);
    expect(trends.declining_quality_areas).toEqual([]);

    const types = recommendations.map((r: { recommendation_type: string }) => r.recommendation_type);
    expect(types).toEqual(expect.arrayContaining(['retarget_non_standard_targets', 'review_poor_mappings', 'check_domain_mismatches', 'review_one_to_many']));
    for (const r of recommendations) expect(r.affected_vocabulary_pairs).toEqual(['ICD10CM→SNOMED']);
    expect(res.body.meta.analysis_scope.sections).toContain('recommendations');
    expectBoundedFigures(res.body.data);
  });

  it('reports a vocabulary with no mappings as zero rows with null ratios and the reason', async () => {
    const res = await server.request('/v1/mappings/quality/LOINC/SNOMED?include_outliers=true&include_trends=true&include_recommendations=true');
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.quality_overview).toMatchObject({
      total_mappings_analyzed: 0,
      overall_average_confidence: null,
      overall_quality_rating: null,
      high_quality_percentage: null,
    });
    expect(data.quality_by_domain).toEqual({});
    expect(data.notes[0]).toMatch(/No mappings/);
    expect(data.quality_outliers.low_quality_outliers).toEqual([]);
    expect(data.quality_trends.quality_over_time).toEqual([]);
    expect(data.quality_trends.quality_improvement_rate).toBeNull();
    expect(data.recommendations).toEqual([]);
    expectBoundedFigures(data);
  });

  it('points at the other direction when only that one has mappings', async () => {
    const res = await server.request('/v1/mappings/quality/SNOMED/ICD10CM');
    expect(res.status).toBe(200);
    expect(res.body.data.quality_overview.total_mappings_analyzed).toBe(0);
    expect(res.body.data.notes[0]).toContain(`${mapped.length} mapping rows in the other direction: GET /v1/mappings/quality/ICD10CM/SNOMED`);
  });

  it('answers 404 vocabulary_not_found for an unknown vocabulary, in the envelope', async () => {
    const res = await server.request('/v1/mappings/quality/ICD10CM/NOPE');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: { code: 'vocabulary_not_found' } });
    expect(res.body.error.message).toContain('NOPE');
    expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('rejects bad parameters with 400 naming the parameter (Errors: 400)', async () => {
    const notBoolean = await server.request('/v1/mappings/quality/ICD10CM/SNOMED?include_outliers=maybe');
    expect(notBoolean.status).toBe(400);
    expect(notBoolean.body.error.code).toBe('validation_error');
    expect(notBoolean.body.error.message).toContain('include_outliers');
    const tooLong = await server.request(`/v1/mappings/quality/${'X'.repeat(21)}/SNOMED`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toContain('source_vocabulary');
  });

  it('serves CPT4 only to validated keys and never GPI/MedDRA (Authentication 5)', async () => {
    const plain = await server.request('/v1/mappings/quality/CPT4/SNOMED');
    expect(plain.status).toBe(403);
    expect(plain.body.error.code).toBe('vocabulary_restricted');
    const validated = await server.request('/v1/mappings/quality/CPT4/SNOMED', { key: validatedKey });
    expect(validated.status).toBe(200);
    expect(validated.body.data.quality_overview.total_mappings_analyzed).toBe(relationships.filter((r) => r.concept_id_1 === 4001).length);
    for (const key of [server.key, validatedKey]) {
      const meddra = await server.request('/v1/mappings/quality/MedDRA/SNOMED', { key });
      expect(meddra.status).toBe(403);
      expect(meddra.body.error.code).toBe('vocabulary_restricted');
      const asTarget = await server.request('/v1/mappings/quality/SNOMED/MedDRA', { key });
      expect(asTarget.status).toBe(403);
    }
  });
});

describe('GET /v1/mappings/coverage', () => {
  it('counts valid source concepts and those with a valid Maps to into the target, per domain', async () => {
    const res = await server.request('/v1/mappings/coverage?source_vocabulary=ICD10CM&target_vocabulary=SNOMED');
    expect(res.status).toBe(200);
    const data = res.body.data;
    const expected = expectedCoverage('ICD10CM', 'SNOMED');
    expect(data.total_source_concepts).toBe(expected.total);
    expect(data.total_mapped_concepts).toBe(expected.mapped);
    expect(data.overall_coverage).toBe(Math.round((expected.mapped / expected.total) * 10_000) / 100);
    for (const row of data.domain_coverage) {
      const e = expected.byDomain(row.domain_id);
      expect(row, row.domain_id).toMatchObject({ source_concepts: e.source, mapped_concepts: e.mapped });
      expect(row.coverage_percentage).toBe(Math.round((e.mapped / e.source) * 10_000) / 100);
    }
    expect(data.domain_coverage.map((d: { domain_id: string }) => d.domain_id)).toEqual(['Condition', 'Drug', 'Measurement', 'Observation', 'Procedure']);
    expect(data.unmapped_concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual(expected.unmapped);
    expectBoundedFigures(data);
  });

  it('keeps only the requested domains, listing an empty one with a null percentage', async () => {
    const res = await server.request('/v1/mappings/coverage?source_vocabulary=ICD10CM&target_vocabulary=SNOMED&domain_ids=Procedure,Condition,Visit');
    expect(res.status).toBe(200);
    const expected = expectedCoverage('ICD10CM', 'SNOMED', ['Procedure', 'Condition']);
    expect(res.body.data.domain_coverage).toEqual([
      { domain_id: 'Condition', domain_name: 'Condition', source_concepts: expected.byDomain('Condition').source, mapped_concepts: expected.byDomain('Condition').mapped, coverage_percentage: expect.any(Number) },
      { domain_id: 'Procedure', domain_name: 'Procedure', source_concepts: expected.byDomain('Procedure').source, mapped_concepts: expected.byDomain('Procedure').mapped, coverage_percentage: 50 },
      { domain_id: 'Visit', domain_name: 'Visit', source_concepts: 0, mapped_concepts: 0, coverage_percentage: null },
    ]);
    expect(res.body.data.unmapped_concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual(expected.unmapped);
  });

  it('lists every concept of a vocabulary without mappings as unmapped', async () => {
    const res = await server.request('/v1/mappings/coverage?source_vocabulary=LOINC&target_vocabulary=SNOMED');
    expect(res.status).toBe(200);
    const expected = expectedCoverage('LOINC', 'SNOMED');
    expect(res.body.data).toMatchObject({ total_source_concepts: expected.total, total_mapped_concepts: 0, overall_coverage: 0 });
    expect(res.body.data.unmapped_concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual(expected.unmapped);
  });

  it('rejects a missing parameter with 400 naming it, and an unknown vocabulary with 404', async () => {
    const missing = await server.request('/v1/mappings/coverage?source_vocabulary=ICD10CM');
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('target_vocabulary');
    const unknown = await server.request('/v1/mappings/coverage?source_vocabulary=NOPE&target_vocabulary=SNOMED');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('vocabulary_not_found');
  });

  it('applies the licence rules to both vocabularies', async () => {
    expect((await server.request('/v1/mappings/coverage?source_vocabulary=CPT4&target_vocabulary=SNOMED')).status).toBe(403);
    const validated = await server.request('/v1/mappings/coverage?source_vocabulary=CPT4&target_vocabulary=SNOMED', { key: validatedKey });
    expect(validated.status).toBe(200);
    expect(validated.body.data.total_mapped_concepts).toBe(expectedCoverage('CPT4', 'SNOMED').mapped);
    const meddra = await server.request('/v1/mappings/coverage?source_vocabulary=SNOMED&target_vocabulary=MedDRA', { key: validatedKey });
    expect(meddra.status).toBe(403);
    expect(meddra.body.error.code).toBe('vocabulary_restricted');
  });
});
