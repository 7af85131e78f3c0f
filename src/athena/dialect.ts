/**
 * The two file dialects omopterm reads, told apart by each file's header line: `tab` (real Athena downloads:
 * TAB-separated, no quoting, one record per line) and `comma` (CSV exports with RFC-4180 quoting, where a quoted
 * field may hold line breaks).
 */

export interface AthenaDialect {
  name: 'tab' | 'comma';
  delimiter: '\t' | ',';
  /** Whether `"` quotes fields. */
  quoting: boolean;
  description: string;
}

export const TAB_DIALECT: AthenaDialect = { name: 'tab', delimiter: '\t', quoting: false, description: 'TAB-separated (Athena)' };
export const COMMA_DIALECT: AthenaDialect = { name: 'comma', delimiter: ',', quoting: true, description: 'comma-separated CSV' };

/** A header line with a TAB in it is the Athena dialect; anything else is comma CSV. */
export function detectDialect(headerLine: string): AthenaDialect {
  return headerLine.includes('\t') ? TAB_DIALECT : COMMA_DIALECT;
}

export interface FieldStart {
  /** Lines after the record's first line (0 unless a quoted field holds line breaks). */
  lineOffset: number;
  /** 1-based character column within that line. */
  column: number;
}

/**
 * Where each field of a record's raw text starts, plus one extra entry for the position just past
 * the end of the record (where a missing field would have started). Used only to explain errors.
 */
export function fieldStarts(dialect: AthenaDialect, rawRecord: string): FieldStart[] {
  const chars = [...rawRecord.replace(/\r?\n$/, '')];
  const starts: FieldStart[] = [{ lineOffset: 0, column: 1 }];
  let lineOffset = 0;
  let column = 1;
  let atFieldStart = true;
  let inQuotes = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (dialect.quoting && ch === '"' && (inQuotes || atFieldStart)) {
      if (!inQuotes) {
        inQuotes = true;
      } else if (chars[i + 1] === '"') {
        i++; // an escaped quote inside a quoted field
        column++;
      } else {
        inQuotes = false;
      }
    } else if (ch === '\n') {
      lineOffset++;
      column = 0;
    } else if (ch === dialect.delimiter && !inQuotes) {
      column++;
      starts.push({ lineOffset, column });
      atFieldStart = true;
      continue;
    }
    atFieldStart = false;
    column++;
  }
  starts.push({ lineOffset, column });
  return starts;
}

/** A quoted field of a comma record that holds a line break: where its quote opened and how it closed. */
export interface QuotedFieldOverLines {
  /** Position of the opening quote (the field's start). */
  start: FieldStart;
  /** Lines after the record's first line on which the field's closing quote is (or the record ends). */
  endLineOffset: number;
  /**
   * Whether the closing quote is followed by a comma, a line break or the end of the record (RFC 4180).
   * csv-parse, run with relax_quotes, also ends a quoted field at a quote followed by anything else:
   * the sign of an unterminated quote that ran on until the next `"` in the file.
   */
  closedProperly: boolean;
}

/** The quoted fields of a comma record's raw text that hold line breaks (none for most records). */
export function quotedFieldsOverLines(rawRecord: string): QuotedFieldOverLines[] {
  const chars = [...rawRecord.replace(/\r?\n$/, '')];
  const found: QuotedFieldOverLines[] = [];
  let lineOffset = 0;
  let column = 1;
  let atFieldStart = true;
  let open: { start: FieldStart; spansLines: boolean } | null = null;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === '"' && (open || atFieldStart)) {
      if (!open) {
        open = { start: { lineOffset, column }, spansLines: false };
      } else if (chars[i + 1] === '"') {
        i++;
        column++;
      } else {
        const next = chars[i + 1];
        if (open.spansLines) found.push({ start: open.start, endLineOffset: lineOffset, closedProperly: next === undefined || next === ',' || next === '\r' || next === '\n' });
        open = null;
      }
    } else if (ch === '\n') {
      if (open) open.spansLines = true;
      lineOffset++;
      column = 0;
    } else if (ch === ',' && !open) {
      column++;
      atFieldStart = true;
      continue;
    }
    atFieldStart = false;
    column++;
  }
  if (open?.spansLines) found.push({ start: open.start, endLineOffset: lineOffset, closedProperly: false });
  return found;
}
