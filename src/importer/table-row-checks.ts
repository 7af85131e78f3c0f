/** Checks shared by several tables; each reports to the anomaly collector and keeps the row. */
import type { AthenaValue } from '../athena/row-decoder.js';
import type { AnomalyKind } from './anomaly-kinds.js';
import type { TableImportContext } from './table-import.js';

/** Keeps an allowed one-letter flag; anything else becomes NULL and is reported. */
export function normaliseFlag(
  ctx: TableImportContext,
  values: AthenaValue[],
  index: number,
  allowed: ReadonlySet<string>,
  kind: AnomalyKind,
  column: string,
  line: number,
): void {
  const value = values[index];
  if (value === null || allowed.has(value as string)) return;
  ctx.anomalies.report(kind, ctx.fileName, line, `${column} ${JSON.stringify(value)} stored as NULL`);
  values[index] = null;
}

export const STANDARD_CONCEPT_FLAGS: ReadonlySet<string> = new Set(['S', 'C']);
export const INVALID_REASON_FLAGS: ReadonlySet<string> = new Set(['D', 'U']);

export function checkValidityPeriod(ctx: TableImportContext, values: AthenaValue[], startIndex: number, endIndex: number, line: number): void {
  const start = values[startIndex] as number;
  const end = values[endIndex] as number;
  if (end < start) ctx.anomalies.report('end_before_start', ctx.fileName, line, `valid_end_date ${end} is before valid_start_date ${start}`);
}

/** Reports a row pointing at concept ids that are not in CONCEPT (the row is kept). */
export function checkConceptReferences(
  ctx: TableImportContext,
  kind: AnomalyKind,
  line: number,
  references: ReadonlyArray<readonly [column: string, id: number | null]>,
): void {
  let missing: string | null = null;
  for (const [column, id] of references) {
    if (id !== null && !ctx.conceptIds.has(id)) missing = missing === null ? `${column} ${id}` : `${missing} and ${column} ${id}`;
  }
  if (missing !== null) ctx.anomalies.report(kind, ctx.fileName, line, `${missing} not in CONCEPT`);
}

/**
 * The test of checkConceptReferences in SQL, for rows already stored or staged: true when any of
 * `columns` holds a concept id missing from the store's CONCEPT table.
 */
export function missingConceptCondition(columns: readonly string[]): string {
  return columns.map((column) => `NOT EXISTS (SELECT 1 FROM main.concept WHERE concept_id = ${column})`).join(' OR ');
}

/** Reports an id missing from a loaded reference table; tables that are absent or empty are not checked. */
export function checkReferenceId(
  ctx: TableImportContext,
  known: ReadonlySet<string>,
  value: AthenaValue,
  kind: AnomalyKind,
  description: string,
  line: number,
): void {
  if (known.size > 0 && !known.has(value as string)) ctx.anomalies.report(kind, ctx.fileName, line, `${description} ${JSON.stringify(value)}`);
}
