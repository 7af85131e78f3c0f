/**
 * GET /v1/concepts/{id}/ancestors, /descendants and /hierarchy over HTTPS on real ancestor data
 * (../shared/vocab/eunomia-gibleed-2019: repeated pairs, rows whose ends are missing from CONCEPT)
 * and on the demo vocabulary (client-compatibility §1.3). Every expected row, level and total is
 * computed from the CONCEPT_ANCESTOR and CONCEPT files by ./hierarchy-expected.ts.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { busiestConcepts, expectedLineage, nodeOf, ancestorRows } from './hierarchy-expected.js';
import { DEMO_DIR, readAthenaFiles, SHARED_VOCAB, type AthenaFiles } from './mapping-athena-files.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-gibleed-2019');

const EUNOMIA_DIR = join(SHARED_VOCAB, 'eunomia-gibleed-2019');
const EUNOMIA = '2019.1';
const DEMO = '2025.1';

let t: TestServer;
let eunomia: AthenaFiles;
let demo: AthenaFiles;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: DEMO_DIR, label: DEMO, makeDefault: true }, { dir: EUNOMIA_DIR, label: EUNOMIA }] });
  eunomia = readAthenaFiles(EUNOMIA_DIR);
  demo = readAthenaFiles(DEMO_DIR);
});
afterAll(async () => t?.close());

const get = (path: string) => t.request(path);
const ids = (nodes: Array<{ concept_id: number }>) => nodes.map((n) => n.concept_id);

describe.skipIf(MISSING_SHARED_VOCAB)('eunomia-gibleed-2019: real CONCEPT_ANCESTOR rows', () => {
  it('lists every descendant with its levels, nearest first, default max_levels 10 and page_size 100, exact total', async () => {
    const subjects = busiestConcepts(eunomia, 'descendants', 5);
    expect(subjects.length).toBe(5);
    for (const id of subjects) {
      const expected = expectedLineage(eunomia, id, 'descendants');
      const res = await get(`/v1/concepts/${id}/descendants?vocab_release=${EUNOMIA}`);
      expect(res.status).toBe(200);
      expect(res.body.data.concept_id).toBe(id);
      expect(res.body.data.concept_name).toBe(eunomia.concepts.get(id)!.concept_name);
      expect(res.body.data.descendants).toEqual(expected.slice(0, 100).map(nodeOf));
      expect(res.body.meta.pagination).toEqual({
        page: 1,
        page_size: 100,
        total_items: expected.length,
        total_pages: Math.max(1, Math.ceil(expected.length / 100)),
        has_next: expected.length > 100,
        has_previous: false,
      });
      expect(res.body.data.hierarchy_summary).toMatchObject({
        total_descendants: expected.length,
        max_hierarchy_depth: Math.max(0, ...expected.map((n) => n.min)),
        unique_vocabularies: [...new Set(expected.map((n) => n.concept.vocabulary_id))].sort(),
        relationship_types_used: ['Is a'],
        classification_count: expected.filter((n) => n.concept.standard_concept === 'C').length,
        max_levels: 10,
      });
    }
  });

  it('lists every ancestor of the deepest concepts, nearest first, with exact totals', async () => {
    for (const id of busiestConcepts(eunomia, 'ancestors', 5)) {
      const expected = expectedLineage(eunomia, id, 'ancestors');
      expect(expected.length).toBeGreaterThan(0);
      const res = await get(`/v1/concepts/${id}/ancestors?vocab_release=${EUNOMIA}`);
      expect(res.status).toBe(200);
      expect(res.body.data.ancestors).toEqual(expected.slice(0, 100).map(nodeOf));
      expect(res.body.meta.pagination.total_items).toBe(expected.length);
      expect(res.body.data.hierarchy_summary.total_ancestors).toBe(expected.length);
    }
  });

  it('pages cover the whole list once, in order (page and page_size)', async () => {
    const [id] = busiestConcepts(eunomia, 'descendants', 1);
    const expected = ids(expectedLineage(eunomia, id!, 'descendants', { maxLevels: 20 }).map((n) => n.concept));
    expect(expected.length).toBeGreaterThan(7);
    const seen: number[] = [];
    for (let page = 1; page <= Math.ceil(expected.length / 3); page++) {
      const res = await get(`/v1/concepts/${id}/descendants?vocab_release=${EUNOMIA}&max_levels=20&page_size=3&page=${page}`);
      expect(res.body.meta.pagination).toMatchObject({ page, page_size: 3, total_items: expected.length, has_previous: page > 1 });
      seen.push(...ids(res.body.data.descendants));
    }
    expect(seen).toEqual(expected);
    const past = await get(`/v1/concepts/${id}/descendants?vocab_release=${EUNOMIA}&max_levels=20&page_size=3&page=${Math.ceil(expected.length / 3) + 1}`);
    expect(past.body.data.descendants).toEqual([]);
    expect(past.body.meta.pagination).toMatchObject({ total_items: expected.length, has_next: false });
  });

  it('max_levels keeps rows at most that many levels away, in both directions', async () => {
    const [down] = busiestConcepts(eunomia, 'descendants', 1);
    const [up] = busiestConcepts(eunomia, 'ancestors', 1);
    for (const maxLevels of [1, 2, 3]) {
      const d = await get(`/v1/concepts/${down}/descendants?vocab_release=${EUNOMIA}&max_levels=${maxLevels}&page_size=200`);
      expect(ids(d.body.data.descendants)).toEqual(ids(expectedLineage(eunomia, down!, 'descendants', { maxLevels }).map((n) => n.concept)));
      const a = await get(`/v1/concepts/${up}/ancestors?vocab_release=${EUNOMIA}&max_levels=${maxLevels}&page_size=200`);
      expect(ids(a.body.data.ancestors)).toEqual(ids(expectedLineage(eunomia, up!, 'ancestors', { maxLevels }).map((n) => n.concept)));
      expect(a.body.data.hierarchy_summary.max_levels).toBe(maxLevels);
    }
  });

  it('vocabulary_ids, domain_ids and standard_only hold for every row, and totals count only those rows', async () => {
    const [id] = busiestConcepts(eunomia, 'ancestors', 1);
    const all = expectedLineage(eunomia, id!, 'ancestors');
    const vocabulary = all[0]!.concept.vocabulary_id;
    const domain = all[all.length - 1]!.concept.domain_id;
    const cases: Array<[string, Parameters<typeof expectedLineage>[3]]> = [
      [`vocabulary_ids=${vocabulary}`, { vocabularyIds: [vocabulary] }],
      [`domain_ids=${domain}`, { domainIds: [domain] }],
      ['standard_only=true', { standardOnly: true }],
      [`vocabulary_ids=${vocabulary},NoSuchVocabulary&domain_ids=${domain}`, { vocabularyIds: [vocabulary], domainIds: [domain] }],
    ];
    for (const [query, filter] of cases) {
      const expected = expectedLineage(eunomia, id!, 'ancestors', filter);
      const res = await get(`/v1/concepts/${id}/ancestors?vocab_release=${EUNOMIA}&${query}`);
      expect(ids(res.body.data.ancestors), query).toEqual(ids(expected.map((n) => n.concept)));
      expect(res.body.meta.pagination.total_items, query).toBe(expected.length);
    }
    const [down] = busiestConcepts(eunomia, 'descendants', 1);
    const downAll = expectedLineage(eunomia, down!, 'descendants');
    const downDomain = downAll[0]!.concept.domain_id;
    const res = await get(`/v1/concepts/${down}/descendants?vocab_release=${EUNOMIA}&domain_ids=${downDomain}&page_size=200`);
    expect(res.body.data.descendants.every((n: { domain_id: string }) => n.domain_id === downDomain)).toBe(true);
    expect(res.body.meta.pagination.total_items).toBe(expectedLineage(eunomia, down!, 'descendants', { domainIds: [downDomain] }).length);
  });

  it('include_distance and include_paths add the distances', async () => {
    const [id] = busiestConcepts(eunomia, 'ancestors', 1);
    const expected = expectedLineage(eunomia, id!, 'ancestors');
    const res = await get(`/v1/concepts/${id}/ancestors?vocab_release=${EUNOMIA}&include_distance=true&include_paths=true`);
    expect(res.body.data.ancestors).toEqual(
      expected.map((n) => ({ ...nodeOf(n), hierarchy_level: n.min, path_length: n.min, max_path_length: n.max })),
    );
    const plain = await get(`/v1/concepts/${id}/ancestors?vocab_release=${EUNOMIA}`);
    expect(plain.body.data.ancestors[0]).not.toHaveProperty('hierarchy_level');
    expect(plain.body.data.ancestors[0]).not.toHaveProperty('path_length');
  });

  it('GET /hierarchy: flat lists both directions with totals; graph adds the concept and every direct link among the nodes', async () => {
    const [id] = busiestConcepts(eunomia, 'ancestors', 1);
    const ancestors = expectedLineage(eunomia, id!, 'ancestors');
    const descendants = expectedLineage(eunomia, id!, 'descendants');
    const flat = await get(`/v1/concepts/${id}/hierarchy?vocab_release=${EUNOMIA}`);
    expect(flat.status).toBe(200);
    expect(flat.body.data).toMatchObject({
      concept_id: id,
      vocabulary_id: eunomia.concepts.get(id!)!.vocabulary_id,
      ancestors: ancestors.map(nodeOf),
      descendants: descendants.map(nodeOf),
      total_ancestors: ancestors.length,
      total_descendants: descendants.length,
      hierarchy_summary: { total_ancestors: ancestors.length, total_descendants: descendants.length },
    });

  });

  it('GET /hierarchy format=graph: the concept at level 0, the first max_results of each direction, every direct link among them', async () => {
    // Subjects: concepts with a direct (level-1) parent present in CONCEPT, so that the graph has edges.
    const direct = ancestorRows(eunomia).filter((r) => r.min === 1 && r.ancestor !== r.descendant && eunomia.concepts.has(r.ancestor) && eunomia.concepts.has(r.descendant));
    const subjects = [...new Set(direct.map((r) => r.descendant))].slice(0, 5);
    expect(subjects.length).toBeGreaterThan(0);
    let edgesSeen = 0;
    for (const id of subjects) {
      for (const maxResults of [1, 3, 1000]) {
        const ancestors = expectedLineage(eunomia, id, 'ancestors').slice(0, maxResults);
        const descendants = expectedLineage(eunomia, id, 'descendants').slice(0, maxResults);
        const res = await get(`/v1/concepts/${id}/hierarchy?vocab_release=${EUNOMIA}&format=graph&max_results=${maxResults}`);
        const nodes = res.body.data.nodes as Array<{ concept_id: number; level: number }>;
        expect(nodes[0]).toMatchObject({ concept_id: id, level: 0 });
        expect(nodes.slice(1)).toEqual([...ancestors, ...descendants].map(nodeOf));
        const shown = new Set(ids(nodes));
        const expectedEdges = direct
          .filter((r) => shown.has(r.ancestor) && shown.has(r.descendant))
          .map((r) => ({ source: r.descendant, target: r.ancestor, relationship_id: 'Is a' }));
        expect(res.body.data.edges).toEqual(expect.arrayContaining(expectedEdges));
        expect(res.body.data.edges).toHaveLength(expectedEdges.length);
        edgesSeen += expectedEdges.length;
      }
    }
    expect(edgesSeen).toBeGreaterThan(0);
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('the demo vocabulary', () => {
  it('Diabetes mellitus (201820) has Type 2 diabetes mellitus (201826) among its descendants, as its files say', async () => {
    const expected = expectedLineage(demo, 201820, 'descendants');
    expect(ids(expected.map((n) => n.concept))).toContain(201826);
    const res = await get('/v1/concepts/201820/descendants');
    expect(res.body.data.descendants).toEqual(expected.slice(0, 100).map(nodeOf));
    expect(res.body.meta.pagination.total_items).toBe(expected.length);
    const up = await get('/v1/concepts/201826/ancestors');
    expect(up.body.data.ancestors).toEqual(expectedLineage(demo, 201826, 'ancestors').map(nodeOf));
  });

  it('every concept with ancestor rows answers its exact totals in /hierarchy', async () => {
    const subjects = busiestConcepts(demo, 'descendants', 10);
    for (const id of subjects) {
      if (['CPT4', 'GPI', 'MedDRA'].includes(demo.concepts.get(id)!.vocabulary_id)) continue;
      const res = await get(`/v1/concepts/${id}/hierarchy?max_levels=20`);
      expect(res.body.data.total_descendants).toBe(expectedLineage(demo, id, 'descendants', { maxLevels: 20 }).length);
      expect(res.body.data.total_ancestors).toBe(expectedLineage(demo, id, 'ancestors', { maxLevels: 20 }).length);
    }
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('bad input (Errors rules 1, client-compatibility §1.3)', () => {
  it('max_levels above 20 is clamped (a 200 saying max_levels 20); 0 or a non-integer is a 400 naming max_levels', async () => {
    const [id] = busiestConcepts(eunomia, 'ancestors', 1);
    const clamped = await get(`/v1/concepts/${id}/ancestors?vocab_release=${EUNOMIA}&max_levels=50`);
    expect(clamped.status).toBe(200);
    expect(clamped.body.data.hierarchy_summary.max_levels).toBe(20);
    expect(ids(clamped.body.data.ancestors)).toEqual(ids(expectedLineage(eunomia, id!, 'ancestors', { maxLevels: 20 }).map((n) => n.concept)));
    for (const path of ['ancestors', 'descendants', 'hierarchy']) {
      for (const value of ['0', 'deep', '1.5']) {
        const res = await get(`/v1/concepts/${id}/${path}?vocab_release=${EUNOMIA}&max_levels=${value}`);
        expect(res.status, `${path} ${value}`).toBe(400);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.message).toContain('max_levels');
      }
    }
  });

  it('a non-numeric id is a 400, an unknown id a 404 not_found', async () => {
    for (const path of ['ancestors', 'descendants', 'hierarchy']) {
      const bad = await get(`/v1/concepts/abc/${path}`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('validation_error');
      expect(bad.body.error.message).toContain('concept_id');
      const missing = await get(`/v1/concepts/999999999/${path}`);
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('not_found');
      expect(missing.headers['x-request-id']).toBe(missing.body.meta.request_id);
    }
  });

  it("relationship_types must define ancestry: 'Is a' and 'Subsumes' answer the same rows; 'Maps to' and unknown ids are a 400", async () => {
    const [id] = busiestConcepts(eunomia, 'descendants', 1);
    const isA = await get(`/v1/concepts/${id}/descendants?vocab_release=${EUNOMIA}`);
    const both = await get(`/v1/concepts/${id}/descendants?vocab_release=${EUNOMIA}&relationship_types=Is+a%2CSubsumes`);
    expect(both.status).toBe(200);
    expect(both.body.data.descendants).toEqual(isA.body.data.descendants);
    expect(both.body.data.hierarchy_summary.relationship_types_used).toEqual(['Is a', 'Subsumes']);
    for (const value of ['Maps+to', 'No+such+relationship']) {
      const res = await get(`/v1/concepts/${id}/descendants?vocab_release=${EUNOMIA}&relationship_types=${value}`);
      expect(res.status, value).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain('relationship_types');
    }
  });

  it('format must be flat or graph; page_size above 200 is clamped', async () => {
    const [id] = busiestConcepts(eunomia, 'descendants', 1);
    const res = await get(`/v1/concepts/${id}/hierarchy?vocab_release=${EUNOMIA}&format=tree`);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('format');
    const clamped = await get(`/v1/concepts/${id}/descendants?vocab_release=${EUNOMIA}&page_size=5000`);
    expect(clamped.body.meta.pagination.page_size).toBe(200);
  });
});
