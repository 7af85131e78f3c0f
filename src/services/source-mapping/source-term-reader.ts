/**
 * Reads a file of source terms (CSV or TSV, header required, as Usagi imports them) into SourceTerm[]: the column
 * roles are named by the caller or guessed from the header; a bad row is reported with its line and column and left
 * out, the rest kept (an unterminated quote loses only its own line: parsing restarts on the next one).
 */
import { parse as parseCsv, CsvError } from 'csv-parse/sync';
import { validationError } from '../errors.js';
import type { SourceTerm } from './mapping-types.js';

/** Most terms one file may hold (a mapping job's bound; REST uploads and the CLI alike). */
export const MAX_SOURCE_TERMS = 100_000;
/** Largest input file, in bytes (UTF-8). */
export const MAX_SOURCE_FILE_BYTES = 32 * 1024 * 1024;
/** Longest source name or code kept (longer is a bad row: no vocabulary has names this long). */
export const MAX_SOURCE_FIELD_CHARS = 2000;

export const COLUMN_ROLES = ['source_code', 'source_name', 'source_frequency', 'domain_hint', 'vocabulary_hint', 'class_hint'] as const;
export type ColumnRole = (typeof COLUMN_ROLES)[number];

/**
 * Header names each role is guessed from, compared without case, spaces, `_` and `-` (Usagi's own names first).
 * The first header matching a role's earliest name wins.
 */
export const GUESSED_HEADER_NAMES: Record<ColumnRole, readonly string[]> = {
  source_code: ['sourcecode', 'code', 'sourcevalue', 'localcode', 'sourceid', 'conceptcode'],
  source_name: ['sourcename', 'name', 'description', 'sourcedescription', 'sourceterm', 'term', 'text', 'label', 'display', 'codedescription'],
  source_frequency: ['sourcefrequency', 'frequency', 'freq', 'count', 'sourcecount', 'occurrences', 'n'],
  domain_hint: ['domainid', 'domain', 'sourcedomain', 'targetdomain'],
  vocabulary_hint: ['vocabularyid', 'vocabulary', 'targetvocabulary'],
  class_hint: ['conceptclassid', 'conceptclass', 'class'],
};

export interface SourceTermReadOptions {
  /** Header names chosen by the caller, per role (a name not in the header is an error naming the option). */
  columns?: Partial<Record<ColumnRole, string>>;
  /** Default: sniffed from the header line (tab, comma or semicolon, whichever occurs most). */
  delimiter?: ',' | '\t' | ';';
  maxTerms?: number;
  maxBytes?: number;
  /** The file's name in messages (default "input"). */
  fileName?: string;
}

export interface BadSourceRow {
  line: number;
  /** 1-based column, when one column is at fault. */
  column?: number;
  column_name?: string;
  message: string;
}

export interface SourceTermFile {
  terms: SourceTerm[];
  /** Header name used for each role (absent roles left out), in COLUMN_ROLES order. */
  columns: Partial<Record<ColumnRole, string>>;
  /** How each role was chosen. */
  column_choice: Partial<Record<ColumnRole, 'named' | 'guessed'>>;
  delimiter: ',' | '\t' | ';';
  header: string[];
  bad_rows: BadSourceRow[];
}

const normalizeHeader = (h: string) => h.toLowerCase().replace(/[\s_\-.:]/g, '');

/** The delimiter of the header line (outside quotes): the most frequent of tab, comma, semicolon; comma on a tie. */
export function sniffDelimiter(text: string): ',' | '\t' | ';' {
  const counts = { ',': 0, '\t': 0, ';': 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch in counts) counts[ch as keyof typeof counts]++;
  }
  if (counts['\t'] > counts[','] && counts['\t'] >= counts[';']) return '\t';
  if (counts[';'] > counts[',']) return ';';
  return ',';
}

