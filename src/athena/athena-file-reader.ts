/**
 * Streams the records of one Athena table file (plain or gzipped, either dialect) to a handler one at a time,
 * never holding the table in memory. Every problem is an AthenaReadError at `FILE:LINE:COLUMN` (line 1 is the
 * header); how lines are counted per dialect is in docs/internals.md.
 */
import { parse, CsvError, type Options as CsvParseOptions } from 'csv-parse';
import { createReadStream } from 'node:fs';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { COMMA_DIALECT, detectDialect, fieldStarts, quotedFieldsOverLines, TAB_DIALECT, type AthenaDialect } from './dialect.js';
import { AthenaReadError, RowFieldError } from './read-error.js';
import type { AthenaSourceFile } from './source-files.js';

export interface AthenaHeader {
  dialect: AthenaDialect;
  /** Column names as written in the file (quotes removed, surrounding spaces trimmed). */
  names: string[];
  /** 1-based character column where each header field starts, plus one entry for the end of the line. */
  fieldColumns: number[];
}

export interface AthenaRecordHandler {
  /** Called once with the header line; may throw RowFieldError naming a header field. */
  onHeader(header: AthenaHeader): void;
  /** Called for every data record that has as many fields as the header; may throw RowFieldError. */
  onRecord(fields: string[], line: number): void;
  /** A line with nothing on it (skipped). */
  onBlankLine?(line: number): void;
  /** Called every few thousand records with the number of data records read so far. */
  onProgress?(dataRows: number): void;
}

export interface AthenaFileReadResult {
  dialect: AthenaDialect;
  /** Data records passed to onRecord. */
  dataRows: number;
  /** Last line read (the header is line 1). */
  lastLine: number;
}

export const PROGRESS_EVERY_ROWS = 1 << 15;
const READ_CHUNK_BYTES = 1 << 20;
/** A record longer than this is almost certainly an unclosed quote swallowing the rest of the file. */
const MAX_RECORD_CHARS = 1 << 20;

/** Reads `file` to the end, or throws an AthenaReadError (or the signal's abort reason). */
export async function readAthenaFile(file: AthenaSourceFile, handler: AthenaRecordHandler, signal?: AbortSignal): Promise<AthenaFileReadResult> {
  const headerLine = await readHeaderLine(file);
  const dialect = detectDialect(headerLine);
  const source = openSource(file);
  const parser = parse(parserOptions(dialect));
  const stages: Array<Readable | Transform> = [source.file, ...(source.gunzip ? [source.gunzip] : []), parser];

  let expectedFields = 0;
  let dataRows = 0;
  /** Line on which the last record handled so far ends. */
  let lastLine = 0;
  let failure: unknown = null;

  const fail = (err: unknown) => {
    if (failure === null) failure = err;
    parser.destroy(err as Error);
  };

  const handleRecord = (fields: string[], line: number, raw: string | null) => {
    if (line === 1) {
      const names = fields.map((n) => n.trim());
      expectedFields = names.length;
      const fieldColumns = fieldStarts(dialect, raw ?? fields.join(dialect.delimiter)).map((s) => s.column);
      handler.onHeader({ dialect, names, fieldColumns });
      return;
    }
    if (fields.length !== expectedFields) {
      if (fields.length === 1 && fields[0] === '') {
        handler.onBlankLine?.(line);
        return;
      }
      throw wrongFieldCount(file, dialect, fields, line, raw, expectedFields);
    }
    dataRows++;
    handler.onRecord(fields, line);
    if ((dataRows & (PROGRESS_EVERY_ROWS - 1)) === 0) {
      if (signal?.aborted) throw signal.reason;
      handler.onProgress?.(dataRows);
    }
  };

  if (dialect === TAB_DIALECT) {
    let line = 0;
    parser.on('data', (fields: string[]) => {
      if (failure !== null) return;
      line++;
      try {
        handleRecord(fields, line, null);
        lastLine = line;
      } catch (err) {
        fail(positioned(err, file, dialect, fields, line, null));
      }
    });
  } else {
    let previousEndLine = 0;
    parser.on('data', (record: { record: string[]; raw: string }) => {
      if (failure !== null) return;
      const line = previousEndLine + 1;
      const innerLineBreaks = countLineBreaks(record.raw) - (record.raw.endsWith('\n') ? 1 : 0);
      previousEndLine = line + innerLineBreaks;
      try {
        if (innerLineBreaks > 0 && line > 1) {
          const quote = unterminatedQuote(file, record.raw, line, record.record.length, expectedFields);
          if (quote) throw quote;
        }
        handleRecord(record.record, line, record.raw);
        lastLine = previousEndLine;
      } catch (err) {
        fail(positioned(err, file, dialect, record.record, line, record.raw));
      }
    });
  }

  try {
    await pipeline(stages, { signal });
  } catch (err) {
    if (failure !== null) throw failure;
    if (signal?.aborted) throw signal.reason;
    throw explainStreamError(err, file, dialect, lastLine);
  }
  if (failure !== null) throw failure;
  if (lastLine === 0) {
    // An empty file (not even a header): let the caller see a header-less table.
    handler.onHeader({ dialect, names: [], fieldColumns: [1] });
  }
  handler.onProgress?.(dataRows);
  return { dialect, dataRows, lastLine };
}

