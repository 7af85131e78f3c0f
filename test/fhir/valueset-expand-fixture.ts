/**
 * The vocabulary of the ValueSet/$expand and ValueSet/$validate-code tests (release 20240716): the
 * Drug and Device concepts of the HL7 OMOP conformance tests (omop-filter-domain, omop-validate-*-vs-*),
 * a SNOMED diabetes hierarchy with enough descendants to page, an inactive descendant, a licensed
 * CPT4 descendant, a non-standard ICD10CM condition, and LOINC_COUNT LOINC codes (more than one
 * expansion answer may list).
 */
import { writeAthenaFixture } from '../helpers/athena-fixture.js';

export const RELEASE_VERSION = '20240716';
export const OMOP = 'https://fhir-terminology.ohdsi.org';
export const SNOMED = 'http://snomed.info/sct';
export const LOINC = 'http://loinc.org';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';

/** Generated SNOMED children of Diabetes mellitus (201820). */
export const COMPLICATION_COUNT = 25;
export const complicationId = (i: number) => 7000000 + i;
/** Generated LOINC codes: more than MAX_EXPANSION_PAGE (1000). */
export const LOINC_COUNT = 1001;

/** Diabetes mellitus (201820, SNOMED 73211009): itself, and its descendants by CONCEPT_ANCESTOR. */
export const DIABETES = 201820;
export const TYPE_2 = 201826;
export const TYPE_1 = 201254;
/** An inactive (invalid_reason D) descendant of 201820. */
export const RETIRED = 4000001;
/** A CPT4 (licensed) descendant of 201820. */
export const CPT_VISIT = 2414397;
export const GLUCOSE_DISORDER = 4196413;

const complications = Array.from({ length: COMPLICATION_COUNT }, (_, i) => complicationId(i));

/** The members of `${SNOMED}?fhir_vs=isa/73211009` for a key without CPT4 access (the expected set, from the fixture's rows). */
export const DIABETES_ISA_MEMBERS = [DIABETES, TYPE_2, TYPE_1, RETIRED, ...complications];

export function writeValueSetFixture(): string {
  return writeAthenaFixture({
    releaseVersion: 'v5.0 16-JUL-24',
    vocabularies: [
      ['SNOMED', 'Systematic Nomenclature of Medicine - Clinical Terms (IHTSDO)', 'SNOMED test'],
      ['RxNorm', 'RxNorm (NLM)', 'RxNorm test'],
      ['LOINC', 'Logical Observation Identifiers Names and Codes (Regenstrief Institute)', 'LOINC test'],
      ['ICD10CM', 'International Classification of Diseases, Tenth Revision, Clinical Modification', 'ICD10CM test'],
      ['CPT4', 'Current Procedural Terminology version 4 (AMA)', 'CPT4 test'],
    ],
    domains: ['Drug', 'Device', 'Condition', 'Measurement', 'Procedure', 'Route'],
    conceptClasses: ['Ingredient', 'Branded Drug', 'Physical Object', 'Clinical Finding', 'Lab Test', '5-char billing code', 'CPT4'],
    concepts: [
      { concept_id: 1367571, concept_name: 'heparin', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Ingredient', concept_code: '5224' },
      { concept_id: 1383815, concept_name: 'isosorbide', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Ingredient', concept_code: '6057' },
      { concept_id: 36274733, concept_name: 'Furosemide Injection [Lasix]', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Branded Drug', concept_code: '1719286' },
      { concept_id: 45773555, concept_name: 'Pulse oximeter probe', domain_id: 'Device', concept_class_id: 'Physical Object', concept_code: '448703006' },
      { concept_id: GLUCOSE_DISORDER, concept_name: 'Disorder of glucose metabolism', concept_code: '126877002' },
      { concept_id: DIABETES, concept_name: 'Diabetes mellitus', concept_code: '73211009' },
      { concept_id: TYPE_2, concept_name: 'Type 2 diabetes mellitus', concept_code: '44054006' },
      { concept_id: TYPE_1, concept_name: 'Type 1 diabetes mellitus', concept_code: '46635009' },
      { concept_id: RETIRED, concept_name: 'Diabetes retired code', concept_code: '99999001', standard_concept: null, invalid_reason: 'D', valid_end_date: '20200101' },
      ...complications.map((id, i) => ({ concept_id: id, concept_name: `Diabetic complication ${i}`, concept_code: String(700000100 + i) })),
      { concept_id: CPT_VISIT, concept_name: 'Office visit for diabetes', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: '99213' },
      {
        concept_id: 45576876,
        concept_name: 'Type 2 diabetes mellitus without complications',
        vocabulary_id: 'ICD10CM',
        concept_class_id: '5-char billing code',
        standard_concept: null,
        concept_code: 'E11.9',
      },
      { concept_id: 3000001, concept_name: 'Blood type measurement', domain_id: 'Measurement', vocabulary_id: 'LOINC', concept_class_id: 'Lab Test', concept_code: '882-1' },
      ...Array.from({ length: LOINC_COUNT - 1 }, (_, i) => ({
        concept_id: 3100000 + i,
        concept_name: `Generated lab test ${i}`,
        domain_id: 'Measurement',
        vocabulary_id: 'LOINC',
        concept_class_id: 'Lab Test',
        concept_code: `${10000 + i}-0`,
      })),
    ],
    relationships: [
      { concept_id_1: DIABETES, concept_id_2: GLUCOSE_DISORDER, relationship_id: 'Is a' },
      { concept_id_1: TYPE_2, concept_id_2: DIABETES, relationship_id: 'Is a' },
      { concept_id_1: TYPE_1, concept_id_2: DIABETES, relationship_id: 'Is a' },
    ],
    ancestors: [
      [GLUCOSE_DISORDER, DIABETES, 1, 1],
      ...[TYPE_2, TYPE_1, RETIRED, CPT_VISIT, ...complications].flatMap((id): Array<[number, number, number, number]> => [
        [DIABETES, id, 1, 1],
        [GLUCOSE_DISORDER, id, 2, 2],
      ]),
      ...[GLUCOSE_DISORDER, DIABETES, TYPE_2, TYPE_1, RETIRED, CPT_VISIT, ...complications].map((id): [number, number, number, number] => [id, id, 0, 0]),
    ],
    synonyms: [[TYPE_2, 'Type II diabetes mellitus']],
  });
}
