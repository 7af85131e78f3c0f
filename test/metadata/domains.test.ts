/**
 * GET /v1/domains and GET /v1/vocabularies/domains (E3, "Domain" record, client-compatibility §1.5)
 * through HTTPS: the list covers every domain the specification names, names come from the
 * release's DOMAIN table, and the counts equal those computed here from the fixture CONCEPT files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.js';
import { countBy, DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR, readSourceConcepts, readSourceTable, visibleWithCpt4, visibleWithoutCpt4 } from './concept-file.js';
import { startMetadataServer, writeMetadataFixture } from './metadata-fixture.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-gibleed-2019');

/** The "Domain" record of the specification lists these ids. */
const SPEC_DOMAINS = [
  'Condition', 'Drug', 'Procedure', 'Measurement', 'Observation', 'Device', 'Specimen', 'Visit', 'Provider', 'Location', 'Care Site',
  'Payer', 'Plan', 'Sponsor', 'Cost', 'Revenue', 'Episode', 'Regimen', 'Metadata', 'Type Concept', 'Relationship', 'Gender', 'Race',
  'Ethnicity', 'Meas Value',
];

const fixtureDir = writeMetadataFixture();
let t: TestServer;
let cpt4Key: string;
beforeAll(async () => ({ t, cpt4Key } = await startMetadataServer(fixtureDir)), 120_000);
afterAll(async () => {
  await t?.close();
});

interface DomainRow {
  domain_id: string;
  domain_name: string;
  description: string;
  domain_concept_id: number | null;
  concept_count?: number;
  standard_concept_count?: number;
}

const byId = (domains: DomainRow[]) => new Map(domains.map((d) => [d.domain_id, d]));

// No rows without the data (they are read while collecting): the suite is skipped then.
describe.skipIf(MISSING_SHARED_VOCAB).each(MISSING_SHARED_VOCAB ? [] : [
  ['demo vocabulary', '2025.2', DEMO_VOCABULARY_DIR],
  ['eunomia-gibleed-2019', '2019.1', EUNOMIA_GIBLEED_DIR],
  ['metadata fixture', '2025.1', fixtureDir],
])('GET /v1/domains on the %s', (_name, release, dir) => {
  const concepts = readSourceConcepts(dir);
  const domainTable = readSourceTable(dir, 'DOMAIN.csv');

  it('lists every spec-named domain, every DOMAIN row and every used domain once, sorted, with names from the release', async () => {
    const res = await t.request(`/v1/domains?vocab_release=${release}`);
    expect(res.status).toBe(200);
    const domains = res.body.data.domains as DomainRow[];
    const ids = domains.map((d) => d.domain_id);
    const expected = new Set([...SPEC_DOMAINS, ...domainTable.map((d) => d.domain_id!), ...concepts.filter(visibleWithoutCpt4).map((c) => c.domain_id)]);
    expect(ids).toEqual([...expected].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const listed = byId(domains);
    for (const row of domainTable) {
      expect(listed.get(row.domain_id!), row.domain_id).toMatchObject({ domain_name: row.domain_name, domain_concept_id: Number(row.domain_concept_id) });
    }
    for (const d of domains) {
      expect(typeof d.description).toBe('string');
      expect(d.description.length).toBeGreaterThan(0);
      expect(d.concept_count).toBeUndefined();
      if (!domainTable.some((row) => row.domain_id === d.domain_id)) expect(d.domain_concept_id).toBeNull();
    }
  });

  it('include_stats: flat concept_count and standard_concept_count on every domain, as counted in CONCEPT (no CPT4 for this key)', async () => {
    const res = await t.request(`/v1/domains?include_stats=true&vocab_release=${release}`);
    expect(res.status).toBe(200);
    const visible = concepts.filter(visibleWithoutCpt4);
    const total = countBy(visible, (c) => c.domain_id);
    const standard = countBy(visible.filter((c) => c.standard_concept === 'S'), (c) => c.domain_id);
    for (const d of res.body.data.domains as DomainRow[]) {
      expect(d.concept_count, d.domain_id).toBe(total.get(d.domain_id) ?? 0);
      expect(d.standard_concept_count, d.domain_id).toBe(standard.get(d.domain_id) ?? 0);
    }
  });

  it('GET /v1/vocabularies/domains (E3) returns the same records in data.domains', async () => {
    const [e3, list] = await Promise.all([
      t.request(`/v1/vocabularies/domains?vocab_release=${release}`),
      t.request(`/v1/domains?vocab_release=${release}`),
    ]);
    expect(e3.status).toBe(200);
    expect(e3.body.meta.vocab_release).toBe(release);
    expect(e3.body.data.domains).toEqual(list.body.data.domains);
    for (const d of e3.body.data.domains) expect(Object.keys(d).sort()).toEqual(['description', 'domain_concept_id', 'domain_id', 'domain_name']);
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('domains without concepts, and licensed vocabularies (metadata fixture)', () => {
  const concepts = readSourceConcepts(fixtureDir);

  it('a domain listed in DOMAIN without concepts, and a spec-named domain the release lacks, have zero counts', async () => {
    const domains = byId((await t.request('/v1/domains?include_stats=true&vocab_release=2025.1')).body.data.domains);
    expect(concepts.some((c) => c.domain_id === 'Specimen')).toBe(false);
    expect(domains.get('Specimen')).toMatchObject({ domain_name: 'Specimen', concept_count: 0, standard_concept_count: 0 });
    expect(domains.get('Location')).toMatchObject({ domain_name: 'Location', domain_concept_id: null, concept_count: 0, standard_concept_count: 0 });
    expect(domains.get('Plan')).toMatchObject({ domain_name: 'Health Plan', domain_concept_id: null, concept_count: 0 });
    // A domain used by concepts but missing from DOMAIN is listed under its id.
    expect(domains.get('Lab Unit')).toMatchObject({ domain_name: 'Lab Unit', domain_concept_id: null, concept_count: 1 });
  });

  it('CPT4 counts only for a validated key; GPI and MedDRA never (spec Authentication 5)', async () => {
    const plain = byId((await t.request('/v1/domains?include_stats=true&vocab_release=2025.1')).body.data.domains);
    const validated = byId((await t.request('/v1/domains?include_stats=true&vocab_release=2025.1', { key: cpt4Key })).body.data.domains);
    const count = (filter: (c: { vocabulary_id: string }) => boolean, domain: string) => concepts.filter((c) => filter(c) && c.domain_id === domain).length;
    for (const domain of ['Drug', 'Observation', 'Condition']) {
      expect(plain.get(domain)!.concept_count, domain).toBe(count(visibleWithoutCpt4, domain));
      expect(validated.get(domain)!.concept_count, domain).toBe(count(visibleWithCpt4, domain));
    }
    // The fixture's Drug domain: 3 RxNorm, 1 CPT4, 1 GPI.
    expect(plain.get('Drug')!.concept_count).toBe(3);
    expect(validated.get('Drug')!.concept_count).toBe(4);
  });

  it('rejects a bad include_stats with 400 naming the parameter', async () => {
    const res = await t.request('/v1/domains?include_stats=perhaps');
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message).toContain('include_stats');
    expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
  });
});
