/**
 * Inserts rows straight into their final table with one prepared statement. With `keepFirst`,
 * a row whose primary key is already stored is ignored and `insert` says so (the caller reports
 * the duplicate).
 */
import type Database from 'better-sqlite3';
import type { AthenaValue } from '../athena/row-decoder.js';

export class DirectInsert {
  private readonly statement: Database.Statement<[AthenaValue[]]>;
  /** Rows stored so far. */
  stored = 0;

  constructor(db: Database.Database, table: string, columns: readonly string[], options: { keepFirst: boolean }) {
    this.statement = db.prepare<[AthenaValue[]]>(
      `INSERT ${options.keepFirst ? 'OR IGNORE ' : ''}INTO main.${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
  }

  /** Returns false when the row was a duplicate and was not stored. */
  insert(values: AthenaValue[]): boolean {
    if (this.statement.run(values).changes === 0) return false;
    this.stored++;
    return true;
  }
}
