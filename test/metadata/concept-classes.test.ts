/**
 * GET /v1/concept-classes (E1) and the client path GET /v1/vocabularies/concept-classes (a bare
 * array, client-compatibility §1.5) through HTTPS: the class list, the vocabulary_ids filter and the
 * include_stats fields, against counts computed here from the fixture CONCEPT files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/test-server.js';
import { countBy, DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR, readSourceConcepts, readSourceTable, visibleWithCpt4, visibleWithoutCpt4, type SourceConcept } from './concept-file.js';
import { startMetadataServer, writeMetadataFixture } from './metadata-fixture.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-gibleed-2019');

const fixtureDir = writeMetadataFixture();
let t: TestServer;
let cpt4Key: string;
beforeAll(async () => ({ t, cpt4Key } = await startMetadataServer(fixtureDir)), 120_000);
afterAll(async () => {
  await t?.close();
});

interface ClassRow {
  concept_class_id: string;
  concept_class_name: string;
  concept_class_concept_id: number;
  concept_count?: number;
  vocabulary_coverage?: string[];
}

const sorted = (ids: Iterable<string>) => [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** What E1 should list for these concepts (already licence-filtered) and this CONCEPT_CLASS table. */
function expectedClasses(all: SourceConcept[], visible: SourceConcept[], table: Array<Record<string, string>>, vocabularyIds?: string[]) {
  const scoped = vocabularyIds ? visible.filter((c) => vocabularyIds.includes(c.vocabulary_id)) : visible;
  const counts = countBy(scoped, (c) => c.concept_class_id);
  const coverage = new Map<string, Set<string>>();
  for (const c of scoped) coverage.set(c.concept_class_id, (coverage.get(c.concept_class_id) ?? new Set()).add(c.vocabulary_id));
  const used = new Set(all.map((c) => c.concept_class_id));
  const ids = vocabularyIds
    ? [...counts.keys()]
    : [...new Set([...table.map((r) => r.concept_class_id!), ...counts.keys()])].filter((id) => counts.has(id) || !used.has(id));
  return { ids: sorted(ids), counts, coverage };
}

