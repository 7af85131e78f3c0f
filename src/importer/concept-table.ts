/** CONCEPT: the first row of a repeated concept_id wins; ids are recorded for the other tables' checks. */
import { CONCEPT_SPEC, columnIndex } from '../athena/table-specs.js';
import { DirectInsert } from './direct-insert.js';
import type { TableImportDefinition } from './table-import.js';
import {
  checkReferenceId,
  checkValidityPeriod,
  INVALID_REASON_FLAGS,
  normaliseFlag,
  STANDARD_CONCEPT_FLAGS,
} from './table-row-checks.js';

const CONCEPT_ID = columnIndex(CONCEPT_SPEC, 'concept_id');
const DOMAIN_ID = columnIndex(CONCEPT_SPEC, 'domain_id');
const VOCABULARY_ID = columnIndex(CONCEPT_SPEC, 'vocabulary_id');
const CONCEPT_CLASS_ID = columnIndex(CONCEPT_SPEC, 'concept_class_id');
const STANDARD_CONCEPT = columnIndex(CONCEPT_SPEC, 'standard_concept');
const VALID_START = columnIndex(CONCEPT_SPEC, 'valid_start_date');
const VALID_END = columnIndex(CONCEPT_SPEC, 'valid_end_date');
const INVALID_REASON = columnIndex(CONCEPT_SPEC, 'invalid_reason');

export const conceptTable: TableImportDefinition = {
  spec: CONCEPT_SPEC,
  open(ctx) {
    const insert = new DirectInsert(ctx.db, CONCEPT_SPEC.storeTable, CONCEPT_SPEC.columns.map((c) => c.name), { keepFirst: true });
    const { vocabularies, domains, conceptClasses } = ctx.referenceIds;
    return {
      accept(values, line) {
        normaliseFlag(ctx, values, STANDARD_CONCEPT, STANDARD_CONCEPT_FLAGS, 'odd_standard_concept', 'standard_concept', line);
        normaliseFlag(ctx, values, INVALID_REASON, INVALID_REASON_FLAGS, 'odd_invalid_reason', 'invalid_reason', line);
        checkValidityPeriod(ctx, values, VALID_START, VALID_END, line);
        checkReferenceId(ctx, vocabularies, values[VOCABULARY_ID]!, 'unknown_vocabulary_id', 'vocabulary_id', line);
        checkReferenceId(ctx, domains, values[DOMAIN_ID]!, 'unknown_domain_id', 'domain_id', line);
        checkReferenceId(ctx, conceptClasses, values[CONCEPT_CLASS_ID]!, 'unknown_concept_class_id', 'concept_class_id', line);
        const conceptId = values[CONCEPT_ID] as number;
        if (insert.insert(values)) {
          ctx.conceptIds.add(conceptId);
        } else {
          ctx.anomalies.report('duplicate_concept_id', ctx.fileName, line, `concept_id ${conceptId} was already read; this row was dropped`);
        }
      },
      finish: () => insert.stored,
    };
  },
};
