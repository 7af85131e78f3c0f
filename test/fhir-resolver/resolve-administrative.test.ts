/**
 * E7 rule 5 over HTTPS on the demo vocabulary: every row of the FHIR-to-OMOP IG's administrative
 * ConceptMaps (../shared/vocab/fhir-omop-ig/conceptmaps.csv, read here; published maps and the
 * unmerged PR 23 proposals) resolves to its target concept, with the IG ConceptMap id as
 * relationship_id and concept_map_id; a noMap row gets concept 0 (rule 4) whatever on_unmapped
 * says. Target concepts are compared with the demo vocabulary's CONCEPT file.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { DEMO_VOCABULARY_DIR, readSourceConcepts, readSourceTable } from '../metadata/concept-file.js';
import { SHARED_VOCAB } from '../navigation/mapping-athena-files.js';
import { CDM_TABLE_OF_DOMAIN, expectEnvelopeError } from './resolver-fixture.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('fhir-omop-ig');

/** The administrative maps (wave design), each with the FHIR resource its codes appear in. */
const ADMINISTRATIVE_MAPS: Record<string, string> = {
  GenderClass: 'Patient',
  RaceClass: 'Patient',
  EthnicityClass: 'Patient',
  EncounterClass: 'Encounter',
  EncounterAdmitSource: 'Encounter',
  EncounterDischargeDisposition: 'Encounter',
  ConditionStatusConcepts: 'Condition',
  AllergyType: 'AllergyIntolerance',
  IntoleranceType: 'AllergyIntolerance',
  ImmunizationSource: 'Immunization',
  ImmunizationRoute: 'Immunization',
};

interface MapRow {
  conceptMapId: string;
  system: string;
  code: string;
  /** null for a noMap row. */
  target: number | null;
  /** 'main' (published) or 'pr23-unmerged' (proposal). */
  variant: string;
  /** The map's relationship (R5 in main, R4 equivalence in the PR). */
  relationship: string;
}

const rows: MapRow[] = (MISSING_SHARED_VOCAB ? [] : readSourceTable(join(SHARED_VOCAB, 'fhir-omop-ig'), 'conceptmaps.csv'))
  .filter((r) => r.conceptmap_id! in ADMINISTRATIVE_MAPS)
  .map((r) => ({
    conceptMapId: r.conceptmap_id!,
    system: r.source_system!,
    code: r.source_code!,
    target: r.no_map === 'true' ? null : Number(r.target_concept_id),
    variant: r.variant!,
    relationship: r.relationship!,
  }));
const keyOf = (r: MapRow) => `${r.conceptMapId}|${r.system}|${r.code}`;
/** One row per (map, system, code), the published one when there is one: the published map and PR 23 repeat some rows. */
const distinctRows = [...new Map([...rows].sort((a, b) => Number(a.variant === 'main') - Number(b.variant === 'main')).map((r) => [keyOf(r), r])).values()];
const demoConcepts = new Map(readSourceConcepts(DEMO_VOCABULARY_DIR).map((c) => [c.concept_id, c]));

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

const resolve = (body: unknown) => t.request('/v1/fhir/resolve', { method: 'POST', body });
/** The coding a client sends for a row: the allergy categories name IntoleranceType to get that map. */
const codingOf = (row: MapRow) => ({
  system: row.system,
  code: row.code,
  resource_type: ADMINISTRATIVE_MAPS[row.conceptMapId],
  ...(row.conceptMapId === 'IntoleranceType' ? { concept_map_id: 'IntoleranceType' } : {}),
});

