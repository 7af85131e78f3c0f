/**
 * The concept-set rules of issue 22, each on its own case of a hand-built release (concept-set-fixture.ts): the
 * reference resolver's semantics, the three input formats, validation errors naming item and field, licences,
 * included source codes, compare and optimize. Expected ids are read off the fixture's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  atlas,
  CHILD,
  CONCEPT_SET_FIXTURE,
  CPT4_CHILD,
  CPT4_LEAF,
  CPT4_ROOT,
  GRANDCHILD,
  INVALID_CHILD,
  type Item,
  ROOT,
  SOURCE_OF_CHILD,
  SOURCE_OF_GRANDCHILD,
  SOURCE_OF_INVALID_CHILD,
  SOURCE_OF_ROOT,
  UPGRADED,
} from './concept-set-fixture.js';

let t: TestServer;
let validatedKey: string;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeAthenaFixture(CONCEPT_SET_FIXTURE), label: '2025.2', makeDefault: true }] });
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
}, 120_000);
afterAll(async () => t?.close());

async function ids(expression: unknown, key?: string): Promise<number[]> {
  const res = await t.request('/v1/concept-sets/resolve?ids_only=true', { method: 'POST', body: { expression }, key });
  expect(res.status, res.text).toBe(200);
  return res.body.data.concept_ids;
}
const resolveItems = (items: Item[], key?: string) => ids(atlas(items), key);

describe('semantics (circe)', () => {
  it('an included item contributes its own concept, even when it is invalid', async () => {
    expect(await resolveItems([{ id: ROOT }])).toEqual([ROOT]);
    expect(await resolveItems([{ id: INVALID_CHILD }])).toEqual([INVALID_CHILD]);
    expect(await resolveItems([{ id: UPGRADED, desc: true }])).toEqual([UPGRADED]);
  });

  it('includeDescendants adds only valid descendants present in CONCEPT (not the deprecated child, not a dangling ancestor row)', async () => {
    expect(await resolveItems([{ id: ROOT, desc: true }])).toEqual([ROOT, CHILD, GRANDCHILD]);
    expect(await resolveItems([{ id: CHILD, desc: true }])).toEqual([CHILD, GRANDCHILD]);
  });

  it("includeMapped adds the sources mapping to the item, not the item's own 'Maps to' targets", async () => {
    expect(await resolveItems([{ id: CHILD, mapped: true }])).toEqual([CHILD, SOURCE_OF_CHILD]);
  });

  it('includeMapped with includeDescendants adds sources into every valid descendant; invalid rows and invalid descendants give none', async () => {
    expect(await resolveItems([{ id: ROOT, desc: true, mapped: true }])).toEqual([ROOT, CHILD, GRANDCHILD, SOURCE_OF_CHILD, SOURCE_OF_ROOT, SOURCE_OF_GRANDCHILD]);
    // The invalid item itself is a mapping target: its sources come (the item, not a descendant).
    expect(await resolveItems([{ id: INVALID_CHILD, mapped: true }])).toEqual([INVALID_CHILD, SOURCE_OF_INVALID_CHILD]);
  });

  it('excluded items expand by the same rules and are subtracted; an empty include list resolves to nothing', async () => {
    expect(await resolveItems([{ id: ROOT, desc: true }, { id: CHILD, ex: true, desc: true }])).toEqual([ROOT]);
    expect(await resolveItems([{ id: ROOT, desc: true }, { id: CHILD, ex: true }])).toEqual([ROOT, GRANDCHILD]);
    expect(await resolveItems([{ id: ROOT, desc: true, mapped: true }, { id: GRANDCHILD, ex: true, mapped: true }])).toEqual([ROOT, CHILD, SOURCE_OF_CHILD, SOURCE_OF_ROOT]);
    expect(await resolveItems([{ id: ROOT, ex: true, desc: true }])).toEqual([]);
    expect(await resolveItems([])).toEqual([]);
  });

  it('an unknown concept id is listed in unknown_concepts, not an error', async () => {
    const res = await t.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression: atlas([{ id: 77777 }, { id: CHILD }]) } });
    expect(res.status).toBe(200);
    expect(res.body.data.unknown_concepts).toEqual([{ index: 0, concept_id: 77777, reason: expect.stringMatching(/^not_found/) }]);
    expect(res.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual([CHILD]);
    expect(res.body.data.summary.items_matching_nothing).toEqual([0]);
  });

  it('the summary counts the whole set and what each item did; the page is in concept_id order', async () => {
    const expression = atlas([{ id: ROOT, desc: true, mapped: true }, { id: CHILD, ex: true }]);
    const res = await t.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression, page: 2, page_size: 2 } });
    expect(res.status).toBe(200);
    // ROOT, GRANDCHILD, 200, 201, 203 after CHILD is removed.
    expect(res.body.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toEqual([SOURCE_OF_CHILD, SOURCE_OF_ROOT]);
    expect(res.body.meta.pagination).toMatchObject({ page: 2, page_size: 2, total_items: 5, total_pages: 3 });
    const s = res.body.data.summary;
    expect(s).toMatchObject({ total: 5, standard: 2, non_standard: 3, classification: 0, excluded_removed: 1 });
    expect(s.by_vocabulary).toEqual({ ICD10CM: 3, SNOMED: 2 });
    expect(s.by_domain).toEqual({ Condition: 5 });
    expect(s.items).toEqual([
      { index: 0, concept_id: ROOT, is_excluded: false, include_descendants: true, include_mapped: true, status: 'resolved', concepts: 6 },
      { index: 1, concept_id: CHILD, is_excluded: true, include_descendants: false, include_mapped: false, status: 'resolved', concepts: 1, removed: 1 },
    ]);
  });
});

describe('licences', () => {
  it('an item naming a concept of a hidden vocabulary is listed in restricted_items and never resolved; hidden descendants never appear', async () => {
    const expression = atlas([{ id: CPT4_ROOT, desc: true }, { id: ROOT, desc: true }]);
    const res = await t.request('/v1/concept-sets/resolve?ids_only=true', { method: 'POST', body: { expression } });
    expect(res.body.data.concept_ids).toEqual([ROOT, CHILD, GRANDCHILD]);
    expect(res.body.data.restricted_items).toEqual([{ index: 0, concept_id: CPT4_ROOT, reason: expect.stringMatching(/^vocabulary_restricted/) }]);
    // No number anywhere in the answer's data names a hidden descendant (meta and timing left out: a request id or a
    // slice time may hold the same digits).
    const { timing: _timing, ...data } = res.body.data;
    const numbers = (JSON.stringify(data).match(/\d+/g) ?? []).map(Number);
    expect(numbers).not.toContain(CPT4_LEAF);
    expect(numbers).not.toContain(CPT4_CHILD);
  });

  it('a key with a current CPT4 validation resolves them', async () => {
    expect(await resolveItems([{ id: CPT4_ROOT, desc: true }, { id: ROOT, desc: true }], validatedKey)).toEqual([ROOT, CHILD, GRANDCHILD, CPT4_CHILD, CPT4_ROOT, CPT4_LEAF]);
  });

  it('an excluded restricted item is left out, so it removes nothing', async () => {
    const res = await t.request('/v1/concept-sets/resolve?ids_only=true', { method: 'POST', body: { expression: atlas([{ id: ROOT }, { id: CPT4_ROOT, ex: true }]) } });
    expect(res.body.data.concept_ids).toEqual([ROOT]);
    expect(res.body.data.restricted_items.map((r: { index: number }) => r.index)).toEqual([1]);
  });
});

describe('formats', () => {
  const items: Item[] = [{ id: ROOT, desc: true, mapped: true }, { id: GRANDCHILD, ex: true }, { id: 77777 }];
  const expected = [ROOT, CHILD, SOURCE_OF_CHILD, SOURCE_OF_ROOT, SOURCE_OF_GRANDCHILD];
  const tab = {
    id: 'diabetes-v1',
    name: 'Diabetes',
    version: '1.0.0',
    tags: ['test'],
    metadata: { createdBy: 'test' },
    items: items.map((i) => ({ concept: { conceptId: i.id, conceptName: 'x' }, isExcluded: i.ex ?? false, includeDescendants: i.desc ?? false, includeMapped: i.mapped ?? false })),
  };
  const csv = [
    '"Concept Set ID","Name","Concept ID","Concept Code","Concept Name","Domain","Vocabulary","Standard Concept","Exclude","Descendants","Mapped"',
    `"12","Diabetes","${ROOT}","64572001","Disorder of body system","Condition","SNOMED","S","false","true","true"`,
    `"12","Diabetes","${GRANDCHILD}","44054006","Type 2 diabetes, with ""quotes""","Condition","SNOMED","S","true","false","false"`,
    `"12","Diabetes","77777","x","Unknown","Condition","SNOMED","S","false","false","false"`,
  ].join('\r\n');

  it('ATLAS JSON (bare, wrapped, whole concept set), the TAB draft and the ATLAS CSV export resolve to the same set', async () => {
    expect(await ids(atlas(items))).toEqual(expected);
    expect(await ids({ expression: atlas(items) })).toEqual(expected);
    expect(await ids({ id: 12, name: 'Diabetes', expression: atlas(items) })).toEqual(expected);
    expect(await ids(tab)).toEqual(expected);
    expect(await ids(csv)).toEqual(expected);
    expect(await ids(JSON.stringify(tab))).toEqual(expected);
  });

  it('a flag that is not a boolean is a 400 naming the item and field', async () => {
    const bad = atlas(items);
    (bad.items[1] as Record<string, unknown>).includeDescendants = 'yes';
    const res = await t.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression: bad } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('expression.items[1].includeDescendants');
    expect(res.body.error.details.field).toBe('expression.items[1].includeDescendants');
    const nullFlag = atlas(items);
    (nullFlag.items[2] as Record<string, unknown>).isExcluded = null;
    const res2 = await t.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression: nullFlag } });
    expect(res2.status).toBe(400);
    expect(res2.body.error.details.field).toBe('expression.items[2].isExcluded');
  });

  it('a missing or malformed concept id names the item and field, in both JSON dialects', async () => {
    const res1 = await t.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression: { items: [{ concept: { CONCEPT_ID: ROOT } }, { concept: { CONCEPT_ID: '12x' } }] } } });
    expect(res1.status).toBe(400);
    expect(res1.body.error.message).toContain('expression.items[1].concept.CONCEPT_ID');
    const res2 = await t.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression: { items: [{ concept: {} }] } } });
    expect(res2.status).toBe(400);
    expect(res2.body.error.message).toContain('expression.items[0].concept');
    const res3 = await t.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression: { items: [{ concept: { conceptId: -4 } }] } } });
    expect(res3.body.error.message).toContain('expression.items[0].concept.conceptId');
    const res4 = await t.request('/v1/concept-sets/compare', { method: 'POST', body: { a: atlas([]), b: { items: 3 } } });
    expect(res4.status).toBe(400);
    expect(res4.body.error.message).toContain('b.items');
  });

  it('a CSV error names the line and column', async () => {
    const bad = csv.replace('"true","false","false"', '"maybe","false","false"');
    const res = await t.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression: bad } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/line 3, column "Exclude"/);
    const noId = await t.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression: '"Name","Code"\n"a","b"\n' } });
    expect(noId.status).toBe(400);
    expect(noId.body.error.message).toContain('"Concept ID"');
    const notId = await t.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression: '"Concept ID","Exclude"\n"1x","false"\n' } });
    expect(notId.body.error.message).toMatch(/line 2, column "Concept ID"/);
  });
});

describe('included source codes, compare, optimize', () => {
  it('included-source-codes lists the non-standard sources mapping into the resolved set, with their targets in the set', async () => {
    const res = await t.request('/v1/concept-sets/included-source-codes', { method: 'POST', body: { expression: atlas([{ id: ROOT, desc: true }]) } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.total).toBe(3);
    expect(res.body.data.source_codes.map((s: { concept_id: number; concept_code: string; maps_to_concept_ids: number[] }) => [s.concept_id, s.concept_code, s.maps_to_concept_ids])).toEqual([
      [SOURCE_OF_CHILD, 'E08', [CHILD]],
      [SOURCE_OF_ROOT, 'E07', [ROOT]],
      [SOURCE_OF_GRANDCHILD, 'E11', [GRANDCHILD]],
    ]);
  });

  it('compare answers only in a, only in b and in both', async () => {
    const res = await t.request('/v1/concept-sets/compare', {
      method: 'POST',
      body: { a: atlas([{ id: ROOT, desc: true }]), b: atlas([{ id: CHILD, mapped: true }, { id: INVALID_CHILD }]) },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.only_in_a).toEqual({ count: 2, concept_ids: [ROOT, GRANDCHILD] });
    expect(res.body.data.only_in_b).toEqual({ count: 2, concept_ids: [INVALID_CHILD, SOURCE_OF_CHILD] });
    expect(res.body.data.in_both).toEqual({ count: 1, concept_ids: [CHILD] });
  });

  it('optimize removes subsumed, duplicate, unknown and idle excluded items, and the result resolves to the same set', async () => {
    const original: Item[] = [
      { id: ROOT, desc: true, mapped: true }, // 0 kept
      { id: CHILD, desc: true }, // 1 subsumed by 0
      { id: GRANDCHILD, mapped: true }, // 2 subsumed by 0 (0 maps)
      { id: INVALID_CHILD }, // 3 kept: invalid, not among 0's descendants
      { id: 77777 }, // 4 unknown
      { id: ROOT }, // 5 duplicate of 0
      { id: CHILD, ex: true }, // 6 kept: removes CHILD
      { id: UPGRADED, ex: true }, // 7 removes nothing
    ];
    const res = await t.request('/v1/concept-sets/optimize', { method: 'POST', body: { expression: atlas(original) } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.removed_items.map((r: { index: number; subsumed_by?: number }) => [r.index, r.subsumed_by])).toEqual([
      [1, 0],
      [2, 0],
      [4, undefined],
      [5, 0],
      [7, undefined],
    ]);
    expect(res.body.data.expression.items.map((i: { concept: { CONCEPT_ID: number } }) => i.concept.CONCEPT_ID)).toEqual([ROOT, INVALID_CHILD, CHILD]);
    expect(await ids(res.body.data.expression)).toEqual(await resolveItems(original));
  });

  it('a descendant with mapping is not subsumed by an ancestor item that does not map', async () => {
    const res = await t.request('/v1/concept-sets/optimize', { method: 'POST', body: { expression: atlas([{ id: ROOT, desc: true }, { id: CHILD, mapped: true }]) } });
    expect(res.body.data.removed_items).toEqual([]);
  });
});
