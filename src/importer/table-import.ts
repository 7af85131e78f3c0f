/**
 * Loads one Athena table file into the store: streams its records, decodes them against the
 * table spec, hands each row to the table's importer and commits in large transactions.
 */
import type Database from 'better-sqlite3';
import { readAthenaFile } from '../athena/athena-file-reader.js';
import { readAthenaFileInThread } from '../athena/athena-file-thread.js';
import { mapColumns } from '../athena/column-mapping.js';
import { AthenaRowDecoder, type AthenaValue } from '../athena/row-decoder.js';
import type { AthenaSourceFile } from '../athena/source-files.js';
import type { AthenaTableSpec } from '../athena/table-specs.js';
import type { TableLoadStats } from '../store/release-manifest.js';
import type { AnomalyCollector } from './anomaly-collector.js';
import type { ConceptIdSet } from './concept-id-set.js';
import { cpuStopwatch, type LoadProgressListener } from './progress-events.js';

/** Ids of the reference tables, filled as they load (before CONCEPT), to spot unknown references. */
export interface ReferenceIds {
  vocabularies: Set<string>;
  domains: Set<string>;
  conceptClasses: Set<string>;
  relationships: Set<string>;
}

export interface TableImportContext {
  db: Database.Database;
  /** Schema holding staging tables (an attached scratch database). */
  stagingSchema: string;
  anomalies: AnomalyCollector;
  /** Concept ids stored so far (complete once CONCEPT is loaded). */
  conceptIds: ConceptIdSet;
  referenceIds: ReferenceIds;
  /** The file being read, as shown in messages. */
  fileName: string;
  progress: LoadProgressListener;
  /** Parse TAB-separated files on a thread of their own while this one stores the rows (../athena/athena-file-thread.ts). */
  parseInThread?: boolean;
}

/** The per-table part of a load: checks and stores decoded rows. */
export interface TableRowSink {
  /** One decoded row (values in spec column order; the array is reused, copy to keep). */
  accept(values: AthenaValue[], line: number): void;
  /** After the last row: finish storing; returns the number of rows stored. */
  finish(): number;
}

export interface TableImportDefinition {
  spec: AthenaTableSpec;
  open(ctx: TableImportContext): TableRowSink;
}

const ROWS_PER_TRANSACTION = 1_000_000;
const PROGRESS_INTERVAL_MS = 250;

export async function importTable(
  definition: TableImportDefinition,
  file: AthenaSourceFile,
  ctx: Omit<TableImportContext, 'fileName'>,
  signal?: AbortSignal,
): Promise<TableLoadStats> {
  const started = Date.now();
  const cpu = cpuStopwatch();
  const table = definition.spec.storeTable;
  const context: TableImportContext = { ...ctx, fileName: file.displayName };
  let decoder: AthenaRowDecoder | null = null;
  let sink: TableRowSink | null = null;
  let rowsInTransaction = 0;
  let currentLine = 0;
  let lastProgressAt = started;

  ctx.db.exec('BEGIN');
  const read = ctx.parseInThread ? readAthenaFileInThread : readAthenaFile;
  const result = await read(
    file,
    {
      onHeader: (header) => {
        ctx.progress({ type: 'table-start', table, file: file.displayName, dialect: header.dialect.description });
        if (header.names.length === 0) {
          ctx.anomalies.report('empty_file', file.displayName, null, 'no header line; read as an empty table');
          return;
        }
        const mapping = mapColumns(definition.spec, header, file.displayName);
        for (const extra of mapping.extraColumns) {
          ctx.anomalies.report('extra_column', file.displayName, 1, `column '${extra}' is not part of ${definition.spec.name}; ignored`);
        }
        decoder = new AthenaRowDecoder(definition.spec, mapping, (issue, column, value) => {
          ctx.anomalies.report(issue, file.displayName, currentLine, issue === 'over_long_value'
            ? `${column.name} has ${value.length} characters (CDM limit ${column.maxLength})`
            : `${column.name} is empty`);
        });
        sink = definition.open(context);
      },
      onRecord: (fields, line) => {
        currentLine = line;
        sink!.accept(decoder!.decode(fields), line);
        if (++rowsInTransaction === ROWS_PER_TRANSACTION) {
          ctx.db.exec('COMMIT; BEGIN');
          rowsInTransaction = 0;
        }
      },
      onBlankLine: (line) => ctx.anomalies.report('blank_line', file.displayName, line, 'empty line skipped'),
      onProgress: (rows) => {
        const now = Date.now();
        if (now - lastProgressAt >= PROGRESS_INTERVAL_MS) {
          lastProgressAt = now;
          ctx.progress({ type: 'table-rows', table, rows });
        }
      },
    },
    signal,
  );
  ctx.db.exec('COMMIT');
  const rowsStored = sink ? (sink as TableRowSink).finish() : 0;
  const stats: TableLoadStats = { rows_read: result.dataRows, rows_stored: rowsStored, file: file.displayName, elapsed_ms: Date.now() - started };
  ctx.progress({ type: 'table-done', table, rowsRead: stats.rows_read, rowsStored, elapsedMs: stats.elapsed_ms, cpuMs: cpu() });
  return stats;
}
