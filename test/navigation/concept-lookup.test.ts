/**
 * GET /v1/concepts/{concept_id} and GET /v1/concepts/by-code/{vocabulary_id}/{concept_code} with
 * every flag of client-compatibility §1.1, through HTTPS, on the demo vocabulary and on
 * eunomia-gibleed-2019 (real CONCEPT_ANCESTOR rows). Expected values come from the source files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { readSourceTable, visibleWithoutCpt4 } from '../metadata/concept-file.js';
import { DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR, readSourceVocabulary, type SourceVocabulary } from './relationship-source.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-gibleed-2019');

/** A parent with 150 children and a child with 120 parents (the attached lists stop at 100 each). */
const WIDE_PARENT = 500;
const WIDE_CHILD = 700;
function writeWideFixture(): string {
  const children = Array.from({ length: 150 }, (_, i) => 501 + i);
  const parents = Array.from({ length: 120 }, (_, i) => 701 + i);
  return writeAthenaFixture({
    concepts: [WIDE_PARENT, ...children, WIDE_CHILD, ...parents].map((id) => ({ concept_id: id, concept_name: `Concept ${id}` })),
    relationships: [
      ...[...children].reverse().flatMap((id) => [
        { concept_id_1: WIDE_PARENT, concept_id_2: id, relationship_id: 'Subsumes' },
        { concept_id_1: id, concept_id_2: WIDE_PARENT, relationship_id: 'Is a' },
      ]),
      ...parents.map((id) => ({ concept_id_1: WIDE_CHILD, concept_id_2: id, relationship_id: 'Is a' })),
    ],
  });
}

let t: TestServer;
let demo: SourceVocabulary;
let gibleed: SourceVocabulary;

beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true },
      { dir: EUNOMIA_GIBLEED_DIR, label: '2019.1' },
      { dir: writeWideFixture(), label: '2024.1' },
    ],
  });
  demo = readSourceVocabulary(DEMO_VOCABULARY_DIR);
  gibleed = readSourceVocabulary(EUNOMIA_GIBLEED_DIR);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Ancestors ('up') or descendants ('down') of a concept in the source CONCEPT_ANCESTOR, nearest first, self and missing concepts excluded. */
function lineage(dir: string, source: SourceVocabulary, conceptId: number, direction: 'up' | 'down') {
  const [near, far] = direction === 'up' ? ['descendant_concept_id', 'ancestor_concept_id'] : ['ancestor_concept_id', 'descendant_concept_id'];
  return readSourceTable(dir, 'CONCEPT_ANCESTOR.csv')
    .filter((r) => Number(r[near]) === conceptId && r[far] !== r[near] && source.concepts.has(Number(r[far])))
    .map((r) => ({ id: Number(r[far]), min: Number(r.min_levels_of_separation), max: Number(r.max_levels_of_separation) }))
    .filter((r) => visibleWithoutCpt4(source.concepts.get(r.id)!))
    .sort((a, b) => a.min - b.min || a.id - b.id)
    .slice(0, 100);
}

function neighbourIds(source: SourceVocabulary, conceptId: number, relationshipId: string): number[] {
  return source.relationships
    .filter((r) => r.concept_id_1 === conceptId && r.relationship_id === relationshipId && r.invalid_reason === null && source.concepts.has(r.concept_id_2))
    .map((r) => r.concept_id_2)
    .filter((id) => visibleWithoutCpt4(source.concepts.get(id)!))
    .sort((a, b) => a - b);
}

