/**
 * GET /v1/domains/{domain_id}/concepts (client-compatibility §1.5) through HTTPS: every page, its
 * order (the documented browse order) and the exact total_items match the concepts selected here from the fixture
 * CONCEPT files; filters, paging, unknown domains, bad parameters and licence rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.js';
import { DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR, readSourceConcepts, visibleWithCpt4, visibleWithoutCpt4, type SourceConcept } from './concept-file.js';
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

/** Every page of a query, following has_next; checks the pagination block of each. */
async function allPages(path: string, pageSize: number, key?: string): Promise<{ ids: number[]; total: number; first: Record<string, unknown>[] }> {
  const ids: number[] = [];
  let total = -1;
  let first: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const res = await t.request(`${path}${path.includes('?') ? '&' : '?'}page=${page}&page_size=${pageSize}`, { key });
    expect(res.status, res.text).toBe(200);
    const p = res.body.meta.pagination;
    if (page === 1) {
      total = p.total_items;
      first = res.body.data.concepts;
    }
    expect(p).toMatchObject({ page, page_size: pageSize, total_items: total, total_pages: Math.max(1, Math.ceil(total / pageSize)), has_previous: page > 1 });
    ids.push(...res.body.data.concepts.map((c: { concept_id: number }) => c.concept_id));
    if (!p.has_next) break;
  }
  return { ids, total, first };
}

/**
 * The documented browse order: valid before invalid; standard, classification, non-standard; then
 * vocabulary_id; then concept_id.
 */
const standardRank = (c: SourceConcept) => (c.standard_concept === 'S' ? 0 : c.standard_concept === 'C' ? 1 : 2);
const browseOrder = (a: SourceConcept, b: SourceConcept) =>
  Number(a.invalid_reason !== null) - Number(b.invalid_reason !== null) ||
  standardRank(a) - standardRank(b) ||
  (a.vocabulary_id < b.vocabulary_id ? -1 : a.vocabulary_id > b.vocabulary_id ? 1 : 0) ||
  a.concept_id - b.concept_id;

const expectedIds = (concepts: SourceConcept[], keep: (c: SourceConcept) => boolean) =>
  concepts.filter(keep).sort(browseOrder).map((c) => c.concept_id);

