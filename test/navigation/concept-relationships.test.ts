/**
 * GET /v1/concepts/{concept_id}/relationships through HTTPS (client-compatibility §1.1): every
 * parameter and default, full concept records on both ends, exact totals, licence filtering, and the
 * rows of real subsets — the demo vocabulary, eunomia-synthea27nj (relationship rows pointing at
 * concepts it does not contain) and a fixture that stores some relationships in one direction only.
 * Expected rows are computed from the source files (./relationship-source.ts).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { SHARED_VOCAB_DIR } from '../loader/loader-fixtures.js';
import { visibleWithCpt4, visibleWithoutCpt4 } from '../metadata/concept-file.js';
import { DEMO_VOCABULARY_DIR, expectedRelationships, readSourceVocabulary, triples, type SourceVocabulary } from './relationship-source.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-synthea27nj');

const SYNTHEA_DIR = join(SHARED_VOCAB_DIR, 'eunomia-synthea27nj');

/**
 * One direction only for 'Has finding site'; an invalid row; a CPT4 and a MedDRA neighbour. With
 * `dangling`, also a row to a concept the release does not contain (the store then joins every row).
 */
function writeOneWayFixture(dangling: boolean): string {
  return writeAthenaFixture({
    concepts: [
      { concept_id: 10, concept_name: 'Hub finding' },
      { concept_id: 11, concept_name: 'Child A' },
      { concept_id: 12, concept_name: 'Child B', standard_concept: null },
      { concept_id: 13, concept_name: 'Body site', domain_id: 'Spec Anatomic Site', concept_class_id: 'Body Structure' },
      { concept_id: 14, concept_name: 'A procedure code', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: '99999' },
      { concept_id: 15, concept_name: 'A MedDRA term', vocabulary_id: 'MedDRA', standard_concept: null },
      { concept_id: 16, concept_name: 'Old parent', invalid_reason: 'D', standard_concept: null },
    ],
    relationships: [
      { concept_id_1: 10, concept_id_2: 11, relationship_id: 'Subsumes' },
      { concept_id_1: 11, concept_id_2: 10, relationship_id: 'Is a' },
      { concept_id_1: 10, concept_id_2: 12, relationship_id: 'Subsumes' },
      { concept_id_1: 12, concept_id_2: 10, relationship_id: 'Is a' },
      { concept_id_1: 10, concept_id_2: 13, relationship_id: 'Has finding site' }, // no reverse row stored
      { concept_id_1: 10, concept_id_2: 14, relationship_id: 'Maps to' },
      { concept_id_1: 14, concept_id_2: 10, relationship_id: 'Mapped from' },
      { concept_id_1: 10, concept_id_2: 15, relationship_id: 'Maps to' },
      { concept_id_1: 10, concept_id_2: 16, relationship_id: 'Is a', invalid_reason: 'D' },
      { concept_id_1: 16, concept_id_2: 10, relationship_id: 'Subsumes', invalid_reason: 'D' },
      ...(dangling ? [{ concept_id_1: 10, concept_id_2: 999, relationship_id: 'Is a' }] : []), // 999 is not a concept
    ],
    relationshipTypes: [
      ['Maps to', 'Non-standard to Standard map (OMOP)', '0', '0', 'Mapped from'],
      ['Mapped from', 'Standard to Non-standard map (OMOP)', '0', '0', 'Maps to'],
      ['Is a', 'Is a', '1', '1', 'Subsumes'],
      ['Subsumes', 'Subsumes', '1', '1', 'Is a'],
      ['Has finding site', 'Has finding site (SNOMED)', '0', '0', 'Finding site of'],
      ['Finding site of', 'Finding site of (SNOMED)', '0', '0', 'Has finding site'],
    ],
  });
}

let t: TestServer;
let cpt4Key: string;
let demo: SourceVocabulary;
let synthea: SourceVocabulary;
let oneWay: SourceVocabulary;
let oneWayDangling: SourceVocabulary;

