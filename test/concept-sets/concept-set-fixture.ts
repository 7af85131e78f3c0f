/**
 * A hand-built release for the concept-set rules: a small SNOMED hierarchy with an invalid child, a descendant missing
 * from CONCEPT and one of a licensed vocabulary, ICD10CM sources mapping into it (one through an invalid row), a
 * target the hierarchy itself maps to, and a CPT4 item.
 */
import type { FixtureVocabulary } from '../helpers/athena-fixture.js';

export const ROOT = 100; // SNOMED, standard
export const CHILD = 101; // valid child of ROOT
export const INVALID_CHILD = 102; // deprecated child of ROOT
export const GRANDCHILD = 103; // valid child of CHILD
export const CPT4_CHILD = 104; // a valid CPT4 descendant of ROOT (hidden from unvalidated keys)
export const MISSING_DESCENDANT = 999; // in CONCEPT_ANCESTOR only
export const SOURCE_OF_CHILD = 200; // ICD10CM 'Maps to' CHILD
export const SOURCE_OF_ROOT = 201; // ICD10CM 'Maps to' ROOT
export const INVALID_ROW_SOURCE = 202; // ICD10CM 'Maps to' ROOT through an invalid row
export const SOURCE_OF_GRANDCHILD = 203; // ICD10CM 'Maps to' GRANDCHILD
export const SOURCE_OF_INVALID_CHILD = 204; // ICD10CM 'Maps to' INVALID_CHILD
export const TARGET_OF_CHILD = 300; // CHILD 'Maps to' it (the item's own target, never a mapped concept)
export const UPGRADED = 400; // invalid (U), standalone
export const CPT4_ROOT = 500; // CPT4, hidden from unvalidated keys
export const CPT4_LEAF = 501;

export const CONCEPT_SET_FIXTURE: FixtureVocabulary = {
  concepts: [
    { concept_id: ROOT, concept_name: 'Disorder of body system' },
    { concept_id: CHILD, concept_name: 'Diabetes mellitus' },
    { concept_id: INVALID_CHILD, concept_name: 'Old diabetes concept', standard_concept: null, invalid_reason: 'D', valid_end_date: '20200101' },
    { concept_id: GRANDCHILD, concept_name: 'Type 2 diabetes mellitus' },
    { concept_id: CPT4_CHILD, concept_name: 'Diabetes management', vocabulary_id: 'CPT4', domain_id: 'Procedure', concept_class_id: 'CPT4' },
    { concept_id: SOURCE_OF_CHILD, concept_name: 'Diabetes mellitus, ICD', vocabulary_id: 'ICD10CM', standard_concept: null, concept_class_id: '3-char nonbill code', concept_code: 'E08' },
    { concept_id: SOURCE_OF_ROOT, concept_name: 'Body system disorder, ICD', vocabulary_id: 'ICD10CM', standard_concept: null, concept_class_id: '3-char nonbill code', concept_code: 'E07' },
    { concept_id: INVALID_ROW_SOURCE, concept_name: 'Old mapping, ICD', vocabulary_id: 'ICD10CM', standard_concept: null, concept_class_id: '3-char nonbill code', concept_code: 'E06' },
    { concept_id: SOURCE_OF_GRANDCHILD, concept_name: 'Type 2 diabetes, ICD', vocabulary_id: 'ICD10CM', standard_concept: null, concept_class_id: '3-char billing code', concept_code: 'E11' },
    { concept_id: SOURCE_OF_INVALID_CHILD, concept_name: 'Old diabetes, ICD', vocabulary_id: 'ICD10CM', standard_concept: null, concept_class_id: '3-char billing code', concept_code: 'E05' },
    { concept_id: TARGET_OF_CHILD, concept_name: 'Metabolic finding', domain_id: 'Observation', concept_class_id: 'Observable Entity' },
    { concept_id: UPGRADED, concept_name: 'Upgraded concept', standard_concept: null, invalid_reason: 'U', valid_end_date: '20210101' },
    { concept_id: CPT4_ROOT, concept_name: 'Endocrine procedures', vocabulary_id: 'CPT4', domain_id: 'Procedure', concept_class_id: 'CPT4 Hierarchy', standard_concept: 'C' },
    { concept_id: CPT4_LEAF, concept_name: 'Glucose test', vocabulary_id: 'CPT4', domain_id: 'Procedure', concept_class_id: 'CPT4' },
  ],
  relationships: [
    { concept_id_1: ROOT, concept_id_2: ROOT, relationship_id: 'Maps to' },
    { concept_id_1: CHILD, concept_id_2: CHILD, relationship_id: 'Maps to' },
    { concept_id_1: GRANDCHILD, concept_id_2: GRANDCHILD, relationship_id: 'Maps to' },
    { concept_id_1: CHILD, concept_id_2: TARGET_OF_CHILD, relationship_id: 'Maps to' },
    { concept_id_1: SOURCE_OF_CHILD, concept_id_2: CHILD, relationship_id: 'Maps to' },
    { concept_id_1: SOURCE_OF_ROOT, concept_id_2: ROOT, relationship_id: 'Maps to' },
    { concept_id_1: INVALID_ROW_SOURCE, concept_id_2: ROOT, relationship_id: 'Maps to', invalid_reason: 'D' },
    { concept_id_1: SOURCE_OF_GRANDCHILD, concept_id_2: GRANDCHILD, relationship_id: 'Maps to' },
    { concept_id_1: SOURCE_OF_INVALID_CHILD, concept_id_2: INVALID_CHILD, relationship_id: 'Maps to' },
    { concept_id_1: CHILD, concept_id_2: ROOT, relationship_id: 'Is a' },
    { concept_id_1: ROOT, concept_id_2: CHILD, relationship_id: 'Subsumes' },
  ],
  ancestors: [
    [ROOT, ROOT, 0, 0],
    [CHILD, CHILD, 0, 0],
    [GRANDCHILD, GRANDCHILD, 0, 0],
    [ROOT, CHILD, 1, 1],
    [ROOT, INVALID_CHILD, 1, 1],
    [ROOT, GRANDCHILD, 2, 2],
    [ROOT, CPT4_CHILD, 1, 1],
    [ROOT, MISSING_DESCENDANT, 1, 1],
    [CHILD, GRANDCHILD, 1, 1],
    [CPT4_ROOT, CPT4_ROOT, 0, 0],
    [CPT4_ROOT, CPT4_LEAF, 1, 1],
  ],
};

export interface Item {
  id: number;
  ex?: boolean;
  desc?: boolean;
  mapped?: boolean;
}

/** An ATLAS JSON expression of these items. */
export function atlas(items: readonly Item[]) {
  return {
    items: items.map((i) => ({
      concept: { CONCEPT_ID: i.id, CONCEPT_NAME: 'ignored' },
      isExcluded: i.ex ?? false,
      includeDescendants: i.desc ?? false,
      includeMapped: i.mapped ?? false,
    })),
  };
}
