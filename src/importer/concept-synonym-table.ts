/** CONCEPT_SYNONYM: appended as read (it has no key); rows of concepts missing from CONCEPT are reported. */
import { CONCEPT_SYNONYM_SPEC, columnIndex } from '../athena/table-specs.js';
import { DirectInsert } from './direct-insert.js';
import type { TableImportDefinition } from './table-import.js';
import { checkConceptReferences } from './table-row-checks.js';

const CONCEPT_ID = columnIndex(CONCEPT_SYNONYM_SPEC, 'concept_id');

export const conceptSynonymTable: TableImportDefinition = {
  spec: CONCEPT_SYNONYM_SPEC,
  open(ctx) {
    const insert = new DirectInsert(ctx.db, CONCEPT_SYNONYM_SPEC.storeTable, CONCEPT_SYNONYM_SPEC.columns.map((c) => c.name), { keepFirst: false });
    return {
      accept(values, line) {
        checkConceptReferences(ctx, 'dangling_synonym_concept', line, [['concept_id', values[CONCEPT_ID] as number]]);
        insert.insert(values);
      },
      finish: () => insert.stored,
    };
  },
};
