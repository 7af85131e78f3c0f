/**
 * E2 GET /v1/domains/{domain_id}/statistics (every field of "Domain statistics", against counts made
 * from the demo vocabulary's CONCEPT file; a domain without concepts; an unknown domain; licence
 * rules), and the cross-release figures of E5 (release_trend, concept_growth_rate) on two loaded
 * fixture releases.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture, type FixtureConcept } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { AthenaCounts, countBy } from './athena-counts.js';

const DEMO_DIR = join(__dirname, '../../examples/demo-vocabulary');

const OLDER: FixtureConcept[] = [
  { concept_id: 1001, concept_name: 'Alpha finding', vocabulary_id: 'TESTVOC', valid_start_date: '20200101' },
  { concept_id: 1002, concept_name: 'Beta finding', vocabulary_id: 'TESTVOC', standard_concept: null, valid_start_date: '20210301' },
];
const NEWER: FixtureConcept[] = [
  ...OLDER,
  { concept_id: 1003, concept_name: 'Gamma finding', vocabulary_id: 'TESTVOC', standard_concept: 'C', valid_start_date: '20250101' },
  { concept_id: 1004, concept_name: 'Old finding', vocabulary_id: 'TESTVOC', standard_concept: null, invalid_reason: 'D', valid_start_date: '20000101', valid_end_date: '20220630' },
  { concept_id: 2001, concept_name: 'A CPT4 condition', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', valid_start_date: '19990101' },
  { concept_id: 2002, concept_name: 'A GPI condition', vocabulary_id: 'GPI', standard_concept: null, valid_start_date: '19990101' },
];

let t: TestServer;
let validatedKey: string;

beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: DEMO_DIR, label: '2024.4' },
      { dir: writeAthenaFixture({ concepts: OLDER, releaseVersion: 'v5.0 27-FEB-25' }), label: '2025.1' },
      { dir: writeAthenaFixture({ concepts: NEWER, releaseVersion: 'v5.0 27-AUG-25' }), label: '2025.2', makeDefault: true },
    ],
  });
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const iso = (yyyymmdd: number) => `${String(yyyymmdd).slice(0, 4)}-${String(yyyymmdd).slice(4, 6)}-${String(yyyymmdd).slice(6, 8)}`;

describe('E2 domain statistics', () => {
  it('every field of every domain of the demo vocabulary equals the counts of its CONCEPT file', async () => {
    const counts = new AthenaCounts(DEMO_DIR);
    const concepts = [...counts.concepts.values()].filter((c) => c.vocabulary !== 'GPI' && c.vocabulary !== 'MedDRA');
    for (const [domain, inDomain] of [...new Set(concepts.map((c) => c.domain))].map((d) => [d, concepts.filter((c) => c.domain === d)] as const)) {
      const res = await t.request(`/v1/domains/${encodeURIComponent(domain)}/statistics?vocab_release=2024.4`, { key: validatedKey });
      expect(res.status, res.text).toBe(200);
      expect(typeof res.body.meta.computation_time_ms).toBe('number');
      const { domain_id, statistics: s } = res.body.data;
      expect(domain_id).toBe(domain);
      expect(s.domain_id).toBe(domain);
      expect(typeof s.domain_name).toBe('string');
      expect(s.total_concepts).toBe(inDomain.length);
      expect(s.standard_concepts).toBe(inDomain.filter((c) => c.standard === 'S').length);
      expect(s.classification_concepts).toBe(inDomain.filter((c) => c.standard === 'C').length);
      expect(s.non_standard_concepts).toBe(inDomain.filter((c) => c.standard === null).length);
      expect(s.invalid_concepts).toBe(inDomain.filter((c) => c.invalid !== null).length);
      expect(Object.fromEntries(s.vocabulary_breakdown.map((v: { vocabulary_id: string; concept_count: number }) => [v.vocabulary_id, v.concept_count]))).toEqual(
        Object.fromEntries(countBy(inDomain, (c) => c.vocabulary)),
      );
      expect(Object.fromEntries(s.concept_class_breakdown.map((v: { concept_class_id: string; concept_count: number }) => [v.concept_class_id, v.concept_count]))).toEqual(
        Object.fromEntries(countBy(inDomain, (c) => c.conceptClass)),
      );
      const starts = inDomain.map((c) => c.start).sort((a, b) => a - b);
      expect(s.creation_date_range).toEqual({ earliest: iso(starts[0]!), latest: iso(starts.at(-1)!) });
    }
  });

  it('a named domain without concepts answers zeros, a null date range and a note', async () => {
    const res = await t.request('/v1/domains/Specimen/statistics');
    expect(res.status).toBe(200);
    const s = res.body.data.statistics;
    expect(s).toMatchObject({ domain_id: 'Specimen', total_concepts: 0, standard_concepts: 0, non_standard_concepts: 0, invalid_concepts: 0 });
    expect(s.vocabulary_breakdown).toEqual([]);
    expect(s.concept_class_breakdown).toEqual([]);
    expect(s.creation_date_range).toEqual({ earliest: null, latest: null });
    expect(res.body.data.notes.join(' ')).toContain('no concept in domain Specimen');
  });

  it('an unknown domain is 404 not_found in the envelope', async () => {
    const res = await t.request('/v1/domains/NoSuchDomain/statistics');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('not_found');
    expect(res.body.error.message).toContain('NoSuchDomain');
  });

  it('licence: CPT4 counts only for a validated key, GPI never', async () => {
    const visible = (hidden: string[]) => NEWER.filter((c) => !hidden.includes(c.vocabulary_id!));
    const plain = (await t.request('/v1/domains/Condition/statistics')).body.data;
    expect(plain.statistics.total_concepts).toBe(visible(['CPT4', 'GPI']).length);
    expect(plain.statistics.vocabulary_breakdown.map((v: { vocabulary_id: string }) => v.vocabulary_id)).toEqual(['TESTVOC']);
    expect(plain.notes.join(' ')).toContain('CPT4');
    const validated = (await t.request('/v1/domains/Condition/statistics', { key: validatedKey })).body.data;
    expect(validated.statistics.total_concepts).toBe(visible(['GPI']).length);
    expect(validated.statistics.vocabulary_breakdown.map((v: { vocabulary_id: string }) => v.vocabulary_id).sort()).toEqual(['CPT4', 'TESTVOC']);
    const gpi = await t.request('/v1/vocabularies/GPI/statistics', { key: validatedKey });
    expect(gpi.status).toBe(403);
    expect(gpi.body.error.code).toBe('vocabulary_restricted');
  });
});

describe('E5 across loaded releases', () => {
  const testvoc = (concepts: FixtureConcept[]) => concepts.filter((c) => c.vocabulary_id === 'TESTVOC');

  it('release_trend lists both releases with their counts, and concept_growth_rate compares them', async () => {
    const res = await t.request('/v1/vocabularies/TESTVOC/statistics?include_trend_data=true');
    expect(res.status).toBe(200);
    const d = res.body.data;
    const before = testvoc(OLDER).length;
    const after = testvoc(NEWER).length;
    expect(d.release_trend).toEqual([
      {
        vocab_release: '2025.1',
        release_date: '2025-02-27',
        total_concepts: before,
        standard_concepts: testvoc(OLDER).filter((c) => (c.standard_concept === undefined ? 'S' : c.standard_concept) === 'S').length,
        classification_concepts: 0,
        invalid_concepts: 0,
        change_from_previous: null,
      },
      {
        vocab_release: '2025.2',
        release_date: '2025-08-27',
        total_concepts: after,
        standard_concepts: testvoc(NEWER).filter((c) => (c.standard_concept === undefined ? 'S' : c.standard_concept) === 'S').length,
        classification_concepts: testvoc(NEWER).filter((c) => c.standard_concept === 'C').length,
        invalid_concepts: testvoc(NEWER).filter((c) => c.invalid_reason).length,
        change_from_previous: after - before,
      },
    ]);
    expect(d.concept_statistics.concept_growth_rate).toBeCloseTo(((after - before) / before) * 100, 2);
    // Per year of the valid dates: 2000 (1 added), 2020, 2021, 2022 (1 deprecated), 2025.
    expect(d.trend_data.map((p: { period: string }) => p.period)).toEqual(['2000', '2020', '2021', '2022', '2025']);
    expect(d.trend_data.find((p: { period: string }) => p.period === '2022')).toEqual({
      period: '2022',
      total_concepts: 2,
      concepts_added: 0,
      concepts_modified: 0,
      concepts_deprecated: 1,
    });
  });

  it('the oldest release has no growth rate, and says why', async () => {
    const d = (await t.request('/v1/vocabularies/TESTVOC/statistics?vocab_release=2025.1')).body.data;
    expect(d.concept_statistics.concept_growth_rate).toBeNull();
    expect(d.notes.join(' ')).toContain('concept_growth_rate is null');
  });
});
