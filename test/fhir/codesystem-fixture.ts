/**
 * The vocabulary of the CodeSystem operation tests: the concepts of the HL7 OMOP conformance tests
 * (fhir-tx-ecosystem-omop-tests/omop, release 20240716) with the values their expected responses
 * show, plus a small SNOMED hierarchy, a hub concept with more `Mapped from` rows than $lookup lists,
 * and licensed vocabularies. Ids of domains, classes and vocabularies follow writeAthenaFixture's
 * numbering (base + position in the lists given here), exported for the tests to look up.
 */
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship } from '../helpers/athena-fixture.js';

export const RELEASE_VERSION = '20240716';
export const OMOP = 'https://fhir-terminology.ohdsi.org';
export const SNOMED = 'http://snomed.info/sct';
export const LOINC = 'http://loinc.org';
export const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
export const CPT = 'http://www.ama-assn.org/go/cpt';

export const VOCABULARIES: Array<[string, string]> = [
  ['SNOMED', 'Systematic Nomenclature of Medicine - Clinical Terms (IHTSDO)'],
  ['LOINC', 'Logical Observation Identifiers Names and Codes (Regenstrief Institute)'],
  ['ICD10CM', 'International Classification of Diseases, Tenth Revision, Clinical Modification'],
  ['CPT4', 'Current Procedural Terminology version 4 (AMA)'],
];
export const DOMAINS = ['Observation', 'Measurement', 'Condition', 'Procedure'];
export const CLASSES = ['Clinical Finding', 'Lab Test', '5-char billing code', 'CPT4'];
/** writeAthenaFixture's numbering of VOCABULARY, DOMAIN and CONCEPT_CLASS concept ids. */
export const vocabularyConceptId = (id: string) => 90000 + VOCABULARIES.findIndex(([v]) => v === id);
export const domainConceptId = (id: string) => 91000 + DOMAINS.indexOf(id);
export const classConceptId = (id: string) => 92000 + CLASSES.indexOf(id);

/** ICD10CM codes mapped to 201826, more than RELATIONSHIP_VALUES_LIMIT. */
export const HUB_SOURCE_COUNT = 25;
const hubSources = Array.from({ length: HUB_SOURCE_COUNT }, (_, i) => 8000000 + i);

/** The concepts of the HL7 OMOP lookup and CodeSystem validate-code tests, as their expected responses show them. */
export const HL7_OMOP_CONCEPTS: FixtureConcept[] = [
  { concept_id: 45772705, concept_name: 'Denies alcohol use', domain_id: 'Observation', concept_code: '704198001', valid_start_date: '20150131' },
  { concept_id: 4042860, concept_name: 'Finding relating to alcohol drinking behavior', domain_id: 'Observation', concept_code: '228273003' },
  {
    concept_id: 3033733,
    concept_name: 'Sodium [Mass or Moles/volume] in Serum or Plasma',
    domain_id: 'Measurement',
    vocabulary_id: 'LOINC',
    concept_class_id: 'Lab Test',
    standard_concept: null,
    concept_code: '42570-2',
    valid_start_date: '20150628',
    valid_end_date: '20150629',
    invalid_reason: 'D',
  },
  { concept_id: 4208938, concept_name: 'Sodium measurement, blood', domain_id: 'Measurement', concept_code: '271236005' },
  { concept_id: 4097430, concept_name: 'Sodium measurement', domain_id: 'Measurement', concept_code: '25197003' },
  { concept_id: 1029267, concept_name: 'Pulse oximetry', domain_id: 'Measurement', concept_code: '252465000' },
];

/** Their relationships the omop-lookup-code and -code3 responses list. */
export const HL7_OMOP_RELATIONSHIPS: FixtureRelationship[] = [
  { concept_id_1: 45772705, concept_id_2: 4042860, relationship_id: 'Is a' },
  { concept_id_1: 45772705, concept_id_2: 45772705, relationship_id: 'Maps to' },
  { concept_id_1: 45772705, concept_id_2: 45772705, relationship_id: 'Mapped from' },
  { concept_id_1: 3033733, concept_id_2: 4208938, relationship_id: 'Maps to' },
];

