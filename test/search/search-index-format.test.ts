/**
 * The search index format (src/importer/build-search-index.ts, read by SqliteSearchStore): the
 * per-word band masks and the precomputed counts, checked against what the fixture below contains.
 * Band numbers are the documented layout (band = 2 × partition + 1 for a non-core domain; partitions
 * standard 0, classification 1, non-standard 2, …, invalid 6), written out here, not computed.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { concept, licensed, openFixtureStore, run, type FixtureStore } from './search-fixture.js';

const STANDARD_CORE = 0;
const STANDARD_OTHER = 1;
const CLASSIFICATION_CORE = 2;
const NON_STANDARD_CORE = 4;
const INVALID_CORE = 12;

let f: FixtureStore;
beforeAll(async () => {
  f = await openFixtureStore({
    concepts: [
      concept('Gadget fracture', { concept_id: 1 }), // standard, core domain
      concept('Gadget observation', { concept_id: 2, domain_id: 'Observation' }), // standard, other domain
      concept('Gizmo widget', { concept_id: 3, standard_concept: null, domain_id: 'Drug' }), // non-standard core
      concept('Superwidgets', { concept_id: 4, standard_concept: 'C' }), // classification core
      concept('Old widget', { concept_id: 5, invalid_reason: 'D' }), // invalid core
      concept('Plain thing', { concept_id: 6 }),
    ],
    synonyms: [[6, 'gadget synonym']],
  });
});
afterAll(() => f?.close());

function withStore<T>(read: (db: Database.Database) => T): T {
  const db = new Database(f.build.storePath, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

describe('search index format', () => {
  it('is layout version 4 with a recorded fingerprint', () => {
    withStore((db) => {
      const meta = new Map((db.prepare('SELECT key, value FROM search_index_meta').all() as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]));
      expect(meta.get('version')).toBe('4');
      expect(meta.get('fingerprint')).toMatch(/^[0-9a-f]{16}$/);
      expect(JSON.parse(meta.get('band_sizes')!)[STANDARD_CORE]).toBe(2); // concepts 1 and 6
    });
  });

  it('records the bands each word occurs in (names and synonyms)', () => {
    withStore((db) => {
      const bands = (word: string) => db.prepare('SELECT bands FROM search_word WHERE word = ?').pluck().get(word);
      expect(bands('gadget')).toBe((1 << STANDARD_CORE) | (1 << STANDARD_OTHER)); // concept 6's synonym is in band 0 too
      expect(bands('widget')).toBe((1 << NON_STANDARD_CORE) | (1 << INVALID_CORE));
      expect(bands('superwidgets')).toBe(1 << CLASSIFICATION_CORE);
      expect(bands('synonym')).toBe(1 << STANDARD_CORE);
    });
  });

  it('keys the precomputed counts by what they count (word, band, hidden vocabularies), not by query text', () => {
    // The fixture has no word frequent enough to be precounted; plant a count in a copy of the store.
    const copy = `${f.build.storePath}.counted.sqlite`;
    withStore((db) => db.exec(`VACUUM INTO '${copy}'`));
    const hidden = [...licensed().hiddenVocabularyIds()].sort();
    const writable = new Database(copy);
    writable.prepare('INSERT INTO search_count (key, value) VALUES (?, ?)').run(JSON.stringify(['gadget', STANDARD_CORE, hidden]), 40);
    writable.close();
    const store = openSqliteRelease({ ...f.build, storePath: copy });
    try {
      expect(run(f.store, 'gadget').total).toBe(3); // concepts 1, 2 and 6 (synonym)
      expect(run(store, 'gadget').total).toBe(40 + 1); // band 0 from the planted count, concept 2 (band 1) counted live
      expect(run(store, 'Gadget', { filters: { domainIds: ['Condition'] } }).total).toBe(2); // a filter: counted live
    } finally {
      store.close();
    }
  });
});
