/**
 * The search index format (src/importer/build-search-index.ts, read by SqliteSearchStore): the
 * per-word band masks of version 2, and version 1 indexes (without masks) still searched the same.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bandOf, partitionOf } from '../../src/services/search/ranking.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { SEARCH_INDEX_VERSION } from '../../src/store/sqlite/sqlite-search-store.js';
import { concept, ids, openFixtureStore, run, type FixtureStore } from './search-fixture.js';

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

const bit = (c: { standard_concept?: string | null; concept_class_id?: string; invalid_reason?: string | null; domain_id: string }) =>
  1 << bandOf(partitionOf({ standard_concept: c.standard_concept ?? null, concept_class_id: c.concept_class_id ?? 'Clinical Finding', invalid_reason: c.invalid_reason ?? null }), c.domain_id);

describe('search index format', () => {
  it(`is version ${SEARCH_INDEX_VERSION}, with the bands each word occurs in (names and synonyms)`, () => {
    const db = new Database(f.build.storePath, { readonly: true });
    try {
      expect(db.prepare("SELECT value FROM search_index_meta WHERE key = 'version'").pluck().get()).toBe(String(SEARCH_INDEX_VERSION));
      const bands = (word: string) => db.prepare('SELECT bands FROM search_word WHERE word = ?').pluck().get(word);
      const standardCore = bit({ domain_id: 'Condition', standard_concept: 'S' });
      expect(bands('gadget')).toBe(standardCore | bit({ domain_id: 'Observation', standard_concept: 'S' }));
      expect(bands('widget')).toBe(bit({ domain_id: 'Drug', standard_concept: null }) | bit({ domain_id: 'Condition', invalid_reason: 'D', standard_concept: 'S' }));
      expect(bands('superwidgets')).toBe(bit({ domain_id: 'Condition', standard_concept: 'C' }));
      expect(bands('synonym')).toBe(standardCore);
    } finally {
      db.close();
    }
  });

  it('reads a version 1 index (no band masks) and finds the same concepts in the same order', () => {
    const queries: Array<[string, Parameters<typeof run>[2]]> = [
      ['gadget', {}],
      ['widget', { filters: { includeInvalid: true } }],
      ['idget', {}],
      ['gadget fracture', {}],
      ['gadg', { prefixLastToken: true }],
    ];
    const expected = queries.map(([q, o]) => ids(run(f.store, q, o).items));
    expect(expected.flat().length).toBeGreaterThan(8);
    const copy = `${f.build.storePath}.v1.sqlite`;
    const writable = new Database(f.build.storePath, { readonly: true });
    writable.exec(`VACUUM INTO '${copy}'`);
    writable.close();
    const v1 = new Database(copy);
    v1.exec(`ALTER TABLE search_word DROP COLUMN bands; UPDATE search_index_meta SET value = '1' WHERE key = 'version';`);
    v1.close();
    const store = openSqliteRelease({ ...f.build, storePath: copy });
    try {
      expect(store.search.available).toBe(true);
      expect(queries.map(([q, o]) => ids(run(store, q, o).items))).toEqual(expected);
    } finally {
      store.close();
    }
  });
});