export function writeCodeSystemFixture(): string {
  return writeAthenaFixture({
    releaseVersion: 'v5.0 16-JUL-24',
    vocabularies: VOCABULARIES.map(([id, name]) => [id, name, `${id} test`] as [string, string, string]),
    domains: DOMAINS,
    conceptClasses: CLASSES,
    concepts: [
      ...HL7_OMOP_CONCEPTS,
      { concept_id: 4196413, concept_name: 'Disorder of glucose metabolism', domain_id: 'Condition', concept_code: '126877002' },
      { concept_id: 201820, concept_name: 'Diabetes mellitus', domain_id: 'Condition', concept_code: '73211009' },
      { concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', domain_id: 'Condition', concept_code: '44054006' },
      { concept_id: 201254, concept_name: 'Type 1 diabetes mellitus', domain_id: 'Condition', concept_code: '46635009' },
      {
        concept_id: 45576876,
        concept_name: 'Type 2 diabetes mellitus without complications',
        domain_id: 'Condition',
        vocabulary_id: 'ICD10CM',
        concept_class_id: '5-char billing code',
        standard_concept: null,
        concept_code: 'E11.9',
      },
      ...hubSources.map((id, i) => ({
        concept_id: id,
        concept_name: `Diabetes source code ${i}`,
        domain_id: 'Condition',
        vocabulary_id: 'ICD10CM',
        concept_class_id: '5-char billing code',
        standard_concept: null,
        concept_code: `E11.${i}X`,
      })),
      { concept_id: 2414397, concept_name: 'Office or other outpatient visit', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: '99213' },
    ],
    relationships: [
      ...HL7_OMOP_RELATIONSHIPS,
      { concept_id_1: 45576876, concept_id_2: 201826, relationship_id: 'Maps to' },
      // An invalid row is not a property.
      { concept_id_1: 45576876, concept_id_2: 201820, relationship_id: 'Maps to', invalid_reason: 'D' },
      { concept_id_1: 201826, concept_id_2: 201820, relationship_id: 'Is a' },
      { concept_id_1: 201826, concept_id_2: 2414397, relationship_id: 'Is a' },
      { concept_id_1: 201826, concept_id_2: 45576876, relationship_id: 'Mapped from' },
      ...hubSources.map((id) => ({ concept_id_1: 201826, concept_id_2: id, relationship_id: 'Mapped from' })),
      ...hubSources.map((id) => ({ concept_id_1: id, concept_id_2: 201826, relationship_id: 'Maps to' })),
    ],
    ancestors: [
      [4042860, 45772705, 1, 1],
      [4196413, 201820, 1, 1],
      [4196413, 201826, 2, 2],
      [4196413, 201254, 2, 2],
      [201820, 201826, 1, 1],
      [201820, 201254, 1, 1],
      ...[45772705, 4042860, 4196413, 201820, 201826, 201254].map((id): [number, number, number, number] => [id, id, 0, 0]),
    ],
    synonyms: [
      [201826, 'Type II diabetes mellitus'],
      [201826, 'Type 2 diabetes mellitus'],
      [4097430, 'Sodium level'],
    ],
  });
}

/** Vocabulary date of the later release writeLaterReleaseFixture writes (CodeSystem read and batch tests). */
export const LATER_RELEASE_VERSION = '20250827';

/** A second, later release: one SNOMED concept (201826), vocabulary date LATER_RELEASE_VERSION. */
export function writeLaterReleaseFixture(): string {
  return writeAthenaFixture({
    releaseVersion: 'v5.0 27-AUG-25',
    concepts: [{ concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', concept_code: '44054006' }],
  });
}
