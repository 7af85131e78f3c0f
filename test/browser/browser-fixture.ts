/**
 * The vocabulary the real-browser tests browse, as two releases that differ: a small SNOMED hierarchy around diabetes
 * (root → Diabetes mellitus → Type 2 → two children), ICD10CM codes that map to it, a CPT4 concept (licensed: a key
 * without CPT4 validation must never see it), and a concept whose name is markup (it must show as text).
 * Release 2025.2 (the default) adds a child, deprecates one concept and renames another.
 */
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship } from '../helpers/athena-fixture.js';

export const IDS = {
  root: 4000001,
  diabetes: 201820,
  type2: 201826,
  type2Renal: 4000002,
  type2Eye: 4000003,
  /** Only in 2025.2. */
  type2Foot: 4000004,
  markup: 4000005,
  icd10Type2: 35206882,
  icd10Markup: 35206883,
  cpt4: 2414397,
  /** Valid in 2025.1, deprecated in 2025.2. */
  deprecatedLater: 4000006,
} as const;

/** The concept whose name is markup: shown as text, never as a <b> element. */
export const MARKUP_NAME = '<b>bold</b> & "q"';
export const CPT4_NAME = 'Office or other outpatient visit';
export const CPT4_CODE = '99213';
/** The name of IDS.type2Eye in 2025.1 and in 2025.2. */
export const RENAMED = { before: 'Type 2 diabetes mellitus with eye disease', after: 'Type 2 diabetes mellitus with ophthalmic complication' };

export function writeBrowserFixture(release: '2025.1' | '2025.2'): string {
  const later = release === '2025.2';
  const concepts: FixtureConcept[] = [
    { concept_id: IDS.root, concept_name: 'Clinical finding', concept_code: '404684003', concept_class_id: 'Clinical Finding' },
    { concept_id: IDS.diabetes, concept_name: 'Diabetes mellitus', concept_code: '73211009' },
    { concept_id: IDS.type2, concept_name: 'Type 2 diabetes mellitus', concept_code: '44054006' },
    { concept_id: IDS.type2Renal, concept_name: 'Type 2 diabetes mellitus with renal complication', concept_code: '313435000' },
    { concept_id: IDS.type2Eye, concept_name: later ? RENAMED.after : RENAMED.before, concept_code: '422034002' },
    { concept_id: IDS.markup, concept_name: MARKUP_NAME, concept_code: 'MARKUP1' },
    {
      concept_id: IDS.icd10Type2,
      concept_name: 'Type 2 diabetes mellitus without complications',
      vocabulary_id: 'ICD10CM',
      concept_class_id: '4-char billing code',
      standard_concept: null,
      concept_code: 'E11.9',
    },
    {
      concept_id: IDS.icd10Markup,
      concept_name: 'Source code for the markup concept',
      vocabulary_id: 'ICD10CM',
      concept_class_id: '4-char billing code',
      standard_concept: null,
      concept_code: 'E11.8',
    },
    { concept_id: IDS.cpt4, concept_name: CPT4_NAME, domain_id: 'Observation', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: CPT4_CODE },
    later
      ? { concept_id: IDS.deprecatedLater, concept_name: 'Diabetic finding, old style', concept_code: '999002', standard_concept: null, invalid_reason: 'D', valid_end_date: '20250601' }
      : { concept_id: IDS.deprecatedLater, concept_name: 'Diabetic finding, old style', concept_code: '999002' },
  ];
  if (later) concepts.push({ concept_id: IDS.type2Foot, concept_name: 'Type 2 diabetes mellitus with foot ulcer', concept_code: '1255001000' });

  const isA = (child: number, parent: number): FixtureRelationship[] => [
    { concept_id_1: child, concept_id_2: parent, relationship_id: 'Is a' },
    { concept_id_1: parent, concept_id_2: child, relationship_id: 'Subsumes' },
  ];
  const mapsTo = (source: number, target: number): FixtureRelationship[] => [
    { concept_id_1: source, concept_id_2: target, relationship_id: 'Maps to' },
    { concept_id_1: target, concept_id_2: source, relationship_id: 'Mapped from' },
  ];
  const children = [IDS.type2Renal, IDS.type2Eye, IDS.markup, ...(later ? [IDS.type2Foot] : [])];
  const relationships = [
    ...isA(IDS.diabetes, IDS.root),
    ...isA(IDS.type2, IDS.diabetes),
    ...children.flatMap((c) => isA(c, IDS.type2)),
    ...(later ? [] : isA(IDS.deprecatedLater, IDS.diabetes)),
    ...mapsTo(IDS.icd10Type2, IDS.type2),
    ...mapsTo(IDS.icd10Markup, IDS.markup),
    // The CPT4 concept is related to the hierarchy, so pages that list relatives must hide it from unlicensed keys.
    { concept_id_1: IDS.cpt4, concept_id_2: IDS.type2, relationship_id: 'Maps to' },
    { concept_id_1: IDS.type2, concept_id_2: IDS.cpt4, relationship_id: 'Mapped from' },
  ];

  // CONCEPT_ANCESTOR: every standard concept with itself and its ancestors, with the levels between.
  const parents = new Map<number, number>([[IDS.diabetes, IDS.root], [IDS.type2, IDS.diabetes], ...children.map((c): [number, number] => [c, IDS.type2])]);
  if (!later) parents.set(IDS.deprecatedLater, IDS.diabetes);
  const ancestors: Array<[number, number, number, number]> = [];
  for (const id of [IDS.root, ...parents.keys()]) {
    let level = 0;
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at), level++) ancestors.push([at, id, level, level]);
  }

  return writeAthenaFixture({
    releaseVersion: later ? 'v5.0 30-NOV-25' : 'v5.0 31-MAY-25',
    concepts,
    relationships,
    ancestors,
    synonyms: [
      [IDS.type2, 'Type II diabetes mellitus'],
      [IDS.markup, 'Markup <i>synonym</i>'],
    ],
  });
}
