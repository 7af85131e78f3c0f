/**
 * POST /v1/concepts/relationships/batch (E6) through HTTPS on the demo vocabulary: answers in
 * input order, the defaults of each operation, each query validated on its own (Errors rule 6:
 * a failing query is an item with success false and a string error, the others still run),
 * request-level 400s, and the whole batch counting as one call against the limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { DEMO_VOCABULARY_DIR, readSourceVocabulary, type SourceVocabulary } from './relationship-source.js';

let t: TestServer;
let demo: SourceVocabulary;

const T2DM = 201826;
const E11_9 = 35206882;
const DISEASE = 4274025;

beforeAll(async () => {
  demo = readSourceVocabulary(DEMO_VOCABULARY_DIR);
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

async function batch(queries: unknown[], key?: string) {
  const res = await t.request('/v1/concepts/relationships/batch', { method: 'POST', body: { queries }, key });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.body.data as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('answers', () => {
  it('come in input order with query_id, concept_id, operation and success', async () => {
    const items = await batch([
      { query_id: 'third-op', concept_id: T2DM, operation: 'traverse' },
      { query_id: 'rels', concept_id: E11_9, operation: 'relationships' },
      { query_id: 'rel', concept_id: T2DM, operation: 'related' },
      { query_id: 'rels', concept_id: T2DM, operation: 'relationships' },
    ]);
    expect(items.map((i) => [i.query_id, i.concept_id, i.operation, i.success])).toEqual([
      ['third-op', T2DM, 'traverse', true],
      ['rels', E11_9, 'relationships', true],
      ['rel', T2DM, 'related', true],
      ['rels', T2DM, 'relationships', true],
    ]);
    expect(items[0]!.data).toHaveProperty('traversal_stats');
    expect(Array.isArray(items[1]!.data)).toBe(true);
    expect(Array.isArray(items[2]!.data)).toBe(true);
  });

  it('relationships: the first rows of GET /v1/concepts/{id}/relationships, booleans false by default, with total_count', async () => {
    const [item] = await batch([{ query_id: 'r', concept_id: T2DM, operation: 'relationships' }]);
    const get = await t.request(`/v1/concepts/${T2DM}/relationships?page_size=100`);
    expect(item!.data).toEqual(get.body.data.relationships);
    expect(item!.total_count).toBe(get.body.meta.pagination.total_items);
    // include_reverse false, include_invalid false: the valid rows whose concept_id_1 is the concept.
    const rows = demo.relationships.filter((r) => r.concept_id_1 === T2DM && r.invalid_reason === null && demo.concepts.has(r.concept_id_2));
    expect(item!.total_count).toBe(rows.length);
    expect(item!.data.every((r: { concept_id_1: number }) => r.concept_id_1 === T2DM)).toBe(true);
  });

  it('relationships: relationship_ids (or its alias relationship_types), vocabulary_ids, standard_only, include_reverse', async () => {
    const items = await batch([
      { query_id: 'ids', concept_id: T2DM, operation: 'relationships', params: { relationship_ids: ['Is a'] } },
      { query_id: 'alias', concept_id: T2DM, operation: 'relationships', params: { relationship_types: ['Is a'] } },
      { query_id: 'vocab', concept_id: T2DM, operation: 'relationships', params: { vocabulary_ids: ['ICD10CM'] } },
      { query_id: 'std', concept_id: T2DM, operation: 'relationships', params: { standard_only: true } },
      { query_id: 'rev', concept_id: T2DM, operation: 'relationships', params: { include_reverse: true } },
      { query_id: 'plain', concept_id: T2DM, operation: 'relationships', params: {} },
    ]);
    const isA = demo.relationships.filter((r) => r.concept_id_1 === T2DM && r.relationship_id === 'Is a' && r.invalid_reason === null).map((r) => r.concept_id_2);
    expect(items[0]!.data.map((r: { concept_id_2: number }) => r.concept_id_2).sort()).toEqual(isA.sort());
    expect(items[1]!.data).toEqual(items[0]!.data);
    expect(items[2]!.data.length).toBeGreaterThan(0);
    expect(items[2]!.data.every((r: { concept_2: { vocabulary_id: string } }) => r.concept_2.vocabulary_id === 'ICD10CM')).toBe(true);
    expect(items[3]!.data.every((r: { concept_2: { standard_concept: string } }) => r.concept_2.standard_concept === 'S')).toBe(true);
    expect(items[4]!.total_count).toBeGreaterThanOrEqual(items[5]!.total_count);
  });

  it('related: page_size 50 and min_score 0.1 by default', async () => {
    // 4274025 (Disease) has more than 50 concepts within two relationships in the demo.
    const [defaults, explicit, zero] = await batch([
      { query_id: 'd', concept_id: DISEASE, operation: 'related' },
      { query_id: 'e', concept_id: DISEASE, operation: 'related', params: { page_size: 50, min_score: 0.1 } },
      { query_id: 'z', concept_id: DISEASE, operation: 'related', params: { page_size: 100, min_score: 0 } },
    ]);
    expect(defaults!.data).toEqual(explicit!.data);
    const atLeast = zero!.data.filter((c: { relationship_score: number }) => c.relationship_score >= 0.1);
    expect(atLeast.length).toBeGreaterThan(50);
    expect(defaults!.data).toHaveLength(50);
    expect(defaults!.data).toEqual(atLeast.slice(0, 50));
    for (const c of defaults!.data) {
      expect(Object.keys(c)).toEqual(
        expect.arrayContaining(['concept_id', 'concept_name', 'concept_code', 'vocabulary_id', 'relationship_id', 'relationship_name', 'relationship_score', 'relationship_distance']),
      );
    }
    const get = await t.request(`/v1/concepts/${DISEASE}/related?page_size=50`);
    expect(defaults!.data).toEqual(get.body.data);
  });

  it('traverse: max_depth 3 and min_score 0 by default; relationship_paths empty', async () => {
    const [defaults, explicit, shallow] = await batch([
      { query_id: 'd', concept_id: T2DM, operation: 'traverse' },
      { query_id: 'e', concept_id: T2DM, operation: 'traverse', params: { max_depth: 3, min_score: 0 } },
      { query_id: 's', concept_id: T2DM, operation: 'traverse', params: { max_depth: 2, relationship_types: ['Is a', 'Subsumes'] } },
    ]);
    expect(defaults!.data).toEqual(explicit!.data);
    expect(defaults!.data.relationship_paths).toEqual([]);
    expect(defaults!.data.starting_concepts).toEqual([T2DM]);
    expect(shallow!.data.traversal_stats.max_depth_reached).toBeLessThanOrEqual(2);
    expect(shallow!.data.traversal_stats.unique_relationship_types.every((r: string) => r === 'Is a' || r === 'Subsumes')).toBe(true);
  });
});

describe('each query validated on its own (Errors rule 6)', () => {
  const failing: Array<[string, Record<string, unknown>, string]> = [
    ['unknown operation', { operation: 'siblings' }, 'siblings'],
    ['missing operation', {}, 'operation'],
    ['include_paths', { operation: 'traverse', params: { include_paths: true } }, 'include_paths'],
    ['breadth_first', { operation: 'traverse', params: { breadth_first: false } }, 'breadth_first'],
    ['both relationship_ids and relationship_types', { operation: 'relationships', params: { relationship_ids: ['Is a'], relationship_types: ['Is a'] } }, 'relationship_types'],
    ['page_size on relationships', { operation: 'relationships', params: { page_size: 10 } }, 'page_size'],
    ['max_depth on related', { operation: 'related', params: { max_depth: 2 } }, 'max_depth'],
    ['relationship_ids on traverse', { operation: 'traverse', params: { relationship_ids: ['Is a'] } }, 'relationship_ids'],
    ['max_depth 0', { operation: 'traverse', params: { max_depth: 0 } }, 'max_depth'],
    ['max_depth 6', { operation: 'traverse', params: { max_depth: 6 } }, 'max_depth'],
    ['max_depth 1.5', { operation: 'traverse', params: { max_depth: 1.5 } }, 'max_depth'],
    ['page_size 101', { operation: 'related', params: { page_size: 101 } }, 'page_size'],
    ['min_score 2', { operation: 'related', params: { min_score: 2 } }, 'min_score'],
    ['min_score -0.5', { operation: 'traverse', params: { min_score: -0.5 } }, 'min_score'],
    ['min_score a string', { operation: 'traverse', params: { min_score: 'high' } }, 'min_score'],
    ['include_invalid not a boolean', { operation: 'relationships', params: { include_invalid: 'yes' } }, 'include_invalid'],
    ['relationship_types not strings', { operation: 'related', params: { relationship_types: [1, 2] } }, 'relationship_types'],
    ['params not an object', { operation: 'related', params: [1] }, 'params'],
  ];

  it.each(failing)('%s fails that item only, with a string error naming the problem', async (_name, query, mentioned) => {
    const items = await batch([
      { query_id: 'before', concept_id: T2DM, operation: 'related' },
      { query_id: 'bad', concept_id: T2DM, ...query },
      { query_id: 'after', concept_id: E11_9, operation: 'traverse' },
    ]);
    expect(items[1]).toMatchObject({ query_id: 'bad', concept_id: T2DM, success: false, data: null, error_code: 'validation_error' });
    expect(typeof items[1]!.error).toBe('string');
    expect(items[1]!.error).toContain(mentioned);
    expect(items[0]).toMatchObject({ query_id: 'before', success: true });
    expect(items[2]).toMatchObject({ query_id: 'after', success: true });
    expect(items[0]).not.toHaveProperty('error');
  });

  it('an unknown concept and a licence-restricted concept fail their items only', async () => {
    const cpt4 = [...demo.concepts.values()].find((c) => c.vocabulary_id === 'CPT4')!;
    const items = await batch([
      { query_id: 'unknown', concept_id: 999999999, operation: 'relationships' },
      { query_id: 'cpt4', concept_id: cpt4.concept_id, operation: 'traverse' },
      { query_id: 'ok', concept_id: T2DM, operation: 'relationships' },
    ]);
    expect(items[0]).toMatchObject({ success: false, error_code: 'not_found' });
    expect(items[1]).toMatchObject({ success: false, error_code: 'vocabulary_restricted' });
    expect(items[2]).toMatchObject({ success: true });
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const [withLicence] = await batch([{ query_id: 'cpt4', concept_id: cpt4.concept_id, operation: 'traverse' }], validated);
    expect(withLicence).toMatchObject({ success: true });
  });
});

describe('the request itself', () => {
  it('is a 400 naming the problem when the body is not 1–100 queries with query_id and concept_id', async () => {
    const query = (i: number) => ({ query_id: `q${i}`, concept_id: T2DM, operation: 'related' });
    for (const [body, mentioned] of [
      [{}, 'queries'],
      [{ queries: 'all' }, 'queries'],
      [{ queries: [] }, 'queries'],
      [{ queries: Array.from({ length: 101 }, (_, i) => query(i)) }, 'queries'],
      [{ queries: [{ concept_id: T2DM, operation: 'related' }] }, 'query_id'],
      [{ queries: [{ query_id: 'x', operation: 'related' }] }, 'concept_id'],
      [{ queries: [{ query_id: 'x', concept_id: 'abc', operation: 'related' }] }, 'concept_id'],
      [[query(1)], 'body'],
    ] as Array<[unknown, string]>) {
      const res = await t.request('/v1/concepts/relationships/batch', { method: 'POST', body });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain(mentioned);
    }
    const hundred = await t.request('/v1/concepts/relationships/batch', { method: 'POST', body: { queries: Array.from({ length: 100 }, (_, i) => query(i)) } });
    expect(hundred.status).toBe(200);
    expect(hundred.body.data).toHaveLength(100);
  });

  it('counts as one call against the monthly quota, whatever its size', async () => {
    const key = await t.createKey({ monthly_quota: 2 });
    const queries = Array.from({ length: 100 }, (_, i) => ({ query_id: `q${i}`, concept_id: T2DM, operation: ['relationships', 'related', 'traverse'][i % 3] }));
    const first = await t.request('/v1/concepts/relationships/batch', { method: 'POST', body: { queries }, key });
    expect(first.status).toBe(200);
    const second = await t.request('/v1/concepts/relationships/batch', { method: 'POST', body: { queries }, key });
    expect(second.status).toBe(200);
    const third = await t.request('/v1/concepts/relationships/batch', { method: 'POST', body: { queries }, key });
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('monthly_quota_exceeded');
  });
});
