/**
 * POST /v1/concepts/hierarchy/batch over HTTPS (client-compatibility §2): answers in input order,
 * each equal to the single GET answer of its operation with its params, failures isolated as items
 * with success false and a string error, 1–100 queries, one call against the limits. Subjects and
 * expected totals come from the eunomia-gibleed-2019 files.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { busiestConcepts, expectedLineage } from './hierarchy-expected.js';
import { readAthenaFiles, SHARED_VOCAB, type AthenaFiles } from './mapping-athena-files.js';
import { writeCoreFixture } from '../http/fixture-vocabulary.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-gibleed-2019');

const EUNOMIA_DIR = join(SHARED_VOCAB, 'eunomia-gibleed-2019');
const CPT4_CONCEPT = 2414397; // CPT4 in the core fixture
let t: TestServer;
let eunomia: AthenaFiles;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: EUNOMIA_DIR, label: '2019.1', makeDefault: true }, { dir: writeCoreFixture(), label: '2025.2' }] });
  eunomia = readAthenaFiles(EUNOMIA_DIR);
});
afterAll(async () => t?.close());

const batch = (queries: unknown, options: { key?: string; release?: string } = {}) =>
  t.request(`/v1/concepts/hierarchy/batch${options.release ? `?vocab_release=${options.release}` : ''}`, { method: 'POST', body: { queries }, key: options.key });

describe.skipIf(MISSING_SHARED_VOCAB)('POST /v1/concepts/hierarchy/batch', () => {
  it('answers every query in input order, each as its single GET answer with total_count', async () => {
    const [down] = busiestConcepts(eunomia, 'descendants', 1);
    const [up] = busiestConcepts(eunomia, 'ancestors', 1);
    const queries = [
      { query_id: 'd', concept_id: down, operation: 'descendants', params: { max_levels: 2, page_size: 5, page: 2 } },
      { query_id: 'a', concept_id: up, operation: 'ancestors', params: { relationship_types: ['Is a'], include_distance: true } },
      { query_id: 'h', concept_id: up, operation: 'hierarchy', params: { format: 'graph', max_results: 4 } },
      { query_id: 'f', concept_id: up, operation: 'hierarchy', params: { vocabulary_ids: 'SNOMED,RxNorm' } },
    ];
    const res = await batch(queries);
    expect(res.status).toBe(200);
    const results = res.body.data.results;
    expect(results.map((r: { query_id: string }) => r.query_id)).toEqual(['d', 'a', 'h', 'f']);
    expect(results.every((r: { success: boolean }) => r.success)).toBe(true);

    const single = await Promise.all([
      t.request(`/v1/concepts/${down}/descendants?max_levels=2&page_size=5&page=2`),
      t.request(`/v1/concepts/${up}/ancestors?relationship_types=Is+a&include_distance=true`),
      t.request(`/v1/concepts/${up}/hierarchy?format=graph&max_results=4`),
      t.request(`/v1/concepts/${up}/hierarchy?vocabulary_ids=SNOMED,RxNorm`),
    ]);
    const totals = [
      expectedLineage(eunomia, down!, 'descendants', { maxLevels: 2 }).length,
      expectedLineage(eunomia, up!, 'ancestors').length,
      expectedLineage(eunomia, up!, 'ancestors').length + expectedLineage(eunomia, up!, 'descendants').length,
      expectedLineage(eunomia, up!, 'ancestors', { vocabularyIds: ['SNOMED', 'RxNorm'] }).length +
        expectedLineage(eunomia, up!, 'descendants', { vocabularyIds: ['SNOMED', 'RxNorm'] }).length,
    ];
    results.forEach((result: { concept_id: number; operation: string; data: Record<string, unknown> }, i: number) => {
      expect(result).toMatchObject({ concept_id: queries[i]!.concept_id, operation: queries[i]!.operation });
      expect(result.data).toEqual({ ...single[i]!.body.data, total_count: totals[i] });
    });
  });

  it('a failing query is an item with success false and a string error; the others are answered (Errors rule 6)', async () => {
    const [up] = busiestConcepts(eunomia, 'ancestors', 1);
    const res = await batch([
      { query_id: 'ok-1', concept_id: up, operation: 'ancestors' },
      { query_id: 'missing', concept_id: 999999999, operation: 'descendants' },
      { query_id: 'bad-type', concept_id: up, operation: 'ancestors', params: { relationship_types: ['Maps to'] } },
      { query_id: 'ok-2', concept_id: up, operation: 'hierarchy' },
    ]);
    expect(res.status).toBe(200);
    const [ok1, missing, badType, ok2] = res.body.data.results;
    expect(ok1).toMatchObject({ success: true, data: { total_count: expectedLineage(eunomia, up!, 'ancestors').length } });
    expect(missing).toMatchObject({ query_id: 'missing', success: false, error: expect.stringContaining('999999999') });
    expect(missing).not.toHaveProperty('data');
    expect(badType).toMatchObject({ success: false, error: expect.stringContaining('relationship_types') });
    expect(ok2.success).toBe(true);
  });

  it('a licensed concept fails its query for a key without CPT4 validation, and answers for a validated key', async () => {
    const queries = [{ query_id: 'cpt4', concept_id: CPT4_CONCEPT, operation: 'ancestors' }];
    const refused = await batch(queries, { release: '2025.2' });
    expect(refused.body.data.results[0]).toMatchObject({ success: false, error_code: 'vocabulary_restricted', error: expect.stringContaining('CPT4') });
    const key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const allowed = await batch(queries, { release: '2025.2', key });
    expect(allowed.body.data.results[0]).toMatchObject({ success: true, concept_id: CPT4_CONCEPT });
  });

  it('1 to 100 queries: 0 or 101 is a 400 naming queries; 100 answer; the batch is one call against the limits', async () => {
    const [up] = busiestConcepts(eunomia, 'ancestors', 1);
    const query = (i: number) => ({ query_id: `q${i}`, concept_id: up, operation: i % 2 ? 'ancestors' : 'descendants' });
    for (const count of [0, 101]) {
      const res = await batch(Array.from({ length: count }, (_, i) => query(i)));
      expect(res.status, String(count)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain('queries');
    }
    const oneToken = await t.createKey({ rate_per_second: 1 });
    const full = await batch(Array.from({ length: 100 }, (_, i) => query(i)), { key: oneToken });
    expect(full.status).toBe(200);
    expect(full.body.data.results).toHaveLength(100);
    expect(full.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('an unknown operation, a missing field or an out-of-range param is a 400 naming it', async () => {
    const cases: Array<[unknown, string]> = [
      [[{ query_id: 'x', concept_id: 1, operation: 'siblings' }], 'operation'],
      [[{ query_id: 'x', operation: 'ancestors' }], 'concept_id'],
      [[{ concept_id: 1, operation: 'ancestors' }], 'query_id'],
      [[{ query_id: 'x', concept_id: 'abc', operation: 'ancestors' }], 'concept_id'],
      [[{ query_id: 'x', concept_id: 1, operation: 'descendants', params: { page_size: 1001 } }], 'page_size'],
      [[{ query_id: 'x', concept_id: 1, operation: 'descendants', params: { max_levels: 0 } }], 'max_levels'],
    ];
    for (const [queries, name] of cases) {
      const res = await batch(queries);
      expect(res.status, name).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message, name).toContain(name);
    }
  });
});
