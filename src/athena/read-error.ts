/**
 * An Athena file that cannot be read. The message starts with `FILE:LINE:COLUMN:` (or `FILE:LINE:`
 * / `FILE:` when no finer position applies) followed by a plain explanation.
 */
export class AthenaReadError extends Error {
  override readonly name = 'AthenaReadError';

  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly column: number | null,
    readonly explanation: string,
  ) {
    super(`${formatPosition(file, line, column)}: ${explanation}`);
  }
}

export function formatPosition(file: string, line: number | null, column: number | null): string {
  if (line === null) return file;
  return column === null ? `${file}:${line}` : `${file}:${line}:${column}`;
}

/**
 * Thrown by a row consumer for a field it cannot accept; the reader turns it into an
 * AthenaReadError with the file, line and the column where that field starts.
 */
export class RowFieldError extends Error {
  override readonly name = 'RowFieldError';

  constructor(
    /** Index of the offending field within the record as read (header order). */
    readonly fieldIndex: number,
    message: string,
  ) {
    super(message);
  }
}
