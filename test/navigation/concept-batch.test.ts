/**
 * POST /v1/concepts/batch through HTTPS (client-compatibility §1.1): 1–100 ids, answered in input
 * order; ids not answered listed in failed_concepts with a reason (unknown, licence-hidden,
 * filtered by vocabulary_filter or standard_only, whose server default is true); summary counts;
 * include_synonyms / include_relationships / include_mappings as the single lookup gives them.
 * Expected values come from the source files (demo vocabulary, eunomia-gibleed-2019, a fixture).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { visibleWithoutCpt4 } from '../metadata/concept-file.js';
import { DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR, readSourceVocabulary, type SourceVocabulary } from './relationship-source.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-gibleed-2019');

function writeLicensedNeighbourFixture(): string {
  return writeAthenaFixture({
    concepts: [
      { concept_id: 20, concept_name: 'Source code', vocabulary_id: 'ICD10CM', standard_concept: null, concept_class_id: '4-char billing code' },
      { concept_id: 21, concept_name: 'Standard finding' },
      { concept_id: 22, concept_name: 'Parent finding' },
      { concept_id: 14, concept_name: 'A procedure code', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4' },
    ],
    relationships: [
      { concept_id_1: 20, concept_id_2: 21, relationship_id: 'Maps to' },
      { concept_id_1: 20, concept_id_2: 14, relationship_id: 'Maps to' },
      { concept_id_1: 21, concept_id_2: 22, relationship_id: 'Is a' },
      { concept_id_1: 21, concept_id_2: 14, relationship_id: 'Is a' },
      { concept_id_1: 22, concept_id_2: 21, relationship_id: 'Subsumes' },
    ],
  });
}

let t: TestServer;
let cpt4Key: string;
let demo: SourceVocabulary;
let gibleed: SourceVocabulary;

beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true },
      { dir: EUNOMIA_GIBLEED_DIR, label: '2019.1' },
      { dir: writeLicensedNeighbourFixture(), label: '2024.1' },
    ],
  });
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
  demo = readSourceVocabulary(DEMO_VOCABULARY_DIR);
  gibleed = readSourceVocabulary(EUNOMIA_GIBLEED_DIR);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const batch = (body: unknown, query = '', key?: string) =>
  t.request(`/v1/concepts/batch${query ? `?${query}` : ''}`, { method: 'POST', body, ...(key ? { key } : {}) });

/** Valid outbound neighbours of a concept through one relationship, as the source says (sorted by id). */
function neighbours(source: SourceVocabulary, conceptId: number, relationshipId: string) {
  return source.relationships
    .filter((r) => r.concept_id_1 === conceptId && r.relationship_id === relationshipId && r.invalid_reason === null && source.concepts.has(r.concept_id_2))
    .map((r) => source.concepts.get(r.concept_id_2)!)
    .filter(visibleWithoutCpt4)
    .sort((a, b) => a.concept_id - b.concept_id);
}

