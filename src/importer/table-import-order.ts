/** The table imports in load order: reference tables, CONCEPT, then the tables pointing at concepts. */
import type { TableImportDefinition } from './table-import.js';
import { conceptAncestorTable } from './concept-ancestor-table.js';
import { conceptRelationshipTable } from './concept-relationship-table.js';
import { conceptSynonymTable } from './concept-synonym-table.js';
import { conceptTable } from './concept-table.js';
import { drugStrengthTable } from './drug-strength-table.js';
import { conceptClassTable, domainTable, relationshipTable, vocabularyTable } from './reference-tables.js';

export const TABLE_IMPORTS: readonly TableImportDefinition[] = [
  vocabularyTable,
  domainTable,
  conceptClassTable,
  relationshipTable,
  conceptTable,
  conceptRelationshipTable,
  conceptAncestorTable,
  conceptSynonymTable,
  drugStrengthTable,
];
