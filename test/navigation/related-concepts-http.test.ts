/**
 * GET /v1/concepts/{concept_id}/related (client contract §1.1: a bare array) and the E6 `traverse`
 * operation through HTTPS on the demo vocabulary and eunomia-gibleed-2019: neighbours, distances,
 * names and scores checked against the source CSV rows (read in the test with
 * ./relationship-source.ts) and the documented scoring table; every parameter, default and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR, readSourceVocabulary, type SourceVocabulary } from './relationship-source.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-gibleed-2019');

let t: TestServer;
let demo: SourceVocabulary;
let gibleed: SourceVocabulary;

const T2DM = 201826;

beforeAll(async () => {
  demo = readSourceVocabulary(DEMO_VOCABULARY_DIR);
  gibleed = readSourceVocabulary(EUNOMIA_GIBLEED_DIR);
  t = await startTestServer({
    releases: [
      { dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true },
      { dir: EUNOMIA_GIBLEED_DIR, label: '2019.1' },
    ],
  });
});
afterAll(async () => {
  await t?.close();
});

interface Related {
  concept_id: number;
  concept_name: string;
  concept_code: string;
  vocabulary_id: string;
  domain_id: string;
  concept_class_id: string;
  standard_concept: string | null;
  relationship_id: string;
  relationship_name: string;
  relationship_score: number;
  relationship_distance: number;
}

const HIDDEN_WITHOUT_VALIDATION = new Set(['CPT4', 'GPI', 'MedDRA']);

/** Valid rows from a concept to concepts of the release that a key without CPT4 validation may see. */
function visibleRowsFrom(source: SourceVocabulary, conceptId: number, relationshipIds?: string[]) {
  return source.relationships.filter((r) => {
    const other = source.concepts.get(r.concept_id_2);
    return (
      r.concept_id_1 === conceptId &&
      r.invalid_reason === null &&
      other !== undefined &&
      !HIDDEN_WITHOUT_VALIDATION.has(other.vocabulary_id) &&
      (!relationshipIds || relationshipIds.includes(r.relationship_id))
    );
  });
}

/** Neighbour ids of a concept from the CSV rows (itself excluded). */
const neighbours = (source: SourceVocabulary, conceptId: number, relationshipIds?: string[]) =>
  new Set(visibleRowsFrom(source, conceptId, relationshipIds).map((r) => r.concept_id_2).filter((id) => id !== conceptId));

/** Weights of the documented table for the kinds these tests pin down. */
const DOCUMENTED_WEIGHT: Record<string, number> = { 'Maps to': 1, 'Mapped from': 1, 'Is a': 0.9, Subsumes: 0.9 };

async function related(query: string, conceptId = T2DM): Promise<Related[]> {
  const res = await t.request(`/v1/concepts/${conceptId}/related${query}`);
  expect(res.status, res.text).toBe(200);
  expect(Array.isArray(res.body.data)).toBe(true);
  return res.body.data;
}

