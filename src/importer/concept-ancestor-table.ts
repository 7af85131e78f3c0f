/** CONCEPT_ANCESTOR: staged, then sorted into the clustered table (see staged-insert.ts). */
import { CONCEPT_ANCESTOR_SPEC, columnIndex } from '../athena/table-specs.js';
import { EXAMPLES_PER_KIND } from './anomaly-collector.js';
import { StagedInsert } from './staged-insert.js';
import type { TableImportDefinition } from './table-import.js';
import { checkConceptReferences } from './table-row-checks.js';
import { finishStagedTable } from './staged-table-finish.js';

const ANCESTOR = columnIndex(CONCEPT_ANCESTOR_SPEC, 'ancestor_concept_id');
const DESCENDANT = columnIndex(CONCEPT_ANCESTOR_SPEC, 'descendant_concept_id');

export const conceptAncestorTable: TableImportDefinition = {
  spec: CONCEPT_ANCESTOR_SPEC,
  open(ctx) {
    const staged = new StagedInsert(
      ctx.db,
      ctx.stagingSchema,
      CONCEPT_ANCESTOR_SPEC.storeTable,
      CONCEPT_ANCESTOR_SPEC.columns.map((c) => c.name),
      ['ancestor_concept_id', 'descendant_concept_id'],
    );
    return {
      accept(values, line) {
        checkConceptReferences(ctx, 'dangling_ancestor_concept', line, [
          ['ancestor_concept_id', values[ANCESTOR] as number],
          ['descendant_concept_id', values[DESCENDANT] as number],
        ]);
        staged.insert(values, line);
      },
      finish: () =>
        finishStagedTable(
          ctx,
          staged,
          { duplicate: 'duplicate_ancestor', dangling: 'dangling_ancestor_concept', conceptColumns: ['ancestor_concept_id', 'descendant_concept_id'] },
          EXAMPLES_PER_KIND,
        ),
    };
  },
};
