/**
 * The four meaning-based endpoints over HTTPS on the demo vocabulary, loaded (and so embedded with
 * the built-in default provider) by the real loader: client contract §1.2 shapes, thresholds,
 * filters, paging, the deprecated alias's headers, bulk failure isolation, similar's three
 * algorithms and exactly-one rule, and the 503 of a release loaded without vectors. Expected
 * concepts are read from the demo CSV files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { DEMO_VOCABULARY_DIR, readSourceConcepts } from '../metadata/concept-file.js';

const demo = new Map(readSourceConcepts(DEMO_VOCABULARY_DIR).map((c) => [c.concept_id, c]));
const MYOCARDIAL_INFARCTION = [...demo.values()].find((c) => c.concept_name === 'Myocardial infarction' && c.vocabulary_id === 'SNOMED')!.concept_id;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
  // the same vocabulary loaded as `omopterm load --skip-embeddings` does
  await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir: t.dataDir, label: '2025.1', quiet: true, embeddings: false });
  t.server.registry.rescan();
});
afterAll(async () => {
  await t?.close();
});

const semantic = (params: string) => t.request(`/v1/search/semantic?${params}`);
const ids = (results: Array<{ concept_id: number }>) => results.map((r) => r.concept_id);

function expectEnvelopeError(r: { status: number; body: any; headers: Record<string, unknown> }, status: number, code: string, messagePart: RegExp) {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ success: false, error: { code } });
  expect(r.body.error.message).toMatch(messagePart);
  expect(r.headers['x-request-id']).toBe(r.body.meta.request_id);
  expect(r.headers['x-ratelimit-limit']).toBeDefined();
}

describe('GET /v1/search/semantic', () => {
  it('"heart attack" finds Myocardial infarction through its synonym, in the §1.2 shape', async () => {
    const r = await semantic('query=heart+attack');
    expect(r.status).toBe(200);
    expect(r.body.data.query).toBe('heart attack');
    expect(r.body.data.results[0]).toMatchObject({ concept_id: MYOCARDIAL_INFARCTION, concept_name: 'Myocardial infarction', matched_text: 'Heart attack' });
    for (const x of r.body.data.results) {
      expect(Object.keys(x).sort()).toEqual(
        ['concept_class_id', 'concept_code', 'concept_id', 'concept_name', 'domain_id', 'matched_text', 'similarity_score', 'standard_concept', 'vocabulary_id'].sort(),
      );
      expect(x.similarity_score).toBeGreaterThanOrEqual(0.5);
      expect(x.similarity_score).toBeLessThanOrEqual(1);
    }
    expect(r.body.data.search_metadata).toMatchObject({ query: 'heart attack', threshold: 0.5 });
    expect(r.body.data.search_metadata.total_candidates).toBeGreaterThanOrEqual(r.body.data.results.length);
    expect(r.body.meta.pagination).toMatchObject({ page: 1, page_size: 20, has_previous: false });
  });

  it('raising the threshold never adds results; threshold=1 keeps only texts equal to the query', async () => {
    let previous: Set<number> | undefined;
    for (const threshold of [0.1, 0.3, 0.5, 0.7, 0.9, 1]) {
      const r = await semantic(`query=chronic+kidney+disease&threshold=${threshold}&page_size=100`);
      expect(r.status).toBe(200);
      const found = new Set(ids(r.body.data.results));
      if (previous) for (const id of found) expect(previous.has(id)).toBe(true);
      previous = found;
      for (const x of r.body.data.results) expect(x.similarity_score).toBeGreaterThanOrEqual(threshold);
    }
    const exact = await semantic('query=Chronic+kidney+disease&threshold=1');
    expect(exact.body.data.results.length).toBeGreaterThan(0);
    for (const x of exact.body.data.results) expect(x.matched_text.toLowerCase()).toBe('chronic kidney disease');
  });

  it('bad parameters are 400s that name the parameter', async () => {
    expectEnvelopeError(await semantic('query=diabetes&threshold=1.5'), 400, 'validation_error', /threshold/);
    expectEnvelopeError(await semantic('query=diabetes&threshold=-0.1'), 400, 'validation_error', /threshold/);
    expectEnvelopeError(await semantic('query=diabetes&threshold=abc'), 400, 'validation_error', /threshold/);
    expectEnvelopeError(await semantic('threshold=0.5'), 400, 'validation_error', /query/);
    expectEnvelopeError(await semantic(`query=${'a'.repeat(501)}`), 400, 'validation_error', /query/);
    expectEnvelopeError(await semantic('query=%20%20'), 400, 'validation_error', /query/);
    expectEnvelopeError(await semantic('query=diabetes&page_size=0'), 400, 'validation_error', /page_size/);
    expectEnvelopeError(await semantic('query=diabetes&standard_concept=X'), 400, 'validation_error', /standard_concept/);
  });

  it('vocabulary, domain and standard filters are each honoured; an unknown vocabulary gives an empty 200', async () => {
    const checks: Array<[string, (c: { vocabulary_id: string; domain_id: string; standard_concept: string | null }) => boolean]> = [
      ['vocabulary_ids=LOINC', (c) => c.vocabulary_id === 'LOINC'],
      ['vocabulary_ids=SNOMED,LOINC', (c) => ['SNOMED', 'LOINC'].includes(c.vocabulary_id)],
      ['domain_ids=Measurement', (c) => c.domain_id === 'Measurement'],
      ['standard_concept=C', (c) => c.standard_concept === 'C'],
      ['standard_concept=S', (c) => c.standard_concept === 'S'],
    ];
    for (const [filter, check] of checks) {
      const r = await semantic(`query=glucose+measurement&threshold=0.1&page_size=100&${filter}`);
      expect(r.status).toBe(200);
      expect(r.body.data.results.length).toBeGreaterThan(0);
      for (const x of r.body.data.results) expect(check(demo.get(x.concept_id)!)).toBe(true);
    }
    const unknown = await semantic('query=diabetes&vocabulary_ids=NoSuchVocabulary');
    expect(unknown.status).toBe(200);
    expect(unknown.body.data.results).toEqual([]);
  });

  it('pages are consecutive slices; pagination meta is consistent; has_next is honest', async () => {
    const whole = await semantic('query=diabetes+mellitus&threshold=0.2&page_size=10');
    const p1 = await semantic('query=diabetes+mellitus&threshold=0.2&page_size=5&page=1');
    const p2 = await semantic('query=diabetes+mellitus&threshold=0.2&page_size=5&page=2');
    expect([...ids(p1.body.data.results), ...ids(p2.body.data.results)]).toEqual(ids(whole.body.data.results));
    for (const r of [p1, p2]) {
      const m = r.body.meta.pagination;
      expect(m.total_pages).toBe(Math.max(1, Math.ceil(m.total_items / m.page_size)));
      expect(m.has_next).toBe(m.page < m.total_pages);
    }
    expect(p1.body.meta.pagination.has_next).toBe(true);
    expect(p2.body.meta.pagination.has_previous).toBe(true);
    const total = whole.body.meta.pagination.total_items;
    const last = await semantic(`query=diabetes+mellitus&threshold=0.2&page_size=1&page=${total}`);
    expect(last.body.data.results.length).toBe(1);
    expect(last.body.meta.pagination.has_next).toBe(false);
  });
});

describe('GET /v1/concepts/semantic-search (deprecated alias)', () => {
  it('answers as /v1/search/semantic with Deprecation and Link headers', async () => {
    const alias = await t.request('/v1/concepts/semantic-search?query=heart+attack&threshold=0.4');
    const main = await semantic('query=heart+attack&threshold=0.4');
    expect(alias.status).toBe(200);
    expect(alias.headers['deprecation']).toBe('true');
    expect(alias.headers['link']).toBe('</v1/search/semantic>; rel="successor-version"');
    expect(main.headers['deprecation']).toBeUndefined();
    expect(alias.body.data.results).toEqual(main.body.data.results);
  });
});

describe('POST /v1/search/semantic-bulk', () => {
  it('one bad search fails alone; the others complete (§1.2 shape)', async () => {
    const r = await t.request('/v1/search/semantic-bulk', {
      method: 'POST',
      body: {
        searches: [
          { search_id: 'a', query: 'heart attack' },
          { search_id: 'b', query: '' },
          { search_id: 'c', query: 'diabetes', threshold: 7 },
          { search_id: 'd', query: 'kidney disease', vocabulary_ids: ['SNOMED'], page_size: 3 },
        ],
        defaults: { threshold: 0.4 },
      },
    });
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d).toMatchObject({ total_searches: 4, completed_count: 2, failed_count: 2 });
    expect(d.results.map((x: any) => [x.search_id, x.status])).toEqual([
      ['a', 'completed'],
      ['b', 'failed'],
      ['c', 'failed'],
      ['d', 'completed'],
    ]);
    expect(ids(d.results[0].results)).toContain(MYOCARDIAL_INFARCTION);
    expect(d.results[0].similarity_threshold).toBe(0.4);
    expect(d.results[1].error).toMatch(/query/);
    expect(d.results[2].error).toMatch(/threshold/);
    expect(d.results[3].results.length).toBeLessThanOrEqual(3);
    expect(d.results[3].result_count).toBe(d.results[3].results.length);
    for (const x of d.results[3].results) expect(x.vocabulary_id).toBe('SNOMED');
  });

  it('0 or 26 searches is a 400', async () => {
    expectEnvelopeError(await t.request('/v1/search/semantic-bulk', { method: 'POST', body: { searches: [] } }), 400, 'validation_error', /searches/);
    const many = Array.from({ length: 26 }, (_, i) => ({ query: `q${i}` }));
    expectEnvelopeError(await t.request('/v1/search/semantic-bulk', { method: 'POST', body: { searches: many } }), 400, 'validation_error', /searches/);
  });
});

describe('POST /v1/search/similar', () => {
  const similar = (body: unknown) => t.request('/v1/search/similar', { method: 'POST', body });

  it('needs exactly one of concept_id, concept_name, query', async () => {
    expectEnvelopeError(await similar({}), 400, 'validation_error', /exactly one/);
    expectEnvelopeError(await similar({ concept_id: MYOCARDIAL_INFARCTION, concept_name: 'heart attack' }), 400, 'validation_error', /exactly one/);
    expectEnvelopeError(await similar({ query: 'a', concept_name: 'b', concept_id: 1 }), 400, 'validation_error', /exactly one/);
  });

  it('by concept_id: the concept itself is excluded; an unknown id is a 404', async () => {
    const r = await similar({ concept_id: MYOCARDIAL_INFARCTION, similarity_threshold: 0.3, page_size: 1000 });
    expect(r.status).toBe(200);
    expect(r.body.data.search_metadata).toMatchObject({ original_query: 'Myocardial infarction', algorithm_used: 'hybrid', similarity_threshold: 0.3 });
    expect(r.body.data.similar_concepts.length).toBeGreaterThan(0);
    expect(ids(r.body.data.similar_concepts)).not.toContain(MYOCARDIAL_INFARCTION);
    expect(r.body.data.search_metadata.results_returned).toBe(r.body.data.similar_concepts.length);
    expectEnvelopeError(await similar({ concept_id: 999999999 }), 404, 'concept_not_found', /999999999/);
  });

  it('lexical is typo-tolerant', async () => {
    const r = await similar({ query: 'myocardal infarcton', algorithm: 'lexical', similarity_threshold: 0.4 });
    expect(r.status).toBe(200);
    expect(ids(r.body.data.similar_concepts)).toContain(MYOCARDIAL_INFARCTION);
  });

  it('each algorithm answers with its own score and, on request, all three scores and an explanation', async () => {
    for (const algorithm of ['semantic', 'lexical', 'hybrid']) {
      const r = await similar({ concept_name: 'kidney disease', algorithm, similarity_threshold: 0.3, include_scores: true, include_explanations: true });
      expect(r.status).toBe(200);
      expect(r.body.data.search_metadata.algorithm_used).toBe(algorithm);
      expect(r.body.data.similar_concepts.length).toBeGreaterThan(0);
      for (const x of r.body.data.similar_concepts) {
        expect(x.similarity_score).toBeCloseTo(x.scores[algorithm], 3);
        expect(x.similarity_score).toBeGreaterThanOrEqual(0.3);
        expect(typeof x.explanation).toBe('string');
      }
    }
  });

  it('an unknown algorithm, a threshold out of range or page_size over 1000 is a 400', async () => {
    expectEnvelopeError(await similar({ query: 'x', algorithm: 'neural' }), 400, 'validation_error', /algorithm/);
    expectEnvelopeError(await similar({ query: 'x', similarity_threshold: 2 }), 400, 'validation_error', /similarity_threshold/);
    expectEnvelopeError(await similar({ query: 'x', page_size: 1001 }), 400, 'validation_error', /page_size/);
  });
});

describe('a release without vectors', () => {
  it('answers 503 semantic_unavailable on every endpoint, saying what to run', async () => {
    const requests = [
      t.request('/v1/search/semantic?query=diabetes&vocab_release=2025.1'),
      t.request('/v1/concepts/semantic-search?query=diabetes&vocab_release=2025.1'),
      t.request('/v1/search/semantic-bulk?vocab_release=2025.1', { method: 'POST', body: { searches: [{ query: 'diabetes' }] } }),
      t.request('/v1/search/similar?vocab_release=2025.1', { method: 'POST', body: { query: 'diabetes' } }),
    ];
    for (const r of await Promise.all(requests)) {
      expectEnvelopeError(r, 503, 'semantic_unavailable', /omopterm embed --release 2025\.1/);
      expect(r.body.meta.vocab_release).toBe('2025.1');
    }
  });
});
