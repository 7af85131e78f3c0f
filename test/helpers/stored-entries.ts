/** Every entry (name or synonym) of an embedding set, read from its entries.sqlite in key order. */
import Database from 'better-sqlite3';
import type { SemanticEntry } from '../../src/store/semantic-index.js';

export function storedEntries(entriesPath: string): SemanticEntry[] {
  const db = new Database(entriesPath, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT key, concept_id, text, is_synonym FROM entries ORDER BY key').all() as Array<Omit<SemanticEntry, 'is_synonym'> & { is_synonym: number }>;
    return rows.map((r) => ({ ...r, is_synonym: r.is_synonym === 1 }));
  } finally {
    db.close();
  }
}