beforeAll(async () => {
  const oneWayDir = writeOneWayFixture(false);
  const oneWayDanglingDir = writeOneWayFixture(true);
  t = await startTestServer({
    releases: [
      { dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true },
      { dir: SYNTHEA_DIR, label: '2022.2' },
      { dir: oneWayDir, label: '2024.1' },
      { dir: oneWayDanglingDir, label: '2024.2' },
    ],
  });
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
  demo = readSourceVocabulary(DEMO_VOCABULARY_DIR);
  synthea = readSourceVocabulary(SYNTHEA_DIR);
  oneWay = readSourceVocabulary(oneWayDir);
  oneWayDangling = readSourceVocabulary(oneWayDanglingDir);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const relationshipsOf = (conceptId: number, query = '', key?: string) =>
  t.request(`/v1/concepts/${conceptId}/relationships${query ? `?${query}` : ''}`, key ? { key } : {});

describe.skipIf(MISSING_SHARED_VOCAB)('GET /v1/concepts/{concept_id}/relationships on the demo vocabulary', () => {
  it('lists the outbound rows with full concept records on both ends (defaults: valid rows, no reverse)', async () => {
    const conceptId = 201826;
    const res = await relationshipsOf(conceptId);
    expect(res.status).toBe(200);
    const expected = expectedRelationships(demo, conceptId, { keepOther: visibleWithoutCpt4 });
    expect(expected.length).toBeGreaterThan(5);
    expect(triples(res.body.data.relationships)).toEqual(triples(expected));
    expect(res.body.meta.pagination).toEqual({ page: 1, page_size: 100, total_items: expected.length, total_pages: 1, has_next: false, has_previous: false });
    const first = res.body.data.relationships[0];
    const type = demo.types.get(first.relationship_id)!;
    expect(first).toMatchObject({ relationship_name: type.relationship_name, reverse_relationship_id: type.reverse_relationship_id, invalid_reason: null });
    expect(first.valid_start_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const self = demo.concepts.get(conceptId)!;
    const other = demo.concepts.get(first.concept_id_2)!;
    expect(first.concept_1).toEqual({ ...self, vocabulary_name: demo.vocabularyNames.get(self.vocabulary_id) });
    expect(first.concept_2).toEqual({ ...other, vocabulary_name: demo.vocabularyNames.get(other.vocabulary_id) });
  });

  it('filters by relationship_ids (comma list, "+" as space), vocabulary_ids, domain_ids and standard_only on the other end', async () => {
    const conceptId = 201826;
    const byRel = await relationshipsOf(conceptId, 'relationship_ids=Maps+to%2CIs+a');
    expect(triples(byRel.body.data.relationships)).toEqual(
      triples(expectedRelationships(demo, conceptId, { relationshipIds: ['Maps to', 'Is a'], keepOther: visibleWithoutCpt4 })),
    );
    expect(byRel.body.data.relationships.length).toBeGreaterThan(0);

    const byVocabulary = await relationshipsOf(conceptId, 'vocabulary_ids=ICD10CM');
    const expectedIcd = expectedRelationships(demo, conceptId, { keepOther: (c) => c.vocabulary_id === 'ICD10CM' });
    expect(expectedIcd.length).toBeGreaterThan(0);
    expect(triples(byVocabulary.body.data.relationships)).toEqual(triples(expectedIcd));
    expect(byVocabulary.body.meta.pagination.total_items).toBe(expectedIcd.length);

    const byDomain = await relationshipsOf(conceptId, 'domain_ids=Condition');
    expect(triples(byDomain.body.data.relationships)).toEqual(triples(expectedRelationships(demo, conceptId, { keepOther: (c) => c.domain_id === 'Condition' })));

    const standard = await relationshipsOf(conceptId, 'standard_only=true');
    const expectedStandard = expectedRelationships(demo, conceptId, { keepOther: (c) => c.standard_concept === 'S' && visibleWithoutCpt4(c) });
    expect(triples(standard.body.data.relationships)).toEqual(triples(expectedStandard));
    expect(expectedStandard.length).toBeLessThan(expectedRelationships(demo, conceptId).length);
  });

  it('include_reverse adds the rows where the concept is concept_id_2, concept_1 being the other concept', async () => {
    const conceptId = 201826;
    const res = await relationshipsOf(conceptId, 'include_reverse=true');
    const expected = expectedRelationships(demo, conceptId, { includeReverse: true, keepOther: visibleWithoutCpt4 });
    expect(triples(res.body.data.relationships)).toEqual(triples(expected));
    const without = await relationshipsOf(conceptId);
    expect(res.body.meta.pagination.total_items).toBeGreaterThan(without.body.meta.pagination.total_items);
    const inbound = res.body.data.relationships.find((r: { concept_id_2: number; concept_id_1: number }) => r.concept_id_2 === conceptId && r.concept_id_1 !== conceptId);
    expect(inbound.concept_1.concept_id).toBe(inbound.concept_id_1);
    expect(inbound.concept_2.concept_id).toBe(conceptId);
  });

  it('pages with exact totals: page_size default 100, values above 1000 clamped, pages concatenate to the whole list', async () => {
    const conceptId = 201826;
    const expected = expectedRelationships(demo, conceptId, { includeReverse: true, keepOther: visibleWithoutCpt4 });
    const pageSize = 4;
    const pages: string[] = [];
    for (let page = 1; page <= Math.ceil(expected.length / pageSize); page++) {
      const res = await relationshipsOf(conceptId, `include_reverse=true&page=${page}&page_size=${pageSize}`);
      expect(res.body.meta.pagination).toMatchObject({ page, page_size: pageSize, total_items: expected.length, has_previous: page > 1 });
      pages.push(...triples(res.body.data.relationships));
    }
    expect(pages).toEqual(triples(expected));
    const past = await relationshipsOf(conceptId, 'page=99&page_size=4');
    expect(past.body.data.relationships).toEqual([]);
    expect(past.body.meta.pagination.has_next).toBe(false);
    const clamped = await relationshipsOf(conceptId, 'page_size=5000');
    expect(clamped.body.meta.pagination.page_size).toBe(1000);
  });

  it('a licence-hidden concept itself is 403 vocabulary_restricted', async () => {
    const cpt4 = [...demo.concepts.values()].find((c) => c.vocabulary_id === 'CPT4')!;
    const res = await relationshipsOf(cpt4.concept_id);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('vocabulary_restricted');
    expect((await relationshipsOf(cpt4.concept_id, '', cpt4Key)).status).toBe(200);
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('GET /v1/concepts/{concept_id}/relationships: bad input', () => {
  it('non-numeric id → 400 naming concept_id; unknown id → 404 not_found; bad flags and pages → 400 naming them', async () => {
    const nonNumeric = await t.request('/v1/concepts/abc/relationships');
    expect(nonNumeric.status).toBe(400);
    expect(nonNumeric.body.error.code).toBe('validation_error');
    expect(nonNumeric.body.error.message).toContain('concept_id');
    const unknown = await relationshipsOf(999999999);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    expect(unknown.headers['x-request-id']).toBe(unknown.body.meta.request_id);
    for (const [query, name] of [
      ['include_reverse=maybe', 'include_reverse'],
      ['include_invalid=2', 'include_invalid'],
      ['standard_only=x', 'standard_only'],
      ['page=0', 'page'],
      ['page_size=0', 'page_size'],
    ] as const) {
      const res = await relationshipsOf(201826, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message, query).toContain(name);
    }
  });
});

describe.skipIf(MISSING_SHARED_VOCAB).each([
  { release: '2024.1', what: 'without dangling rows (index counts)', source: () => oneWay },
  { release: '2024.2', what: 'with a dangling row (joined counts)', source: () => oneWayDangling },
])('GET /v1/concepts/{concept_id}/relationships on a subset storing some rows one way only, $what', ({ release, source }) => {
  const inRelease = (conceptId: number, query = '', key?: string) => relationshipsOf(conceptId, `vocab_release=${release}${query ? `&${query}` : ''}`, key);

  it('answers include_reverse with the rows as stored (no invented reverse rows), never rows to missing concepts', async () => {
    const site = await inRelease(13, 'include_reverse=true');
    expect(triples(site.body.data.relationships)).toEqual(['10|Has finding site|13']);
    expect(triples(site.body.data.relationships)).toEqual(triples(expectedRelationships(source(), 13, { includeReverse: true })));
    const hub = await inRelease(10, 'include_reverse=true', cpt4Key);
    expect(triples(hub.body.data.relationships)).toEqual(triples(expectedRelationships(source(), 10, { includeReverse: true, keepOther: visibleWithCpt4 })));
    const ids = hub.body.data.relationships.flatMap((r: { concept_id_1: number; concept_id_2: number }) => [r.concept_id_1, r.concept_id_2]);
    expect(ids).not.toContain(999);
  });

  it('include_invalid adds invalid rows with their invalid_reason', async () => {
    const valid = await inRelease(10, 'include_reverse=true', cpt4Key);
    const all = await inRelease(10, 'include_reverse=true&include_invalid=true', cpt4Key);
    const expected = expectedRelationships(source(), 10, { includeReverse: true, includeInvalid: true, keepOther: visibleWithCpt4 });
    expect(triples(all.body.data.relationships)).toEqual(triples(expected));
    expect(all.body.meta.pagination.total_items).toBe(valid.body.meta.pagination.total_items + 2);
    const invalid = all.body.data.relationships.find((r: { concept_id_2: number }) => r.concept_id_2 === 16);
    expect(invalid).toMatchObject({ relationship_id: 'Is a', invalid_reason: 'D' });
    expect(invalid.concept_2).toMatchObject({ concept_id: 16, invalid_reason: 'D' });
  });

  it('hides CPT4 neighbours (both directions) from a key without CPT4 validation, in the rows and in the total', async () => {
    const withCpt4 = await inRelease(10, 'include_reverse=true', cpt4Key);
    const without = await inRelease(10, 'include_reverse=true');
    const all = expectedRelationships(source(), 10, { includeReverse: true, keepOther: visibleWithCpt4 });
    const visible = expectedRelationships(source(), 10, { includeReverse: true, keepOther: visibleWithoutCpt4 });
    expect(visible.length).toBe(all.length - 2); // 10 Maps to 14 and 14 Mapped from 10
    expect(triples(withCpt4.body.data.relationships)).toEqual(triples(all));
    expect(triples(without.body.data.relationships)).toEqual(triples(visible));
    expect(without.body.meta.pagination.total_items).toBe(visible.length);
    expect(JSON.stringify(without.body)).not.toContain('"CPT4"');
    const page2 = await inRelease(10, 'include_reverse=true&page=2&page_size=2');
    expect(triples(page2.body.data.relationships)).toEqual(triples(visible.slice(2, 4)));
  });

  it('counts licence-hidden rows out per relationship id and validity too', async () => {
    const mapsTo = await inRelease(10, 'relationship_ids=Maps+to');
    expect(mapsTo.body.data.relationships).toEqual([]); // its targets are CPT4 and MedDRA
    expect(mapsTo.body.meta.pagination.total_items).toBe(0);
    const validated = await inRelease(10, 'relationship_ids=Maps+to', cpt4Key);
    expect(triples(validated.body.data.relationships)).toEqual(['10|Maps to|14']);
    expect(validated.body.meta.pagination.total_items).toBe(1);
    const invalidToo = await inRelease(10, 'relationship_ids=Is+a,Maps+to&include_invalid=true&include_reverse=true');
    const expected = expectedRelationships(source(), 10, {
      relationshipIds: ['Is a', 'Maps to'],
      includeInvalid: true,
      includeReverse: true,
      keepOther: visibleWithoutCpt4,
    });
    expect(triples(invalidToo.body.data.relationships)).toEqual(triples(expected));
    expect(invalidToo.body.meta.pagination.total_items).toBe(expected.length);
  });

  it('naming a restricted vocabulary in vocabulary_ids is 403 vocabulary_restricted, never an empty page (docs/licences.md)', async () => {
    const refused = await inRelease(10, 'vocabulary_ids=CPT4');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('vocabulary_restricted');
    expect(refused.body.error.details.vocabulary_id).toBe('CPT4');
    const never = await inRelease(10, 'vocabulary_ids=SNOMED,MedDRA', cpt4Key);
    expect(never.status).toBe(403);
    expect(never.body.error.details.vocabulary_id).toBe('MedDRA');
    const validated = await inRelease(10, 'vocabulary_ids=CPT4', cpt4Key);
    expect(validated.status).toBe(200);
    expect(triples(validated.body.data.relationships)).toEqual(['10|Maps to|14']);
  });

  it('never shows MedDRA; CPT4 only to a validated key', async () => {
    const plain = await inRelease(10);
    const plainTargets = plain.body.data.relationships.map((r: { concept_id_2: number }) => r.concept_id_2);
    expect(plainTargets).toEqual(expectedRelationships(source(), 10, { keepOther: visibleWithoutCpt4 }).map((r) => r.concept_id_2));
    expect(plainTargets).not.toContain(14);
    expect(plainTargets).not.toContain(15);
    const validated = await inRelease(10, '', cpt4Key);
    const targets = validated.body.data.relationships.map((r: { concept_id_2: number }) => r.concept_id_2);
    expect(targets).toContain(14);
    expect(targets).not.toContain(15);
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('GET /v1/concepts/{concept_id}/relationships on eunomia-synthea27nj (dangling rows)', () => {
  it('lists and counts only the rows whose both ends are concepts of the release', async () => {
    const conceptId = 201826; // 170 relationship rows in the file, most pointing at concepts the subset lacks
    const rowsInFile = synthea.relationships.filter((r) => r.concept_id_1 === conceptId || r.concept_id_2 === conceptId).length;
    const expected = expectedRelationships(synthea, conceptId, { includeReverse: true, keepOther: visibleWithoutCpt4 });
    expect(expected.length).toBeLessThan(rowsInFile);
    expect(expected.length).toBeGreaterThan(0);
    const res = await relationshipsOf(conceptId, 'vocab_release=2022.2&include_reverse=true&page_size=1000');
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination.total_items).toBe(expected.length);
    expect(triples(res.body.data.relationships)).toEqual(triples(expected));
  });
});
