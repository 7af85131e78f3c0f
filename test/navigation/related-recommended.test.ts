/**
 * POST /v1/concepts/recommended through HTTPS on the demo vocabulary (client contract §1.1): an
 * object keyed by source concept id; recommendations = the standard valid concepts within 2 steps
 * over `Maps to`, `Is a`, `Subsumes` (as documented), computed here from the CSV rows; filters,
 * pagination in the body or the query string, failed sources, and body validation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { DEMO_VOCABULARY_DIR, readSourceVocabulary, type SourceVocabulary } from './relationship-source.js';

let t: TestServer;
let demo: SourceVocabulary;

const E11_9 = 35206882; // ICD10CM E11.9, Maps to 201826
const T2DM = 201826;

beforeAll(async () => {
  demo = readSourceVocabulary(DEMO_VOCABULARY_DIR);
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

/** Concepts within `depth` valid rows over these relationship ids (CSV), the source excluded. */
function reachable(source: number, relationshipIds: string[], depth = 2): Set<number> {
  const seen = new Set<number>([source]);
  let frontier = [source];
  for (let d = 0; d < depth; d++) {
    const next: number[] = [];
    for (const from of frontier) {
      for (const r of demo.relationships) {
        if (r.concept_id_1 !== from || r.invalid_reason !== null || !relationshipIds.includes(r.relationship_id)) continue;
        const other = demo.concepts.get(r.concept_id_2);
        if (!other || other.vocabulary_id === 'CPT4' || seen.has(other.concept_id)) continue;
        seen.add(other.concept_id);
        next.push(other.concept_id);
      }
    }
    frontier = next;
  }
  seen.delete(source);
  return seen;
}

const standardValid = (ids: Set<number>) => new Set([...ids].filter((id) => demo.concepts.get(id)!.standard_concept === 'S' && demo.concepts.get(id)!.invalid_reason === null));

async function recommend(body: Record<string, unknown>, query = '') {
  const res = await t.request(`/v1/concepts/recommended${query}`, { method: 'POST', body });
  expect(res.status, res.text).toBe(200);
  return res;
}

interface Recommendation {
  concept_id: number;
  concept_name: string;
  standard_concept: string | null;
  invalid_reason: string | null;
  vocabulary_id: string;
  domain_id: string;
  relationship_id: string;
  relationship_score: number;
  relationship_distance: number;
}