describe.skipIf(MISSING_SHARED_VOCAB)('E7 rule 5: administrative codes through the IG ConceptMaps', () => {
  it('the CSV holds every administrative map, and repeated rows agree', () => {
    expect(new Set(rows.map((r) => r.conceptMapId))).toEqual(new Set(Object.keys(ADMINISTRATIVE_MAPS)));
    for (const r of rows) {
      expect(r.target, keyOf(r)).toBe(distinctRows.find((d) => keyOf(d) === keyOf(r))!.target);
    }
  });

  it('every mapped row resolves to its target concept (as in the demo CONCEPT file), relationship_id = concept_map_id = the map id', async () => {
    const failures: string[] = [];
    for (const row of distinctRows.filter((r) => r.target !== null)) {
      const label = `${row.conceptMapId} ${row.system}|${row.code} → ${row.target}`;
      const target = demoConcepts.get(row.target!);
      if (!target) {
        failures.push(`${label}: target not in the demo vocabulary`);
        continue;
      }
      const r = await resolve(codingOf(row));
      if (r.status !== 200) {
        failures.push(`${label}: HTTP ${r.status} ${JSON.stringify(r.body?.error)}`);
        continue;
      }
      const res = r.body.data.resolution;
      const expected = {
        source_concept: { concept_id: 0, concept_code: row.code },
        standard_concept: {
          concept_id: target.concept_id,
          concept_name: target.concept_name,
          concept_code: target.concept_code,
          vocabulary_id: target.vocabulary_id,
          domain_id: target.domain_id,
          concept_class_id: target.concept_class_id,
          standard_concept: target.standard_concept,
        },
        mapping_type: 'mapped',
        relationship_id: row.conceptMapId,
        concept_map_id: row.conceptMapId,
        concept_map_url: `http://hl7.org/fhir/uv/omop/ConceptMap/${row.conceptMapId}`,
        // E7 rule 1: a valid standard target's domain decides the table (for the domains the table lists). Not
        // checked for the IG's non-standard or deprecated targets (44814653 PCORNet "Unknown" in Observation,
        // 8551, 8522): there the map's own field (person.gender_concept_id, …) is the sensible destination.
        ...(CDM_TABLE_OF_DOMAIN[target.domain_id] && target.standard_concept === 'S' && target.invalid_reason === null
          ? { target_table: CDM_TABLE_OF_DOMAIN[target.domain_id] }
          : {}),
      };
      try {
        expect(res).toMatchObject(expected);
        expect(res.mapping_note).toEqual(expect.any(String));
      } catch {
        failures.push(`${label}: got ${JSON.stringify(res)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a noMap row (admit-source other, discharge-disposition oth) gets concept 0, 200 whatever on_unmapped says (rule 4)', async () => {
    const noMap = distinctRows.filter((r) => r.target === null);
    expect(noMap.map((r) => r.code).sort()).toEqual(['oth', 'other']);
    for (const row of noMap) {
      for (const on_unmapped of ['error', 'sentinel']) {
        const r = await resolve({ ...codingOf(row), on_unmapped });
        expect(r.status, `${row.code} ${on_unmapped}`).toBe(200);
        expect(r.body.data.resolution.standard_concept.concept_id).toBe(0);
        expect(r.body.data.resolution.mapping_type).toBe('unmapped');
        expect(r.body.data.resolution.source_concept).toMatchObject({ concept_id: 0, concept_code: row.code });
      }
    }
  });

  it('mapping_quality by the documented rule: published equivalent high, published narrower/broader medium, proposals (PR 23) low, noMap manual_review; one step lower when the release marks the IG target non-standard or invalid', async () => {
    const ladder = ['high', 'medium', 'low', 'manual_review'];
    const expectedQuality = (row: MapRow, target: { standard_concept: string | null; invalid_reason: string | null } | undefined) => {
      if (row.target === null) return 'manual_review';
      const base = row.variant !== 'main' ? 'low' : row.relationship === 'equivalent' ? 'high' : 'medium';
      const demoted = target && (target.standard_concept !== 'S' || target.invalid_reason !== null);
      return ladder[Math.min(ladder.indexOf(base) + (demoted ? 1 : 0), ladder.length - 1)];
    };
    const failures: string[] = [];
    for (const row of distinctRows) {
      const { resource_type: _advisory, ...coding } = codingOf(row);
      const r = await resolve({ ...coding, include_quality: true });
      const target = row.target === null ? undefined : (await t.request(`/v1/concepts/${row.target}`)).body.data;
      if (r.body?.data?.resolution?.mapping_quality !== expectedQuality(row, target)) {
        failures.push(`${keyOf(row)} (${row.variant} ${row.relationship}): ${r.status} ${r.body?.data?.resolution?.mapping_quality}, expected ${expectedQuality(row, target)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the allergy categories use AllergyType unless the coding asks for IntoleranceType', async () => {
    const food = (conceptMapId: string) => distinctRows.find((r) => r.conceptMapId === conceptMapId && r.code === 'food')!;
    const plain = await resolve({ system: food('AllergyType').system, code: 'food' });
    expect(plain.body.data.resolution).toMatchObject({ concept_map_id: 'AllergyType', standard_concept: { concept_id: food('AllergyType').target } });
    const intolerance = await resolve({ system: food('IntoleranceType').system, code: 'food', concept_map_id: 'IntoleranceType' });
    expect(intolerance.body.data.resolution).toMatchObject({ concept_map_id: 'IntoleranceType', standard_concept: { concept_id: food('IntoleranceType').target } });
  });

  it('administrative-gender male for a Patient (client contract §5): GenderClass 8507, person table', async () => {
    const r = await resolve({ system: 'http://hl7.org/fhir/administrative-gender', code: 'male', resource_type: 'Patient' });
    expect(r.status).toBe(200);
    expect(r.body.data.resolution).toMatchObject({ standard_concept: { concept_id: 8507, domain_id: 'Gender' }, concept_map_id: 'GenderClass', target_table: 'person' });
  });

  it('a code the map does not list is not found (Errors rule 3), in the envelope', async () => {
    expectEnvelopeError(await resolve({ system: 'http://hl7.org/fhir/administrative-gender', code: 'not-a-gender' }), 404, 'concept_not_found');
  });
});
