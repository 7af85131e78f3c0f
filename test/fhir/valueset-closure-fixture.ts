/**
 * A small vocabulary for the ValueSet search (E12) and ConceptMap/$closure (E11) tests: a SNOMED
 * hierarchy three levels deep with CONCEPT_ANCESTOR self rows (as Athena ships them), a concept
 * outside it, an ATC class above an RxNorm ingredient (a pair across code systems), a CPT4 code
 * (licensed content) and a vocabulary with a long code-system URI. Tests compute what they expect
 * from ANCESTORS, never from the server.
 */
import { writeAthenaFixture, type FixtureConcept } from '../helpers/athena-fixture.js';

export const SNOMED = 'http://snomed.info/sct';
export const OMOP = 'https://fhir-terminology.ohdsi.org';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const ATC = 'http://www.whocc.no/atc';
export const CPT = 'http://www.ama-assn.org/go/cpt';
export const PLACE_OF_SERVICE = 'https://www.cms.gov/Medicare/Coding/place-of-service-codes/Place_of_Service_Code_Set';

export const CONCEPTS = {
  endocrine: { concept_id: 31821, concept_name: 'Disorder of endocrine system', concept_code: '362969004' },
  diabetes: { concept_id: 201820, concept_name: 'Diabetes mellitus', concept_code: '73211009' },
  type2: { concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', concept_code: '44054006' },
  type1: { concept_id: 201254, concept_name: 'Type 1 diabetes mellitus', concept_code: '46635009' },
  infarction: { concept_id: 4329847, concept_name: 'Myocardial infarction', concept_code: '22298006' },
  biguanides: {
    concept_id: 21600745,
    concept_name: 'Biguanides',
    concept_code: 'A10BA',
    vocabulary_id: 'ATC',
    domain_id: 'Drug',
    concept_class_id: 'ATC 4th',
    standard_concept: 'C',
  },
  metformin: {
    concept_id: 1503297,
    concept_name: 'metformin',
    concept_code: '6809',
    vocabulary_id: 'RxNorm',
    domain_id: 'Drug',
    concept_class_id: 'Ingredient',
  },
  officeVisit: {
    concept_id: 2414397,
    concept_name: 'Office or other outpatient visit',
    concept_code: '99213',
    vocabulary_id: 'CPT4',
    domain_id: 'Procedure',
    concept_class_id: 'CPT4',
  },
  evaluation: {
    concept_id: 2414300,
    concept_name: 'Evaluation and Management Services',
    concept_code: '1013626',
    vocabulary_id: 'CPT4',
    domain_id: 'Procedure',
    concept_class_id: 'CPT4 Hierarchy',
    standard_concept: 'C',
  },
  office: {
    concept_id: 8940,
    concept_name: 'Office',
    concept_code: '11',
    vocabulary_id: 'CMS Place of Service',
    domain_id: 'Visit',
    concept_class_id: 'Visit',
  },
} satisfies Record<string, FixtureConcept>;

const C = CONCEPTS;

/** Proper ancestry (ancestor, descendant, min, max); the self rows are added below. */
const PROPER_ANCESTORS: Array<[number, number, number, number]> = [
  [C.endocrine.concept_id, C.diabetes.concept_id, 1, 1],
  [C.endocrine.concept_id, C.type2.concept_id, 2, 2],
  [C.endocrine.concept_id, C.type1.concept_id, 2, 2],
  [C.diabetes.concept_id, C.type2.concept_id, 1, 1],
  [C.diabetes.concept_id, C.type1.concept_id, 1, 1],
  [C.biguanides.concept_id, C.metformin.concept_id, 1, 1],
  [C.evaluation.concept_id, C.officeVisit.concept_id, 1, 1],
];

export const ANCESTORS: Array<[number, number, number, number]> = [
  ...PROPER_ANCESTORS,
  ...Object.values(C).map((c): [number, number, number, number] => [c.concept_id, c.concept_id, 0, 0]),
];

/** Whether `ancestor` is a proper ancestor of `descendant` in the fixture. */
export function isProperAncestor(ancestor: number, descendant: number): boolean {
  return ancestor !== descendant && ANCESTORS.some(([a, d]) => a === ancestor && d === descendant);
}

export function writeValueSetClosureFixture(): string {
  return writeAthenaFixture({
    concepts: Object.values(C),
    ancestors: ANCESTORS,
    vocabularies: [
      ['SNOMED', 'Systematic Nomenclature of Medicine - Clinical Terms (IHTSDO)'],
      ['RxNorm', 'RxNorm (NLM)'],
      ['ATC', 'WHO Anatomic Therapeutic Chemical Classification'],
      ['CPT4', 'Current Procedural Terminology version 4 (AMA)'],
      ['CMS Place of Service', 'Place of Service Codes for Professional Claims (CMS)'],
      // In VOCABULARY but without a concept in this release.
      ['LOINC', 'Logical Observation Identifiers Names and Codes (Regenstrief Institute)'],
    ],
  });
}
