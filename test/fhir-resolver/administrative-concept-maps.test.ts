/**
 * The project's table of the FHIR-to-OMOP IG's administrative ConceptMaps (spec E7 rule 5) against
 * the IG itself: ../shared/vocab/fhir-omop-ig/conceptmaps.csv, the flat list of the published maps
 * (main, R5 `relationship`) and of the unmerged pull request 23 (R4 `equivalence`). Every row of
 * the administrative maps is in the table with the same target (or noMap) and relationship,
 * published rows as published and PR-only rows as proposals, and nothing else is. Where the rows
 * go in the CDM is checked against the CDM v5.4 field-level specification.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ADMINISTRATIVE_MAPPINGS,
  ADMINISTRATIVE_SYSTEMS,
  administrativeConceptMapIds,
  administrativeMappings,
  type ConceptMapRelationship,
} from '../../src/services/fhir-resolver/administrative-concept-maps.js';
import { SHARED_VOCAB } from '../helpers/cli.js';
import { readSourceTable } from '../metadata/concept-file.js';

/** The administrative maps of the wave design; the IG's other maps hold vocabulary codes. */
const ADMINISTRATIVE_MAP_IDS = new Set([
  'GenderClass',
  'EncounterClass',
  'EncounterAdmitSource',
  'EncounterDischargeDisposition',
  'ConditionStatusConcepts',
  'AllergyType',
  'IntoleranceType',
  'ImmunizationSource',
  'ImmunizationRoute',
  'RaceClass',
  'EthnicityClass',
]);

/** R4 ConceptMap equivalence → R5 relationship, as the PR 23 rows use it (fhir-and-omop-notes.md §3.8). */
const R4_TO_R5: Record<string, ConceptMapRelationship> = { equivalent: 'equivalent', equal: 'equivalent', relatedto: 'related-to', inexact: 'related-to' };

interface IgRow {
  variant: 'main' | 'pr23-unmerged';
  conceptMapId: string;
  system: string;
  code: string;
  target: number | null;
  display: string | null;
  relationship: string;
}

const csvRows = readSourceTable(join(SHARED_VOCAB, 'fhir-omop-ig'), 'conceptmaps.csv');
const igRows: IgRow[] = csvRows
  .filter((r) => ADMINISTRATIVE_MAP_IDS.has(r.conceptmap_id!))
  .map((r) => ({
    variant: r.variant as IgRow['variant'],
    conceptMapId: r.conceptmap_id!,
    system: r.source_system!,
    code: r.source_code!,
    target: r.no_map === 'true' ? null : Number(r.target_concept_id),
    display: r.no_map === 'true' ? null : r.target_display!,
    relationship: r.relationship!,
  }));

const key = (r: { conceptMapId: string; code: string }) => `${r.conceptMapId}|${r.code}`;
const mainRows = new Map(igRows.filter((r) => r.variant === 'main').map((r) => [key(r), r]));
const table = new Map(ADMINISTRATIVE_MAPPINGS.map((m) => [key(m), m]));