// No rows without the data (they are read while collecting): the suite is skipped then.
describe.skipIf(MISSING_SHARED_VOCAB).each(MISSING_SHARED_VOCAB ? [] : [
  ['demo vocabulary', '2025.2', DEMO_VOCABULARY_DIR, ['Condition', 'Drug', 'Measurement', 'Metadata', 'Observation']],
  ['eunomia-gibleed-2019', '2019.1', EUNOMIA_GIBLEED_DIR, ['Drug', 'Condition', 'Measurement']],
])('on the %s', (_name, release, dir, domains) => {
  const concepts = readSourceConcepts(dir);
  const valid = (c: SourceConcept) => visibleWithoutCpt4(c) && c.invalid_reason === null;

  it.each(domains)('%s: every page in browse order, valid concepts only by default, exact total_items', async (domain) => {
    const expected = expectedIds(concepts, (c) => valid(c) && c.domain_id === domain);
    expect(expected.length).toBeGreaterThan(0);
    const { ids, total } = await allPages(`/v1/domains/${encodeURIComponent(domain)}/concepts?vocab_release=${release}`, 7);
    expect(total).toBe(expected.length);
    expect(ids).toEqual(expected);
  });

  it('standard_only, include_invalid and vocabulary_ids select exactly the concepts the CONCEPT file says', async () => {
    const domain = domains[0]!;
    const inDomain = concepts.filter((c) => visibleWithoutCpt4(c) && c.domain_id === domain);
    const vocabularies = [...new Set(inDomain.map((c) => c.vocabulary_id))].sort();
    const cases: Array<[string, (c: SourceConcept) => boolean]> = [
      ['standard_only=true', (c) => c.standard_concept === 'S' && c.invalid_reason === null],
      ['include_invalid=true', () => true],
      ['standard_only=true&include_invalid=true', (c) => c.standard_concept === 'S'],
      [`vocabulary_ids=${vocabularies[0]}`, (c) => c.vocabulary_id === vocabularies[0] && c.invalid_reason === null],
      [`vocabulary_ids=${vocabularies.join(',')}&include_invalid=true`, () => true],
    ];
    for (const [query, keep] of cases) {
      const { ids, total } = await allPages(`/v1/domains/${encodeURIComponent(domain)}/concepts?vocab_release=${release}&${query}`, 50);
      const expected = expectedIds(inDomain, keep);
      expect(total, query).toBe(expected.length);
      expect(ids, query).toEqual(expected);
    }
  });

  it('returns full concept records', async () => {
    const domain = domains[0]!;
    const { first } = await allPages(`/v1/domains/${domain}/concepts?vocab_release=${release}`, 3);
    const source = new Map(concepts.map((c) => [c.concept_id, c]));
    for (const c of first) {
      const s = source.get(c.concept_id as number)!;
      expect(c).toEqual({ ...s });
    }
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('defaults, unknown domains, bad parameters and licence rules', () => {
  const fixture = readSourceConcepts(fixtureDir);

  it('page_size defaults to 50 and values above 200 are clamped', async () => {
    const res = await t.request('/v1/domains/Condition/concepts');
    expect(res.body.meta.pagination).toMatchObject({ page: 1, page_size: 50, has_previous: false });
    const big = await t.request('/v1/domains/Condition/concepts?page_size=5000');
    expect(big.body.meta.pagination.page_size).toBe(200);
  });

  it('an unknown domain, a domain without concepts and a page past the end give 200 with an empty list', async () => {
    for (const path of ['/v1/domains/NotARealDomain/concepts', '/v1/domains/Specimen/concepts?vocab_release=2025.1', '/v1/domains/Condition/concepts?page=9999']) {
      const res = await t.request(path);
      expect(res.status, path).toBe(200);
      expect(res.body.data.concepts, path).toEqual([]);
    }
    const unknown = await t.request('/v1/domains/NotARealDomain/concepts');
    expect(unknown.body.meta.pagination).toMatchObject({ total_items: 0, total_pages: 1, has_next: false });
  });

  it.each([
    ['page=0', 'page'],
    ['page_size=0', 'page_size'],
    ['page=abc', 'page'],
    ['standard_only=yes', 'standard_only'],
    ['include_invalid=2', 'include_invalid'],
  ])('%s → 400 validation_error naming %s', async (query, parameter) => {
    const res = await t.request(`/v1/domains/Condition/concepts?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message).toContain(parameter);
  });

  it('CPT4 concepts only for a validated key; GPI never; naming a restricted vocabulary is 403 (spec Authentication 5)', async () => {
    const path = '/v1/domains/Drug/concepts?vocab_release=2025.1&include_invalid=true';
    const plain = await allPages(path, 50);
    expect(plain.ids).toEqual(expectedIds(fixture, (c) => visibleWithoutCpt4(c) && c.domain_id === 'Drug'));
    const validated = await allPages(path, 50, cpt4Key);
    expect(validated.ids).toEqual(expectedIds(fixture, (c) => visibleWithCpt4(c) && c.domain_id === 'Drug'));
    expect(validated.ids).toContain(2414398);
    expect(validated.ids).not.toContain(7000002);

    const cpt4 = await t.request('/v1/domains/Drug/concepts?vocab_release=2025.1&vocabulary_ids=CPT4');
    expect(cpt4.status).toBe(403);
    expect(cpt4.body.error.code).toBe('vocabulary_restricted');
    const gpi = await t.request('/v1/domains/Drug/concepts?vocab_release=2025.1&vocabulary_ids=GPI', { key: cpt4Key });
    expect(gpi.status).toBe(403);
    const allowed = await t.request('/v1/domains/Drug/concepts?vocab_release=2025.1&vocabulary_ids=CPT4', { key: cpt4Key });
    expect(allowed.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual([2414398]);
  });
});
