/**
 * A small Athena vocabulary for the resolver's acceptance tests (spec E7): one concept per case
 * the rules distinguish — a standard SNOMED condition with parents, children and a sibling (for
 * recommendations); non-standard codes with one `Maps to`, with `Maps to` + `Maps to value` (the
 * real 4222295 → 439224 + 1728416 shape), with a one-to-many `Maps to` into two domains, with no
 * `Maps to` at all; an updated ('U') concept mapped to its replacement; two 11-digit NDC codes
 * mapped to RxNorm drugs; a CVX vaccine; a LOINC lab test; CPT4 (also as the `Maps to` target of
 * a SNOMED code), GPI and MedDRA concepts; and concept 0. Tests take their expected values from
 * these definitions, never from the server. Also what every resolver test file checks alike: the
 * CDM table of a domain (fhir-and-omop-notes.md §5) and the REST error envelope.
 */
import { expect } from 'vitest';
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship } from '../helpers/athena-fixture.js';

/** The concepts the tests name, by role. */
export const C = {
  noMatchingConcept: { concept_id: 0, concept_name: 'No matching concept', domain_id: 'Metadata', vocabulary_id: 'None', concept_class_id: 'Undefined', standard_concept: null, concept_code: 'No matching concept' },
  diabetesMellitus: { concept_id: 201820, concept_name: 'Diabetes mellitus', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', standard_concept: 'S', concept_code: '73211009' },
  t2dm: { concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', standard_concept: 'S', concept_code: '44054006' },
  t1dm: { concept_id: 201254, concept_name: 'Type 1 diabetes mellitus', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', standard_concept: 'S', concept_code: '46635009' },
  t2dmNoComplication: { concept_id: 4193704, concept_name: 'Type 2 diabetes mellitus without complication', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', standard_concept: 'S', concept_code: '313436004' },
  diabeticRetinopathy: { concept_id: 443238, concept_name: 'Diabetic retinopathy due to type 2 diabetes mellitus', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', standard_concept: 'S', concept_code: '422034002' },
  /** ICD10CM, non-standard, one `Maps to` (t2dm). */
  e119: { concept_id: 35206882, concept_name: 'Type 2 diabetes mellitus without complications', domain_id: 'Condition', vocabulary_id: 'ICD10CM', concept_class_id: '4-char billing code', standard_concept: null, concept_code: 'E11.9' },
  /** SNOMED, non-standard: `Maps to` allergyToDrug + `Maps to value` penicillinG. */
  allergyToPenicillin: { concept_id: 4222295, concept_name: 'Allergy to penicillin', domain_id: 'Observation', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', standard_concept: null, concept_code: '294499007' },
  allergyToDrug: { concept_id: 439224, concept_name: 'Allergy to drug', domain_id: 'Observation', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', standard_concept: 'S', concept_code: '416098002' },
  penicillinG: { concept_id: 1728416, concept_name: 'Penicillin G', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Ingredient', standard_concept: 'S', concept_code: '7980' },
  /** ICD10CM, non-standard, one-to-many `Maps to`: routineAntenatalCare (Procedure) + primigravida (Condition). */
  z3400: { concept_id: 45548980, concept_name: 'Encounter for supervision of normal first pregnancy, unspecified trimester', domain_id: 'Condition', vocabulary_id: 'ICD10CM', concept_class_id: '6-char billing code', standard_concept: null, concept_code: 'Z34.00' },
  routineAntenatalCare: { concept_id: 4047564, concept_name: 'Routine antenatal care', domain_id: 'Procedure', vocabulary_id: 'SNOMED', concept_class_id: 'Procedure', standard_concept: 'S', concept_code: '169587007' },
  primigravida: { concept_id: 4060254, concept_name: 'Primigravida', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', standard_concept: 'S', concept_code: '127364007' },
  /** ICD10CM, non-standard, no `Maps to` (rule 4); its own domain is Observation. */
  z9989: { concept_id: 45556996, concept_name: 'Dependence on other enabling machines and devices', domain_id: 'Observation', vocabulary_id: 'ICD10CM', concept_class_id: '6-char billing code', standard_concept: null, concept_code: 'Z99.89' },
  /** SNOMED, updated ('U'): `Concept replaced by` + `Maps to` prediabetes. */
  prediabetesOld: { concept_id: 40316773, concept_name: 'Prediabetes', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', standard_concept: null, concept_code: '9414007', invalid_reason: 'U', valid_end_date: '20170131' },
  prediabetes: { concept_id: 37018196, concept_name: 'Prediabetes', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', standard_concept: 'S', concept_code: '714628002' },
  /** NDC 0093-1048-01 (4-4-2 on the package) = 00093104801, maps to metformin500. */
  ndcMetformin: { concept_id: 45159330, concept_name: 'Metformin hydrochloride 500 MG Oral Tablet', domain_id: 'Drug', vocabulary_id: 'NDC', concept_class_id: '11-digit NDC', standard_concept: null, concept_code: '00093104801' },
  metformin500: { concept_id: 40163924, concept_name: 'metformin hydrochloride 500 MG Oral Tablet', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Clinical Drug', standard_concept: 'S', concept_code: '861007' },
  /** NDC 50580-496-60 (5-3-2 on the package) = 50580049660, maps to tylenol325. */
  ndcTylenol: { concept_id: 45180384, concept_name: 'Tylenol 325 MG Oral Tablet', domain_id: 'Drug', vocabulary_id: 'NDC', concept_class_id: '11-digit NDC', standard_concept: null, concept_code: '50580049660' },
  tylenol325: { concept_id: 19041324, concept_name: 'acetaminophen 325 MG Oral Tablet [Tylenol]', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Branded Drug', standard_concept: 'S', concept_code: '209387' },
  cvx140: { concept_id: 40213154, concept_name: 'influenza, seasonal, injectable, preservative free', domain_id: 'Drug', vocabulary_id: 'CVX', concept_class_id: 'CVX', standard_concept: 'S', concept_code: '140' },
  glucoseInBlood: { concept_id: 3000483, concept_name: 'Glucose [Mass/volume] in Blood', domain_id: 'Measurement', vocabulary_id: 'LOINC', concept_class_id: 'Lab Test', standard_concept: 'S', concept_code: '2339-0' },
  cpt4Visit: { concept_id: 2414397, concept_name: 'Office or other outpatient visit for the evaluation and management of an established patient', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', standard_concept: 'S', concept_code: '99213' },
  /** SNOMED, non-standard, `Maps to` the CPT4 concept (a licensed target behind a free source). */
  officeVisitOld: { concept_id: 7000010, concept_name: 'Office visit for established patient', domain_id: 'Procedure', vocabulary_id: 'SNOMED', concept_class_id: 'Procedure', standard_concept: null, concept_code: '185463005' },
  gpiDrug: { concept_id: 7000002, concept_name: 'Metformin hydrochloride GPI group', domain_id: 'Drug', vocabulary_id: 'GPI', concept_class_id: 'GPI', standard_concept: null, concept_code: '27250050' },
  meddraHeadache: { concept_id: 7000003, concept_name: 'Headache', domain_id: 'Condition', vocabulary_id: 'MedDRA', concept_class_id: 'PT', standard_concept: null, concept_code: '10019211' },
} as const satisfies Record<string, FixtureConcept & { concept_code: string }>;

export type FixtureConceptName = keyof typeof C;

/** The seven fields of a ResolvedConcept (client contract §1.6) of a fixture concept. */
export function brief(c: (typeof C)[FixtureConceptName]) {
  return {
    concept_id: c.concept_id,
    concept_name: c.concept_name,
    concept_code: c.concept_code,
    vocabulary_id: c.vocabulary_id,
    domain_id: c.domain_id,
    concept_class_id: c.concept_class_id,
    standard_concept: c.standard_concept,
  };
}

const pair = (from: number, to: number, forward: string, reverse: string): FixtureRelationship[] => [
  { concept_id_1: from, concept_id_2: to, relationship_id: forward },
  { concept_id_1: to, concept_id_2: from, relationship_id: reverse },
];
const isA = (child: number, parent: number) => pair(child, parent, 'Is a', 'Subsumes');
const mapsTo = (source: number, target: number) => pair(source, target, 'Maps to', 'Mapped from');

const STANDARD_IDS = Object.values(C)
  .filter((c) => c.standard_concept === 'S')
  .map((c) => c.concept_id);

export const RESOLVER_RELATIONSHIPS: FixtureRelationship[] = [
  // every standard concept maps to itself, as in Athena
  ...STANDARD_IDS.map((id) => ({ concept_id_1: id, concept_id_2: id, relationship_id: 'Maps to' })),
  ...STANDARD_IDS.map((id) => ({ concept_id_1: id, concept_id_2: id, relationship_id: 'Mapped from' })),
  ...isA(C.t2dm.concept_id, C.diabetesMellitus.concept_id),
  ...isA(C.t1dm.concept_id, C.diabetesMellitus.concept_id),
  ...isA(C.t2dmNoComplication.concept_id, C.t2dm.concept_id),
  ...isA(C.diabeticRetinopathy.concept_id, C.t2dm.concept_id),
  ...isA(C.prediabetes.concept_id, C.diabetesMellitus.concept_id),
  ...mapsTo(C.e119.concept_id, C.t2dm.concept_id),
  ...mapsTo(C.allergyToPenicillin.concept_id, C.allergyToDrug.concept_id),
  ...pair(C.allergyToPenicillin.concept_id, C.penicillinG.concept_id, 'Maps to value', 'Value mapped from'),
  ...mapsTo(C.z3400.concept_id, C.routineAntenatalCare.concept_id),
  ...mapsTo(C.z3400.concept_id, C.primigravida.concept_id),
  ...pair(C.prediabetesOld.concept_id, C.prediabetes.concept_id, 'Concept replaced by', 'Concept replaces'),
  ...mapsTo(C.prediabetesOld.concept_id, C.prediabetes.concept_id),
  ...mapsTo(C.ndcMetformin.concept_id, C.metformin500.concept_id),
  ...mapsTo(C.ndcTylenol.concept_id, C.tylenol325.concept_id),
  ...mapsTo(C.officeVisitOld.concept_id, C.cpt4Visit.concept_id),
];

/**
 * Writes the fixture; `withConceptZero: false` leaves concept 0 out (a release without it still
 * answers the sentinel, spelled out by the resolver).
 */
export function writeResolverFixture(options: { withConceptZero?: boolean } = {}): string {
  const concepts = Object.values(C).filter((c) => options.withConceptZero !== false || c.concept_id !== 0);
  return writeAthenaFixture({
    concepts: concepts.map((c) => ({ ...c })),
    relationships: RESOLVER_RELATIONSHIPS,
    ancestors: [
      ...STANDARD_IDS.map((id): [number, number, number, number] => [id, id, 0, 0]),
      [C.diabetesMellitus.concept_id, C.t2dm.concept_id, 1, 1],
      [C.diabetesMellitus.concept_id, C.t1dm.concept_id, 1, 1],
      [C.diabetesMellitus.concept_id, C.prediabetes.concept_id, 1, 1],
      [C.diabetesMellitus.concept_id, C.t2dmNoComplication.concept_id, 2, 2],
      [C.diabetesMellitus.concept_id, C.diabeticRetinopathy.concept_id, 2, 2],
      [C.t2dm.concept_id, C.t2dmNoComplication.concept_id, 1, 1],
      [C.t2dm.concept_id, C.diabeticRetinopathy.concept_id, 1, 1],
    ],
    synonyms: [
      [C.t2dm.concept_id, 'Type II diabetes mellitus'],
      [C.allergyToDrug.concept_id, 'Drug allergy'],
    ],
    relationshipTypes: [
      ['Maps to', 'Non-standard to Standard map (OMOP)', '0', '0', 'Mapped from'],
      ['Mapped from', 'Standard to Non-standard map (OMOP)', '0', '0', 'Maps to'],
      ['Maps to value', 'Non-standard to value map (OMOP)', '0', '0', 'Value mapped from'],
      ['Value mapped from', 'Value to Non-standard map (OMOP)', '0', '0', 'Maps to value'],
      ['Concept replaced by', 'Concept replaced by (LOINC)', '0', '0', 'Concept replaces'],
      ['Concept replaces', 'Concept replaces (LOINC)', '0', '0', 'Concept replaced by'],
      ['Is a', 'Is a', '0', '0', 'Subsumes'],
      ['Subsumes', 'Subsumes', '1', '1', 'Is a'],
    ],
  });
}

/** CDM table of a standard concept's domain (fhir-and-omop-notes.md §5), for the domains the fixtures use. */
export const CDM_TABLE_OF_DOMAIN: Record<string, string> = {
  Condition: 'condition_occurrence',
  Drug: 'drug_exposure',
  Procedure: 'procedure_occurrence',
  Measurement: 'measurement',
  Observation: 'observation',
  Device: 'device_exposure',
  Visit: 'visit_occurrence',
  Gender: 'person',
  Race: 'person',
  Ethnicity: 'person',
};

/**
 * An error answer in the REST envelope (Errors rule 1; preamble): status, code, a message that
 * matches, X-Request-Id equal to meta.request_id and the X-RateLimit-* headers.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function expectEnvelopeError(r: { status: number; body: any; headers: Record<string, unknown> }, status: number, code: string, messagePart?: RegExp) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body).toMatchObject({ success: false, error: { code } });
  expect(typeof r.body.error.message).toBe('string');
  if (messagePart) expect(r.body.error.message).toMatch(messagePart);
  expect(r.body.meta.request_id).toBeTruthy();
  expect(r.headers['x-request-id']).toBe(r.body.meta.request_id);
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(r.headers[h], h).toBeDefined();
}
