/** A tiny vocabulary for the server-core tests: codes with dots/slashes/spaces, licensed vocabularies. */
import { writeAthenaFixture } from '../helpers/athena-fixture.js';

export function writeCoreFixture(releaseVersion = 'v5.0 27-AUG-25'): string {
  return writeAthenaFixture({
    releaseVersion,
    concepts: [
      { concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', concept_code: '44054006' },
      { concept_id: 201820, concept_name: 'Diabetes mellitus', concept_code: '73211009' },
      {
        concept_id: 35206882,
        concept_name: 'Type 2 diabetes mellitus without complications',
        vocabulary_id: 'ICD10CM',
        concept_class_id: '4-char billing code',
        standard_concept: null,
        concept_code: 'E11.9',
      },
      { concept_id: 7000001, concept_name: 'Code with a slash', vocabulary_id: 'TESTVOC', standard_concept: null, concept_code: 'A/B 12' },
      { concept_id: 2414397, concept_name: 'Office or other outpatient visit', domain_id: 'Observation', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: '99213' },
      { concept_id: 7000002, concept_name: 'A GPI drug group', domain_id: 'Drug', vocabulary_id: 'GPI', standard_concept: null, concept_code: '27250050' },
      { concept_id: 7000003, concept_name: 'A MedDRA term', vocabulary_id: 'MedDRA', standard_concept: null, concept_code: '10012601' },
      { concept_id: 7000004, concept_name: 'Old deprecated finding', concept_code: '999001', invalid_reason: 'D', standard_concept: null, valid_end_date: '20200101' },
    ],
    relationships: [
      { concept_id_1: 35206882, concept_id_2: 201826, relationship_id: 'Maps to' },
      { concept_id_1: 201826, concept_id_2: 35206882, relationship_id: 'Mapped from' },
      { concept_id_1: 201826, concept_id_2: 201820, relationship_id: 'Is a' },
      { concept_id_1: 201820, concept_id_2: 201826, relationship_id: 'Subsumes' },
    ],
    ancestors: [
      [201820, 201820, 0, 0],
      [201826, 201826, 0, 0],
      [201820, 201826, 1, 1],
    ],
    synonyms: [[201826, 'Type II diabetes mellitus']],
  });
}
