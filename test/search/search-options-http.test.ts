/**
 * GET /v1/search/concepts options through HTTPS: `sort_by`/`sort_order` (every value, against the
 * fixture's own rows sorted here) and the exact-match flag on an id, a code and a name (E4 query
 * parameters).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture, type FixtureConcept } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { concept } from './search-fixture.js';

// Every row contains the word "zebrafish"; names, codes, dates and vocabularies are in different orders.
const ROWS: FixtureConcept[] = [
  concept('Zebrafish gamma kappa', { concept_id: 8100005, concept_code: 'ZF300', vocabulary_id: 'SNOMED', valid_start_date: '20100101' }),
  concept('Zebrafish alpha', { concept_id: 8100003, concept_code: 'ZF500', vocabulary_id: 'LOINC', domain_id: 'Measurement', concept_class_id: 'Lab Test', valid_start_date: '20200101' }),
  concept('Zebrafish epsilon', { concept_id: 8100001, concept_code: 'ZF100', vocabulary_id: 'SNOMED', valid_start_date: '20100101' }),
  concept('Zebrafish delta', { concept_id: 8100004, concept_code: 'ZF400', vocabulary_id: 'RxNorm', domain_id: 'Drug', concept_class_id: 'Ingredient', valid_start_date: '19990101' }),
  concept('Zebrafish beta', { concept_id: 8100002, concept_code: 'ZF200', vocabulary_id: 'TESTVOC', standard_concept: null, valid_start_date: '20150601' }),
  concept('Reference to ZF300 zebrafish', { concept_id: 8100006, concept_code: 'ZF600', vocabulary_id: 'SNOMED', domain_id: 'Observation', valid_start_date: '20010101' }),
];
const [GAMMA, ALPHA, EPSILON, , , REFERENCE] = ROWS;
const ICD = concept('Zebrafish bite, initial encounter', {
  concept_id: 8100010, vocabulary_id: 'ICD10CM', concept_class_id: '5-char billing code', standard_concept: null, concept_code: 'W61.1',
});
const ICD_TARGET = concept('Bitten by fish', { concept_id: 8100011, concept_code: '8100011' });

let t: TestServer;
beforeAll(async () => {
  const dir = writeAthenaFixture({
    concepts: [...ROWS, ICD, ICD_TARGET],
    synonyms: [[EPSILON!.concept_id, 'Danio fish fifth']],
    relationships: [{ concept_id_1: ICD.concept_id, concept_id_2: ICD_TARGET.concept_id, relationship_id: 'Maps to' }],
  });
  t = await startTestServer({ releases: [{ dir, label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

interface Row {
  concept_id: number;
  concept_name: string;
  concept_code: string;
  vocabulary_id: string;
  valid_start_date: string;
}
const search = async (params: string) => {
  const res = await t.request(`/v1/search/concepts?${params}`);
  expect(res.status, `${params}: ${res.text}`).toBe(200);
  return res.body as { data: Row[]; meta: { search: { total_results: number; filters_applied: Record<string, unknown> } } };
};
const idsOf = (rows: readonly { concept_id: number }[]) => rows.map((r) => r.concept_id);

/** The fixture's zebrafish rows (all of them, and only them, match "zebrafish") sorted by a field, then concept_id. */
function expectedOrder(field: (c: FixtureConcept) => string | number): number[] {
  const key = (c: FixtureConcept) => field(c);
  return [...ROWS, ICD]
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      return ka < kb ? -1 : ka > kb ? 1 : a.concept_id - b.concept_id;
    })
    .map((c) => c.concept_id);
}

