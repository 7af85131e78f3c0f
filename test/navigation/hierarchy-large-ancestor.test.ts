/**
 * Descendants and ancestors of a fixture built to exercise both ways the store counts and pages:
 * a root with more than LARGE_ANCESTOR_ROWS descendant rows (facets counted at load) and a concept
 * below it with a few hundred (facets counted per request), over mixed vocabularies, domains,
 * standard flags, invalid concepts, licensed vocabularies (CPT4, MedDRA) and rows whose descendant
 * is missing from CONCEPT. Every expected list and total is computed from the fixture files
 * (./hierarchy-expected.ts); pages are compared across the whole list, deep pages included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_ANCESTOR_ROWS } from '../../src/store/sqlite/sqlite-hierarchy-store.js';
import { writeAthenaFixture, type FixtureConcept } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { expectedLineage, type ExpectedFilter } from './hierarchy-expected.js';
import { readAthenaFiles, visibleTo, type AthenaFiles } from './mapping-athena-files.js';

const ROOT = 9_000_000;
const MIDDLE = 9_000_001; // the first descendant: level 1, SNOMED standard
const CPT4_PARENT = 9_500_000;
const MEDDRA_PARENT = 9_500_001;
const CPT4_ROOT = 9_500_002;
const PLAIN_LEVEL_START = 9_600_000;
const PLAIN_LEVEL_SIZE = 150;
const DESCENDANTS = LARGE_ANCESTOR_ROWS + 300;
const VOCABULARIES = ['SNOMED', 'SNOMED', 'ICD10', 'CPT4', 'SNOMED', 'MedDRA', 'RxNorm'];
const DOMAINS = ['Condition', 'Observation', 'Procedure', 'Condition', 'Drug'];
const STANDARD: Array<'S' | 'C' | null> = ['S', 'S', 'C', null, 'S', 'S'];

function writeLargeFixture(): string {
  const concepts: FixtureConcept[] = [
    { concept_id: ROOT, concept_name: 'Fixture root' },
    { concept_id: CPT4_PARENT, concept_name: 'A CPT4 section', vocabulary_id: 'CPT4', domain_id: 'Procedure', standard_concept: 'C' },
    { concept_id: MEDDRA_PARENT, concept_name: 'A MedDRA group', vocabulary_id: 'MedDRA', standard_concept: 'C' },
    { concept_id: CPT4_ROOT, concept_name: 'A CPT4 root', vocabulary_id: 'CPT4', domain_id: 'Procedure', standard_concept: 'C' },
  ];
  const ancestors: Array<[number, number, number, number]> = [[ROOT, ROOT, 0, 0]];
  for (let i = 0; i < DESCENDANTS; i++) {
    const id = MIDDLE + i;
    const level = i === 0 ? 1 : 1 + (i % 6);
    concepts.push({
      concept_id: id,
      concept_name: `Descendant ${i}`,
      vocabulary_id: i === 0 ? 'SNOMED' : VOCABULARIES[i % VOCABULARIES.length],
      domain_id: i === 0 ? 'Condition' : DOMAINS[i % DOMAINS.length],
      standard_concept: i === 0 ? 'S' : STANDARD[i % STANDARD.length],
      invalid_reason: i > 0 && i % 17 === 0 ? 'D' : null,
    });
    ancestors.push([ROOT, id, level, level + (i % 2)]);
    // A few hundred of them also sit below MIDDLE, one level nearer.
    if (i > 0 && level >= 2 && i % 4 === 0) ancestors.push([MIDDLE, id, level - 1, level - 1]);
  }
  // A deepest level whose rows all match the default filter (the store then positions a page in it by the index alone).
  for (let k = 0; k < PLAIN_LEVEL_SIZE; k++) {
    concepts.push({ concept_id: PLAIN_LEVEL_START + k, concept_name: `Plain descendant ${k}` });
    ancestors.push([ROOT, PLAIN_LEVEL_START + k, 7, 7]);
  }
  // Rows whose descendant is not in CONCEPT (kept by the loader, never answered nor counted).
  for (let k = 1; k <= 5; k++) ancestors.push([ROOT, 9_900_000 + k, k, k], [MIDDLE, 9_900_000 + k, k, k]);
  // The last descendant has licensed ancestors too; a CPT4 concept has its own descendants.
  const leaf = MIDDLE + DESCENDANTS - 1;
  ancestors.push([CPT4_PARENT, leaf, 1, 1], [MEDDRA_PARENT, leaf, 2, 2], [CPT4_ROOT, CPT4_PARENT, 1, 1], [CPT4_ROOT, leaf, 2, 2]);
  return writeAthenaFixture({ concepts, ancestors });
}

let t: TestServer;
let files: AthenaFiles;
let validatedKey: string;
const LEAF = MIDDLE + DESCENDANTS - 1;

beforeAll(async () => {
  const dir = writeLargeFixture();
  t = await startTestServer({ releases: [{ dir, label: '2025.2', makeDefault: true }] });
  files = readAthenaFiles(dir);
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => t?.close());

const ids = (nodes: Array<{ concept_id: number }>) => nodes.map((n) => n.concept_id);

/** Every page of a list, concatenated, checking each page's pagination against the expected total. */
async function allPages(path: string, key: string | undefined, pageSize: number, total: number): Promise<number[]> {
  const out: number[] = [];
  const pages = Math.max(1, Math.ceil(total / pageSize));
  for (let page = 1; page <= pages; page++) {
    const res = await t.request(`${path}${path.includes('?') ? '&' : '?'}page=${page}&page_size=${pageSize}`, key ? { key } : {});
    expect(res.status, path).toBe(200);
    expect(res.body.meta.pagination, path).toMatchObject({ total_items: total, total_pages: pages, has_next: page < pages });
    out.push(...ids(res.body.data.descendants ?? res.body.data.ancestors));
  }
  return out;
}

