/**
 * The two releases of the CodeSystem/$diff tests (issue #14): 2024.2 (20240716) and 2025.2
 * (20250827), with concepts of each change type: renamed (R1), re-domained (D1), deprecated (X1),
 * reinstated (I1), remapped (ICD10CM E1, whose `Maps to` target changes, and gains a CPT4 target),
 * added (A1), one code with three changes (M1: deprecated, renamed, re-domained), unchanged ones
 * (U1, CPT4 99213), a renamed CPT4 concept (99214, licensed: Authentication 5), and two codes whose
 * order differs between UTF-8 bytes (SQLite) and UTF-16 units (JS `<`): 'Ｚ1' (U+FF3A, added) sorts
 * before '😀1' (U+1F600, unchanged) in the store.
 */
import { writeAthenaFixture, type FixtureConcept } from '../helpers/athena-fixture.js';
import { CLASSES, DOMAINS, VOCABULARIES } from './codesystem-fixture.js';

export const base = (id: number, name: string, code: string, extra: Partial<FixtureConcept> = {}): FixtureConcept => ({
  concept_id: id,
  concept_name: name,
  domain_id: 'Condition',
  vocabulary_id: 'SNOMED',
  concept_class_id: 'Clinical Finding',
  standard_concept: 'S',
  concept_code: code,
  ...extra,
});
export const icdSource = base(1005, 'Source code', 'E1', { vocabulary_id: 'ICD10CM', concept_class_id: '5-char billing code', standard_concept: null });
export const cpt = base(1008, 'A procedure', '99213', { vocabulary_id: 'CPT4', concept_class_id: 'CPT4', domain_id: 'Procedure' });
const cptRenamed = (name: string) => base(1012, name, '99214', { vocabulary_id: 'CPT4', concept_class_id: 'CPT4', domain_id: 'Procedure' });

export const BEFORE_CONCEPTS: FixtureConcept[] = [
  base(1001, 'Name before', 'R1'),
  base(1002, 'Moves domain', 'D1'),
  base(1003, 'Goes away', 'X1'),
  base(1004, 'Comes back', 'I1', { invalid_reason: 'D', standard_concept: null }),
  icdSource,
  base(1006, 'Unchanged', 'U1'),
  cpt,
  base(1009, 'Several before', 'M1'),
  base(1011, 'Beyond the BMP', '😀1'),
  cptRenamed('Procedure before'),
];

export const AFTER_CONCEPTS: FixtureConcept[] = [
  base(1001, 'Name after', 'R1'),
  base(1002, 'Moves domain', 'D1', { domain_id: 'Observation' }),
  base(1003, 'Goes away', 'X1', { invalid_reason: 'D', standard_concept: null }),
  base(1004, 'Comes back', 'I1'),
  icdSource,
  base(1006, 'Unchanged', 'U1'),
  base(1007, 'New concept', 'A1'),
  cpt,
  base(1009, 'Several after', 'M1', { domain_id: 'Observation', invalid_reason: 'U', standard_concept: null }),
  base(1010, 'Fullwidth letter', 'Ｚ1'),
  base(1011, 'Beyond the BMP', '😀1'),
  cptRenamed('Procedure after'),
];

/** `mapsTo`: 1005's standard target; `alsoMapsTo`: a second one (a CPT4 procedure in the later release). */
function release(releaseVersion: string, concepts: FixtureConcept[], mapsTo: number, alsoMapsTo?: number): string {
  return writeAthenaFixture({
    releaseVersion,
    vocabularies: VOCABULARIES.map(([id, name]) => [id, name, `${id} test`] as [string, string, string]),
    domains: DOMAINS,
    conceptClasses: CLASSES,
    concepts,
    relationships: [
      { concept_id_1: 1005, concept_id_2: mapsTo, relationship_id: 'Maps to' },
      { concept_id_1: mapsTo, concept_id_2: 1005, relationship_id: 'Mapped from' },
      ...(alsoMapsTo ? [{ concept_id_1: 1005, concept_id_2: alsoMapsTo, relationship_id: 'Maps to' }] : []),
    ],
  });
}

/** The two releases' source directories and labels (2025.2 the default). */
export function diffReleases(): Array<{ dir: string; label: string; makeDefault?: boolean }> {
  return [
    { dir: release('v5.0 16-JUL-24', BEFORE_CONCEPTS, 1001), label: '2024.2' },
    { dir: release('v5.0 27-AUG-25', AFTER_CONCEPTS, 1002, cpt.concept_id), label: '2025.2', makeDefault: true },
  ];
}
