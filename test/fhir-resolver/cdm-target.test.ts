/**
 * Where a resolved concept goes (spec E7 rule 1: the domain decides target_table; the resource type
 * is advisory). The table and field of every domain Athena ships (the DOMAIN tables of
 * ../shared/vocab) are checked against the OMOP CDM v5.4 field-level specification
 * (../shared/vocab/cdm-spec/OMOP_CDMv5.4_Field_Level.csv); the main domains against the domain →
 * table rule of the OMOP CDM conventions (fhir-and-omop-notes.md §5).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cdmTargetOf, domainAlignment, expectedDomains, VALUE_AS_CONCEPT_FIELD } from '../../src/services/fhir-resolver/cdm-target.js';
import { RESOURCE_TYPES } from '../../src/services/fhir-resolver/resolution.js';
import { SHARED_VOCAB } from '../helpers/cli.js';
import { readSourceTable } from '../metadata/concept-file.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('cdm-spec', 'eunomia-gibleed-2019', 'dbt-synthea-2024', 'ohdsi-tutorial-etl-2024');

/** table → its fields, from the CDM specification. */
function cdmFields(): Map<string, Set<string>> {
  const fields = new Map<string, Set<string>>();
  for (const row of readSourceTable(join(SHARED_VOCAB, 'cdm-spec'), 'OMOP_CDMv5.4_Field_Level.csv')) {
    const table = row.cdmTableName!.toLowerCase();
    if (!fields.has(table)) fields.set(table, new Set());
    fields.get(table)!.add(row.cdmFieldName!.toLowerCase());
  }
  return fields;
}

const CDM = MISSING_SHARED_VOCAB ? new Map<string, Set<string>>() : cdmFields();

/** Every domain_id of the Athena DOMAIN tables in ../shared/vocab (2019 to 2024 releases). */
const ATHENA_DOMAINS = [
  ...new Set(
    (MISSING_SHARED_VOCAB ? [] : ['eunomia-gibleed-2019', 'dbt-synthea-2024', 'ohdsi-tutorial-etl-2024']).flatMap((dir) =>
      readSourceTable(join(SHARED_VOCAB, dir), 'DOMAIN.csv').map((r) => r.domain_id!),
    ),
  ),
];

describe.skipIf(MISSING_SHARED_VOCAB)('cdmTargetOf (spec E7 rule 1: the domain decides target_table)', () => {
  it('reads Athena domain lists that include the clinical domains', () => {
    expect(ATHENA_DOMAINS).toEqual(expect.arrayContaining(['Condition', 'Drug', 'Procedure', 'Measurement', 'Observation', 'Condition/Meas']));
  });

  it.each(ATHENA_DOMAINS)('names a field that exists in the CDM v5.4 table, or null, for domain %s', (domainId) => {
    const target = cdmTargetOf(domainId);
    if (target === null) return;
    expect(CDM.get(target.table), `table ${target.table}`).toBeDefined();
    expect(CDM.get(target.table)!.has(target.field), `${target.table}.${target.field}`).toBe(true);
    expect(target.field).toMatch(/_concept_id$/);
  });

  it('routes the domains of the CDM conventions table (fhir-and-omop-notes.md §5) to their table and field', () => {
    const expected: Record<string, string> = {
      Condition: 'condition_occurrence.condition_concept_id',
      Drug: 'drug_exposure.drug_concept_id',
      Procedure: 'procedure_occurrence.procedure_concept_id',
      Measurement: 'measurement.measurement_concept_id',
      Observation: 'observation.observation_concept_id',
      Device: 'device_exposure.device_concept_id',
      Specimen: 'specimen.specimen_concept_id',
      Visit: 'visit_occurrence.visit_concept_id',
      Episode: 'episode.episode_concept_id',
      Gender: 'person.gender_concept_id',
      Race: 'person.race_concept_id',
      Ethnicity: 'person.ethnicity_concept_id',
      Route: 'drug_exposure.route_concept_id',
      'Meas Value': 'measurement.value_as_concept_id',
      'Meas Value Operator': 'measurement.operator_concept_id',
      'Condition Status': 'condition_occurrence.condition_status_concept_id',
      'Spec Anatomic Site': 'specimen.anatomic_site_concept_id',
    };
    for (const [domainId, field] of Object.entries(expected)) {
      const target = cdmTargetOf(domainId);
      expect(target && `${target.table}.${target.field}`, domainId).toBe(field);
    }
  });

  it('routes a combined domain of a non-standard concept by its first part', () => {
    expect(cdmTargetOf('Condition/Meas')?.table).toBe('condition_occurrence');
    expect(cdmTargetOf('Meas/Procedure')?.table).toBe('measurement');
    expect(cdmTargetOf('Obs/Procedure')?.table).toBe('observation');
    expect(cdmTargetOf('Drug/Procedure')?.table).toBe('drug_exposure');
    expect(cdmTargetOf('Device/Obs')?.table).toBe('device_exposure');
  });

  it('gives null for domains with no clinical table, and for unknown domains', () => {
    for (const domainId of ['Metadata', 'Type Concept', 'Relationship', 'NotARealDomain', '']) {
      expect(cdmTargetOf(domainId), domainId).toBeNull();
    }
  });

  it('names the value_as_concept_id field that measurement and observation both have (Maps to value)', () => {
    expect(CDM.get('measurement')!.has(VALUE_AS_CONCEPT_FIELD)).toBe(true);
    expect(CDM.get('observation')!.has(VALUE_AS_CONCEPT_FIELD)).toBe(true);
  });
});