/** The column of each role: the caller's names (checked), else the header's best guess. */
export function chooseColumns(
  header: readonly string[],
  named: Partial<Record<ColumnRole, string>> = {},
  fileName = 'input',
): { columns: Partial<Record<ColumnRole, number>>; choice: Partial<Record<ColumnRole, 'named' | 'guessed'>> } {
  const columns: Partial<Record<ColumnRole, number>> = {};
  const choice: Partial<Record<ColumnRole, 'named' | 'guessed'>> = {};
  const taken = new Set<number>();
  for (const role of COLUMN_ROLES) {
    const name = named[role];
    if (name === undefined) continue;
    let at = header.indexOf(name);
    if (at < 0) at = header.findIndex((h) => normalizeHeader(h) === normalizeHeader(name));
    if (at < 0) {
      throw validationError(`${fileName}: the ${role} column '${name}' is not in the header (line 1 has: ${header.map((h) => `'${h}'`).join(', ')}).`, {
        parameter: `${role}_column`,
        line: 1,
      });
    }
    columns[role] = at;
    choice[role] = 'named';
    taken.add(at);
  }
  for (const role of COLUMN_ROLES) {
    if (columns[role] !== undefined) continue;
    for (const wanted of GUESSED_HEADER_NAMES[role]) {
      const at = header.findIndex((h, i) => !taken.has(i) && normalizeHeader(h) === wanted);
      if (at >= 0) {
        columns[role] = at;
        choice[role] = 'guessed';
        taken.add(at);
        break;
      }
    }
  }
  if (columns.source_name === undefined) {
    throw validationError(
      `${fileName}: no source name column: the header (line 1) has ${header.map((h) => `'${h}'`).join(', ')}; ` +
        `name it with the name column option, or call it one of ${GUESSED_HEADER_NAMES.source_name.slice(0, 4).map((n) => `'${n}'`).join(', ')}.`,
      { parameter: 'source_name_column', line: 1 },
    );
  }
  return { columns, choice };
}

interface ParsedRecord {
  fields: string[];
  line: number;
}

/** Line number (1-based) at each character offset's line start. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** Every record of the text with its first line; records csv-parse cannot read are reported and parsing resumes after them. */
function parseRecords(text: string, delimiter: string, bad: BadSourceRow[]): ParsedRecord[] {
  const starts = lineStarts(text);
  const out: ParsedRecord[] = [];
  let fromLine = 1;
  while (fromLine <= starts.length) {
    const offset = starts[fromLine - 1]!;
    if (offset >= text.length) break;
    let lastEnd = fromLine - 1;
    try {
      parseCsv(text.slice(offset), {
        delimiter,
        relax_column_count: true,
        skip_empty_lines: true,
        info: true,
        raw: true,
        on_record: ((record: { record: string[]; info: { lines: number }; raw: string }) => {
          const end = fromLine - 1 + record.info.lines;
          const inner = record.raw.replace(/^\n+/, '').replace(/\n$/, '');
          const newlines = inner.split('\n').length - 1;
          out.push({ fields: record.record, line: end - newlines });
          lastEnd = end;
          return null;
        }) as unknown as (record: string[]) => null,
      });
      break;
    } catch (err) {
      if (!(err instanceof CsvError)) throw err;
      // The failing record starts on the first non-blank line after the last good one.
      let line = lastEnd + 1;
      while (line < starts.length && text.slice(starts[line - 1]!, starts[line]! - 1).trim() === '') line++;
      const e = err as CsvError & { lines?: number; column?: number | string; index?: number };
      const column = typeof e.index === 'number' ? e.index + 1 : undefined;
      const what = err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'a quote opened here is never closed' : err.code === 'CSV_INVALID_CLOSING_QUOTE' ? 'a closing quote is followed by other characters' : err.message;
      bad.push({ line, ...(column ? { column } : {}), message: what });
      const errorLine = err.code === 'CSV_INVALID_CLOSING_QUOTE' && e.lines ? fromLine - 1 + e.lines : line;
      fromLine = Math.max(line, errorLine) + 1;
    }
  }
  return out;
}

function splitHint(value: string): string[] | undefined {
  const parts = value
    .split(/[;|,]/)
    .map((s) => s.trim())
    .filter(Boolean);
  return parts.length ? [...new Set(parts)] : undefined;
}