const CASES: Array<[query: string, filter: ExpectedFilter]> = [
  ['', {}],
  ['include_invalid=true', { includeInvalid: true }],
  ['standard_only=true', { standardOnly: true }],
  ['vocabulary_ids=SNOMED,CPT4', { vocabularyIds: ['SNOMED', 'CPT4'] }],
  ['domain_ids=Observation', { domainIds: ['Observation'] }],
  ['max_levels=3', { maxLevels: 3 }],
  ['max_levels=4&domain_ids=Condition,Procedure&include_invalid=true', { maxLevels: 4, domainIds: ['Condition', 'Procedure'], includeInvalid: true }],
];

describe('descendants of a large ancestor and of a small one', () => {
  it('the fixture has the shape the test needs', () => {
    const rootRows = files.ancestors.filter((r) => r.ancestor === ROOT).length;
    const middleRows = files.ancestors.filter((r) => r.ancestor === MIDDLE).length;
    expect(rootRows).toBeGreaterThanOrEqual(LARGE_ANCESTOR_ROWS);
    expect(middleRows).toBeGreaterThan(100);
    expect(middleRows).toBeLessThan(LARGE_ANCESTOR_ROWS);
  });

  for (const [label, concept] of [['large', ROOT], ['small', MIDDLE]] as const) {
    it(`${label}: every filter, for a key with and without CPT4 validation, gives the expected rows in order over all pages, with exact totals`, async () => {
      for (const validated of [false, true]) {
        const key = validated ? validatedKey : undefined;
        for (const [query, filter] of CASES) {
          if (!validated && filter.vocabularyIds?.includes('CPT4')) {
            // Naming CPT4 without a validated licence is refused (docs/licences.md).
            expect((await t.request(`/v1/concepts/${concept}/descendants?${query}`)).status, query).toBe(403);
            continue;
          }
          const expected = ids(expectedLineage(files, concept, 'descendants', { ...filter, visible: visibleTo(validated) }).map((n) => n.concept));
          expect(expected.length, query).toBeGreaterThan(0);
          const seen = await allPages(`/v1/concepts/${concept}/descendants?${query}`, key, 200, expected.length);
          expect(seen, `${label} ${query} cpt4=${validated}`).toEqual(expected);
        }
      }
    });

    it(`${label}: a deep page alone equals the same slice of the whole list`, async () => {
      const expected = ids(expectedLineage(files, concept, 'descendants', { includeInvalid: true }).map((n) => n.concept));
      const pageSize = 37;
      for (const page of [2, Math.ceil(expected.length / pageSize) - 1, Math.ceil(expected.length / pageSize)]) {
        const res = await t.request(`/v1/concepts/${concept}/descendants?include_invalid=true&page=${page}&page_size=${pageSize}`);
        expect(ids(res.body.data.descendants), `page ${page}`).toEqual(expected.slice((page - 1) * pageSize, page * pageSize));
      }
    });
  }

  it('licence rules: CPT4 rows and counts only for a validated key, MedDRA never (Authentication 5)', async () => {
    const plain = await t.request(`/v1/concepts/${ROOT}/descendants?page_size=200`);
    const summary = plain.body.data.hierarchy_summary;
    expect(summary.unique_vocabularies).not.toContain('CPT4');
    expect(summary.unique_vocabularies).not.toContain('MedDRA');
    expect(summary.total_descendants).toBe(expectedLineage(files, ROOT, 'descendants').length);
    const validated = await t.request(`/v1/concepts/${ROOT}/descendants?vocabulary_ids=CPT4&page_size=200`, { key: validatedKey });
    expect(validated.body.data.descendants.length).toBeGreaterThan(0);
    expect(validated.body.data.descendants.every((n: { vocabulary_id: string }) => n.vocabulary_id === 'CPT4')).toBe(true);
    // Naming a restricted vocabulary is an explicit request for it: 403, never a silent empty list (docs/licences.md).
    const hidden = await t.request(`/v1/concepts/${ROOT}/descendants?vocabulary_ids=CPT4,MedDRA`);
    expect(hidden.status).toBe(403);
    expect(hidden.body.error.code).toBe('vocabulary_restricted');
    expect(hidden.body.error.details.vocabulary_id).toBe('CPT4');
    const never = await t.request(`/v1/concepts/${ROOT}/descendants?vocabulary_ids=MedDRA`, { key: validatedKey });
    expect(never.status).toBe(403);
    expect(never.body.error.details.vocabulary_id).toBe('MedDRA');
  });

  it("licence rules: a leaf's CPT4 ancestor is shown to a validated key only, its MedDRA ancestor to nobody; a CPT4 concept is 403 without validation", async () => {
    const plain = await t.request(`/v1/concepts/${LEAF}/ancestors`);
    expect(ids(plain.body.data.ancestors)).toEqual(ids(expectedLineage(files, LEAF, 'ancestors').map((n) => n.concept)));
    expect(ids(plain.body.data.ancestors)).not.toContain(CPT4_PARENT);
    expect(ids(plain.body.data.ancestors)).not.toContain(MEDDRA_PARENT);
    const validated = await t.request(`/v1/concepts/${LEAF}/ancestors`, { key: validatedKey });
    expect(ids(validated.body.data.ancestors)).toEqual(ids(expectedLineage(files, LEAF, 'ancestors', { visible: visibleTo(true) }).map((n) => n.concept)));
    expect(ids(validated.body.data.ancestors)).toContain(CPT4_PARENT);
    expect(ids(validated.body.data.ancestors)).not.toContain(MEDDRA_PARENT);

    const flat = await t.request(`/v1/concepts/${LEAF}/hierarchy`);
    expect(flat.body.data.total_ancestors).toBe(expectedLineage(files, LEAF, 'ancestors').length);
    const graph = await t.request(`/v1/concepts/${LEAF}/hierarchy?format=graph`);
    expect(ids(graph.body.data.nodes)).not.toContain(CPT4_PARENT);
    for (const path of ['ancestors', 'descendants', 'hierarchy']) {
      const refused = await t.request(`/v1/concepts/${CPT4_ROOT}/${path}`);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.code).toBe('vocabulary_restricted');
      const allowed = await t.request(`/v1/concepts/${CPT4_ROOT}/${path}`, { key: validatedKey });
      expect(allowed.status, path).toBe(200);
    }
  });
});