function parserOptions(dialect: AthenaDialect): CsvParseOptions {
  const common: CsvParseOptions = { bom: true, relax_column_count: true, skip_empty_lines: false };
  if (dialect === TAB_DIALECT) return { ...common, delimiter: '\t', quote: null };
  return {
    ...common,
    delimiter: ',',
    quote: '"',
    escape: '"',
    relax_quotes: true,
    raw: true,
    max_record_size: MAX_RECORD_CHARS,
  };
}

/**
 * A record spanning lines because a quoted field holds line breaks is either a legitimate multi-line
 * value or a quote never closed on its line, which swallowed the following lines until the next `"`.
 * It is the latter when that field's closing quote is not followed by a comma or the end of the line
 * (csv-parse accepts it under relax_quotes), or when the record it makes has the wrong number of
 * fields; the error then points at the opening quote, not at where the damage surfaced.
 */
function unterminatedQuote(file: AthenaSourceFile, raw: string, line: number, found: number, expected: number): AthenaReadError | null {
  for (const quoted of quotedFieldsOverLines(raw)) {
    if (quoted.closedProperly && found === expected) continue;
    const endLine = line + quoted.endLineOffset;
    const why = quoted.closedProperly
      ? `lines ${line + quoted.start.lineOffset}–${endLine} were read as one record, which has ${found} fields where the header has ${expected}`
      : `it runs on to line ${endLine}, ending at a quote not followed by a comma or the end of the line`;
    // A properly closed field may be a real multi-line value: the wrong field count only makes the quote the likely cause.
    return new AthenaReadError(
      file.displayName,
      line + quoted.start.lineOffset,
      quoted.start.column,
      `${quoted.closedProperly ? 'probably an ' : ''}unterminated quote: the quoted field opened here is not closed on its line; ${why}`,
    );
  }
  return null;
}

