/**
 * A small vocabulary for the mapping tests: an ICD10CM code mapped to SNOMED, CPT4, GPI and MedDRA
 * targets, an invalid mapping row and an invalid target, licensed sources, and a SNOMED concept
 * 'Mapped from' enough codes to page through.
 */
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { DEMO_DIR, readAthenaFiles, type AthenaFiles } from './mapping-athena-files.js';

/** Release label of the licence fixture on the server of startMappingServer (the demo is 2025.1, the default). */
export const FIXTURE = '2025.2';

/** A server with the demo (default) and this fixture, and both releases' files as parsed by the tests. */
export async function startMappingServer(): Promise<{ t: TestServer; demo: AthenaFiles; fixture: AthenaFiles }> {
  const fixtureDir = writeMappingLicenceFixture();
  const t = await startTestServer({ releases: [{ dir: DEMO_DIR, label: '2025.1', makeDefault: true }, { dir: fixtureDir, label: FIXTURE }] });
  return { t, demo: readAthenaFiles(DEMO_DIR), fixture: readAthenaFiles(fixtureDir) };
}

export const ICD_SOURCE = 9000001;
export const SNOMED_TARGET = 9000010;
export const CPT4_TARGET = 9000011;
export const GPI_TARGET = 9000012;
export const MEDDRA_TARGET = 9000015;
export const SNOMED_INVALID_ROW_TARGET = 9000013;
export const SNOMED_INVALID_TARGET = 9000014;
export const CPT4_SOURCE = 9000020;
export const GPI_SOURCE = 9000030;
export const ICD9_SOURCES = [9000040, 9000041, 9000042, 9000043, 9000044];

export function writeMappingLicenceFixture(): string {
  const concepts: FixtureConcept[] = [
    { concept_id: ICD_SOURCE, concept_name: 'Cholera', vocabulary_id: 'ICD10CM', concept_class_id: '3-char nonbill code', standard_concept: null, concept_code: 'A00' },
    { concept_id: SNOMED_TARGET, concept_name: 'Cholera (disorder)', concept_code: '63650001' },
    { concept_id: CPT4_TARGET, concept_name: 'Cholera test', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: '87999' },
    { concept_id: GPI_TARGET, concept_name: 'Cholera vaccine group', domain_id: 'Drug', vocabulary_id: 'GPI', concept_code: '17100010' },
    { concept_id: MEDDRA_TARGET, concept_name: 'Cholera (MedDRA)', vocabulary_id: 'MedDRA', standard_concept: null, concept_code: '10008631' },
    { concept_id: SNOMED_INVALID_ROW_TARGET, concept_name: 'Classical cholera', concept_code: '240349003' },
    {
      concept_id: SNOMED_INVALID_TARGET,
      concept_name: 'Old cholera finding',
      concept_code: '999002',
      standard_concept: null,
      invalid_reason: 'D',
      valid_end_date: '20200101',
    },
    { concept_id: CPT4_SOURCE, concept_name: 'Cholera culture', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', standard_concept: null, concept_code: '87998' },
    { concept_id: GPI_SOURCE, concept_name: 'Cholera agents', domain_id: 'Drug', vocabulary_id: 'GPI', standard_concept: null, concept_code: '17100020' },
    ...ICD9_SOURCES.map((id, i) => ({
      concept_id: id,
      concept_name: `Cholera variant ${i}`,
      vocabulary_id: 'ICD9CM',
      concept_class_id: '4-dig nonbill code',
      standard_concept: null,
      concept_code: `001.${i}`,
    })),
  ];
  const mapsTo = (from: number, to: number, invalid_reason: 'D' | null = null): FixtureRelationship[] => [
    { concept_id_1: from, concept_id_2: to, relationship_id: 'Maps to', invalid_reason },
    { concept_id_1: to, concept_id_2: from, relationship_id: 'Mapped from', invalid_reason },
  ];
  return writeAthenaFixture({
    concepts,
    relationships: [
      ...mapsTo(ICD_SOURCE, SNOMED_TARGET),
      ...mapsTo(ICD_SOURCE, CPT4_TARGET),
      ...mapsTo(ICD_SOURCE, GPI_TARGET),
      ...mapsTo(ICD_SOURCE, MEDDRA_TARGET),
      ...mapsTo(ICD_SOURCE, SNOMED_INVALID_ROW_TARGET, 'D'),
      ...mapsTo(ICD_SOURCE, SNOMED_INVALID_TARGET),
      ...mapsTo(CPT4_SOURCE, SNOMED_TARGET),
      ...mapsTo(GPI_SOURCE, SNOMED_TARGET),
      ...ICD9_SOURCES.flatMap((id) => mapsTo(id, SNOMED_TARGET)),
      // Athena's row from every standard concept to itself.
      ...[SNOMED_TARGET, CPT4_TARGET, GPI_TARGET, SNOMED_INVALID_ROW_TARGET].map((id) => ({ concept_id_1: id, concept_id_2: id, relationship_id: 'Maps to' })),
    ],
    ancestors: [
      [SNOMED_TARGET, SNOMED_TARGET, 0, 0],
      [SNOMED_TARGET, SNOMED_INVALID_ROW_TARGET, 1, 1],
      [SNOMED_TARGET, CPT4_TARGET, 1, 1],
    ],
  });
}
