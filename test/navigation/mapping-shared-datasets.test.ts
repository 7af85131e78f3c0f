/**
 * Mappings on real Athena extracts (../shared/vocab): eunomia-synthea27nj has 65,641 'Maps to' rows
 * (most pointing outside its CONCEPT table), eunomia-gibleed-2019 has none but real ancestors. The
 * expected rows are counted from the CSV files in the test.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { expectedMappings, expectedMapTargets, readAthenaFiles, SHARED_VOCAB, type AthenaFiles, type MappingType } from './mapping-athena-files.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-synthea27nj', 'eunomia-gibleed-2019');

const SYNTHEA = join(SHARED_VOCAB, 'eunomia-synthea27nj');
const GIBLEED = join(SHARED_VOCAB, 'eunomia-gibleed-2019');

let t: TestServer;
let synthea: AthenaFiles;
let gibleed: AthenaFiles;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: SYNTHEA, label: '2022.2', makeDefault: true }, { dir: GIBLEED, label: '2019.1' }] });
  synthea = readAthenaFiles(SYNTHEA);
  gibleed = readAthenaFiles(GIBLEED);
}, 120_000);
afterAll(async () => t?.close());

const chunks = <T>(items: readonly T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));

describe.skipIf(MISSING_SHARED_VOCAB)('eunomia-synthea27nj', () => {
  const mapsToRows = () => synthea.relationships.filter((r) => r.relationship_id === 'Maps to');

  it("GET mappings lists exactly the file's 'Maps to' rows whose target is in CONCEPT (invalid included by default)", async () => {
    expect(mapsToRows().length).toBe(65_641);
    const withBothEnds = mapsToRows().filter((r) => synthea.concepts.has(r.concept_id_1) && synthea.concepts.has(r.concept_id_2));
    const nonStandardSources = [...new Set(withBothEnds.map((r) => r.concept_id_1))].filter((id) => synthea.concepts.get(id)!.standard_concept === null);
    expect(nonStandardSources.length).toBeGreaterThan(20);
    const standardSources = [...new Set(withBothEnds.map((r) => r.concept_id_1))].filter((id) => synthea.concepts.get(id)!.standard_concept !== null).slice(0, 40);
    let listed = 0;
    for (const id of [...nonStandardSources, ...standardSources]) {
      const res = await t.request(`/v1/concepts/${id}/mappings?page_size=200`);
      expect(res.status, String(id)).toBe(200);
      const expected = expectedMappings(synthea, id);
      expect(res.body.data.mappings, String(id)).toEqual(expected);
      expect(res.body.data.total_mappings).toBe(expected.length);
      listed += expected.length;
    }
    expect(listed).toBeGreaterThan(0);
  });

  it('include_invalid=false leaves out the rows the file marks invalid', async () => {
    const invalidSources = [
      ...new Set(
        mapsToRows()
          .filter((r) => synthea.concepts.has(r.concept_id_1) && synthea.concepts.has(r.concept_id_2))
          .filter((r) => r.invalid_reason !== null || synthea.concepts.get(r.concept_id_2)!.invalid_reason !== null)
          .map((r) => r.concept_id_1),
      ),
    ].slice(0, 20);
    for (const id of invalidSources) {
      const res = await t.request(`/v1/concepts/${id}/mappings?include_invalid=false`);
      expect(res.body.data.mappings, String(id)).toEqual(expectedMappings(synthea, id, { includeInvalid: false }));
    }
  });

  it('POST map (direct) of every non-standard concept to each target vocabulary, in batches of 100', async () => {
    const sources = [...synthea.concepts.values()].filter((c) => c.standard_concept === null).map((c) => c.concept_id);
    expect(sources.length).toBe(116);
    for (const vocabulary of ['SNOMED', 'RxNorm', 'LOINC']) {
      for (const batch of chunks(sources, 100)) {
        const res = await t.request('/v1/concepts/map', { method: 'POST', body: { target_vocabulary: vocabulary, source_concepts: batch } });
        expect(res.status).toBe(200);
        const expected = batch.flatMap((id) => expectedMapTargets(synthea, id, vocabulary, 'direct'));
        expect(res.body.data.mappings.map((m: { source_concept_id: number; target_concept_id: number }) => [m.source_concept_id, m.target_concept_id])).toEqual(
          expected.map((e) => [e.source_concept_id, e.target_concept_id]),
        );
        expect(res.body.data.summary.total).toBe(batch.length);
        expect(res.body.data.summary.mapped + res.body.data.summary.failed).toBe(batch.length);
      }
    }
  });
});

describe.skipIf(MISSING_SHARED_VOCAB)('eunomia-gibleed-2019 (no relationship rows, real ancestors)', () => {
  const release = '?vocab_release=2019.1';

  it("has no 'Maps to' rows, so every mapping list is empty and every direct map fails", async () => {
    expect(gibleed.relationships.filter((r) => r.relationship_id === 'Maps to')).toHaveLength(0);
    const ids = [...gibleed.concepts.keys()];
    for (const id of ids.slice(0, 25)) {
      const res = await t.request(`/v1/concepts/${id}/mappings${release}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ mappings: [], total_mappings: 0 });
    }
    const res = await t.request(`/v1/concepts/map${release}`, { method: 'POST', body: { target_vocabulary: 'SNOMED', source_concepts: ids.slice(0, 100) } });
    expect(res.body.data.mappings).toEqual([]);
    expect(res.body.data.summary).toEqual({ total: 100, mapped: 0, failed: 100, total_mappings: 0 });
    expect(new Set(res.body.data.failed_mappings.map((f: { error_code: string }) => f.error_code))).toEqual(new Set(['no_mapping']));
  });

  it('broader and narrower follow CONCEPT_ANCESTOR into each vocabulary, nearest first', async () => {
    const linked = gibleed.ancestors.filter((a) => a.ancestor !== a.descendant && gibleed.concepts.has(a.ancestor) && gibleed.concepts.has(a.descendant));
    expect(linked.length).toBeGreaterThan(100);
    let compared = 0;
    for (const type of ['broader', 'narrower'] as MappingType[]) {
      const sources = [...new Set(linked.map((a) => (type === 'broader' ? a.descendant : a.ancestor)))].slice(0, 100);
      const vocabularies = [...new Set(linked.map((a) => gibleed.concepts.get(type === 'broader' ? a.ancestor : a.descendant)!.vocabulary_id))];
      for (const vocabulary of vocabularies) {
        const res = await t.request(`/v1/concepts/map${release}`, { method: 'POST', body: { target_vocabulary: vocabulary, source_concepts: sources, mapping_type: type } });
        expect(res.status).toBe(200);
        const expected = sources.flatMap((id) => expectedMapTargets(gibleed, id, vocabulary, type));
        expect(
          res.body.data.mappings.map((m: { source_concept_id: number; target_concept_id: number; min_levels_of_separation: number }) => [m.source_concept_id, m.target_concept_id]),
          `${type} ${vocabulary}`,
        ).toEqual(expected.map((e) => [e.source_concept_id, e.target_concept_id]));
        compared += expected.length;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