function countLineBreaks(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

function openSource(file: AthenaSourceFile): { file: Readable; gunzip: Transform | null } {
  return {
    file: createReadStream(file.path, { highWaterMark: READ_CHUNK_BYTES }),
    gunzip: file.gzip ? createGunzip({ chunkSize: 256 * 1024 }) : null,
  };
}

/** The dialect of a file, from its first line (an empty file reads as comma-separated). */
export async function athenaDialectOf(file: AthenaSourceFile): Promise<AthenaDialect> {
  return detectDialect(await readHeaderLine(file));
}

/** The first line of the file (decompressed), without BOM and line ending; '' for an empty file. */
async function readHeaderLine(file: AthenaSourceFile): Promise<string> {
  const source = openSource(file);
  const stream: Readable = source.gunzip ? source.file.pipe(source.gunzip) : source.file;
  if (source.gunzip) source.file.on('error', (err) => source.gunzip!.destroy(err));
  let text = '';
  try {
    for await (const chunk of stream) {
      text += (chunk as Buffer).toString('utf8');
      if (text.includes('\n') || text.length > 65536) break;
    }
  } catch (err) {
    if (text.includes('\n')) return firstLine(text);
    throw explainStreamError(err, file, null, 0);
  } finally {
    source.file.destroy();
    source.gunzip?.destroy();
  }
  return firstLine(text);
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return (end < 0 ? text : text.slice(0, end)).replace(/^\uFEFF/, '').replace(/\r$/, '');
}

/** Turns a handler's RowFieldError into an AthenaReadError at the field's line and column. */
export function positioned(err: unknown, file: AthenaSourceFile, dialect: AthenaDialect, fields: string[], line: number, raw: string | null): unknown {
  if (!(err instanceof RowFieldError)) return err;
  const starts = fieldStarts(dialect, raw ?? fields.join(dialect.delimiter));
  const start = starts[Math.min(err.fieldIndex, starts.length - 1)]!;
  return new AthenaReadError(file.displayName, line + start.lineOffset, start.column, err.message);
}

function wrongFieldCount(
  file: AthenaSourceFile,
  dialect: AthenaDialect,
  fields: string[],
  line: number,
  raw: string | null,
  expected: number,
): AthenaReadError {
  const starts = fieldStarts(dialect, raw ?? fields.join(dialect.delimiter));
  const found = fields.length;
  const separator = dialect === TAB_DIALECT ? 'TAB' : 'comma';
  if (found < expected) {
    const end = starts[starts.length - 1]!;
    return new AthenaReadError(
      file.displayName,
      line + end.lineOffset,
      end.column,
      `wrong number of fields: the header has ${expected} ${separator}-separated fields, this line has ${found}; the line ends here, where field ${found + 1} was expected` +
        (dialect === COMMA_DIALECT ? ' (a field containing a comma must be quoted)' : ''),
    );
  }
  const extra = starts[expected]!;
  return new AthenaReadError(
    file.displayName,
    line + extra.lineOffset,
    extra.column,
    `wrong number of fields: the header has ${expected} ${separator}-separated fields, this line has ${found}; field ${expected + 1} starts here` +
      (dialect === COMMA_DIALECT ? ' (a field containing a comma must be quoted)' : ' (a value containing a TAB?)'),
  );
}

/** Explains a failure of the file, gunzip or csv-parse stream in terms of the file and line. */
function explainStreamError(err: unknown, file: AthenaSourceFile, dialect: AthenaDialect | null, lastLine: number): Error {
  if (err instanceof AthenaReadError) return err;
  const e = err as NodeJS.ErrnoException & { raw?: string };
  if (err instanceof CsvError) {
    let column: number | null = null;
    let startLine = lastLine + 1;
    if (dialect && typeof e.raw === 'string') {
      // raw holds the record up to the error: the offending field is its last one.
      const starts = fieldStarts(dialect, e.raw);
      const field = starts[starts.length - 2] ?? starts[0]!;
      startLine = lastLine + 1 + field.lineOffset;
      column = field.column;
    }
    return new AthenaReadError(file.displayName, startLine, column, csvProblem(err));
  }
  if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR' || e.code === 'EIO') {
    return new AthenaReadError(file.displayName, null, null, `cannot read the file: ${e.message}`);
  }
  if (file.gzip && (e.code?.startsWith('Z_') || e.errno !== undefined)) {
    const what = e.code === 'Z_BUF_ERROR' ? 'truncated (the compressed data ends too early)' : `corrupt (${e.message})`;
    return new AthenaReadError(
      file.displayName,
      null,
      null,
      `the gzip data is ${what}; ${lastLine > 0 ? `line ${lastLine} was the last one read` : 'not even the header line could be read'}. ` +
        'The file is incomplete or damaged: download or copy it again',
    );
  }
  return new AthenaReadError(file.displayName, lastLine > 0 ? lastLine : null, null, `cannot read the file: ${e.message ?? String(err)}`);
}

function csvProblem(err: CsvError): string {
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'unterminated quote: the quoted field opened here is never closed (the file ends inside the quotes)';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'bad quoting: a quoted field must end with a quote followed by a comma or the end of the line ' + `(${err.message})`;
    case 'CSV_MAX_RECORD_SIZE':
      return `a record longer than ${MAX_RECORD_CHARS} characters starts here, probably an unclosed quote`;
    default:
      return `cannot parse the CSV: ${err.message}`;
  }
}
