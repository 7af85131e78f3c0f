/**
 * The bundled demo vocabulary (issue "Foundation" §5): loads without anomalies and holds what the
 * client examples use, in both directions, with a coherent ancestor table.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

const concept = async (id: number, query = '') => {
  const res = await t.request(`/v1/concepts/${id}${query}`);
  expect(res.status, `concept ${id}`).toBe(200);
  return res.body.data;
};

describe('demo vocabulary', () => {
  it('loads with no anomalies and reports the 2025-08-27 release', () => {
    const [build] = listReleaseBuilds(t.dataDir);
    expect(build!.manifest.anomalies).toEqual([]);
    expect(build!.manifest.release_date).toBe('2025-08-27');
    expect(build!.manifest.tables.concept!.rows_stored).toBeGreaterThanOrEqual(300);
  });

  it('passes its own consistency check (reverse relationships, ancestor closure, formats)', () => {
    const res = spawnSync(process.execPath, ['scripts/build-demo-vocabulary.mjs', '--check'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(res.status, res.stderr + res.stdout).toBe(0);
  });

  it.each([
    [201826, 'Type 2 diabetes mellitus', 'SNOMED', '44054006'],
    [201820, 'Diabetes mellitus', 'SNOMED', '73211009'],
    [4329847, 'Myocardial infarction', 'SNOMED', '22298006'],
    [316866, 'Hypertensive disorder', 'SNOMED', '38341003'],
    [320128, 'Essential hypertension', 'SNOMED', '59621000'],
    [1112807, 'aspirin', 'RxNorm', '1191'],
    [1503297, 'metformin', 'RxNorm', '6809'],
  ])('has concept %i %s (%s %s)', async (id, name, vocabulary, code) => {
    expect(await concept(id)).toMatchObject({ concept_id: id, concept_name: name, vocabulary_id: vocabulary, concept_code: code, standard_concept: 'S' });
  });

  it('has the LOINC glucose tests 2345-7 and 2339-0', async () => {
    for (const code of ['2345-7', '2339-0']) {
      const res = await t.request(`/v1/concepts/by-code/LOINC/${code}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ vocabulary_id: 'LOINC', domain_id: 'Measurement', concept_code: code });
    }
  });

  it('maps ICD10CM E11.9 to 201826', async () => {
    const res = await t.request('/v1/concepts/by-code/ICD10CM/E11.9');
    expect(res.status).toBe(200);
    expect(res.body.data.standard_concept).toBeNull();
    const maps = t.server.registry.select('2025.2');
    if (!maps.ok) throw new Error('release missing');
    const targets = maps.release.store.concepts.related(res.body.data.concept_id, ['Maps to'], 10).map((l) => l.concept.concept_id);
    expect(targets).toEqual([201826]);
    const back = maps.release.store.concepts.related(201826, ['Mapped from'], 100).map((l) => l.concept.concept_id);
    expect(back).toContain(res.body.data.concept_id);
  });

  it('has Is a / Subsumes in both directions and a coherent ancestor table', async () => {
    const t2dm = await concept(201826, '?include_relationships=true&include_hierarchy=true');
    const ancestors = t2dm.hierarchy.ancestors.map((a: { concept_id: number }) => a.concept_id);
    expect(ancestors).toContain(201820);
    for (const parent of t2dm.relationships.parents) {
      expect(ancestors).toContain(parent.concept_id);
      const p = await concept(parent.concept_id, '?include_relationships=true');
      expect(p.relationships.children.map((c: { concept_id: number }) => c.concept_id)).toContain(201826);
    }
  });

  it('has synonyms, deprecated and updated concepts, classification concepts and LOINC structural classes', async () => {
    const syn = await concept(4329847, '?include_synonyms=true');
    expect(syn.synonyms.length).toBeGreaterThan(0);
    const store = (() => {
      const s = t.server.registry.select('2025.2');
      if (!s.ok) throw new Error('release missing');
      return s.release.store;
    })();
    const vocabs = store.metadata.vocabularies();
    const byId = new Map(vocabs.map((v) => [v.vocabulary_id, v]));
    for (const v of ['SNOMED', 'ICD10CM', 'ICD10', 'LOINC', 'RxNorm', 'CPT4', 'Vocabulary', 'Domain', 'Concept Class', 'Relationship']) {
      expect(byId.get(v)?.concept_count ?? 0, v).toBeGreaterThan(0);
    }
    expect(vocabs.reduce((n, v) => n + v.invalid_count, 0)).toBeGreaterThanOrEqual(2);
    expect(vocabs.reduce((n, v) => n + v.classification_count, 0)).toBeGreaterThan(0);
    const classes = store.metadata.conceptClasses().map((c) => c.concept_class_id);
    expect(classes).toEqual(expect.arrayContaining(['LOINC Component', 'LOINC System', 'Answer']));
  });

  const searchIds = async (params: string) => {
    const res = await t.request(`/v1/search/concepts?${params}`);
    expect(res.status, params).toBe(200);
    return (res.body.data as Array<{ concept_id: number }>).map((c) => c.concept_id);
  };

  it.each([
    ['type 2 diabetes', [201826]], // the SNOMED concept whose name has the phrase, before its longer relatives
    ['T2DM', [201826]], // E4 matching rule 1: whole-query abbreviation
    ['E11.9', [35206882, 201826]], // E4 ranking rule 1: the ICD10CM code, then its Maps to target
    ['44054006', [201826]], // a SNOMED code
    ['2345-7', [3004501]], // a LOINC code
    ['metformin', [1503297]], // the RxNorm ingredient (exact name) before drugs containing it
    ['COPD', [255573]], // expanded to chronic obstructive pulmonary disease
    ['MI', [4329847]],
    ['heart attack', [4329847]], // an exact synonym
    ['hypertension', [316866]], // exact synonym "Hypertension" before "Essential hypertension" (name contains the word)
    ['HTN', [316866]],
  ])('search %s gives the well-known concept(s) %j first', async (query, first) => {
    const got = await searchIds(`query=${encodeURIComponent(query)}`);
    expect(got.slice(0, first.length)).toEqual(first);
  });

  it('search "Positive": the SNOMED qualifier value before the demoted LOINC answer (E4 ranking rule 5)', async () => {
    const both = await searchIds('query=Positive');
    expect(both.indexOf(9191)).toBeGreaterThanOrEqual(0);
    expect(both.indexOf(45884084)).toBeGreaterThan(both.indexOf(9191));
    expect(await searchIds('query=Positive&concept_class_ids=Answer')).toEqual([45884084]);
  });

  /** `Maps to` / `Maps to value` targets of a concept, read from the loaded store. */
  const targets = (id: number, relationship: 'Maps to' | 'Maps to value') => {
    const s = t.server.registry.select('2025.2');
    if (!s.ok) throw new Error('release missing');
    return s.release.store.concepts.related(id, [relationship], 20).map((l) => l.concept.concept_id).filter((c) => c !== id).sort((a, b) => a - b);
  };

  // The target concept ids of the administrative ConceptMaps of the FHIR-to-OMOP IG (GenderClass, EncounterClass,
  // EncounterAdmitSource, EncounterDischargeDisposition, ConditionStatusConcepts, AllergyType, IntoleranceType,
  // ImmunizationSource, ImmunizationRoute; RaceClass, EthnicityClass and condition active/inactive of PR 23).
  const IG_ADMINISTRATIVE_TARGETS = [
    8507, 8532, 44814653, 8551, // GenderClass
    9201, 9202, 262, 9203, 722455, 581476, // EncounterClass
    38004515, 8870, 8756, 8940, 8676, 8971, 38004254, // EncounterAdmitSource
    8536, 33007, 8546, 38004277, 32216, 32218, 32266, 8863, // EncounterDischargeDisposition
    32906, 32902, 32907, // ConditionStatusConcepts
    4188027, 439224, 4144450, 43530807, 4340252, 4240582, 4172024, 36684107, // AllergyType, IntoleranceType
    32865, 32848, 32818, // ImmunizationSource
    4156706, 4302612, 4171047, 4132161, 4142048, 4262099, // ImmunizationRoute
    8527, 8516, 8515, 8657, 8557, 8522, 38003563, 38003564, // RaceClass, EthnicityClass
  ];

  it('holds every target concept of the IG administrative ConceptMaps', async () => {
    for (const id of IG_ADMINISTRATIVE_TARGETS) {
      const res = await t.request(`/v1/concepts/${id}`);
      expect(res.status, `concept ${id}`).toBe(200);
    }
    // real flags kept: the IG's gender "other"/"unknown" targets are not standard
    expect((await concept(44814653)).standard_concept).toBeNull();
    expect((await concept(8551)).standard_concept).toBeNull();
    expect(await concept(8870)).toMatchObject({ domain_id: 'Visit', vocabulary_id: 'CMS Place of Service', concept_code: '23', standard_concept: 'S' });
    expect(await concept(4171047)).toMatchObject({ domain_id: 'Route', vocabulary_id: 'SNOMED' });
    expect(await concept(32906)).toMatchObject({ domain_id: 'Condition Status', vocabulary_id: 'Condition Status' });
  });

  it.each([
    ['00536108805', 46330548],
    ['00363961201', 40248158],
    ['57910040330', 45259891],
  ])('has NDC %s (non-standard, 11 digits) mapped to ibuprofen 200 MG Oral Tablet', async (code, id) => {
    const res = await t.request(`/v1/concepts/by-code/NDC/${code}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ concept_id: id, vocabulary_id: 'NDC', concept_class_id: '11-digit NDC', standard_concept: null });
    expect(targets(id, 'Maps to')).toEqual([19078461]);
  });

  it('has standard CVX vaccines in the Drug domain', async () => {
    for (const code of ['140', '141', '171', '10', '187']) {
      const res = await t.request(`/v1/concepts/by-code/CVX/${code}`);
      expect(res.status, code).toBe(200);
      expect(res.body.data).toMatchObject({ vocabulary_id: 'CVX', domain_id: 'Drug', standard_concept: 'S' });
    }
  });

  it('has a Maps to + Maps to value pair (4222295) and a one-to-many Maps to (ATC C10BX08)', () => {
    expect(targets(4222295, 'Maps to')).toEqual([439224]);
    expect(targets(4222295, 'Maps to value')).toEqual([1728416]);
    expect(targets(713860, 'Maps to value')).toEqual([37311061]);
    expect(targets(45893511, 'Maps to')).toEqual([1112807, 1545958]);
  });

  it('has non-standard concepts with no Maps to at all (for the resolver sentinel)', async () => {
    for (const id of [45533052, 40623280]) { // an ICD10 hierarchy code, a deprecated SNOMED concept
      expect((await concept(id)).standard_concept).toBeNull();
      expect(targets(id, 'Maps to')).toEqual([]);
    }
  });

  it('keeps CPT4 behind the licence rule', async () => {
    const list = await t.request('/v1/vocabularies?page_size=200&include_stats=true');
    expect(list.body.data.vocabularies.map((v: { vocabulary_id: string }) => v.vocabulary_id)).not.toContain('CPT4');
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const withCpt = await t.request('/v1/vocabularies?page_size=200', { key: validated });
    expect(withCpt.body.data.vocabularies.map((v: { vocabulary_id: string }) => v.vocabulary_id)).toContain('CPT4');
  });
});
