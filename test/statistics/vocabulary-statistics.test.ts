/**
 * E5 GET /v1/vocabularies/{vocabularyId}/statistics: every field of "Vocabulary statistics" checked,
 * for every vocabulary of the demo vocabulary and of eunomia-gibleed-2019, against figures
 * recomputed in the test from the fixture files (./athena-counts.ts).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_VOCAB_DIR } from '../loader/loader-fixtures.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { AthenaCounts } from './athena-counts.js';

const DEMO_DIR = join(__dirname, '../../examples/demo-vocabulary');
const EUNOMIA_DIR = join(SHARED_VOCAB_DIR, 'eunomia-gibleed-2019');
const ALL_FLAGS = 'include_hierarchy_stats=true&include_domain_breakdown=true&include_mapping_stats=true&include_trend_data=true';
const NEVER_SERVED = ['GPI', 'MedDRA'];

let t: TestServer;
let validatedKey: string;
const datasets: Array<{ label: string; counts: AthenaCounts }> = [];

beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: DEMO_DIR, label: '2025.2', makeDefault: true },
      { dir: EUNOMIA_DIR, label: '2019.1' },
    ],
  });
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
  datasets.push({ label: '2025.2', counts: new AthenaCounts(DEMO_DIR) }, { label: '2019.1', counts: new AthenaCounts(EUNOMIA_DIR) });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const pct = (part: number, whole: number) => (whole ? (part / whole) * 100 : 0);

const statistics = async (label: string, vocabulary: string, query = ALL_FLAGS) => {
  const res = await t.request(`/v1/vocabularies/${encodeURIComponent(vocabulary)}/statistics?vocab_release=${label}&${query}`, { key: validatedKey });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe.each(['2025.2', '2019.1'])('E5 vocabulary statistics of release %s', (label) => {
  const counts = () => datasets.find((d) => d.label === label)!.counts;

  it('every field of every vocabulary equals the figure computed from the files', async () => {
    for (const vocabulary of counts().vocabularies().filter((v) => !NEVER_SERVED.includes(v))) {
      const expected = counts().vocabularyFigures(vocabulary);
      const body = await statistics(label, vocabulary);
      const d = body.data;
      expect(body.meta.vocab_release).toBe(label);
      expect(typeof body.meta.computation_time_ms).toBe('number');
      expect(d.vocabulary_id).toBe(vocabulary);
      expect(typeof d.vocabulary_name).toBe('string');
      expect(d.analysis_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);

      expect(d.concept_statistics).toMatchObject({
        total_concepts: expected.total,
        standard_concepts: expected.standard,
        classification_concepts: expected.classification,
        non_standard_concepts: expected.nonStandard,
        invalid_concepts: expected.invalid,
      });

      const h = d.hierarchy_statistics;
      const depths = [...expected.depthDistribution].sort((a, b) => a[0] - b[0]);
      expect(h.depth_distribution).toEqual(depths.map(([depth, concept_count]) => ({ depth, concept_count })));
      expect(h.hierarchy_concepts).toBe(expected.members);
      expect(h.max_hierarchy_depth).toBe(depths.length ? depths.at(-1)![0] : 0);
      const depthSum = depths.reduce((s, [depth, n]) => s + depth * n, 0);
      // reported rounded to 2 decimals (a mean of exactly x.xx5, e.g. 3/8, rounds up)
      expect(h.average_depth).toBe(expected.members ? Math.round((depthSum / expected.members) * 100) / 100 : 0);
      expect(h.root_concepts).toBe(expected.roots);
      expect(h.leaf_concepts).toBe(expected.leaves);

      expect(d.domain_statistics.domains_covered).toBe(expected.domains.size);
      expect(Object.fromEntries(d.domain_statistics.domain_distribution.map((x: { domain_id: string; concept_count: number }) => [x.domain_id, x.concept_count]))).toEqual(
        Object.fromEntries(expected.domains),
      );
      for (const x of d.domain_statistics.domain_distribution) expect(x.percentage).toBeCloseTo(pct(x.concept_count, expected.total), 1);

      expect(d.concept_class_statistics.total_concept_classes).toBe(expected.classes.size);
      expect(
        Object.fromEntries(d.concept_class_statistics.class_distribution.map((x: { concept_class_id: string; concept_count: number }) => [x.concept_class_id, x.concept_count])),
      ).toEqual(Object.fromEntries(expected.classes));
      for (const x of d.concept_class_statistics.class_distribution) expect(x.percentage).toBeCloseTo(pct(x.concept_count, expected.total), 1);

      const relTotal = [...expected.relationshipCounts.values()].reduce((s, n) => s + n, 0);
      const r = d.relationship_statistics;
      expect(r.total_relationships).toBe(relTotal);
      expect(r.unique_relationship_types).toBe(expected.relationshipCounts.size);
      expect(Object.fromEntries(r.relationship_type_distribution.map((x: { relationship_id: string; count: number }) => [x.relationship_id, x.count]))).toEqual(
        Object.fromEntries(expected.relationshipCounts),
      );
      for (const x of r.relationship_type_distribution) expect(x.percentage).toBeCloseTo(pct(x.count, relTotal), 1);

      const m = d.mapping_statistics;
      expect(m.mapped_concepts).toBe(expected.mapped);
      expect(m.unmapped_concepts).toBe(expected.total - expected.mapped);
      expect(m.mapping_coverage_percentage).toBeCloseTo(pct(expected.mapped, expected.total), 1);
      const visibleTargets = [...expected.targets].filter(([id]) => !NEVER_SERVED.includes(id));
      expect(m.target_vocabularies).toHaveLength(visibleTargets.length);
      for (const [id, target] of visibleTargets) {
        const got = m.target_vocabularies.find((x: { target_vocabulary_id: string }) => x.target_vocabulary_id === id);
        expect(got).toMatchObject({ mapping_count: target.rows, mapped_concepts: target.concepts.size });
        expect(got.coverage_percentage).toBeCloseTo(pct(target.concepts.size, expected.total), 1);
      }

      const l = d.language_statistics;
      expect(l.multilingual_concepts).toBe(expected.multilingual);
      expect(l.languages.map((x: { language_concept_id: number }) => x.language_concept_id).sort()).toEqual([...expected.languages.keys()].sort());
      for (const x of l.languages) {
        const e = expected.languages.get(x.language_concept_id)!;
        expect(x).toMatchObject({ synonym_count: e.synonyms, concept_count: e.concepts.size });
      }
      expect(l.supported_languages).toHaveLength(expected.languages.size);
      if (expected.languages.size === 0) {
        // No synonym language: the language of the concept names, English (Athena's concept 4180186, named as in the release).
        expect(l.primary_language).toBe(counts().concepts.get(4180186)?.name ?? 'English language');
      } else {
        const most = [...expected.languages].sort((a, b) => b[1].synonyms - a[1].synonyms || a[0] - b[0])[0]![0];
        const languageConcept = counts().concepts.get(most);
        expect(l.primary_language).toBe(languageConcept ? languageConcept.name : String(most));
      }

      const q = d.quality_metrics;
      expect(q.accuracy_indicators).toEqual({
        orphaned_concepts: expected.orphaned,
        duplicate_codes: expected.duplicateCodes,
        missing_descriptions: expected.missingDescriptions,
      });
      expect(q.completeness_score).toBeCloseTo(expected.total ? expected.complete / expected.total : 0, 3);
      expect(q.consistency_score).toBeCloseTo(expected.total ? expected.consistent / expected.total : 0, 3);
      expect(typeof q.definitions.completeness_score).toBe('string');
      expect(typeof q.definitions.consistency_score).toBe('string');

      const years = [...expected.years].sort((a, b) => a[0] - b[0]);
      let running = 0;
      expect(d.trend_data).toEqual(
        years.map(([year, y]) => {
          running += y.added - y.modified - y.deprecated;
          return { period: String(year), total_concepts: running, concepts_added: y.added, concepts_modified: y.modified, concepts_deprecated: y.deprecated };
        }),
      );
      expect(Array.isArray(d.notes)).toBe(true);
    }
  });

  it('every percentage is within 0–100 and every score within 0–1', async () => {
    for (const vocabulary of counts().vocabularies().filter((v) => !NEVER_SERVED.includes(v))) {
      const d = (await statistics(label, vocabulary)).data;
      const percentages = [
        d.mapping_statistics.mapping_coverage_percentage,
        ...d.mapping_statistics.target_vocabularies.map((x: { coverage_percentage: number }) => x.coverage_percentage),
        ...d.domain_statistics.domain_distribution.map((x: { percentage: number }) => x.percentage),
        ...d.concept_class_statistics.class_distribution.map((x: { percentage: number }) => x.percentage),
        ...d.relationship_statistics.relationship_type_distribution.map((x: { percentage: number }) => x.percentage),
      ];
      for (const p of percentages) expect(p >= 0 && p <= 100, `${vocabulary}: ${p}`).toBe(true);
      for (const s of [d.quality_metrics.completeness_score, d.quality_metrics.consistency_score]) expect(s >= 0 && s <= 1, `${vocabulary}: ${s}`).toBe(true);
    }
  });
});

describe('E5 sections and errors', () => {
  it('optional sections are absent without their flag, the others always present', async () => {
    const d = (await statistics('2025.2', 'SNOMED', '')).data;
    for (const absent of ['hierarchy_statistics', 'domain_statistics', 'mapping_statistics', 'trend_data', 'release_trend']) expect(d).not.toHaveProperty(absent);
    for (const present of ['concept_statistics', 'concept_class_statistics', 'relationship_statistics', 'language_statistics', 'quality_metrics', 'notes']) {
      expect(d).toHaveProperty(present);
    }
    const one = (await statistics('2025.2', 'SNOMED', 'include_mapping_stats=true')).data;
    expect(one).toHaveProperty('mapping_statistics');
    expect(one).not.toHaveProperty('hierarchy_statistics');
  });

  it('a vocabulary without mappings has zero mapped concepts, every concept unmapped, and says why', async () => {
    // eunomia-gibleed-2019 ships an empty CONCEPT_RELATIONSHIP: no vocabulary of it has a mapping.
    const expected = datasets[1]!.counts.vocabularyFigures('RxNorm');
    expect(expected.mapped).toBe(0);
    const d = (await statistics('2019.1', 'RxNorm')).data;
    expect(d.mapping_statistics).toEqual({ mapped_concepts: 0, unmapped_concepts: expected.total, mapping_coverage_percentage: 0, target_vocabularies: [] });
    expect(d.notes.join(' ')).toContain("'Maps to'");
  });

  it('primary_language is a string for every vocabulary: English (the concept names\' language) when no synonym carries a language', async () => {
    let checked = 0;
    for (const { label, counts } of datasets) {
      const bare = counts.vocabularies().filter((v) => !NEVER_SERVED.includes(v) && counts.vocabularyFigures(v).languages.size === 0);
      checked += bare.length;
      for (const vocabulary of bare) {
        const d = (await statistics(label, vocabulary, '')).data;
        expect(d.language_statistics.supported_languages).toEqual([]);
        expect(d.language_statistics.primary_language, `${label} ${vocabulary}`).toBe(counts.concepts.get(4180186)?.name ?? 'English language');
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('an unknown vocabulary is 404 vocabulary_not_found', async () => {
    const res = await t.request('/v1/vocabularies/NoSuchVocabulary/statistics');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('vocabulary_not_found');
    expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
  });

  it('licence: CPT4 is 403 without validation and served with it', async () => {
    const refused = await t.request('/v1/vocabularies/CPT4/statistics');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('vocabulary_restricted');
    const served = await t.request('/v1/vocabularies/CPT4/statistics', { key: validatedKey });
    expect(served.status).toBe(200);
    expect(served.body.data.concept_statistics.total_concepts).toBe(datasets[0]!.counts.conceptsOf('CPT4').length);
  });

  it('a bad flag value is a 400 naming the parameter', async () => {
    const res = await t.request('/v1/vocabularies/SNOMED/statistics?include_trend_data=maybe');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('include_trend_data');
  });
});