describe.skipIf(MISSING_SHARED_VOCAB)('POST /v1/concepts/batch', () => {
  it('answers standard concepts in input order and lists the others as failed (standard_only defaults to true)', async () => {
    const source = [...demo.concepts.values()].filter(visibleWithoutCpt4);
    const ids = [...source.slice(0, 97).map((c) => c.concept_id), 999999999, 888888888, source[0]!.concept_id];
    const res = await batch({ concept_ids: ids });
    expect(res.status).toBe(200);
    const unique = [...new Set(ids)];
    const standard = unique.filter((id) => demo.concepts.get(id)?.standard_concept === 'S');
    expect(res.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual(standard);
    const failed = new Map(res.body.data.failed_concepts.map((f: { concept_id: number; reason: string }) => [f.concept_id, f.reason]));
    expect([...failed.keys()].sort()).toEqual(unique.filter((id) => !standard.includes(id)).sort());
    expect(failed.get(999999999)).toMatch(/^not_found/);
    const nonStandard = unique.find((id) => demo.concepts.get(id) && demo.concepts.get(id)!.standard_concept !== 'S')!;
    expect(failed.get(nonStandard)).toMatch(/^filtered/);
    expect(res.body.data.summary).toEqual({ total: unique.length, found: standard.length, failed: unique.length - standard.length });
    const first = res.body.data.concepts[0];
    const expected = demo.concepts.get(first.concept_id)!;
    expect(first).toMatchObject({ ...expected, vocabulary_name: demo.vocabularyNames.get(expected.vocabulary_id), is_valid: true, is_standard: true });
    expect(first).not.toHaveProperty('synonyms');
    expect(first).not.toHaveProperty('relationships');
    expect(first).not.toHaveProperty('mappings');
  });

  it('standard_only=false answers every known concept; vocabulary_filter keeps only its vocabularies', async () => {
    const ids = [201826, 35206882, 201820, 999999999];
    const all = await batch({ concept_ids: ids, standard_only: false });
    expect(all.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual(ids.filter((id) => demo.concepts.has(id)));
    const icd = await batch({ concept_ids: ids, standard_only: false, vocabulary_filter: ['ICD10CM'] });
    expect(icd.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual(ids.filter((id) => demo.concepts.get(id)?.vocabulary_id === 'ICD10CM'));
    const reasons = icd.body.data.failed_concepts.map((f: { reason: string }) => f.reason.split(':')[0]);
    expect(reasons.sort()).toEqual(['filtered', 'filtered', 'not_found']);
  });

  it('include_synonyms and include_relationships give what the single lookup gives; include_mappings the Maps to targets', async () => {
    const ids = [201826, 201820, 4329847, 35206882].filter((id) => demo.concepts.has(id));
    const res = await batch({ concept_ids: ids, standard_only: false, include_synonyms: true, include_relationships: true, include_mappings: true });
    expect(res.body.data.concepts).toHaveLength(ids.length);
    for (const concept of res.body.data.concepts) {
      const single = await t.request(`/v1/concepts/${concept.concept_id}?include_synonyms=true&include_relationships=true`);
      const { mappings, ...rest } = concept;
      expect(rest).toEqual(single.body.data);
      expect(concept.relationships.parents.map((p: { concept_id: number }) => p.concept_id)).toEqual(neighbours(demo, concept.concept_id, 'Is a').map((c) => c.concept_id));
      expect(concept.relationships.children.map((p: { concept_id: number }) => p.concept_id)).toEqual(neighbours(demo, concept.concept_id, 'Subsumes').map((c) => c.concept_id));
      expect(mappings).toEqual(
        neighbours(demo, concept.concept_id, 'Maps to').map((c) => ({
          concept_id: c.concept_id,
          concept_name: c.concept_name,
          concept_code: c.concept_code,
          vocabulary_id: c.vocabulary_id,
          domain_id: c.domain_id,
          concept_class_id: c.concept_class_id,
          standard_concept: c.standard_concept,
          relationship_id: 'Maps to',
        })),
      );
    }
    const t2dm = res.body.data.concepts.find((c: { concept_id: number }) => c.concept_id === 35206882);
    expect(t2dm.mappings.map((m: { concept_id: number }) => m.concept_id)).toEqual([201826]);
  });

  it('reports licence-hidden concepts as failed without showing them, and hides licensed neighbours and mapping targets', async () => {
    const cpt4 = [...demo.concepts.values()].find((c) => c.vocabulary_id === 'CPT4')!;
    const plain = await batch({ concept_ids: [cpt4.concept_id, 201826] });
    expect(plain.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual([201826]);
    expect(plain.body.data.failed_concepts).toEqual([{ concept_id: cpt4.concept_id, reason: expect.stringMatching(/^vocabulary_restricted/) }]);
    expect(JSON.stringify(plain.body)).not.toContain(cpt4.concept_name);
    const validated = await batch({ concept_ids: [cpt4.concept_id, 201826] }, '', cpt4Key);
    expect(validated.body.data.summary).toEqual({ total: 2, found: 2, failed: 0 });

    const body = { concept_ids: [20, 21], standard_only: false, include_relationships: true, include_mappings: true };
    const hidden = await batch(body, 'vocab_release=2024.1');
    const [source, finding] = hidden.body.data.concepts;
    expect(source.mappings.map((m: { concept_id: number }) => m.concept_id)).toEqual([21]);
    expect(finding.relationships.parents.map((p: { concept_id: number }) => p.concept_id)).toEqual([22]);
    const shown = await batch(body, 'vocab_release=2024.1', cpt4Key);
    expect(shown.body.data.concepts[0].mappings.map((m: { concept_id: number }) => m.concept_id)).toEqual([14, 21]);
    expect(shown.body.data.concepts[1].relationships.parents.map((p: { concept_id: number }) => p.concept_id)).toEqual([14, 22]);
  });

  it('answers the first 100 concepts of eunomia-gibleed-2019 (standard only by default)', async () => {
    const ids = [...gibleed.concepts.keys()].slice(0, 100);
    const res = await batch({ concept_ids: ids }, 'vocab_release=2019.1');
    const expected = ids.filter((id) => gibleed.concepts.get(id)!.standard_concept === 'S' && visibleWithoutCpt4(gibleed.concepts.get(id)!));
    expect(res.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual(expected);
    expect(res.body.data.summary).toEqual({ total: 100, found: expected.length, failed: 100 - expected.length });
  });

  it('bad input: 0 or 101 ids, a non-integer id, no body, a non-boolean flag → 400 naming the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ concept_ids: [] }, 'concept_ids'],
      [{ concept_ids: Array.from({ length: 101 }, (_, i) => i + 1) }, 'concept_ids'],
      [{ concept_ids: [1, 'abc'] }, 'concept_ids'],
      [{}, 'concept_ids'],
      [{ concept_ids: [201826], include_synonyms: 'maybe' }, 'include_synonyms'],
      [{ concept_ids: [201826], vocabulary_filter: { SNOMED: true } }, 'vocabulary_filter'],
    ];
    for (const [body, name] of cases) {
      const res = await batch(body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toContain(name);
    }
    const exactly100 = await batch({ concept_ids: Array.from({ length: 100 }, (_, i) => i + 1) });
    expect(exactly100.status).toBe(200);
    expect(exactly100.body.data.summary.total).toBe(100);
  });
});