// No rows without the data (they are read while collecting): the suite is skipped then.
describe.skipIf(MISSING_SHARED_VOCAB).each(MISSING_SHARED_VOCAB ? [] : [
  ['demo vocabulary', '2025.2', DEMO_VOCABULARY_DIR],
  ['eunomia-gibleed-2019', '2019.1', EUNOMIA_GIBLEED_DIR],
  ['metadata fixture', '2025.1', fixtureDir],
])('GET /v1/concept-classes on the %s', (_name, release, dir) => {
  const all = readSourceConcepts(dir);
  const visible = all.filter(visibleWithoutCpt4);
  const table = readSourceTable(dir, 'CONCEPT_CLASS.csv');

  it('lists the CONCEPT_CLASS rows and the classes concepts use, sorted, with names and concept ids from the release', async () => {
    const res = await t.request(`/v1/concept-classes?vocab_release=${release}`);
    expect(res.status).toBe(200);
    const classes = res.body.data.concept_classes as ClassRow[];
    expect(classes.map((c) => c.concept_class_id)).toEqual(expectedClasses(all, visible, table).ids);
    const rows = new Map(table.map((r) => [r.concept_class_id!, r]));
    for (const c of classes) {
      const row = rows.get(c.concept_class_id);
      expect(c).toEqual(
        row
          ? { concept_class_id: c.concept_class_id, concept_class_name: row.concept_class_name, concept_class_concept_id: Number(row.concept_class_concept_id) }
          : { concept_class_id: c.concept_class_id, concept_class_name: c.concept_class_id, concept_class_concept_id: 0 },
      );
    }
  });

  it('include_stats: concept_count and vocabulary_coverage as counted in CONCEPT', async () => {
    const res = await t.request(`/v1/concept-classes?include_stats=true&vocab_release=${release}`);
    const { counts, coverage } = expectedClasses(all, visible, table);
    for (const c of res.body.data.concept_classes as ClassRow[]) {
      expect(c.concept_count, c.concept_class_id).toBe(counts.get(c.concept_class_id) ?? 0);
      expect(c.vocabulary_coverage, c.concept_class_id).toEqual(sorted(coverage.get(c.concept_class_id) ?? []));
    }
  });

  it('vocabulary_ids keeps the classes holding concepts of those vocabularies and counts them only', async () => {
    const vocabularies = sorted(new Set(visible.map((c) => c.vocabulary_id))).slice(0, 2);
    const res = await t.request(`/v1/concept-classes?include_stats=true&vocabulary_ids=${encodeURIComponent(vocabularies.join(','))}&vocab_release=${release}`);
    expect(res.status).toBe(200);
    const { ids, counts, coverage } = expectedClasses(all, visible, table, vocabularies);
    const classes = res.body.data.concept_classes as ClassRow[];
    expect(classes.map((c) => c.concept_class_id)).toEqual(ids);
    for (const c of classes) {
      expect(c.concept_count).toBe(counts.get(c.concept_class_id));
      expect(c.vocabulary_coverage).toEqual(sorted(coverage.get(c.concept_class_id)!));
    }
  });

  it('GET /v1/vocabularies/concept-classes is a bare array of the same records; vocabulary_id filters', async () => {
    const [bare, e1] = await Promise.all([
      t.request(`/v1/vocabularies/concept-classes?vocab_release=${release}`),
      t.request(`/v1/concept-classes?vocab_release=${release}`),
    ]);
    expect(bare.status).toBe(200);
    expect(Array.isArray(bare.body.data)).toBe(true);
    expect(bare.body.data).toEqual(e1.body.data.concept_classes);
    const vocabulary = visible[0]!.vocabulary_id;
    const filtered = await t.request(`/v1/vocabularies/concept-classes?include_stats=true&vocabulary_id=${encodeURIComponent(vocabulary)}&vocab_release=${release}`);
    const { ids, counts } = expectedClasses(all, visible, table, [vocabulary]);
    expect(filtered.body.data.map((c: ClassRow) => c.concept_class_id)).toEqual(ids);
    for (const c of filtered.body.data as ClassRow[]) expect(c.concept_count).toBe(counts.get(c.concept_class_id));
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('licence rules and bad parameters (metadata fixture)', () => {
  const all = readSourceConcepts(fixtureDir);

  it('classes of GPI/MedDRA only never appear; the CPT4 class only for a validated key; a class without concepts is listed', async () => {
    const plain = (await t.request('/v1/concept-classes?include_stats=true&vocab_release=2025.1')).body.data.concept_classes as ClassRow[];
    const validated = (await t.request('/v1/concept-classes?include_stats=true&vocab_release=2025.1', { key: cpt4Key })).body.data.concept_classes as ClassRow[];
    const ids = (list: ClassRow[]) => list.map((c) => c.concept_class_id);
    expect(ids(plain)).not.toContain('GPI');
    expect(ids(plain)).not.toContain('PT');
    expect(ids(plain)).not.toContain('CPT4');
    expect(ids(validated)).not.toContain('GPI');
    expect(validated.find((c) => c.concept_class_id === 'CPT4')).toMatchObject({
      concept_count: all.filter((c) => c.vocabulary_id === 'CPT4').length,
      vocabulary_coverage: ['CPT4'],
    });
    expect(plain.find((c) => c.concept_class_id === 'Model Comp')).toMatchObject({ concept_count: 0, vocabulary_coverage: [] });
    for (const c of validated) expect(c.vocabulary_coverage!.every((v) => visibleWithCpt4({ vocabulary_id: v }))).toBe(true);
  });

  it('naming a restricted vocabulary is 403 vocabulary_restricted', async () => {
    for (const [path, key] of [
      ['/v1/concept-classes?vocabulary_ids=SNOMED,CPT4&vocab_release=2025.1', undefined],
      ['/v1/concept-classes?vocabulary_ids=MedDRA&vocab_release=2025.1', cpt4Key],
      ['/v1/vocabularies/concept-classes?vocabulary_id=GPI&vocab_release=2025.1', cpt4Key],
    ] as const) {
      const res = await t.request(path, { key });
      expect(res.status, path).toBe(403);
      expect(res.body.error.code).toBe('vocabulary_restricted');
    }
  });

  it('a bad include_stats is 400 naming the parameter; an unknown vocabulary keeps no class', async () => {
    const bad = await t.request('/v1/concept-classes?include_stats=often');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('include_stats');
    const none = await t.request('/v1/concept-classes?vocabulary_ids=THIS_VOCAB_DOES_NOT_EXIST');
    expect(none.status).toBe(200);
    expect(none.body.data.concept_classes).toEqual([]);
  });
});
