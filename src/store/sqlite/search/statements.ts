/** Prepared statements of one search-store connection, cached by SQL text, and list binding. */
import type Database from 'better-sqlite3';

/** Lists of up to this many values are bound as `IN (?, ?, …)`; longer ones go through json_each. */
const MAX_BOUND_LIST = 64;

export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /**
   * The right-hand side of `IN` for a list of values: bound parameters for short lists (one cached
   * statement per length), json_each for long ones. Not for the rowid of a full-text table: SQLite
   * 3.53 (as bundled) turns a one-value list into `rowid = ?`, and FTS5 ignores `MATCH ? AND rowid = ?`
   * with a bound rowid (every match comes back); use json_each there.
   */
  inList(values: ReadonlyArray<string | number>): { sql: string; params: unknown[] } {
    if (values.length <= MAX_BOUND_LIST) return { sql: `(${values.map(() => '?').join(', ')})`, params: [...values] };
    return { sql: '(SELECT value FROM json_each(?))', params: [JSON.stringify(values)] };
  }
}

/** Appends `value` to the list of `key` in `map`. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
