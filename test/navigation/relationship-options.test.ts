/**
 * GET /v1/concepts/{concept_id}/relationships/options (spec E9) through HTTPS: the relationship
 * ids of a concept's valid rows in both directions as {id, name}, licence-hidden neighbours left out,
 * and with include_counts=true the counts per direction (client-compatibility §2). Expected values
 * come from the source files of the demo vocabulary and of a fixture with one-way, invalid and
 * licensed rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { visibleWithCpt4, visibleWithoutCpt4 } from '../metadata/concept-file.js';
import { byteOrder, DEMO_VOCABULARY_DIR, readSourceVocabulary, type SourceConcept, type SourceVocabulary } from './relationship-source.js';

function writeOptionsFixture(): string {
  return writeAthenaFixture({
    concepts: [
      { concept_id: 10, concept_name: 'Hub finding' },
      { concept_id: 11, concept_name: 'Child' },
      { concept_id: 13, concept_name: 'Body site', domain_id: 'Spec Anatomic Site' },
      { concept_id: 14, concept_name: 'A procedure code', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4' },
      { concept_id: 15, concept_name: 'A MedDRA term', vocabulary_id: 'MedDRA', standard_concept: null },
      { concept_id: 16, concept_name: 'Old parent', invalid_reason: 'D', standard_concept: null },
    ],
    relationships: [
      { concept_id_1: 10, concept_id_2: 11, relationship_id: 'Subsumes' },
      { concept_id_1: 11, concept_id_2: 10, relationship_id: 'Is a' },
      { concept_id_1: 10, concept_id_2: 13, relationship_id: 'Has finding site' }, // stored one way only
      { concept_id_1: 10, concept_id_2: 14, relationship_id: 'Maps to' },
      { concept_id_1: 14, concept_id_2: 10, relationship_id: 'Mapped from' },
      { concept_id_1: 10, concept_id_2: 15, relationship_id: 'Maps to' },
      { concept_id_1: 10, concept_id_2: 16, relationship_id: 'Is a', invalid_reason: 'D' },
      { concept_id_1: 16, concept_id_2: 10, relationship_id: 'Subsumes', invalid_reason: 'D' },
    ],
    relationshipTypes: [
      ['Maps to', 'Non-standard to Standard map (OMOP)', '0', '0', 'Mapped from'],
      ['Mapped from', 'Standard to Non-standard map (OMOP)', '0', '0', 'Maps to'],
      ['Is a', 'Is a', '1', '0', 'Subsumes'],
      ['Subsumes', 'Subsumes', '1', '1', 'Is a'],
      ['Has finding site', 'Has finding site (SNOMED)', '0', '0', 'Finding site of'],
      ['Finding site of', 'Finding site of (SNOMED)', '0', '0', 'Has finding site'],
    ],
  });
}

let t: TestServer;
let cpt4Key: string;
let demo: SourceVocabulary;
let fixture: SourceVocabulary;

beforeAll(async () => {
  const fixtureDir = writeOptionsFixture();
  t = await startTestServer({
    releases: [
      { dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true },
      { dir: fixtureDir, label: '2024.1' },
    ],
  });
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
  demo = readSourceVocabulary(DEMO_VOCABULARY_DIR);
  fixture = readSourceVocabulary(fixtureDir);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Valid rows of the concept per relationship id in one direction, other end present and visible. */