describe('POST /v1/concepts/recommended', () => {
  it('is an object keyed by source id; a source code gets its Maps to target first, then the standard concepts around it', async () => {
    const res = await recommend({ concept_ids: [E11_9, T2DM], page_size: 1000 });
    expect(Object.keys(res.body.data).sort()).toEqual([String(E11_9), String(T2DM)].sort());
    const list: Recommendation[] = res.body.data[String(E11_9)];
    expect(list[0]).toMatchObject({ concept_id: T2DM, relationship_id: 'Maps to', relationship_score: 1, relationship_distance: 1, concept_name: 'Type 2 diabetes mellitus' });
    expect(new Set(list.map((c) => c.concept_id))).toEqual(standardValid(reachable(E11_9, ['Maps to', 'Is a', 'Subsumes'])));
    for (let i = 1; i < list.length; i++) expect(list[i]!.relationship_score).toBeLessThanOrEqual(list[i - 1]!.relationship_score);
    const t2dm: Recommendation[] = res.body.data[String(T2DM)];
    expect(new Set(t2dm.map((c) => c.concept_id))).toEqual(standardValid(reachable(T2DM, ['Maps to', 'Is a', 'Subsumes'])));
    expect(t2dm.length).toBeGreaterThan(0);
    expect(res.body.meta.failed_concepts).toEqual([]);
  });

  it('standard_only=false and include_invalid=true widen the list; vocabulary_ids and domain_ids narrow it', async () => {
    const all = (await recommend({ concept_ids: [E11_9], standard_only: false, include_invalid: true, page_size: 1000 })).body.data[String(E11_9)] as Recommendation[];
    expect(new Set(all.map((c) => c.concept_id))).toEqual(reachable(E11_9, ['Maps to', 'Is a', 'Subsumes']));
    expect(all.some((c) => c.standard_concept !== 'S')).toBe(true);
    const icd = (await recommend({ concept_ids: [E11_9], standard_only: false, vocabulary_ids: ['ICD10CM'], page_size: 1000 })).body.data[String(E11_9)] as Recommendation[];
    expect(icd.length).toBeGreaterThan(0);
    expect(icd.every((c) => c.vocabulary_id === 'ICD10CM')).toBe(true);
    const none = (await recommend({ concept_ids: [E11_9], domain_ids: ['Drug'] })).body.data[String(E11_9)];
    expect(none).toEqual([]);
  });

  it('relationship_types replaces the default walk', async () => {
    const list = (await recommend({ concept_ids: [E11_9], relationship_types: ['Maps to'] })).body.data[String(E11_9)] as Recommendation[];
    expect(list.map((c) => c.concept_id)).toEqual([T2DM]);
  });

  it('page and page_size in the body (Python/R) or the query string (Node), the same slice of every list', async () => {
    const full = (await recommend({ concept_ids: [T2DM], page_size: 1000 })).body.data[String(T2DM)] as Recommendation[];
    expect(full.length).toBeGreaterThan(2);
    const body = await recommend({ concept_ids: [T2DM], page: 2, page_size: 2 });
    expect(body.body.data[String(T2DM)]).toEqual(full.slice(2, 4));
    expect(body.body.meta.pagination).toMatchObject({ page: 2, page_size: 2, total_items: full.length, has_previous: true });
    const query = await recommend({ concept_ids: [T2DM] }, '?page=2&page_size=2');
    expect(query.body.data).toEqual(body.body.data);
    const clamped = await recommend({ concept_ids: [T2DM], page_size: 5000 });
    expect(clamped.body.meta.pagination.page_size).toBe(1000);
    const defaults = await recommend({ concept_ids: [T2DM] });
    expect(defaults.body.meta.pagination).toMatchObject({ page: 1, page_size: 100 });
  });

  it('an unknown or restricted source gets an empty list and is named in meta.failed_concepts', async () => {
    const cpt4 = [...demo.concepts.values()].find((c) => c.vocabulary_id === 'CPT4')!;
    const res = await recommend({ concept_ids: [999999999, cpt4.concept_id, T2DM] });
    expect(res.body.data['999999999']).toEqual([]);
    expect(res.body.data[String(cpt4.concept_id)]).toEqual([]);
    expect(res.body.data[String(T2DM)].length).toBeGreaterThan(0);
    expect(res.body.meta.failed_concepts).toEqual([
      { concept_id: 999999999, reason: 'not_found' },
      { concept_id: cpt4.concept_id, reason: 'vocabulary_restricted' },
    ]);
  });

  it('vocabulary_ids naming a restricted vocabulary is 403 vocabulary_restricted, not an empty list (docs/licences.md)', async () => {
    for (const vocabularyIds of [['CPT4'], ['SNOMED', 'MedDRA']]) {
      const res = await t.request('/v1/concepts/recommended', { method: 'POST', body: { concept_ids: [T2DM], vocabulary_ids: vocabularyIds } });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('vocabulary_restricted');
      expect(res.body.error.details.vocabulary_id).toBe(vocabularyIds.at(-1));
    }
  });

  it('body validation: 1–100 concept_ids, ≤ 20 relationship_types, ≤ 50 vocabulary_ids and domain_ids, types', async () => {
    const many = (n: number, f: (i: number) => unknown) => Array.from({ length: n }, (_, i) => f(i));
    for (const [body, parameter] of [
      [{}, 'concept_ids'],
      [{ concept_ids: [] }, 'concept_ids'],
      [{ concept_ids: many(101, (i) => i + 1) }, 'concept_ids'],
      [{ concept_ids: ['abc'] }, 'concept_ids'],
      [{ concept_ids: [T2DM], relationship_types: many(21, (i) => `R${i}`) }, 'relationship_types'],
      [{ concept_ids: [T2DM], vocabulary_ids: many(51, (i) => `V${i}`) }, 'vocabulary_ids'],
      [{ concept_ids: [T2DM], domain_ids: many(51, (i) => `D${i}`) }, 'domain_ids'],
      [{ concept_ids: [T2DM], standard_only: 'maybe' }, 'standard_only'],
      [{ concept_ids: [T2DM], page_size: 0 }, 'page_size'],
    ] as Array<[Record<string, unknown>, string]>) {
      const res = await t.request('/v1/concepts/recommended', { method: 'POST', body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain(parameter);
    }
    const ok100 = await t.request('/v1/concepts/recommended', { method: 'POST', body: { concept_ids: many(100, (i) => T2DM + i) } });
    expect(ok100.status).toBe(200);
  });
});