describe.skipIf(MISSING_SHARED_VOCAB)('GET /v1/concepts/{concept_id}/related on the demo vocabulary', () => {
  it('returns a bare array of related-concept records, best score first, at most 20 (default), each ≥ 0.1 (default)', async () => {
    const list = await related('');
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThanOrEqual(20);
    for (let i = 1; i < list.length; i++) expect(list[i]!.relationship_score).toBeLessThanOrEqual(list[i - 1]!.relationship_score);
    for (const c of list) {
      expect(c.relationship_score).toBeGreaterThanOrEqual(0.1);
      expect(c.relationship_score).toBeLessThanOrEqual(1);
      const row = demo.concepts.get(c.concept_id)!;
      expect(c).toMatchObject({
        concept_name: row.concept_name,
        concept_code: row.concept_code,
        vocabulary_id: row.vocabulary_id,
        domain_id: row.domain_id,
        concept_class_id: row.concept_class_id,
        standard_concept: row.standard_concept,
        relationship_name: demo.types.get(c.relationship_id)!.relationship_name,
      });
      expect(c.concept_id).not.toBe(T2DM);
    }
  });

  it('distance 1 entries are CSV neighbours scored by the documented weight; distance 2 entries are neighbours of neighbours', async () => {
    const list = await related('?page_size=100&min_score=0');
    const direct = neighbours(demo, T2DM);
    for (const c of list) {
      if (c.relationship_distance === 1) {
        expect(direct.has(c.concept_id)).toBe(true);
        const rows = visibleRowsFrom(demo, T2DM).filter((r) => r.concept_id_2 === c.concept_id);
        expect(rows.map((r) => r.relationship_id)).toContain(c.relationship_id);
        if (DOCUMENTED_WEIGHT[c.relationship_id] !== undefined) expect(c.relationship_score).toBe(DOCUMENTED_WEIGHT[c.relationship_id]);
      } else {
        expect(c.relationship_distance).toBe(2);
        expect(direct.has(c.concept_id)).toBe(false);
        expect([...direct].some((n) => neighbours(demo, n).has(c.concept_id))).toBe(true);
      }
    }
    // Every direct neighbour is there (the demo is far below the budgets).
    expect(new Set(list.filter((c) => c.relationship_distance === 1).map((c) => c.concept_id))).toEqual(direct);
  });

  it('page_size: a prefix of the longer list; values above 100 are clamped to 100', async () => {
    const twenty = await related('?page_size=20&min_score=0');
    const three = await related('?page_size=3&min_score=0');
    expect(three).toEqual(twenty.slice(0, 3));
    const hundred = await related('?page_size=100&min_score=0');
    const thousand = await related('?page_size=1000&min_score=0');
    expect(thousand).toEqual(hundred);
    expect(hundred.length).toBeLessThanOrEqual(100);
  });

  it('min_score keeps only scores at or above it: 0.95 leaves the mapping neighbours', async () => {
    const list = await related('?min_score=0.95&page_size=100');
    const mapped = neighbours(demo, T2DM, ['Maps to', 'Mapped from']);
    expect(new Set(list.map((c) => c.concept_id))).toEqual(mapped);
    for (const c of list) expect(c.relationship_score).toBe(1);
  });

  it('relationship_types restricts the walk (comma-separated, `+` as space)', async () => {
    const list = await related('?relationship_types=Is+a&page_size=100');
    const parents = neighbours(demo, T2DM, ['Is a']);
    const grandparents = new Set([...parents].flatMap((p) => [...neighbours(demo, p, ['Is a'])]).filter((id) => !parents.has(id) && id !== T2DM));
    expect(new Set(list.filter((c) => c.relationship_distance === 1).map((c) => c.concept_id))).toEqual(parents);
    expect(new Set(list.filter((c) => c.relationship_distance === 2).map((c) => c.concept_id))).toEqual(grandparents);
    for (const c of list) expect(c.relationship_id).toBe('Is a');
  });

  it('bad input is a 400 naming the parameter; an unknown concept 404 not_found; a CPT4 concept 403 for a key without validation', async () => {
    for (const [query, parameter] of [
      ['?min_score=1.5', 'min_score'],
      ['?min_score=-0.1', 'min_score'],
      ['?min_score=high', 'min_score'],
      ['?page_size=0', 'page_size'],
      ['?page_size=ten', 'page_size'],
    ]) {
      const res = await t.request(`/v1/concepts/${T2DM}/related${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain(parameter);
    }
    const nonNumeric = await t.request('/v1/concepts/abc/related');
    expect(nonNumeric.status).toBe(400);
    expect(nonNumeric.body.error.message).toContain('concept_id');
    const unknown = await t.request('/v1/concepts/999999999/related');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect(unknown.headers['x-request-id']).toBe(unknown.body.meta.request_id);
    const cpt4 = [...demo.concepts.values()].find((c) => c.vocabulary_id === 'CPT4')!;
    const restricted = await t.request(`/v1/concepts/${cpt4.concept_id}/related`);
    expect(restricted.status).toBe(403);
    expect(restricted.body.error.code).toBe('vocabulary_restricted');
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('traverse on the demo vocabulary (E6 defaults: max_depth 3, min_score 0)', () => {
  async function traverse(conceptId: number, params: Record<string, unknown>) {
    const res = await t.request('/v1/concepts/relationships/batch', {
      method: 'POST',
      body: { queries: [{ query_id: 't', concept_id: conceptId, operation: 'traverse', params }] },
    });
    expect(res.status).toBe(200);
    return res.body.data[0].data;
  }

  it('max_depth 1: the CSV neighbours exactly, every valid visible row counted, its relationship ids listed', async () => {
    const result = await traverse(T2DM, { max_depth: 1 });
    expect(new Set(result.discovered_concepts.map((c: { concept_id: number }) => c.concept_id))).toEqual(neighbours(demo, T2DM));
    const rows = visibleRowsFrom(demo, T2DM);
    expect(result.traversal_stats).toEqual({
      total_concepts_discovered: neighbours(demo, T2DM).size,
      max_depth_reached: 1,
      total_relationships_explored: rows.length,
      unique_relationship_types: [...new Set(rows.map((r) => r.relationship_id))].sort(),
      limits_reached: [],
    });
  });

  it('default max_depth 3: distances 1–3, each concept once, ordered by distance', async () => {
    const result = await traverse(T2DM, {});
    const found = result.discovered_concepts as Related[];
    expect(new Set(found.map((c) => c.concept_id)).size).toBe(found.length);
    expect(result.traversal_stats.max_depth_reached).toBe(3);
    for (let i = 1; i < found.length; i++) expect(found[i]!.relationship_distance).toBeGreaterThanOrEqual(found[i - 1]!.relationship_distance);
    expect(found.every((c) => c.relationship_distance >= 1 && c.relationship_distance <= 3)).toBe(true);
    expect(result.traversal_stats.total_concepts_discovered).toBe(found.length);
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('eunomia-gibleed-2019 (real concepts, CONCEPT_RELATIONSHIP without rows)', () => {
  it('has no relationship rows, so related is empty and traversal finds nothing', async () => {
    expect(gibleed.relationships).toHaveLength(0);
    const mi = gibleed.concepts.get(4329847)!;
    expect(mi.concept_name).toBe('Myocardial infarction');
    const res = await t.request('/v1/concepts/4329847/related?vocab_release=2019.1');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.vocab_release).toBe('2019.1');
    const batch = await t.request('/v1/concepts/relationships/batch?vocab_release=2019.1', {
      method: 'POST',
      body: {
        queries: [
          { query_id: 'a', concept_id: 4329847, operation: 'traverse' },
          { query_id: 'b', concept_id: 4329847, operation: 'relationships' },
          { query_id: 'c', concept_id: T2DM, operation: 'related' },
        ],
      },
    });
    expect(batch.body.data[0].data.traversal_stats).toEqual({
      total_concepts_discovered: 0,
      max_depth_reached: 0,
      total_relationships_explored: 0,
      unique_relationship_types: [],
      limits_reached: [],
    });
    expect(batch.body.data[1]).toMatchObject({ success: true, data: [], total_count: 0 });
    // 201826 is not among gibleed's concepts.
    expect(gibleed.concepts.has(T2DM)).toBe(false);
    expect(batch.body.data[2]).toMatchObject({ query_id: 'c', success: false, data: null, error_code: 'not_found' });
  });
});
