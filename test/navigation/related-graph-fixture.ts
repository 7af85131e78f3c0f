/**
 * A purpose-built vocabulary for the traversal tests through HTTPS: a cycle, licence-restricted
 * concepts on a path, a hub whose children outnumber the breadth budget, invalid and dangling rows.
 * The tests read their expectations off these rows.
 */
import { writeAthenaFixture, type FixtureRelationship } from '../helpers/athena-fixture.js';

export const CYCLE = { a: 1, b: 2, c: 3 } as const;
/** 10 → 900 (CPT4) → 11; 10 → 950 (MedDRA) → 12; 10 → 13. */
export const LICENCE = { start: 10, cpt4: 900, behindCpt4: 11, meddra: 950, behindMeddra: 12, open: 13 } as const;
/** 20 'Is a' 21, and 20 'Subsumes' HUB_CHILDREN children (2001…). */
export const HUB = { hub: 20, parent: 21, firstChild: 2001 } as const;
export const HUB_CHILDREN = 150;
/** 30 has only an invalid 'Is a' row (to 31) and a row to a concept that does not exist (99999). */
export const DEAD_END = { start: 30, invalidTarget: 31, missing: 99999 } as const;

export function writeGraphFixture(): string {
  const relationships: FixtureRelationship[] = [
    { concept_id_1: CYCLE.a, concept_id_2: CYCLE.b, relationship_id: 'Has asso finding' },
    { concept_id_1: CYCLE.b, concept_id_2: CYCLE.c, relationship_id: 'Has asso finding' },
    { concept_id_1: CYCLE.c, concept_id_2: CYCLE.a, relationship_id: 'Has asso finding' },
    { concept_id_1: LICENCE.start, concept_id_2: LICENCE.cpt4, relationship_id: 'Has asso finding' },
    { concept_id_1: LICENCE.cpt4, concept_id_2: LICENCE.behindCpt4, relationship_id: 'Has asso finding' },
    { concept_id_1: LICENCE.start, concept_id_2: LICENCE.meddra, relationship_id: 'Maps to' },
    { concept_id_1: LICENCE.meddra, concept_id_2: LICENCE.behindMeddra, relationship_id: 'Has asso finding' },
    { concept_id_1: LICENCE.start, concept_id_2: LICENCE.open, relationship_id: 'Is a' },
    { concept_id_1: HUB.hub, concept_id_2: HUB.parent, relationship_id: 'Is a' },
    ...Array.from({ length: HUB_CHILDREN }, (_, i) => ({ concept_id_1: HUB.hub, concept_id_2: HUB.firstChild + i, relationship_id: 'Subsumes' })),
    { concept_id_1: DEAD_END.start, concept_id_2: DEAD_END.invalidTarget, relationship_id: 'Is a', invalid_reason: 'D' },
    { concept_id_1: DEAD_END.start, concept_id_2: DEAD_END.missing, relationship_id: 'Is a' },
  ];
  return writeAthenaFixture({
    concepts: [
      { concept_id: CYCLE.a, concept_name: 'Cycle A' },
      { concept_id: CYCLE.b, concept_name: 'Cycle B' },
      { concept_id: CYCLE.c, concept_name: 'Cycle C' },
      { concept_id: LICENCE.start, concept_name: 'Licence start' },
      { concept_id: LICENCE.cpt4, concept_name: 'A CPT4 procedure', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: '99999' },
      { concept_id: LICENCE.behindCpt4, concept_name: 'Behind the CPT4 code' },
      { concept_id: LICENCE.meddra, concept_name: 'A MedDRA term', vocabulary_id: 'MedDRA', standard_concept: null },
      { concept_id: LICENCE.behindMeddra, concept_name: 'Behind the MedDRA term' },
      { concept_id: LICENCE.open, concept_name: 'Open parent' },
      { concept_id: HUB.hub, concept_name: 'Hub' },
      { concept_id: HUB.parent, concept_name: 'Hub parent' },
      ...Array.from({ length: HUB_CHILDREN }, (_, i) => ({ concept_id: HUB.firstChild + i, concept_name: `Hub child ${i}` })),
      { concept_id: DEAD_END.start, concept_name: 'Dead end' },
      { concept_id: DEAD_END.invalidTarget, concept_name: 'Old parent', standard_concept: null, invalid_reason: 'D' },
    ],
    relationships,
    relationshipTypes: [
      ['Maps to', 'Non-standard to Standard map (OMOP)', '0', '0', 'Mapped from'],
      ['Mapped from', 'Standard to Non-standard map (OMOP)', '0', '0', 'Maps to'],
      ['Is a', 'Is a', '1', '1', 'Subsumes'],
      ['Subsumes', 'Subsumes', '1', '1', 'Is a'],
      ['Has asso finding', 'Has associated finding (SNOMED)', '0', '0', 'Asso finding of'],
      ['Asso finding of', 'Associated finding of (SNOMED)', '0', '0', 'Has asso finding'],
    ],
  });
}
