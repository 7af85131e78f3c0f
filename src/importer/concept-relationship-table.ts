/** CONCEPT_RELATIONSHIP: staged, then sorted into the clustered table (see staged-insert.ts). */
import { CONCEPT_RELATIONSHIP_SPEC, columnIndex } from '../athena/table-specs.js';
import { EXAMPLES_PER_KIND } from './anomaly-collector.js';
import { StagedInsert } from './staged-insert.js';
import type { TableImportDefinition } from './table-import.js';
import { checkConceptReferences, checkReferenceId, checkValidityPeriod, INVALID_REASON_FLAGS, normaliseFlag } from './table-row-checks.js';
import { finishStagedTable } from './staged-table-finish.js';

const CONCEPT_ID_1 = columnIndex(CONCEPT_RELATIONSHIP_SPEC, 'concept_id_1');
const CONCEPT_ID_2 = columnIndex(CONCEPT_RELATIONSHIP_SPEC, 'concept_id_2');
const RELATIONSHIP_ID = columnIndex(CONCEPT_RELATIONSHIP_SPEC, 'relationship_id');
const VALID_START = columnIndex(CONCEPT_RELATIONSHIP_SPEC, 'valid_start_date');
const VALID_END = columnIndex(CONCEPT_RELATIONSHIP_SPEC, 'valid_end_date');
const INVALID_REASON = columnIndex(CONCEPT_RELATIONSHIP_SPEC, 'invalid_reason');

export const conceptRelationshipTable: TableImportDefinition = {
  spec: CONCEPT_RELATIONSHIP_SPEC,
  open(ctx) {
    const staged = new StagedInsert(
      ctx.db,
      ctx.stagingSchema,
      CONCEPT_RELATIONSHIP_SPEC.storeTable,
      CONCEPT_RELATIONSHIP_SPEC.columns.map((c) => c.name),
      ['concept_id_1', 'relationship_id', 'concept_id_2'],
    );
    const relationships = ctx.referenceIds.relationships;
    return {
      accept(values, line) {
        normaliseFlag(ctx, values, INVALID_REASON, INVALID_REASON_FLAGS, 'odd_invalid_reason', 'invalid_reason', line);
        checkValidityPeriod(ctx, values, VALID_START, VALID_END, line);
        checkReferenceId(ctx, relationships, values[RELATIONSHIP_ID]!, 'unknown_relationship_id', 'relationship_id', line);
        checkConceptReferences(ctx, 'dangling_relationship_concept', line, [
          ['concept_id_1', values[CONCEPT_ID_1] as number],
          ['concept_id_2', values[CONCEPT_ID_2] as number],
        ]);
        staged.insert(values, line);
      },
      finish: () =>
        finishStagedTable(
          ctx,
          staged,
          { duplicate: 'duplicate_relationship', dangling: 'dangling_relationship_concept', conceptColumns: ['concept_id_1', 'concept_id_2'] },
          EXAMPLES_PER_KIND,
        ),
    };
  },
};
