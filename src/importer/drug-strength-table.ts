/** DRUG_STRENGTH: the first row of a repeated (drug, ingredient) pair wins. */
import { DRUG_STRENGTH_SPEC, columnIndex } from '../athena/table-specs.js';
import { DirectInsert } from './direct-insert.js';
import type { TableImportDefinition } from './table-import.js';
import { checkConceptReferences, checkValidityPeriod, INVALID_REASON_FLAGS, normaliseFlag } from './table-row-checks.js';

const DRUG = columnIndex(DRUG_STRENGTH_SPEC, 'drug_concept_id');
const INGREDIENT = columnIndex(DRUG_STRENGTH_SPEC, 'ingredient_concept_id');
const VALID_START = columnIndex(DRUG_STRENGTH_SPEC, 'valid_start_date');
const VALID_END = columnIndex(DRUG_STRENGTH_SPEC, 'valid_end_date');
const INVALID_REASON = columnIndex(DRUG_STRENGTH_SPEC, 'invalid_reason');

export const drugStrengthTable: TableImportDefinition = {
  spec: DRUG_STRENGTH_SPEC,
  open(ctx) {
    const insert = new DirectInsert(ctx.db, DRUG_STRENGTH_SPEC.storeTable, DRUG_STRENGTH_SPEC.columns.map((c) => c.name), { keepFirst: true });
    return {
      accept(values, line) {
        normaliseFlag(ctx, values, INVALID_REASON, INVALID_REASON_FLAGS, 'odd_invalid_reason', 'invalid_reason', line);
        checkValidityPeriod(ctx, values, VALID_START, VALID_END, line);
        if (!insert.insert(values)) {
          ctx.anomalies.report(
            'duplicate_drug_strength',
            ctx.fileName,
            line,
            `(drug_concept_id ${values[DRUG]}, ingredient_concept_id ${values[INGREDIENT]}) was already read; this row was dropped`,
          );
          return;
        }
        // Only rows stored count as dangling, so that the count never exceeds the rows stored.
        checkConceptReferences(ctx, 'dangling_drug_strength_concept', line, [
          ['drug_concept_id', values[DRUG] as number],
          ['ingredient_concept_id', values[INGREDIENT] as number],
        ]);
      },
      finish: () => insert.stored,
    };
  },
};