describe('sort_by and sort_order', () => {
  const fields: Array<[string, (c: FixtureConcept) => string | number]> = [
    ['name', (c) => c.concept_name],
    ['concept_name', (c) => c.concept_name],
    ['code', (c) => c.concept_code ?? ''],
    ['concept_code', (c) => c.concept_code ?? ''],
    ['date', (c) => c.valid_start_date ?? '19700101'],
    ['vocabulary_id', (c) => c.vocabulary_id ?? 'SNOMED'],
    ['concept_id', (c) => c.concept_id],
  ];

  for (const [sortBy, field] of fields) {
    it(`sort_by=${sortBy}: ascending by default and with sort_order=asc, reversed with sort_order=desc`, async () => {
      const want = expectedOrder(field);
      const byDefault = await search(`query=zebrafish&sort_by=${sortBy}`);
      expect(idsOf(byDefault.data)).toEqual(want);
      expect(byDefault.meta.search.total_results).toBe(want.length);
      expect(byDefault.meta.search.filters_applied).toMatchObject({ sort_by: sortBy, sort_order: 'asc' });
      expect(idsOf((await search(`query=zebrafish&sort_by=${sortBy}&sort_order=asc`)).data)).toEqual(want);
      const desc = await search(`query=zebrafish&sort_by=${sortBy}&sort_order=desc`);
      expect(idsOf(desc.data)).toEqual([...want].reverse());
      expect(desc.meta.search.filters_applied).toMatchObject({ sort_by: sortBy, sort_order: 'desc' });
    });
  }

  it('a sorted result pages like the whole sorted list', async () => {
    const want = expectedOrder((c) => c.concept_code ?? '');
    const pages = [];
    for (const page of [1, 2, 3, 4]) pages.push(...idsOf((await search(`query=zebrafish&sort_by=code&page_size=2&page=${page}`)).data));
    expect(pages).toEqual(want);
  });

  it('sort_by=relevance is the default order', async () => {
    const relevance = await search('query=zebrafish&sort_by=relevance');
    const plain = await search('query=zebrafish');
    expect(idsOf(relevance.data)).toEqual(idsOf(plain.data));
    expect(relevance.meta.search.filters_applied).not.toHaveProperty('sort_by');
    // relevance is not the name order here: the core-domain standard concepts first (E4 ranking rules 2 and 4)
    expect(idsOf(plain.data)).not.toEqual(expectedOrder((c) => c.concept_name));
  });

  it('an unknown sort_by or sort_order is a 400 naming the parameter', async () => {
    for (const [param, value] of [['sort_by', 'popularity'], ['sort_order', 'up']]) {
      const res = await t.request(`/v1/search/concepts?query=zebrafish&${param}=${value}`);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain(param);
    }
  });
});

describe('exact-match flag (E4: id, name, code or published synonym equals the query)', () => {
  it('on a concept_id: that concept only', async () => {
    const r = await search(`query=${GAMMA!.concept_id}&exact_match=true`);
    expect(idsOf(r.data)).toEqual([GAMMA!.concept_id]);
    expect(r.data[0]).toMatchObject({ match_type: 'exact', match_score: 1 });
    expect(r.meta.search.total_results).toBe(1);
    expect(r.meta.search.filters_applied).toMatchObject({ exact_match: true });
  });

  it('on a code, case-insensitively: that concept only, not concepts whose text contains the code', async () => {
    for (const q of ['ZF300', 'zf300']) {
      const r = await search(`query=${q}&exact_match=true`);
      expect(idsOf(r.data), q).toEqual([GAMMA!.concept_id]);
      expect(r.data[0]!.concept_code).toBe('ZF300');
    }
    // without the flag, the concept whose name contains the code follows
    expect(idsOf((await search('query=ZF300')).data)).toEqual([GAMMA!.concept_id, REFERENCE!.concept_id]);
  });

  it('on a code-shaped query: the code match only, not its Maps to target (E4 ranking rule 1 without the flag)', async () => {
    expect(idsOf((await search('query=W61.1')).data)).toEqual([ICD.concept_id, ICD_TARGET.concept_id]);
    expect(idsOf((await search('query=W61.1&exact_match=true')).data)).toEqual([ICD.concept_id]);
  });

  it('on a name or a published synonym: equal text only, not containing text', async () => {
    expect(idsOf((await search('query=zebrafish%20ALPHA&exact_match=true')).data)).toEqual([ALPHA!.concept_id]);
    expect(idsOf((await search('query=danio%20fish%20fifth&exact_match=true')).data)).toEqual([EPSILON!.concept_id]);
    const none = await search('query=zebrafish&exact_match=true');
    expect(none.data).toEqual([]);
    expect(none.meta.search.total_results).toBe(0);
  });
});
