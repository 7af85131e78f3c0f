/**
 * GET /v1/vocabularies/search, /v1/vocabularies/{id}, /{id}/stats and /{id}/stats/domains/{domain_id}
 * (client-compatibility §1.5, §2) through HTTPS: ranking, every statistics field against counts
 * computed here from the fixture CONCEPT files, route order beside the static /v1/vocabularies/*
 * paths, unknown ids, bad parameters and licence rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.js';
import { countBy, DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR, readSourceConcepts, readSourceTable, visibleWithoutCpt4, type SourceConcept } from './concept-file.js';
import { startMetadataServer, writeMetadataFixture } from './metadata-fixture.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-gibleed-2019');

const fixtureDir = writeMetadataFixture();
let t: TestServer;
let cpt4Key: string;
beforeAll(async () => ({ t, cpt4Key } = await startMetadataServer(fixtureDir)), 120_000);
afterAll(async () => {
  await t?.close();
});

const minOf = (values: string[]) => values.reduce((a, b) => (b < a ? b : a));
const maxOf = (values: string[]) => values.reduce((a, b) => (b > a ? b : a));

/** The §1.5 statistics of a set of concepts, computed from the source rows. */
function expectedCounts(concepts: SourceConcept[]) {
  const standard = concepts.filter((c) => c.standard_concept === 'S').length;
  const classification = concepts.filter((c) => c.standard_concept === 'C').length;
  const invalid = concepts.filter((c) => c.invalid_reason !== null).length;
  return {
    total_concepts: concepts.length,
    standard_concepts: standard,
    classification_concepts: classification,
    non_standard_concepts: concepts.length - standard - classification,
    invalid_concepts: invalid,
    active_concepts: concepts.length - invalid,
    valid_start_date: concepts.length ? minOf(concepts.map((c) => c.valid_start_date)) : null,
    valid_end_date: concepts.length ? maxOf(concepts.map((c) => c.valid_end_date)) : null,
    last_updated: concepts.length ? maxOf(concepts.map((c) => c.valid_start_date)) : null,
  };
}

