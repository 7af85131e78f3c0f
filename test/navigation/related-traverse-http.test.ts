/**
 * Traversal through HTTPS on a purpose-built vocabulary (./related-graph-fixture.ts): the E6
 * `traverse` operation on a cycle (termination, each concept once at its shortest distance, exact
 * traversal_stats), the licence rules (a CPT4 concept is never discovered nor walked through for a
 * key without CPT4 validation; GPI/MedDRA never), the breadth budget at a hub (its one parent is
 * not crowded out by its 150 children; limits_reached says so), invalid and dangling rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { CYCLE, DEAD_END, HUB, HUB_CHILDREN, LICENCE, writeGraphFixture } from './related-graph-fixture.js';

let t: TestServer;
let cpt4Key: string;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeGraphFixture(), label: '2025.2', makeDefault: true }] });
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => {
  await t?.close();
});

async function traverse(conceptId: number, params: Record<string, unknown> = {}, key?: string) {
  const res = await t.request('/v1/concepts/relationships/batch', {
    method: 'POST',
    key,
    body: { queries: [{ query_id: 'q', concept_id: conceptId, operation: 'traverse', params }] },
  });
  expect(res.status).toBe(200);
  const item = res.body.data[0];
  expect(item.success, JSON.stringify(item)).toBe(true);
  return item.data;
}

const ids = (concepts: Array<{ concept_id: number }>) => concepts.map((c) => c.concept_id).sort((a, b) => a - b);

describe('a cycle A → B → C → A', () => {
  it('terminates with each concept once at its shortest distance, and exact statistics', async () => {
    const result = await traverse(CYCLE.a, { max_depth: 5 });
    expect(result.starting_concepts).toEqual([CYCLE.a]);
    expect(result.relationship_paths).toEqual([]);
    expect(result.discovered_concepts).toEqual([
      {
        concept_id: CYCLE.b,
        concept_name: 'Cycle B',
        vocabulary_id: 'SNOMED',
        relationship_id: 'Has asso finding',
        relationship_name: 'Has associated finding (SNOMED)',
        relationship_score: 0.5, // attribute weight (documented table)
        relationship_distance: 1,
      },
      {
        concept_id: CYCLE.c,
        concept_name: 'Cycle C',
        vocabulary_id: 'SNOMED',
        relationship_id: 'Has asso finding',
        relationship_name: 'Has associated finding (SNOMED)',
        relationship_score: 0.2, // 0.5 × 0.5 × 0.8
        relationship_distance: 2,
      },
    ]);
    // The fixture's three rows are each read once, the last one leading back to A.
    expect(result.traversal_stats).toEqual({
      total_concepts_discovered: 2,
      max_depth_reached: 2,
      total_relationships_explored: 3,
      unique_relationship_types: ['Has asso finding'],
      limits_reached: [],
    });
  });

  it('min_score prunes the walk (C scores 0.2)', async () => {
    const result = await traverse(CYCLE.a, { min_score: 0.3 });
    expect(ids(result.discovered_concepts)).toEqual([CYCLE.b]);
  });

  it('max_depth 1 stops at the neighbours', async () => {
    const result = await traverse(CYCLE.a, { max_depth: 1 });
    expect(ids(result.discovered_concepts)).toEqual([CYCLE.b]);
    expect(result.traversal_stats.total_relationships_explored).toBe(1);
  });
});

describe('licence rules', () => {
  it('without CPT4 validation the CPT4 concept is neither discovered nor walked through; MedDRA never', async () => {
    const result = await traverse(LICENCE.start);
    expect(ids(result.discovered_concepts)).toEqual([LICENCE.open]);
    expect(result.traversal_stats.total_relationships_explored).toBe(1);
    const related = await t.request(`/v1/concepts/${LICENCE.start}/related`);
    expect(related.body.data.map((c: { concept_id: number }) => c.concept_id)).toEqual([LICENCE.open]);
  });

  it('with CPT4 validation the CPT4 concept and what lies behind it are found; MedDRA still never', async () => {
    const result = await traverse(LICENCE.start, {}, cpt4Key);
    expect(ids(result.discovered_concepts)).toEqual([LICENCE.behindCpt4, LICENCE.open, LICENCE.cpt4].sort((a, b) => a - b));
    const behind = result.discovered_concepts.find((c: { concept_id: number }) => c.concept_id === LICENCE.behindCpt4);
    expect(behind.relationship_distance).toBe(2);
    expect(JSON.stringify(result)).not.toContain('MedDRA');
  });

  it('starting from a restricted concept is 403 on GET and a failed item in the batch', async () => {
    const get = await t.request(`/v1/concepts/${LICENCE.cpt4}/related`);
    expect(get.status).toBe(403);
    expect(get.body.error.code).toBe('vocabulary_restricted');
    const batch = await t.request('/v1/concepts/relationships/batch', {
      method: 'POST',
      body: { queries: [{ query_id: 'm', concept_id: LICENCE.meddra, operation: 'related' }] },
    });
    expect(batch.body.data[0]).toMatchObject({ success: false, data: null, error_code: 'vocabulary_restricted' });
    expect(typeof batch.body.data[0].error).toBe('string');
  });
});

describe('a hub with more relationships than the breadth budget (100 per concept)', () => {
  it('its single parent is kept beside 99 of its 150 children, and the limit is named', async () => {
    const result = await traverse(HUB.hub, { max_depth: 1 });
    const found = ids(result.discovered_concepts);
    expect(found).toContain(HUB.parent);
    expect(found).toHaveLength(100);
    // Spread evenly: 'Is a' keeps its 1 row, 'Subsumes' the rest of the 100, its first children by id.
    expect(found.filter((id: number) => id >= HUB.firstChild)).toEqual(Array.from({ length: 99 }, (_, i) => HUB.firstChild + i));
    expect(result.traversal_stats.limits_reached).toEqual(['links_per_concept']);
    expect(result.traversal_stats.total_relationships_explored).toBe(100);
    expect(HUB_CHILDREN).toBeGreaterThan(100);
  });

  it('GET related ranks the parent and the children (0.9 each) by concept id', async () => {
    const res = await t.request(`/v1/concepts/${HUB.hub}/related?page_size=5`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { concept_id: number }) => c.concept_id)).toEqual([HUB.parent, HUB.firstChild, HUB.firstChild + 1, HUB.firstChild + 2, HUB.firstChild + 3]);
    expect(res.body.data.map((c: { relationship_score: number }) => c.relationship_score)).toEqual([0.9, 0.9, 0.9, 0.9, 0.9]);
  });
});

describe('rows that are not followed', () => {
  it('an invalid relationship and a row to a concept that does not exist are not followed nor counted', async () => {
    const result = await traverse(DEAD_END.start);
    expect(result.discovered_concepts).toEqual([]);
    expect(result.traversal_stats).toEqual({
      total_concepts_discovered: 0,
      max_depth_reached: 0,
      total_relationships_explored: 0,
      unique_relationship_types: [],
      limits_reached: [],
    });
  });
});