function expectedCounts(source: SourceVocabulary, conceptId: number, direction: 'outbound' | 'inbound', visible: (c: SourceConcept) => boolean) {
  const counts = new Map<string, number>();
  for (const r of source.relationships) {
    const [near, far] = direction === 'outbound' ? [r.concept_id_1, r.concept_id_2] : [r.concept_id_2, r.concept_id_1];
    const other = source.concepts.get(far);
    if (near !== conceptId || r.invalid_reason !== null || !other || !visible(other)) continue;
    counts.set(r.relationship_id, (counts.get(r.relationship_id) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => byteOrder(a[0], b[0]));
}

function expectedOptions(source: SourceVocabulary, conceptId: number, visible: (c: SourceConcept) => boolean) {
  const ids = new Set([...expectedCounts(source, conceptId, 'outbound', visible), ...expectedCounts(source, conceptId, 'inbound', visible)].map(([id]) => id));
  return [...ids].sort(byteOrder).map((id) => ({ id, name: source.types.get(id)?.relationship_name ?? id }));
}

const optionsOf = (conceptId: number, query = '', key?: string) =>
  t.request(`/v1/concepts/${conceptId}/relationships/options${query ? `?${query}` : ''}`, key ? { key } : {});

describe('GET /v1/concepts/{concept_id}/relationships/options (E9)', () => {
  it('lists the relationships of both directions as {id, name} (demo vocabulary), without counts by default', async () => {
    for (const conceptId of [201826, 4274025, 35206882]) {
      const res = await optionsOf(conceptId);
      expect(res.status).toBe(200);
      const expected = expectedOptions(demo, conceptId, visibleWithoutCpt4);
      expect(expected.length).toBeGreaterThan(0);
      expect(res.body.data).toEqual({ concept_id: conceptId, available_relationships: expected });
    }
  });

  it('include_counts=true adds relationship_options with counts per direction', async () => {
    const conceptId = 201826;
    const res = await optionsOf(conceptId, 'include_counts=true');
    const shape = (counts: Array<[string, number]>) =>
      counts.map(([id, count]) => {
        const type = demo.types.get(id)!;
        return {
          relationship_id: id,
          relationship_name: type.relationship_name,
          reverse_relationship_id: type.reverse_relationship_id,
          relationship_concept_id: Number(type.relationship_concept_id),
          is_hierarchical: type.is_hierarchical,
          defines_ancestry: type.defines_ancestry,
          count,
        };
      });
    expect(res.body.data.available_relationships).toEqual(expectedOptions(demo, conceptId, visibleWithoutCpt4));
    expect(res.body.data.relationship_options).toEqual({
      outbound: shape(expectedCounts(demo, conceptId, 'outbound', visibleWithoutCpt4)),
      inbound: shape(expectedCounts(demo, conceptId, 'inbound', visibleWithoutCpt4)),
    });
  });

  it('covers rows stored in one direction only, leaves out invalid rows and licence-hidden neighbours', async () => {
    const inFixture = (conceptId: number, key?: string) => optionsOf(conceptId, 'vocab_release=2024.1&include_counts=true', key);
    const site = await inFixture(13);
    expect(site.body.data.available_relationships).toEqual([{ id: 'Has finding site', name: 'Has finding site (SNOMED)' }]);
    expect(site.body.data.relationship_options.outbound).toEqual([]);
    expect(site.body.data.relationship_options.inbound).toMatchObject([{ relationship_id: 'Has finding site', count: 1 }]);

    const plain = await inFixture(10);
    expect(plain.body.data.available_relationships).toEqual(expectedOptions(fixture, 10, visibleWithoutCpt4));
    const plainIds = plain.body.data.available_relationships.map((o: { id: string }) => o.id);
    expect(plainIds).not.toContain('Maps to'); // its targets are CPT4 and MedDRA
    expect(plainIds).not.toContain('Mapped from'); // from a CPT4 concept
    const validated = await inFixture(10, cpt4Key);
    expect(validated.body.data.available_relationships).toEqual(expectedOptions(fixture, 10, visibleWithCpt4));
    expect(validated.body.data.relationship_options.outbound).toEqual(
      expectedCounts(fixture, 10, 'outbound', visibleWithCpt4).map(([id, count]) => expect.objectContaining({ relationship_id: id, count })),
    );
    expect(validated.body.data.relationship_options.inbound).toEqual(
      expectedCounts(fixture, 10, 'inbound', visibleWithCpt4).map(([id, count]) => expect.objectContaining({ relationship_id: id, count })),
    );
  });

  it('bad input: non-numeric id → 400 naming concept_id, unknown id → 404 not_found, hidden concept → 403, bad flag → 400', async () => {
    const nonNumeric = await t.request('/v1/concepts/x12/relationships/options');
    expect(nonNumeric.status).toBe(400);
    expect(nonNumeric.body.error.message).toContain('concept_id');
    const unknown = await optionsOf(999999999);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const hidden = await optionsOf(15, 'vocab_release=2024.1', cpt4Key);
    expect(hidden.status).toBe(403);
    expect(hidden.body.error.code).toBe('vocabulary_restricted');
    const badFlag = await optionsOf(201826, 'include_counts=perhaps');
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.error.message).toContain('include_counts');
  });
});
