/**
 * GET /v1/relationships/types (spec E8) through HTTPS on the demo vocabulary and on
 * eunomia-gibleed-2019 (480 relationship types): every RELATIONSHIP row with its reverse and
 * concept id, `is_hierarchical`/`defines_ancestry` as the strings "0"/"1" (spec E8, reading note 10),
 * page default 1, page_size default 100, above 200 clamped to 200, meta.pagination.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { byteOrder, DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR, readSourceVocabulary, type SourceVocabulary } from './relationship-source.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-gibleed-2019');

let t: TestServer;
let demo: SourceVocabulary;
let gibleed: SourceVocabulary;

beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true },
      { dir: EUNOMIA_GIBLEED_DIR, label: '2019.1' },
    ],
  });
  demo = readSourceVocabulary(DEMO_VOCABULARY_DIR);
  gibleed = readSourceVocabulary(EUNOMIA_GIBLEED_DIR);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** The RELATIONSHIP rows as E8 must return them, ordered by relationship_id. */
const expectedTypes = (source: SourceVocabulary) =>
  [...source.types.values()]
    .map((r) => ({
      relationship_id: r.relationship_id,
      relationship_name: r.relationship_name,
      is_hierarchical: r.is_hierarchical,
      defines_ancestry: r.defines_ancestry,
      reverse_relationship_id: r.reverse_relationship_id,
      relationship_concept_id: Number(r.relationship_concept_id),
    }))
    .sort((a, b) => byteOrder(a.relationship_id!, b.relationship_id!));

describe.skipIf(MISSING_SHARED_VOCAB)('GET /v1/relationships/types (E8)', () => {
  it('returns every relationship of the demo vocabulary on one default page, flags as "0"/"1" strings', async () => {
    const res = await t.request('/v1/relationships/types');
    expect(res.status).toBe(200);
    const expected = expectedTypes(demo);
    expect(expected.length).toBeLessThanOrEqual(100);
    expect(res.body.data.relationship_types).toEqual(expected);
    expect(res.body.meta.pagination).toEqual({ page: 1, page_size: 100, total_items: expected.length, total_pages: 1, has_next: false, has_previous: false });
    // The demo's RELATIONSHIP file: 'Subsumes' is hierarchical and defines ancestry, its reverse is 'Is a'.
    const subsumes = res.body.data.relationship_types.find((r: { relationship_id: string }) => r.relationship_id === 'Subsumes');
    expect(subsumes).toMatchObject({ is_hierarchical: '1', defines_ancestry: '1', reverse_relationship_id: 'Is a' });
    for (const r of res.body.data.relationship_types) {
      expect(['0', '1']).toContain(r.is_hierarchical);
      expect(['0', '1']).toContain(r.defines_ancestry);
    }
  });

  it('every relationship names a reverse that is itself listed (eunomia-gibleed-2019, 480 types)', async () => {
    const all: Array<{ relationship_id: string; reverse_relationship_id: string }> = [];
    for (let page = 1; page <= 3; page++) all.push(...(await t.request(`/v1/relationships/types?vocab_release=2019.1&page=${page}&page_size=200`)).body.data.relationship_types);
    expect(all).toEqual(expectedTypes(gibleed));
    const ids = new Set(all.map((r) => r.relationship_id));
    const withoutReverse = all.filter((r) => !ids.has(r.reverse_relationship_id));
    const sourceWithoutReverse = expectedTypes(gibleed).filter((r) => !gibleed.types.has(r.reverse_relationship_id!));
    expect(withoutReverse.map((r) => r.relationship_id)).toEqual(sourceWithoutReverse.map((r) => r.relationship_id));
  });

  it('pages by 100 by default and clamps page_size above 200 to 200', async () => {
    const total = gibleed.types.size;
    const first = await t.request('/v1/relationships/types?vocab_release=2019.1');
    expect(first.body.data.relationship_types).toHaveLength(100);
    expect(first.body.meta.pagination).toEqual({ page: 1, page_size: 100, total_items: total, total_pages: Math.ceil(total / 100), has_next: true, has_previous: false });
    const second = await t.request('/v1/relationships/types?vocab_release=2019.1&page=2');
    expect(second.body.data.relationship_types).toEqual(expectedTypes(gibleed).slice(100, 200));
    expect(second.body.meta.pagination.has_previous).toBe(true);
    const clamped = await t.request('/v1/relationships/types?vocab_release=2019.1&page_size=500');
    expect(clamped.body.data.relationship_types).toHaveLength(200);
    expect(clamped.body.meta.pagination).toMatchObject({ page_size: 200, total_pages: Math.ceil(total / 200) });
    const last = await t.request(`/v1/relationships/types?vocab_release=2019.1&page=3&page_size=200`);
    expect(last.body.data.relationship_types).toEqual(expectedTypes(gibleed).slice(400));
    expect(last.body.meta.pagination.has_next).toBe(false);
    const past = await t.request('/v1/relationships/types?vocab_release=2019.1&page=9');
    expect(past.body.data.relationship_types).toEqual([]);
  });

  it('rejects a page or page_size that is not a positive integer with a 400 naming it', async () => {
    for (const [query, name] of [
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page_size=0', 'page_size'],
      ['page_size=-5', 'page_size'],
    ] as const) {
      const res = await t.request(`/v1/relationships/types?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message, query).toContain(name);
    }
  });
});
