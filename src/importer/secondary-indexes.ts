/** Creates the store's secondary indexes (INDEX_DDL) once the base tables are filled: a sorted build per index. */
import { INDEX_DDL } from '../store/schema.js';
import type { IndexBuilder } from './index-builder.js';

export const secondaryIndexBuilder: IndexBuilder = {
  name: 'secondary indexes',
  build({ db, log }) {
    const statements = INDEX_DDL.split(';')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const statement of statements) {
      const started = Date.now();
      db.exec(statement);
      const name = /CREATE INDEX (\w+)/i.exec(statement)?.[1] ?? statement.slice(0, 40);
      log(`${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  },
};
