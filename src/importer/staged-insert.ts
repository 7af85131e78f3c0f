/**
 * Bulk load of the two big clustered tables (CONCEPT_RELATIONSHIP, CONCEPT_ANCESTOR): rows are appended to an
 * un-indexed staging table in a scratch database, then copied into the WITHOUT ROWID table by one sorted
 * `INSERT OR IGNORE … SELECT … ORDER BY <primary key>, rowid`, which keeps the first row of a repeated key.
 */
import type Database from 'better-sqlite3';
import type { AthenaValue } from '../athena/row-decoder.js';

export interface DuplicateKeyGroup {
  /** The repeated key, column → value. */
  key: Record<string, unknown>;
  /** Source lines holding that key, ascending (the first one was kept). */
  lines: number[];
}

export class StagedInsert {
  private readonly statement: Database.Statement<[AthenaValue[]]>;
  private readonly params: AthenaValue[];
  private readonly stagingTable: string;
  /** Rows staged so far. */
  staged = 0;

  constructor(
    private readonly db: Database.Database,
    stagingSchema: string,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly keyColumns: readonly string[],
  ) {
    this.stagingTable = `${stagingSchema}.${table}_staging`;
    db.exec(`DROP TABLE IF EXISTS ${this.stagingTable}; CREATE TABLE ${this.stagingTable} (${columns.join(', ')})`);
    this.statement = db.prepare<[AthenaValue[]]>(`INSERT INTO ${this.stagingTable} (rowid, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`);
    this.params = new Array<AthenaValue>(columns.length + 1).fill(null);
  }

  insert(values: AthenaValue[], line: number): void {
    const params = this.params;
    params[0] = line;
    for (let i = 0; i < values.length; i++) params[i + 1] = values[i]!;
    this.statement.run(params);
    this.staged++;
  }

  /** Copies the staged rows into the final table in key order; returns the number of rows stored. */
  sortIntoFinalTable(): number {
    const columns = this.columns.join(', ');
    const key = this.keyColumns.join(', ');
    this.db.exec('BEGIN');
    const stored = this.db
      .prepare(`INSERT OR IGNORE INTO main.${this.table} (${columns}) SELECT ${columns} FROM ${this.stagingTable} ORDER BY ${key}, rowid`)
      .run().changes;
    this.db.exec('COMMIT');
    return stored;
  }

  dropStagingTable(): void {
    this.db.exec(`DROP TABLE ${this.stagingTable}`);
  }

  /**
   * Rows dropped as repeats of a key for which `keyCondition` (SQL over the key columns) holds.
   * Sorts the whole staging table again: call it only when there are duplicates.
   */
  countDroppedDuplicatesWhere(keyCondition: string): number {
    const key = this.keyColumns.join(', ');
    return this.db
      .prepare(`SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM ${this.stagingTable} GROUP BY ${key} HAVING count(*) > 1 AND (${keyCondition}))`)
      .pluck()
      .get() as number;
  }

  /** A few repeated keys with their source lines. Sorts the whole staging table again: call it only when there are duplicates. */
  findDuplicateExamples(limit: number): DuplicateKeyGroup[] {
    const key = this.keyColumns.join(', ');
    const rows = this.db
      .prepare(`SELECT ${key}, group_concat(rowid) AS lines FROM ${this.stagingTable} GROUP BY ${key} HAVING count(*) > 1 LIMIT ?`)
      .all(limit) as Array<Record<string, unknown> & { lines: string }>;
    return rows.map(({ lines, ...keyValues }) => ({
      key: keyValues,
      lines: lines
        .split(',')
        .map(Number)
        .sort((a, b) => a - b),
    }));
  }
}