describe.skipIf(MISSING_SHARED_VOCAB)('GET /v1/concepts/{concept_id}', () => {
  it('returns the core fields, vocabulary_name and the is_* flags, nothing optional by default', async () => {
    for (const conceptId of [201826, 35206882]) {
      const res = await t.request(`/v1/concepts/${conceptId}`);
      expect(res.status).toBe(200);
      const c = demo.concepts.get(conceptId)!;
      expect(res.body.data).toEqual({
        ...c,
        vocabulary_name: demo.vocabularyNames.get(c.vocabulary_id),
        is_valid: c.invalid_reason === null,
        is_standard: c.standard_concept === 'S',
        is_classification: c.standard_concept === 'C',
      });
    }
  });

  it('include_synonyms adds {concept_synonym_name, language_concept_id} objects from CONCEPT_SYNONYM', async () => {
    const synonyms = readSourceTable(DEMO_VOCABULARY_DIR, 'CONCEPT_SYNONYM.csv').filter((s) => s.concept_id === '201826');
    expect(synonyms.length).toBeGreaterThan(0);
    const res = await t.request('/v1/concepts/201826?include_synonyms=true');
    expect(res.body.data.synonyms).toEqual(synonyms.map((s) => ({ concept_synonym_name: s.concept_synonym_name, language_concept_id: Number(s.language_concept_id) })));
  });

  it("include_relationships adds relationships {parents ('Is a'), children ('Subsumes')} as an object", async () => {
    for (const conceptId of [201826, 201820, 4274025]) {
      const res = await t.request(`/v1/concepts/${conceptId}?include_relationships=true`);
      const rel = res.body.data.relationships;
      expect(rel.parents.map((p: { concept_id: number }) => p.concept_id)).toEqual(neighbourIds(demo, conceptId, 'Is a'));
      expect(rel.children.map((p: { concept_id: number }) => p.concept_id)).toEqual(neighbourIds(demo, conceptId, 'Subsumes'));
      for (const p of [...rel.parents, ...rel.children]) {
        expect(p).toEqual({
          concept_id: p.concept_id,
          concept_name: demo.concepts.get(p.concept_id)!.concept_name,
          vocabulary_id: demo.concepts.get(p.concept_id)!.vocabulary_id,
          relationship_id: rel.parents.includes(p) ? 'Is a' : 'Subsumes',
        });
      }
    }
  });

  it('include_relationships attaches the first 100 parents and the first 100 children by concept_id', async () => {
    const parent = await t.request(`/v1/concepts/${WIDE_PARENT}?include_relationships=true&vocab_release=2024.1`);
    expect(parent.body.data.relationships.children.map((c: { concept_id: number }) => c.concept_id)).toEqual(Array.from({ length: 100 }, (_, i) => 501 + i));
    const child = await t.request(`/v1/concepts/${WIDE_CHILD}?include_relationships=true&vocab_release=2024.1`);
    expect(child.body.data.relationships.parents.map((c: { concept_id: number }) => c.concept_id)).toEqual(Array.from({ length: 100 }, (_, i) => 701 + i));
    expect(child.body.data.relationships.children).toEqual([]);
  });

  it('include_hierarchy adds ancestors and descendants from CONCEPT_ANCESTOR, nearest first (eunomia-gibleed-2019)', async () => {
    const shape = (nodes: Array<{ concept_id: number; min_levels_of_separation: number; max_levels_of_separation: number }>) =>
      nodes.map((n) => ({ id: n.concept_id, min: n.min_levels_of_separation, max: n.max_levels_of_separation }));
    // 1549786 has descendants in the subset, 19128022 ancestors, 4329847 (Myocardial infarction) neither within it.
    for (const conceptId of [1549786, 19128022, 4329847]) {
      const res = await t.request(`/v1/concepts/${conceptId}?include_hierarchy=true&vocab_release=2019.1`);
      expect(res.status).toBe(200);
      expect(shape(res.body.data.hierarchy.ancestors)).toEqual(lineage(EUNOMIA_GIBLEED_DIR, gibleed, conceptId, 'up'));
      expect(shape(res.body.data.hierarchy.descendants)).toEqual(lineage(EUNOMIA_GIBLEED_DIR, gibleed, conceptId, 'down'));
    }
    expect(lineage(EUNOMIA_GIBLEED_DIR, gibleed, 1549786, 'down').length).toBeGreaterThan(1);
    expect(lineage(EUNOMIA_GIBLEED_DIR, gibleed, 19128022, 'up').length).toBeGreaterThan(1);
  });

  it('id 0 is accepted (not pre-validated); an unknown id is 404 not_found with x-request-id; a non-numeric id is 400', async () => {
    const zero = await t.request('/v1/concepts/0');
    expect(zero.status).toBe(demo.concepts.has(0) ? 200 : 404);
    const unknown = await t.request('/v1/concepts/999999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect(unknown.headers['x-request-id']).toBe(unknown.body.meta.request_id);
    const bad = await t.request('/v1/concepts/12ab');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('concept_id');
    const badFlag = await t.request('/v1/concepts/201826?include_hierarchy=sometimes');
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.error.message).toContain('include_hierarchy');
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('GET /v1/concepts/by-code/{vocabulary_id}/{concept_code}', () => {
  it('round-trips E11.9 with the same flags and shape as the lookup by id', async () => {
    const byCode = await t.request('/v1/concepts/by-code/ICD10CM/E11.9?include_relationships=true&include_synonyms=true');
    expect(byCode.status).toBe(200);
    const id = [...demo.concepts.values()].find((c) => c.vocabulary_id === 'ICD10CM' && c.concept_code === 'E11.9')!.concept_id;
    const byId = await t.request(`/v1/concepts/${id}?include_relationships=true&include_synonyms=true`);
    expect(byCode.body.data).toEqual(byId.body.data);
  });

  it('an unknown code or vocabulary is 404 not_found', async () => {
    for (const path of ['/v1/concepts/by-code/ICD10CM/Z99.999', '/v1/concepts/by-code/NOPE/E11.9']) {
      const res = await t.request(path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});