/** Reads the source terms of a file's text (the CLI reads the file; REST hands over the upload). */
export function readSourceTerms(input: string | Buffer, options: SourceTermReadOptions = {}): SourceTermFile {
  const fileName = options.fileName ?? 'input';
  const maxBytes = options.maxBytes ?? MAX_SOURCE_FILE_BYTES;
  const maxTerms = options.maxTerms ?? MAX_SOURCE_TERMS;
  const bytes = typeof input === 'string' ? Buffer.byteLength(input) : input.length;
  if (bytes > maxBytes) throw validationError(`${fileName} is ${bytes} bytes; at most ${maxBytes} bytes of source terms are accepted at once.`, { parameter: 'file', max_bytes: maxBytes });
  const text = (typeof input === 'string' ? input : input.toString('utf8')).replace(/^\uFEFF/, '');
  if (typeof input !== 'string') {
    // A byte sequence that is not UTF-8 decodes to U+FFFD: name where, rather than store mangled names.
    const bad = text.indexOf('\uFFFD');
    if (bad >= 0 && !input.includes(Buffer.from('\uFFFD'))) {
      const before = text.slice(0, bad).split('\n');
      const line = before.length;
      throw validationError(`${fileName} is not UTF-8 (line ${line}, character ${before[line - 1]!.length + 1}): save it as UTF-8.`, { parameter: 'file', line });
    }
  }
  if (text.trim() === '') throw validationError(`${fileName} is empty: a header line naming the columns is required.`, { parameter: 'file', line: 1 });
  const delimiter = options.delimiter ?? sniffDelimiter(text);
  const bad: BadSourceRow[] = [];
  // csv-parse counts lines wrongly across CRLF and blank lines: parse LF-only text (a CR inside a quoted name goes too)
  const records = parseRecords(text.replace(/\r\n?/g, '\n'), delimiter, bad);
  const headerRecord = records.shift();
  if (!headerRecord || headerRecord.line !== 1 || bad.some((b) => b.line === 1)) {
    throw validationError(`${fileName}: line 1 must be a header naming the columns.`, { parameter: 'file', line: 1 });
  }
  const header = headerRecord.fields.map((h, i) => h.trim() || `column ${i + 1}`);
  const seen = new Map<string, number>();
  header.forEach((h, i) => {
    if (seen.has(h)) throw validationError(`${fileName}: line 1, column ${i + 1}: the header name '${h}' is also column ${seen.get(h)! + 1}.`, { parameter: 'file', line: 1, column: i + 1 });
    seen.set(h, i);
  });
  const { columns, choice } = chooseColumns(header, options.columns, fileName);
  const roleColumns = new Set(Object.values(columns));
  const terms: SourceTerm[] = [];
  for (const { fields, line } of records) {
    if (fields.length === 1 && fields[0]!.trim() === '') continue;
    if (fields.length !== header.length) {
      bad.push({ line, column: Math.min(fields.length, header.length) + 1, message: `${fields.length} fields; the header has ${header.length}` });
      continue;
    }
    const cell = (role: ColumnRole) => (columns[role] === undefined ? '' : fields[columns[role]!]!.trim());
    const problem = (role: ColumnRole, message: string) => bad.push({ line, column: columns[role]! + 1, column_name: header[columns[role]!]!, message });
    const name = cell('source_name');
    if (name === '') {
      problem('source_name', 'the source name is empty');
      continue;
    }
    if (name.length > MAX_SOURCE_FIELD_CHARS) {
      problem('source_name', `the source name is longer than ${MAX_SOURCE_FIELD_CHARS} characters`);
      continue;
    }
    const code = cell('source_code');
    if (code.length > MAX_SOURCE_FIELD_CHARS) {
      problem('source_code', `the source code is longer than ${MAX_SOURCE_FIELD_CHARS} characters`);
      continue;
    }
    let frequency = 0;
    const rawFrequency = cell('source_frequency').replace(/[\s,_]/g, '');
    if (rawFrequency !== '') {
      frequency = Number(rawFrequency);
      if (!/^\d+(\.0*)?$/.test(rawFrequency) || !Number.isSafeInteger(frequency)) {
        problem('source_frequency', `the frequency '${cell('source_frequency')}' is not a whole number ≥ 0`);
        continue;
      }
    }
    if (terms.length >= maxTerms) {
      throw validationError(`${fileName} holds more than ${maxTerms} source terms (line ${line}); split it into smaller files.`, { parameter: 'file', line, max_terms: maxTerms });
    }
    const additional: Record<string, string> = {};
    header.forEach((h, i) => {
      if (!roleColumns.has(i)) additional[h] = fields[i]!;
    });
    const hints: NonNullable<SourceTerm['hints']> = {};
    const domain = splitHint(cell('domain_hint'));
    const vocabulary = splitHint(cell('vocabulary_hint'));
    const conceptClass = splitHint(cell('class_hint'));
    if (domain) hints.domain_ids = domain;
    if (vocabulary) hints.vocabulary_ids = vocabulary;
    if (conceptClass) hints.concept_class_ids = conceptClass;
    terms.push({
      index: terms.length,
      line,
      source_code: code,
      source_name: name,
      source_frequency: frequency,
      additional_info: additional,
      ...(Object.keys(hints).length ? { hints } : {}),
    });
  }
  bad.sort((a, b) => a.line - b.line);
  const namedColumns: Partial<Record<ColumnRole, string>> = {};
  for (const role of COLUMN_ROLES) if (columns[role] !== undefined) namedColumns[role] = header[columns[role]!]!;
  return { terms, columns: namedColumns, column_choice: choice, delimiter, header, bad_rows: bad };
}

/** One line per bad row, as the CLI prints them: `input.csv: line 4, column 3 (frequency): …`. */
export function describeBadRow(fileName: string, row: BadSourceRow): string {
  const where = row.column ? `, column ${row.column}${row.column_name ? ` (${row.column_name})` : ''}` : '';
  return `${fileName}: line ${row.line}${where}: ${row.message}`;
}
