/**
 * A small release for the metadata tests: licensed vocabularies (CPT4, GPI, MedDRA), a domain and a
 * concept class listed in DOMAIN/CONCEPT_CLASS without any concept, invalid and classification
 * concepts, and a class missing from CONCEPT_CLASS.
 */
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR } from './concept-file.js';

/**
 * The server every metadata test file starts: the demo (default, 2025.2), eunomia-gibleed-2019
 * (2019.1) and the metadata fixture written at `fixtureDir` (2025.1), with a CPT4-validated key.
 */
export async function startMetadataServer(fixtureDir: string): Promise<{ t: TestServer; cpt4Key: string }> {
  const t = await startTestServer({
    releases: [
      { dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true },
      { dir: EUNOMIA_GIBLEED_DIR, label: '2019.1' },
      { dir: fixtureDir, label: '2025.1' },
    ],
  });
  return { t, cpt4Key: await t.createKey({ cpt4_validated_until: '2999-12-31' }) };
}

export function writeMetadataFixture(): string {
  return writeAthenaFixture({
    concepts: [
      { concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', valid_start_date: '20020131' },
      { concept_id: 201820, concept_name: 'Diabetes mellitus', valid_start_date: '19700101' },
      { concept_id: 4000001, concept_name: 'Old deprecated finding', invalid_reason: 'D', standard_concept: null, valid_end_date: '20200101' },
      { concept_id: 4000002, concept_name: 'Endocrine disorders grouper', standard_concept: 'C', concept_class_id: 'Navi Concept' },
      { concept_id: 35206882, concept_name: 'Type 2 diabetes mellitus without complications', vocabulary_id: 'ICD10CM', concept_class_id: '4-char billing code', standard_concept: null, concept_code: 'E11.9', valid_start_date: '20151001' },
      { concept_id: 1503297, concept_name: 'metformin', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Ingredient', concept_code: '6809', valid_start_date: '19700101' },
      { concept_id: 1503298, concept_name: 'metformin 500 MG Oral Tablet', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Clinical Drug', concept_code: '861007', valid_start_date: '20050101' },
      { concept_id: 1503299, concept_name: 'metformin 850 MG Oral Tablet (replaced)', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Clinical Drug', concept_code: '861008', standard_concept: null, invalid_reason: 'U', valid_start_date: '20050101', valid_end_date: '20190101' },
      { concept_id: 2414397, concept_name: 'Office or other outpatient visit', domain_id: 'Observation', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: '99213', valid_start_date: '20240101' },
      { concept_id: 2414398, concept_name: 'A licensed drug administration', domain_id: 'Drug', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: '96372' },
      { concept_id: 7000002, concept_name: 'A GPI drug group', domain_id: 'Drug', vocabulary_id: 'GPI', concept_class_id: 'GPI', standard_concept: null, concept_code: '27250050' },
      { concept_id: 7000003, concept_name: 'A MedDRA term', vocabulary_id: 'MedDRA', concept_class_id: 'PT', standard_concept: null, concept_code: '10012601' },
      { concept_id: 8000001, concept_name: 'A test-only unit', domain_id: 'Lab Unit', vocabulary_id: 'TESTVOC', concept_class_id: 'Unlisted Class', concept_code: 'u1' },
    ],
    vocabularies: [
      ['SNOMED', 'Systematic Nomenclature of Medicine - Clinical Terms (IHTSDO)', '2025-01-31 SNOMED CT'],
      ['ICD10CM', 'International Classification of Diseases, Tenth Revision, Clinical Modification (NCHS)', 'ICD10CM FY2025'],
      ['RxNorm', 'RxNorm (NLM)', 'RxNorm 20250101'],
      ['RxNorm Extension', 'OMOP RxNorm Extension', 'RxNorm Extension 2025-01-01'],
      ['CPT4', 'Current Procedural Terminology version 4 (AMA)', '2025 Release'],
      ['GPI', 'Medi-Span Generic Product Identifier', '2025'],
      ['MedDRA', 'Medical Dictionary for Regulatory Activities (MSSO)', '27.0'],
      ['TESTVOC', 'A test vocabulary', '1'],
    ],
    // 'Specimen' and 'Device' are listed without any concept; 'Lab Unit' has a concept but is not listed.
    domains: ['Condition', 'Drug', 'Observation', 'Specimen', 'Device'],
    // 'Unlisted Class' is used by a concept but missing here; 'Model Comp' has no concept.
    conceptClasses: ['Clinical Finding', 'Navi Concept', '4-char billing code', 'Ingredient', 'Clinical Drug', 'CPT4', 'GPI', 'PT', 'Model Comp'],
  });
}
