/**
 * The small reference tables (VOCABULARY, DOMAIN, CONCEPT_CLASS, RELATIONSHIP). They load before
 * CONCEPT so that the ids they define can be checked while the big tables stream by.
 */
import { CONCEPT_CLASS_SPEC, DOMAIN_SPEC, RELATIONSHIP_SPEC, VOCABULARY_SPEC, type AthenaTableSpec } from '../athena/table-specs.js';
import { DirectInsert } from './direct-insert.js';
import type { ReferenceIds, TableImportDefinition } from './table-import.js';

function referenceTable(spec: AthenaTableSpec, ids: (referenceIds: ReferenceIds) => Set<string>): TableImportDefinition {
  const idColumn = spec.columns[0]!.name;
  return {
    spec,
    open(ctx) {
      const insert = new DirectInsert(ctx.db, spec.storeTable, spec.columns.map((c) => c.name), { keepFirst: true });
      const known = ids(ctx.referenceIds);
      return {
        accept(values, line) {
          const id = values[0] as string;
          if (insert.insert(values)) {
            known.add(id);
          } else {
            ctx.anomalies.report('duplicate_reference_id', ctx.fileName, line, `${idColumn} ${JSON.stringify(id)} was already read; this row was dropped`);
          }
        },
        finish: () => insert.stored,
      };
    },
  };
}

export const vocabularyTable = referenceTable(VOCABULARY_SPEC, (r) => r.vocabularies);
export const domainTable = referenceTable(DOMAIN_SPEC, (r) => r.domains);
export const conceptClassTable = referenceTable(CONCEPT_CLASS_SPEC, (r) => r.conceptClasses);
export const relationshipTable = referenceTable(RELATIONSHIP_SPEC, (r) => r.relationships);
