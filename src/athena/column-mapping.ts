/**
 * Matches a file's header to a table spec by column name (case-insensitive), so files with the
 * columns in another order, or with extra columns, are read correctly.
 */
import type { AthenaHeader } from './athena-file-reader.js';
import { AthenaReadError } from './read-error.js';
import type { AthenaTableSpec } from './table-specs.js';

export interface ColumnMapping {
  /** For each column of `spec.columns`, the index of the field holding it in every record. */
  fieldIndexOfColumn: number[];
  /** Header columns that are not part of the table (ignored). */
  extraColumns: string[];
}

export function mapColumns(spec: AthenaTableSpec, header: AthenaHeader, fileName: string): ColumnMapping {
  const fieldByName = new Map<string, number>();
  header.names.forEach((name, i) => {
    const key = name.toLowerCase();
    if (fieldByName.has(key)) {
      throw new AthenaReadError(fileName, 1, header.fieldColumns[i] ?? 1, `column '${name}' appears twice in the header`);
    }
    fieldByName.set(key, i);
  });
  const fieldIndexOfColumn = spec.columns.map((column, position) => {
    const index = fieldByName.get(column.name);
    if (index === undefined) {
      // Point at where the column would be in the standard order.
      const at = Math.min(position, header.fieldColumns.length - 1);
      const found = header.names.length ? `the header has: ${header.names.join(', ')}` : 'the file has no header line';
      throw new AthenaReadError(
        fileName,
        1,
        header.fieldColumns[at] ?? 1,
        `required column '${column.name}' of ${spec.name} is missing from the header (${found})`,
      );
    }
    return index;
  });
  const known = new Set(spec.columns.map((c) => c.name));
  const extraColumns = header.names.filter((n) => !known.has(n.toLowerCase()));
  return { fieldIndexOfColumn, extraColumns };
}
