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

  it('keeps CPT4 behind the licence rule', async () => {
    const list = await t.request('/v1/vocabularies?page_size=200&include_stats=true');
    expect(list.body.data.vocabularies.map((v: { vocabulary_id: string }) => v.vocabulary_id)).not.toContain('CPT4');
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const withCpt = await t.request('/v1/vocabularies?page_size=200', { key: validated });
    expect(withCpt.body.data.vocabularies.map((v: { vocabulary_id: string }) => v.vocabulary_id)).toContain('CPT4');
  });
});