describe('expectedDomains', () => {
  it.each(RESOURCE_TYPES)('gives %s at least one domain, each with a CDM table', (resourceType) => {
    const domains = expectedDomains(resourceType);
    expect(domains.length).toBeGreaterThan(0);
    expect(new Set(domains).size).toBe(domains.length);
    for (const domainId of domains) expect(cdmTargetOf(domainId), `${resourceType} → ${domainId}`).not.toBeNull();
  });

  it('puts the domain each resource is named after first', () => {
    expect(expectedDomains('Condition')[0]).toBe('Condition');
    expect(expectedDomains('Procedure')[0]).toBe('Procedure');
    for (const medication of ['MedicationStatement', 'MedicationRequest', 'MedicationAdministration', 'Immunization'] as const) {
      expect(expectedDomains(medication)[0]).toBe('Drug');
    }
    expect(expectedDomains('Encounter')).toEqual(['Visit']);
    expect(expectedDomains('Observation')).toEqual(expect.arrayContaining(['Measurement', 'Observation']));
    expect(expectedDomains('Patient')).toEqual(expect.arrayContaining(['Gender', 'Race', 'Ethnicity']));
  });
});

describe('domainAlignment (domain_resource_alignment)', () => {
  it('is not_checked without a resource type', () => {
    expect(domainAlignment('Condition', undefined)).toEqual({ alignment: 'not_checked' });
  });

  it('is aligned when the resource type expects the domain', () => {
    expect(domainAlignment('Condition', 'Condition')).toEqual({ alignment: 'aligned' });
    expect(domainAlignment('Measurement', 'Observation')).toEqual({ alignment: 'aligned' });
    expect(domainAlignment('Drug', 'Immunization')).toEqual({ alignment: 'aligned' });
  });

  it('is aligned for a combined domain when one of its parts is expected', () => {
    expect(domainAlignment('Condition/Meas', 'Observation').alignment).toBe('aligned');
    expect(domainAlignment('Obs/Procedure', 'Procedure').alignment).toBe('aligned');
  });

  it('is misaligned with one sentence naming the resource type, the domain and the table the domain decides', () => {
    const { alignment, note } = domainAlignment('Drug', 'Condition');
    expect(alignment).toBe('misaligned');
    expect(note).toContain('Condition');
    expect(note).toContain('Drug');
    expect(note).toContain('drug_exposure');
    expect(note!.trim().split(/\.\s/).length).toBe(1);
  });

  it('says so when the domain has no CDM table', () => {
    const { alignment, note } = domainAlignment('Metadata', 'Observation');
    expect(alignment).toBe('misaligned');
    expect(note).toContain('Metadata');
    expect(note).toMatch(/^An Observation resource/);
    expect(note).toContain('no CDM clinical table');
  });
});
