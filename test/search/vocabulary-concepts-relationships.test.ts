/**
 * include_relationships on GET /v1/vocabularies/{vocabulary_id}/concepts through HTTPS: each concept
 * carries the parents ('Is a') and children ('Subsumes') that GET /v1/concepts/{concept_id} gives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from '../http/fixture-vocabulary.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

const ids = (list: Array<{ concept_id: number }>) => list.map((c) => c.concept_id);

describe('GET /v1/vocabularies/{vocabulary_id}/concepts?include_relationships=true', () => {
  it('attaches parents and children to every concept, as the concept lookup does', async () => {
    const res = await t.request('/v1/vocabularies/SNOMED/concepts?include_relationships=true');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const concept of res.body.data) {
      const lookup = await t.request(`/v1/concepts/${concept.concept_id}?include_relationships=true`);
      expect(concept.relationships, `concept ${concept.concept_id}`).toEqual(lookup.body.data.relationships);
    }
    // The fixture says: 201826 'Is a' 201820, 201820 'Subsumes' 201826.
    const t2dm = res.body.data.find((c: { concept_id: number }) => c.concept_id === 201826);
    const dm = res.body.data.find((c: { concept_id: number }) => c.concept_id === 201820);
    expect(ids(t2dm.relationships.parents)).toEqual([201820]);
    expect(t2dm.relationships.parents[0]).toMatchObject({ concept_name: 'Diabetes mellitus', vocabulary_id: 'SNOMED', relationship_id: 'Is a' });
    expect(ids(dm.relationships.children)).toEqual([201826]);
  });

  it('works with search too, and is absent without the flag', async () => {
    const searched = await t.request('/v1/vocabularies/SNOMED/concepts?search=diabetes&include_relationships=true');
    expect(searched.status).toBe(200);
    for (const c of searched.body.data) expect(c.relationships).toBeDefined();
    const plain = await t.request('/v1/vocabularies/SNOMED/concepts');
    for (const c of plain.body.data) expect(c).not.toHaveProperty('relationships');
  });

  it('clamps page_size to 100 with relationships (1000 without)', async () => {
    const withRelationships = await t.request('/v1/vocabularies/SNOMED/concepts?include_relationships=true&page_size=1000');
    expect(withRelationships.body.meta.pagination.page_size).toBe(100);
    const without = await t.request('/v1/vocabularies/SNOMED/concepts?page_size=1000');
    expect(without.body.meta.pagination.page_size).toBe(1000);
  });

  it('rejects a non-boolean include_relationships with a 400 naming it', async () => {
    const res = await t.request('/v1/vocabularies/SNOMED/concepts?include_relationships=maybe');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('include_relationships');
  });
});
