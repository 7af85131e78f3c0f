/** Search endpoints through the public HTTPS surface: shapes of the client contract (§1.2), licence rules, errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { concept } from './search-fixture.js';

const T2DM = concept('Type 2 diabetes mellitus', { concept_id: 201826, concept_code: '44054006' });
const DM = concept('Diabetes mellitus', { concept_id: 201820, concept_code: '73211009' });
const ICD = concept('Type 2 diabetes mellitus without complications', {
  concept_id: 45576876, vocabulary_id: 'ICD10CM', concept_class_id: '5-char billing code', standard_concept: null, concept_code: 'E11.9',
});
const ASPIRIN = concept('aspirin', { concept_id: 1112807, vocabulary_id: 'RxNorm', domain_id: 'Drug', concept_class_id: 'Ingredient', concept_code: '1191' });
const CPT = concept('Diabetes outpatient visit', { concept_id: 2414397, vocabulary_id: 'CPT4', domain_id: 'Procedure', concept_class_id: 'CPT4', concept_code: '99213' });
const GPI = concept('Diabetes drug group', { concept_id: 7000002, vocabulary_id: 'GPI', domain_id: 'Drug', standard_concept: null, concept_code: '27250050' });
const MEDDRA = concept('Diabetes MedDRA term', { concept_id: 7000003, vocabulary_id: 'MedDRA', standard_concept: null, concept_code: '10012601' });
const UNICODE = concept('Сахарный диабет', { concept_id: 7000004, vocabulary_id: 'TESTVOC', standard_concept: null, concept_code: 'RU1' });
const UNICODE_ZH = concept('糖尿病', { concept_id: 7000005, vocabulary_id: 'TESTVOC', standard_concept: null, concept_code: 'ZH1' });
const PUNCTUATED = concept('C++ allergy & why? #1 thing', { concept_id: 7000006, vocabulary_id: 'TESTVOC', domain_id: 'Observation', standard_concept: null, concept_code: 'P1' });

let t: TestServer;
let cpt4Key: string;
beforeAll(async () => {
  const dir = writeAthenaFixture({
    concepts: [T2DM, DM, ICD, ASPIRIN, CPT, GPI, MEDDRA, UNICODE, UNICODE_ZH, PUNCTUATED],
    synonyms: [[T2DM.concept_id, 'Diabetes mellitus type 2']],
    relationships: [
      { concept_id_1: ICD.concept_id, concept_id_2: T2DM.concept_id, relationship_id: 'Maps to' },
      { concept_id_1: T2DM.concept_id, concept_id_2: ICD.concept_id, relationship_id: 'Mapped from' },
      { concept_id_1: T2DM.concept_id, concept_id_2: DM.concept_id, relationship_id: 'Is a' },
      { concept_id_1: DM.concept_id, concept_id_2: T2DM.concept_id, relationship_id: 'Subsumes' },
    ],
  });
  t = await startTestServer({ releases: [{ dir, label: '2025.2', makeDefault: true }] });
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string, key?: string) => t.request(path, key ? { key } : {});

describe('GET /v1/search/concepts', () => {
  it('returns data as a bare Concept[] with meta.pagination and meta.search', async () => {
    const res = await get('/v1/search/concepts?query=diabetes&vocabulary_ids=SNOMED&include_synonyms=true');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.data)).toBe(true);
    expect(res.body.data[0].concept_name.toLowerCase()).toContain('diab');
    expect(res.body.data[0]).toMatchObject({ vocabulary_id: 'SNOMED', match_type: 'partial' });
    expect(typeof res.body.data[0].match_score).toBe('number');
    expect(res.body.data.find((c: { concept_id: number }) => c.concept_id === 201826).synonyms).toEqual([
      { concept_synonym_name: 'Diabetes mellitus type 2', language_concept_id: 4180186 },
    ]);
    expect(res.body.meta.search).toEqual({ query: 'diabetes', total_results: 2, filters_applied: { vocabulary_ids: ['SNOMED'] } });
    expect(res.body.meta.pagination).toEqual({ page: 1, page_size: 20, total_items: 2, total_pages: 1, has_next: false, has_previous: false });
  });

  it('has no synonyms field without include_synonyms', async () => {
    const res = await get('/v1/search/concepts?query=diabetes');
    for (const c of res.body.data) expect(c).not.toHaveProperty('synonyms');
  });

  it('accepts vocabularies as an alias of vocabulary_ids, standard_concept, exact_match and page_size=1', async () => {
    const alias = await get('/v1/search/concepts?vocabularies=ICD10CM&query=diabetes');
    expect(alias.body.data.map((c: { concept_id: number }) => c.concept_id)).toEqual([ICD.concept_id]);
    const std = await get('/v1/search/concepts?query=diabetes&standard_concept=S');
    expect(std.body.data.every((c: { standard_concept: string }) => c.standard_concept === 'S')).toBe(true);
    const exact = await get('/v1/search/concepts?query=type%202%20diabetes%20mellitus&exact_match=true');
    expect(exact.body.data.map((c: { concept_id: number }) => c.concept_id)).toEqual([T2DM.concept_id]);
    expect(exact.body.data[0].match_type).toBe('exact');
    const plus = await get('/v1/search/concepts?query=diabetes&concept_class_ids=5-char+billing+code%2CIngredient');
    expect(plus.body.data.map((c: { concept_id: number }) => c.concept_id)).toEqual([ICD.concept_id]);
    expect(plus.body.meta.search.filters_applied).toEqual({ concept_class_ids: ['5-char billing code', 'Ingredient'] });
    const one = await get('/v1/search/concepts?query=diabetes&page_size=1&page=2');
    expect(one.body.data).toHaveLength(1);
    expect(one.body.meta.pagination).toMatchObject({ page: 2, page_size: 1, has_previous: true });
  });

  it('clamps page_size above 200 and returns the bare ICD10CM code first, then its Maps to target', async () => {
    const res = await get('/v1/search/concepts?query=E11.9&page_size=1000');
    expect(res.body.meta.pagination.page_size).toBe(200);
    expect(res.body.data.map((c: { concept_id: number }) => c.concept_id).slice(0, 2)).toEqual([ICD.concept_id, T2DM.concept_id]);
  });

  it('rejects too-broad queries with 400 validation_error', async () => {
    for (const q of ['d', 'di', '%20di%20']) {
      const res = await get(`/v1/search/concepts?query=${q}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toMatch(/too broad/);
    }
    const missing = await get('/v1/search/concepts');
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('validation_error');
    expect(missing.body.error.message).toMatch(/query/);
    // the whole-query abbreviation MI is accepted (E4 matching rule 1) and searched as its expansion
    const mi = await get('/v1/search/concepts?query=MI');
    expect(mi.status).toBe(200);
    expect(mi.body.meta.search.filters_applied.abbreviation_expanded).toEqual({ MI: ['myocardial infarction'] });
    expect(mi.body.data).toEqual([]);
  });

  it('handles unicode, +, &, ? and # in the query', async () => {
    const ru = await get(`/v1/search/concepts?query=${encodeURIComponent('диабет')}`);
    expect(ru.status).toBe(200);
    expect(ru.body.data.map((c: { concept_id: number }) => c.concept_id)).toEqual([UNICODE.concept_id]);
    const expected: Array<[string, number[]]> = [
      ['糖尿病', [UNICODE_ZH.concept_id]],
      ['C++ allergy', [PUNCTUATED.concept_id]],
      ['allergy & thing', [PUNCTUATED.concept_id]],
      ['why?', [PUNCTUATED.concept_id]],
      ['#1 thing', [PUNCTUATED.concept_id]],
      ['a & b', []],
      ['zzz-no-such-thing-xyz-abc', []],
    ];
    for (const [q, want] of expected) {
      const res = await get(`/v1/search/concepts?query=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(res.body.data.map((c: { concept_id: number }) => c.concept_id), q).toEqual(want);
      expect(res.body.meta.search.query, q).toBe(q);
      expect(res.body.meta.search.total_results, q).toBe(want.length);
    }
  });

  it('never returns GPI or MedDRA, hides CPT4 without a validation, and 403s a request for a hidden vocabulary', async () => {
    const res = await get('/v1/search/concepts?query=diabetes&page_size=200');
    const vocabs = res.body.data.map((c: { vocabulary_id: string }) => c.vocabulary_id);
    expect(vocabs).not.toContain('GPI');
    expect(vocabs).not.toContain('MedDRA');
    expect(vocabs).not.toContain('CPT4');
    expect(res.body.meta.search.total_results).toBe(res.body.data.length);
    const code = await get('/v1/search/concepts?query=99213');
    expect(code.body.data).toEqual([]);
    const denied = await get('/v1/search/concepts?query=diabetes&vocabulary_ids=CPT4');
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('vocabulary_restricted');
    const licensed = await get('/v1/search/concepts?query=diabetes&vocabulary_ids=CPT4', cpt4Key);
    expect(licensed.body.data.map((c: { concept_id: number }) => c.concept_id)).toEqual([CPT.concept_id]);
    const never = await get('/v1/search/concepts?query=diabetes&vocabulary_ids=GPI', cpt4Key);
    expect(never.status).toBe(403);
    expect(never.body.error).toMatchObject({ code: 'vocabulary_restricted', details: { vocabulary_id: 'GPI' } });
  });
});

describe('autocomplete', () => {
  it('GET /v1/search/suggest echoes the query and returns {suggestion: Concept, match_score, match_type}', async () => {
    const res = await get('/v1/search/suggest?query=diab&page_size=5');
    expect(res.status).toBe(200);
    expect(res.body.data.query).toBe('diab');
    expect(res.body.data.suggestions.length).toBeGreaterThan(0);
    const first = res.body.data.suggestions[0];
    expect(typeof first.suggestion.concept_id).toBe('number');
    expect(typeof first.suggestion.concept_name).toBe('string');
    expect(first.suggestion.concept_name.toLowerCase()).toContain('diab');
    expect(typeof first.match_score).toBe('number');
    expect(['exact', 'partial']).toContain(first.match_type);
  });

  it('GET /v1/concepts/suggest returns {suggestions:[…], query} with concept fields and a suggestion string', async () => {
    const res = await get('/v1/concepts/suggest?query=di&domain_ids=Condition');
    expect(res.status).toBe(200);
    expect(res.body.data.query).toBe('di');
    expect(res.body.data.suggestions.length).toBeGreaterThan(0);
    for (const s of res.body.data.suggestions) {
      expect(s.suggestion).toBe(s.concept_name);
      expect(s.domain_id).toBe('Condition');
      expect(s.suggestion.toLowerCase()).toContain('diabetes');
    }
    expect(res.body.meta.pagination.page).toBe(1);
  });

  it('suggest with the domains filter, and paging', async () => {
    const res = await get('/v1/search/suggest?query=diab&domains=Condition&page_size=1');
    expect(res.body.data.suggestions).toHaveLength(1);
    expect(res.body.meta.pagination.has_next).toBe(true);
    const next = await get('/v1/search/suggest?query=diab&domains=Condition&page_size=1&page=2');
    expect(next.body.data.suggestions[0].suggestion.concept_id).not.toBe(res.body.data.suggestions[0].suggestion.concept_id);
  });
});

describe('facets, bulk, advanced, vocabulary concepts', () => {
  it('GET /v1/search/facets counts by vocabulary, domain, class and standard flag', async () => {
    const res = await get('/v1/search/facets?query=diabetes');
    expect(res.status).toBe(200);
    expect(res.body.data.query).toBe('diabetes');
    expect(res.body.data.facets.vocabularies).toEqual(
      expect.arrayContaining([expect.objectContaining({ vocabulary_id: 'SNOMED', value: 'SNOMED', count: 2 }), expect.objectContaining({ vocabulary_id: 'ICD10CM', count: 1 })]),
    );
    expect(res.body.data.facets.standard_concepts).toEqual(
      expect.arrayContaining([expect.objectContaining({ standard_concept: 'S', count: 2 }), expect.objectContaining({ standard_concept: 'N', count: 1 })]),
    );
    expect(res.body.data.complete).toBe(true);
    const legacy = await get('/v1/concepts/search/facets?query=diabetes');
    expect(legacy.status).toBe(200);
    expect(legacy.body.data).toEqual(res.body.data);
  });

  it('POST /v1/search/bulk returns a bare array in input order with per-search failure isolation', async () => {
    const res = await t.request('/v1/search/bulk', {
      method: 'POST',
      body: {
        searches: [
          { search_id: 'a', query: 'diabetes', vocabulary_ids: ['SNOMED'] },
          { search_id: 'b', query: 'x' },
          { search_id: 'c', query: 'aspirin' },
          { search_id: 'd', query: 'diabetes', vocabulary_ids: 'CPT4' },
          { search_id: 'e', query: 'diabetes' },
        ],
        defaults: { domain_ids: ['Condition', 'Drug'], page_size: 1 },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { search_id: string }) => r.search_id)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(res.body.data.map((r: { status: string }) => r.status)).toEqual(['completed', 'failed', 'completed', 'failed', 'completed']);
    expect(res.body.data[0].results).toHaveLength(1);
    expect(res.body.data[0].results[0].vocabulary_id).toBe('SNOMED');
    expect(res.body.data[1].error).toMatch(/too broad/);
    expect(res.body.data[2].results[0].concept_id).toBe(ASPIRIN.concept_id);
    expect(res.body.data[3].error).toMatch(/CPT4/);
    expect(res.body.data[4].results).toHaveLength(1);
  });

  it('POST /v1/search/bulk counts total_results only for searches that ask for it (include_total)', async () => {
    const res = await t.request('/v1/search/bulk', {
      method: 'POST',
      body: {
        searches: [
          { search_id: 'plain', query: 'diabetes' },
          { search_id: 'counted', query: 'diabetes', include_total: true, page_size: 1 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data[0].total_results).toBeUndefined();
    const single = await t.request('/v1/search/concepts?query=diabetes');
    expect(res.body.data[1].total_results).toBe(single.body.meta.search.total_results);
    expect(res.body.data[1].results).toHaveLength(1);
    const viaDefaults = await t.request('/v1/search/bulk', {
      method: 'POST',
      body: { searches: [{ search_id: 'x', query: 'diabetes' }], defaults: { include_total: true } },
    });
    expect(viaDefaults.body.data[0].total_results).toBe(single.body.meta.search.total_results);
  });

  it('POST /v1/search/bulk rejects 0 or more than 50 searches', async () => {
    const many = Array.from({ length: 51 }, (_, i) => ({ search_id: String(i), query: 'diabetes' }));
    for (const searches of [[], many]) {
      const refused = await t.request('/v1/search/bulk', { method: 'POST', body: { searches } });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ success: false, error: { code: 'validation_error' } });
      expect(refused.body.error.message).toMatch(/searches/);
    }
    const fifty = many.slice(0, 50);
    const ok = await t.request('/v1/search/bulk', { method: 'POST', body: { searches: fifty } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toHaveLength(50);
    // (a 50-search request on an idle server is split with a helper thread: order and results must not show it)
    expect(ok.body.data.map((o: { search_id: string }) => o.search_id)).toEqual(fifty.map((s) => s.search_id));
    const first = JSON.stringify(ok.body.data[0].results);
    expect(ok.body.data[0].results.length).toBeGreaterThan(0);
    for (const o of ok.body.data) expect(JSON.stringify(o.results)).toBe(first);
    const unnamed = await t.request('/v1/search/bulk', { method: 'POST', body: { searches: Array.from({ length: 12 }, () => ({ query: 'asthma' })) } });
    expect(unnamed.body.data.map((o: { search_id: string }) => o.search_id)).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)));
  });

  it('POST /v1/search/advanced applies body filters and relationship_filters', async () => {
    const res = await t.request('/v1/search/advanced', {
      method: 'POST',
      body: { query: 'diabetes', standard_concepts_only: true, relationship_filters: [{ relationship_id: 'Is a', target_concept_id: DM.concept_id }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual([T2DM.concept_id]);
    expect(res.body.data.search_metadata).toMatchObject({ query: 'diabetes', total_results: 1, total_is_exact: true });
    const reverse = await t.request('/v1/search/advanced', {
      method: 'POST',
      body: { query: 'diabetes', relationship_filters: [{ relationship_id: 'Maps to', direction: 'reverse' }] },
    });
    expect(reverse.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual([T2DM.concept_id]);
    const legacy = await t.request('/v1/concepts/search/advanced', { method: 'POST', body: { query: 'diabetes', vocabularies: ['ICD10CM'], limit: 5 } });
    expect(legacy.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual([ICD.concept_id]);
    expect(legacy.body.meta.pagination.page_size).toBe(5);
  });

  it('GET /v1/vocabularies/{id}/concepts?search= returns a bare Concept[] of that vocabulary', async () => {
    const res = await get('/v1/vocabularies/SNOMED/concepts?search=diabetes');
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { concept_id: number }) => c.concept_id)).toEqual([DM.concept_id, T2DM.concept_id]);
    expect(res.body.meta.pagination.total_items).toBe(2);
    const browse = await get('/v1/vocabularies/SNOMED/concepts?sort_by=name&page_size=1');
    expect(browse.body.data).toHaveLength(1);
    expect(browse.body.data[0].concept_name).toBe('Diabetes mellitus');
    expect(browse.body.meta.pagination.total_items).toBe(2);
    const restricted = await get('/v1/vocabularies/CPT4/concepts?search=diabetes');
    expect(restricted.status).toBe(403);
    expect(restricted.body.error.code).toBe('vocabulary_restricted');
    const unknown = await get('/v1/vocabularies/NOPE/concepts');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/NOPE/);
  });
});