// No rows without the data (they are read while collecting): the suite is skipped then.
describe.skipIf(MISSING_SHARED_VOCAB).each(MISSING_SHARED_VOCAB ? [] : [
  ['demo vocabulary', '2025.2', DEMO_VOCABULARY_DIR],
  ['eunomia-gibleed-2019', '2019.1', EUNOMIA_GIBLEED_DIR],
])('vocabulary statistics on the %s', (_name, release, dir) => {
  const concepts = readSourceConcepts(dir).filter(visibleWithoutCpt4);
  const vocabularies = [...new Set(concepts.map((c) => c.vocabulary_id))];
  const domainNames = new Map(readSourceTable(dir, 'DOMAIN.csv').map((d) => [d.domain_id!, d.domain_name!]));

  it('GET /v1/vocabularies/{id}/stats: every field as counted in CONCEPT, domains largest first', async () => {
    for (const vocabularyId of vocabularies) {
      const res = await t.request(`/v1/vocabularies/${encodeURIComponent(vocabularyId)}/stats?vocab_release=${release}`);
      expect(res.status, vocabularyId).toBe(200);
      const own = concepts.filter((c) => c.vocabulary_id === vocabularyId);
      const { domain_distribution, ...rest } = res.body.data;
      expect(rest, vocabularyId).toMatchObject({ vocabulary_id: vocabularyId, ...expectedCounts(own) });
      const perDomain = [...countBy(own, (c) => c.domain_id)].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      expect(domain_distribution, vocabularyId).toEqual(
        perDomain.map(([domain_id, concept_count]) => ({ domain_id, domain_name: domainNames.get(domain_id) ?? domain_id, concept_count })),
      );
    }
  });

  it('GET /v1/vocabularies/{id}/stats/domains/{domain_id}: counts and class breakdown as counted in CONCEPT', async () => {
    const classNames = new Map(readSourceTable(dir, 'CONCEPT_CLASS.csv').map((c) => [c.concept_class_id!, c.concept_class_name!]));
    for (const vocabularyId of vocabularies) {
      for (const domainId of new Set(concepts.filter((c) => c.vocabulary_id === vocabularyId).map((c) => c.domain_id))) {
        const path = `/v1/vocabularies/${encodeURIComponent(vocabularyId)}/stats/domains/${encodeURIComponent(domainId)}?vocab_release=${release}`;
        const res = await t.request(path);
        expect(res.status, path).toBe(200);
        const own = concepts.filter((c) => c.vocabulary_id === vocabularyId && c.domain_id === domainId);
        expect(res.body.data.vocabulary.vocabulary_id).toBe(vocabularyId);
        expect(res.body.data.domain).toMatchObject({ domain_id: domainId, domain_name: domainNames.get(domainId) ?? domainId });
        expect(res.body.data.statistics, path).toEqual(expectedCounts(own));
        const perClass = [...countBy(own, (c) => c.concept_class_id)].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        expect(res.body.data.concept_class_breakdown, path).toEqual(
          perClass.map(([concept_class_id, concept_count]) => ({ concept_class_id, concept_class_name: classNames.get(concept_class_id) ?? concept_class_id, concept_count })),
        );
      }
    }
  });

  it('GET /v1/vocabularies/{id}: the list record with its counts', async () => {
    const list = await t.request(`/v1/vocabularies?include_stats=true&page_size=200&vocab_release=${release}`);
    for (const vocabularyId of vocabularies) {
      const res = await t.request(`/v1/vocabularies/${encodeURIComponent(vocabularyId)}?vocab_release=${release}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(list.body.data.vocabularies.find((v: { vocabulary_id: string }) => v.vocabulary_id === vocabularyId));
      expect(res.body.data.concept_count).toBe(concepts.filter((c) => c.vocabulary_id === vocabularyId).length);
    }
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('GET /v1/vocabularies/search', () => {
  const demoVocabularies = readSourceTable(DEMO_VOCABULARY_DIR, 'VOCABULARY.csv');
  const demoConcepts = readSourceConcepts(DEMO_VOCABULARY_DIR);
  const withConcepts = (id: string) => demoConcepts.some((c) => c.vocabulary_id === id);
  const ids = (res: { body: { data: { vocabularies: Array<{ vocabulary_id: string }> } } }) => res.body.data.vocabularies.map((v) => v.vocabulary_id);

  it('finds by id and name, case-insensitive: exact id, then id prefix, then name words', async () => {
    const res = await t.request('/v1/vocabularies/search?query=icd10');
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(['ICD10', 'ICD10CM']);
    expect(res.body.meta.pagination).toMatchObject({ total_items: 2, page: 1 });

    const clinical = await t.request('/v1/vocabularies/search?query=CLINICAL');
    const named = demoVocabularies.filter((v) => /\bclinical\b/i.test(v.vocabulary_name!) && withConcepts(v.vocabulary_id!)).map((v) => v.vocabulary_id);
    expect(ids(clinical).sort()).toEqual(named.sort());
    expect(ids(clinical)[0]).toBe('SNOMED'); // tie on name words: the authority order puts SNOMED before ICD10CM

    const race = await t.request('/v1/vocabularies/search?query=race');
    expect(ids(race)[0]).toBe('Race'); // exact id before the name word in "Race and Ethnicity Code Set"
    const words = await t.request('/v1/vocabularies/search?query=observation%20identifiers');
    expect(ids(words)).toEqual(['LOINC']);
  });

  it('pages, and finds nothing for an unknown text', async () => {
    const all = await t.request('/v1/vocabularies/search?query=omop&page_size=2');
    const expected = demoVocabularies.filter((v) => /omop/i.test(`${v.vocabulary_id} ${v.vocabulary_name}`) && withConcepts(v.vocabulary_id!));
    expect(all.body.meta.pagination).toMatchObject({ total_items: expected.length, page_size: 2, has_next: true });
    const second = await t.request('/v1/vocabularies/search?query=omop&page_size=2&page=2');
    expect(second.body.data.vocabularies).toHaveLength(2);
    expect(ids(second).some((id) => ids(all).includes(id))).toBe(false);
    const none = await t.request('/v1/vocabularies/search?query=zzz-no-such-thing-xyz-abc');
    expect(none.status).toBe(200);
    expect(none.body.data.vocabularies).toEqual([]);
  });

  it('never finds GPI or MedDRA, and CPT4 only with a validated key', async () => {
    expect(ids(await t.request('/v1/vocabularies/search?query=cpt4&vocab_release=2025.1'))).toEqual([]);
    expect(ids(await t.request('/v1/vocabularies/search?query=cpt4&vocab_release=2025.1', { key: cpt4Key }))).toEqual(['CPT4']);
    // Only MedDRA's name ("Medical Dictionary for Regulatory Activities") has the word.
    expect(ids(await t.request('/v1/vocabularies/search?query=medical%20dictionary&vocab_release=2025.1', { key: cpt4Key }))).toEqual([]);
    expect(ids(await t.request('/v1/vocabularies/search?query=medicine&vocab_release=2025.1', { key: cpt4Key }))).toEqual(['SNOMED']);
    expect(ids(await t.request('/v1/vocabularies/search?query=gpi&vocab_release=2025.1', { key: cpt4Key }))).toEqual([]);
  });

  it.each([
    ['', 'query'],
    ['?query=', 'query'],
    ['?query=%20%20', 'query'],
    ['?query=x&page=0', 'page'],
    ['?query=x&include_stats=maybe', 'include_stats'],
  ])('%s → 400 validation_error naming %s', async (query, parameter) => {
    const res = await t.request(`/v1/vocabularies/search${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message).toContain(parameter);
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('route order, unknown ids and licence rules', () => {
  it('the static paths beside /v1/vocabularies/{id} keep their own answers', async () => {
    const releases = await t.request('/v1/vocabularies/releases');
    expect(releases.body.data.releases.map((r: { label: string }) => r.label).sort()).toEqual(['2019.1', '2025.1', '2025.2']);
    expect(Array.isArray((await t.request('/v1/vocabularies/domains')).body.data.domains)).toBe(true);
    expect(Array.isArray((await t.request('/v1/vocabularies/concept-classes')).body.data)).toBe(true);
    expect((await t.request('/v1/vocabularies/search?query=snomed')).body.data.vocabularies[0].vocabulary_id).toBe('SNOMED');
    expect((await t.request('/v1/vocabularies/SNOMED')).body.data.vocabulary_id).toBe('SNOMED');
    expect((await t.request('/v1/vocabularies/Domain')).body.data.vocabulary_id).toBe('Domain');
  });

  it('an unknown vocabulary is 404 vocabulary_not_found on every path; an unknown domain is 404 not_found', async () => {
    for (const path of [
      '/v1/vocabularies/THIS_VOCAB_DOES_NOT_EXIST',
      '/v1/vocabularies/THIS_VOCAB_DOES_NOT_EXIST/stats',
      '/v1/vocabularies/THIS_VOCAB_DOES_NOT_EXIST/stats/domains/Condition',
    ]) {
      const res = await t.request(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('vocabulary_not_found');
      expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
    }
    const domain = await t.request('/v1/vocabularies/SNOMED/stats/domains/NotARealDomain');
    expect(domain.status).toBe(404);
    expect(domain.body.error.code).toBe('not_found');
  });

  it('a known domain without concepts of the vocabulary has zero counts; a vocabulary without concepts too', async () => {
    const res = await t.request('/v1/vocabularies/SNOMED/stats/domains/Specimen?vocab_release=2025.1');
    expect(res.status).toBe(200);
    expect(res.body.data.statistics).toMatchObject({ total_concepts: 0, active_concepts: 0, valid_start_date: null, last_updated: null });
    expect(res.body.data.concept_class_breakdown).toEqual([]);
    const empty = await t.request('/v1/vocabularies/RxNorm%20Extension/stats?vocab_release=2025.1');
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({ vocabulary_id: 'RxNorm Extension', total_concepts: 0, domain_distribution: [] });
  });

  it('GPI and MedDRA are 403 for every key, CPT4 without validation 403 (spec Authentication 5)', async () => {
    for (const id of ['GPI', 'MedDRA']) {
      for (const suffix of ['', '/stats', '/stats/domains/Drug']) {
        const res = await t.request(`/v1/vocabularies/${id}${suffix}?vocab_release=2025.1`, { key: cpt4Key });
        expect(res.status, `${id}${suffix}`).toBe(403);
        expect(res.body.error.code).toBe('vocabulary_restricted');
      }
    }
    expect((await t.request('/v1/vocabularies/CPT4/stats?vocab_release=2025.1')).status).toBe(403);
    const validated = await t.request('/v1/vocabularies/CPT4/stats?vocab_release=2025.1', { key: cpt4Key });
    expect(validated.status).toBe(200);
    expect(validated.body.data.total_concepts).toBe(readSourceConcepts(fixtureDir).filter((c) => c.vocabulary_id === 'CPT4').length);
  });
});
