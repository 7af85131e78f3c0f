/**
 * POST /v1/concept-sets/diff on a release pair built here: between 2025.1 and 2025.2 one descendant is deprecated,
 * one replaced, one removed, one moves out of the hierarchy and one into it, one concept is new, one source is
 * remapped away and one onto the set, and one descendant falls under an excluded item. Each change and its reason is
 * read off the two fixtures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ROOT = 100;
const CHILD = 101;
const DEPRECATED = 105;
const REPLACED = 106;
const REPLACEMENT = 107;
const MOVED_IN = 108;
const NEW_CONCEPT = 109;
const MOVED_OUT = 110;
const REMOVED = 111;
const NEWLY_EXCLUDED = 112;
const EXCLUDED_HEAD = 120;
const REMAPPED_AWAY = 200;
const REMAPPED_ONTO = 201;
const ELSEWHERE = 300;

const c = (concept_id: number, extra: Partial<FixtureConcept> = {}): FixtureConcept => ({ concept_id, concept_name: `concept ${concept_id}`, ...extra });
const icd = (concept_id: number): FixtureConcept => c(concept_id, { vocabulary_id: 'ICD10CM', standard_concept: null, concept_class_id: '3-char billing code' });
const mapsTo = (a: number, b: number): FixtureRelationship => ({ concept_id_1: a, concept_id_2: b, relationship_id: 'Maps to' });
const self = (id: number): [number, number, number, number] => [id, id, 0, 0];
const under = (a: number, d: number, level = 1): [number, number, number, number] => [a, d, level, level];

const FROM = {
  concepts: [ROOT, CHILD, DEPRECATED, REPLACED, MOVED_IN, MOVED_OUT, REMOVED, NEWLY_EXCLUDED, EXCLUDED_HEAD, ELSEWHERE].map((id) => c(id)).concat([icd(REMAPPED_AWAY), icd(REMAPPED_ONTO)]),
  relationships: [mapsTo(REMAPPED_AWAY, CHILD), mapsTo(REMAPPED_ONTO, ELSEWHERE)],
  ancestors: [
    ...[ROOT, CHILD, MOVED_IN, ELSEWHERE].map(self),
    ...[CHILD, DEPRECATED, REPLACED, MOVED_OUT, REMOVED, NEWLY_EXCLUDED, EXCLUDED_HEAD].map((d) => under(ROOT, d)),
  ],
};

const TO = {
  concepts: [
    ...[ROOT, CHILD, MOVED_IN, NEW_CONCEPT, MOVED_OUT, NEWLY_EXCLUDED, EXCLUDED_HEAD, ELSEWHERE, REPLACEMENT].map((id) => c(id)),
    c(DEPRECATED, { standard_concept: null, invalid_reason: 'D', valid_end_date: '20250101' }),
    c(REPLACED, { standard_concept: null, invalid_reason: 'U', valid_end_date: '20250101' }),
    icd(REMAPPED_AWAY),
    icd(REMAPPED_ONTO),
  ],
  relationships: [mapsTo(REMAPPED_AWAY, ELSEWHERE), mapsTo(REMAPPED_ONTO, CHILD), { concept_id_1: REPLACED, concept_id_2: REPLACEMENT, relationship_id: 'Concept replaced by' }],
  ancestors: [
    ...[ROOT, CHILD, MOVED_IN, ELSEWHERE].map(self),
    ...[CHILD, DEPRECATED, REPLACED, MOVED_IN, NEW_CONCEPT, NEWLY_EXCLUDED, EXCLUDED_HEAD].map((d) => under(ROOT, d)),
    under(EXCLUDED_HEAD, NEWLY_EXCLUDED),
  ],
  relationshipTypes: [
    ['Maps to', 'Maps to', '0', '0', 'Mapped from'],
    ['Mapped from', 'Mapped from', '0', '0', 'Maps to'],
    ['Concept replaced by', 'Concept replaced by', '0', '0', 'Concept replaces'],
    ['Concept replaces', 'Concept replaces', '0', '0', 'Concept replaced by'],
  ] as Array<[string, string, '0' | '1', '0' | '1', string]>,
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: writeAthenaFixture(FROM), label: '2025.1', makeDefault: true },
      { dir: writeAthenaFixture(TO), label: '2025.2' },
    ],
  });
}, 120_000);
afterAll(async () => t?.close());

const expression = {
  items: [
    { concept: { CONCEPT_ID: ROOT }, includeDescendants: true, includeMapped: true },
    { concept: { CONCEPT_ID: EXCLUDED_HEAD }, isExcluded: true, includeDescendants: true },
  ],
};

describe('POST /v1/concept-sets/diff', () => {
  it('lists every concept gained and lost between the releases with its reason', async () => {
    const res = await t.request('/v1/concept-sets/diff', { method: 'POST', body: { expression, from_release: '2025.1', to_release: '2025v2' } });
    expect(res.status, res.text).toBe(200);
    const d = res.body.data;
    expect(d.from_release).toBe('2025.1');
    expect(d.to_release).toBe('2025.2');
    const reasons = (list: Array<{ concept: { concept_id: number }; reason: string }>) => list.map((x) => [x.concept.concept_id, x.reason]);
    expect(reasons(d.gained)).toEqual([
      [MOVED_IN, 'new_descendant'],
      [NEW_CONCEPT, 'new_concept'],
      [REMAPPED_ONTO, 'newly_mapped'],
    ]);
    expect(reasons(d.lost)).toEqual([
      [DEPRECATED, 'deprecated'],
      [REPLACED, 'replaced'],
      [MOVED_OUT, 'moved_in_hierarchy'],
      [REMOVED, 'removed_from_release'],
      [NEWLY_EXCLUDED, 'newly_excluded'],
      [REMAPPED_AWAY, 'remapped'],
    ]);
    expect(d.lost.find((x: { concept: { concept_id: number } }) => x.concept.concept_id === REPLACED).replaced_by).toEqual([REPLACEMENT]);
    expect(d.lost.find((x: { concept: { concept_id: number } }) => x.concept.concept_id === REMAPPED_AWAY).maps_to).toEqual([ELSEWHERE]);
    // from: ROOT, CHILD, 105, 106, 110, 111, 112, 200 (120 excluded) = 8; to: ROOT, CHILD, 108, 109, 201 = 5; unchanged ROOT, CHILD.
    expect(d.summary).toEqual({ from_total: 8, to_total: 5, gained: 3, lost: 6, unchanged: 2 });
  });

  it('pages both lists; an unknown release is a 400 naming the field', async () => {
    const res = await t.request('/v1/concept-sets/diff', { method: 'POST', body: { expression, from_release: '2025.1', to_release: '2025.2', page: 2, page_size: 4 } });
    expect(res.body.data.gained).toEqual([]);
    expect(res.body.data.lost.map((x: { concept: { concept_id: number } }) => x.concept.concept_id)).toEqual([NEWLY_EXCLUDED, REMAPPED_AWAY]);
    expect(res.body.meta.pagination).toMatchObject({ page: 2, total_items: 6, total_pages: 2 });
    const bad = await t.request('/v1/concept-sets/diff', { method: 'POST', body: { expression, from_release: '2019.4', to_release: '2025.2' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('release_not_found');
    expect(bad.body.error.message).toContain("'from_release'");
  });
});
