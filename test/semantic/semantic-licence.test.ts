/**
 * Licence rules (specification Authentication 5) on the four meaning-based endpoints, over HTTPS on
 * the server-core fixture (a standard CPT4 concept, GPI and MedDRA concepts): a key without CPT4
 * validation never sees a CPT4 concept in any answer and is refused (403) when it names CPT4; a key
 * with a current validation sees it; GPI and MedDRA are never served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCoreFixture } from '../http/fixture-vocabulary.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { conceptIdsIn } from '../helpers/concept-ids-in.js';
import { readSourceConcepts } from '../metadata/concept-file.js';

let t: TestServer;
let validatedKey: string;
let cpt4: { concept_id: number; concept_name: string };
let neverServed: number[];

beforeAll(async () => {
  const dir = writeCoreFixture();
  const concepts = readSourceConcepts(dir);
  cpt4 = concepts.find((c) => c.vocabulary_id === 'CPT4' && c.standard_concept === 'S')!;
  neverServed = concepts.filter((c) => c.vocabulary_id === 'GPI' || c.vocabulary_id === 'MedDRA').map((c) => c.concept_id);
  t = await startTestServer({ releases: [{ dir, label: '2025.2', makeDefault: true }] });
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => {
  await t?.close();
});

/** The four endpoints asked for the CPT4 concept's own name, everything at threshold 0. */
function askAll(key?: string) {
  const q = encodeURIComponent(cpt4.concept_name);
  return Promise.all([
    t.request(`/v1/search/semantic?query=${q}&threshold=0&page_size=100`, { key }),
    t.request(`/v1/concepts/semantic-search?query=${q}&threshold=0&page_size=100`, { key }),
    t.request('/v1/search/semantic-bulk', { method: 'POST', key, body: { searches: [{ query: cpt4.concept_name, threshold: 0, page_size: 100 }] } }),
    t.request('/v1/search/similar', { method: 'POST', key, body: { concept_name: cpt4.concept_name, similarity_threshold: 0, page_size: 1000 } }),
  ]);
}

describe('licence rules on semantic endpoints (Authentication 5)', () => {
  it('a key without CPT4 validation never sees CPT4 (nor GPI, MedDRA) in any of the four endpoints', async () => {
    for (const r of await askAll()) {
      expect(r.status).toBe(200);
      const found = conceptIdsIn(r.body.data);
      expect(found.length).toBeGreaterThan(0);
      expect(found).not.toContain(cpt4.concept_id);
      for (const id of neverServed) expect(found).not.toContain(id);
    }
  });

  it('a key with a current CPT4 validation finds the CPT4 concept by its name in all four', async () => {
    for (const r of await askAll(validatedKey)) {
      expect(r.status).toBe(200);
      expect(conceptIdsIn(r.body.data)).toContain(cpt4.concept_id);
    }
  });

  it('naming CPT4 without validation is a 403 (a failed item in bulk); so is similar by a CPT4 concept_id', async () => {
    const search = await t.request('/v1/search/semantic?query=visit&vocabulary_ids=CPT4');
    expect(search.status).toBe(403);
    expect(search.body.error.code).toBe('vocabulary_restricted');
    const bulk = await t.request('/v1/search/semantic-bulk', { method: 'POST', body: { searches: [{ query: 'visit', vocabulary_ids: 'CPT4' }, { query: 'diabetes' }] } });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.results.map((x: any) => x.status)).toEqual(['failed', 'completed']);
    expect(bulk.body.data.results[0].error_code).toBe('vocabulary_restricted');
    const similar = await t.request('/v1/search/similar', { method: 'POST', body: { concept_id: cpt4.concept_id } });
    expect(similar.status).toBe(403);
    expect(similar.body.error.code).toBe('vocabulary_restricted');
    const gpi = await t.request('/v1/search/semantic?query=drug&vocabulary_ids=GPI', { key: validatedKey });
    expect(gpi.status).toBe(403);
  });
});