describe('ADMINISTRATIVE_MAPPINGS against the IG ConceptMaps (spec E7 rule 5)', () => {
  it('reads every administrative map from the IG file', () => {
    expect(new Set(igRows.map((r) => r.conceptMapId))).toEqual(ADMINISTRATIVE_MAP_IDS);
    expect(mainRows.size).toBeGreaterThan(40);
  });

  it('holds each published row with its target, display and relationship (noMap: no target)', () => {
    for (const row of mainRows.values()) {
      const mapping = table.get(key(row));
      expect(mapping, key(row)).toBeDefined();
      expect(mapping!.system).toBe(row.system);
      expect(mapping!.targetConceptId, key(row)).toBe(row.target);
      expect(mapping!.targetDisplay, key(row)).toBe(row.display);
      // The IG file writes a noMap element's relationship as "unmatched" (R4); in R5 it is not-related-to.
      expect(mapping!.relationship, key(row)).toBe(row.target === null ? 'not-related-to' : row.relationship);
      expect(mapping!.published, key(row)).toBe(true);
    }
  });

  it('holds the PR 23 rows: those the published maps repeat as published, the others as proposals', () => {
    const proposals = igRows.filter((r) => r.variant === 'pr23-unmerged' && !mainRows.has(key(r)));
    expect(proposals.map(key).sort()).toEqual(
      ADMINISTRATIVE_MAPPINGS.filter((m) => !m.published)
        .map(key)
        .sort(),
    );
    expect(new Set(proposals.map((r) => r.conceptMapId))).toEqual(new Set(['RaceClass', 'EthnicityClass', 'ConditionStatusConcepts']));
    for (const row of igRows.filter((r) => r.variant === 'pr23-unmerged')) {
      const mapping = table.get(key(row));
      expect(mapping, key(row)).toBeDefined();
      expect(mapping!.system).toBe(row.system);
      expect(mapping!.targetConceptId, key(row)).toBe(row.target);
      if (!mainRows.has(key(row))) {
        expect(mapping!.relationship, key(row)).toBe(R4_TO_R5[row.relationship]);
        expect(mapping!.targetDisplay).toBe(row.display);
      }
    }
  });

  it('holds nothing the IG does not', () => {
    expect([...table.keys()].sort()).toEqual([...new Set(igRows.map(key))].sort());
    expect(table.size).toBe(ADMINISTRATIVE_MAPPINGS.length);
  });

  it('leaves out the maps of vocabulary codes', () => {
    const vocabularyMaps = new Set(csvRows.map((r) => r.conceptmap_id!).filter((id) => !ADMINISTRATIVE_MAP_IDS.has(id)));
    expect(vocabularyMaps).toEqual(new Set(['ConditionConcepts', 'ProcedureType', 'VitalSignsCodes', 'BloodPressureCodes', 'AllergySubstanceType', 'ImmunizationVaccine']));
    for (const mapping of ADMINISTRATIVE_MAPPINGS) expect(vocabularyMaps.has(mapping.conceptMapId)).toBe(false);
  });

  it('names each map by its IG canonical URL', () => {
    for (const mapping of ADMINISTRATIVE_MAPPINGS) {
      expect(mapping.conceptMapUrl).toBe(`http://hl7.org/fhir/uv/omop/ConceptMap/${mapping.conceptMapId}`);
    }
  });

  it('lists the source systems of the maps as ADMINISTRATIVE_SYSTEMS', () => {
    expect(new Set(ADMINISTRATIVE_SYSTEMS)).toEqual(new Set(igRows.map((r) => r.system)));
  });

  it('sends every row to a field of the CDM v5.4 specification', () => {
    const fields = new Set(readSourceTable(join(SHARED_VOCAB, 'cdm-spec'), 'OMOP_CDMv5.4_Field_Level.csv').map((r) => `${r.cdmTableName!.toLowerCase()}.${r.cdmFieldName!.toLowerCase()}`));
    for (const mapping of ADMINISTRATIVE_MAPPINGS) expect(fields.has(`${mapping.targetTable}.${mapping.targetField}`), key(mapping)).toBe(true);
    const where = (id: string) => ADMINISTRATIVE_MAPPINGS.find((m) => m.conceptMapId === id)!;
    expect(`${where('GenderClass').targetTable}.${where('GenderClass').targetField}`).toBe('person.gender_concept_id');
    expect(`${where('EncounterAdmitSource').targetTable}.${where('EncounterAdmitSource').targetField}`).toBe('visit_occurrence.admitted_from_concept_id');
    expect(`${where('EncounterDischargeDisposition').targetTable}.${where('EncounterDischargeDisposition').targetField}`).toBe('visit_occurrence.discharged_to_concept_id');
    expect(`${where('ImmunizationRoute').targetTable}.${where('ImmunizationRoute').targetField}`).toBe('drug_exposure.route_concept_id');
  });
});

describe('administrativeMappings', () => {
  const allergyCategory = 'http://hl7.org/fhir/allergy-intolerance-category';
  const cdcRace = 'urn:oid:2.16.840.1.113883.6.238';

  it('gives the default map first for a code two maps share (AllergyType before IntoleranceType)', () => {
    const food = administrativeMappings(allergyCategory, 'food');
    expect(food.map((m) => m.conceptMapId)).toEqual(['AllergyType', 'IntoleranceType']);
    expect(food.map((m) => m.targetConceptId)).toEqual([mainRows.get('AllergyType|food')!.target, mainRows.get('IntoleranceType|food')!.target]);
  });

  it('picks one map by its id', () => {
    const food = administrativeMappings(allergyCategory, 'food', 'IntoleranceType');
    expect(food).toHaveLength(1);
    expect(food[0]!.targetConceptId).toBe(mainRows.get('IntoleranceType|food')!.target);
    expect(administrativeMappings(allergyCategory, 'food', 'GenderClass')).toEqual([]);
  });

  it('finds race and ethnicity codes in their own map of the shared CDC system', () => {
    expect(administrativeMappings(cdcRace, '2106-3').map((m) => m.conceptMapId)).toEqual(['RaceClass']);
    expect(administrativeMappings(cdcRace, '2135-2').map((m) => m.conceptMapId)).toEqual(['EthnicityClass']);
  });

  it('gives a noMap row with no target', () => {
    const [other] = administrativeMappings('http://terminology.hl7.org/CodeSystem/admit-source', 'other');
    expect(other!.targetConceptId).toBeNull();
    expect(other!.relationship).toBe('not-related-to');
  });

  it('matches codes exactly, else ignoring case and spaces', () => {
    const gender = 'http://hl7.org/fhir/administrative-gender';
    expect(administrativeMappings(gender, 'male')[0]!.targetConceptId).toBe(mainRows.get('GenderClass|male')!.target);
    expect(administrativeMappings(gender, ' Male ')[0]!.targetConceptId).toBe(mainRows.get('GenderClass|male')!.target);
    expect(administrativeMappings('http://terminology.hl7.org/CodeSystem/v3-ActCode', 'imp')[0]!.targetConceptId).toBe(mainRows.get('EncounterClass|IMP')!.target);
  });

  it('gives [] for a code in no map of the system, and for other systems', () => {
    expect(administrativeMappings(allergyCategory, 'pollen')).toEqual([]);
    expect(administrativeMappings('http://snomed.info/sct', 'male')).toEqual([]);
  });

  it('lists the maps of a system, default first', () => {
    expect(administrativeConceptMapIds(allergyCategory)).toEqual(['AllergyType', 'IntoleranceType']);
    expect(administrativeConceptMapIds(cdcRace)).toEqual(['RaceClass', 'EthnicityClass']);
    expect(administrativeConceptMapIds('http://snomed.info/sct')).toEqual([]);
  });
});
