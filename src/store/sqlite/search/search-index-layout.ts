/**
 * The layout of the SQLite search index shared by its writer (src/importer/build-search-index.ts) and its readers,
 * and the fingerprint (sha256 of that layout and the search model) with which a server refuses a store built
 * otherwise.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { searchModelDefinition } from '../../../search-model/search-model-definition.js';
import type { StandardFlag } from '../../search-store.js';

/**
 * Version of the table layout below. 3: counts keyed by what they count, fingerprint recorded.
 * 4: the word trigram index without positions. Versions 1 and 2 never shipped; every other
 * version is refused like any store with another fingerprint.
 */
export const SEARCH_INDEX_VERSION = 4;

/** Columns and tokenizer of the per-band full-text tables (rowid = static ord). */
export const TEXT_TABLE_OPTIONS = `content='', columnsize=0, detail=full, tokenize='unicode61 remove_diacritics 2'`;
/**
 * Tokenizer of the word dictionary's substring index. Without positions (detail=none): a lookup
 * intersects three of the part's trigrams and checks the candidates against the word itself
 * (../search/word-dictionary.ts), which measured 35 % faster than a positional trigram phrase.
 */
export const WORD_TRIGRAM_OPTIONS = `content='', columnsize=0, detail=none, tokenize='trigram'`;

export const textTableName = (band: number) => `search_text_${band}`;

/** Prefix of the filter tags stored in the `tags` column (no real word starts with it in practice). */
export const TAG_PREFIX = 'zzzt';
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
export const vocabularyTag = (v: string) => `${TAG_PREFIX}v${hex(v)}`;
export const domainTag = (d: string) => `${TAG_PREFIX}d${hex(d)}`;
export const classTag = (c: string) => `${TAG_PREFIX}c${hex(c)}`;
export const standardTag = (s: StandardFlag) => `${TAG_PREFIX}s${s.toLowerCase()}`;

/**
 * Key of a precomputed count (table search_count): how many concepts of `band` contain `word` (as a
 * word, prefix or substring of a word: the union of every text tier of the one-word query) when the
 * vocabularies `hidden` are left out and no other filter applies.
 */
export function wordCountKey(word: string, band: number, hidden: readonly string[]): string {
  return JSON.stringify([word, band, [...hidden].sort()]);
}

/** The fingerprint of this layout and of the search model it was built with. */
export const SEARCH_INDEX_FINGERPRINT: string = createHash('sha256')
  .update(
    JSON.stringify({
      layout_version: SEARCH_INDEX_VERSION,
      text_table_options: TEXT_TABLE_OPTIONS,
      word_trigram_options: WORD_TRIGRAM_OPTIONS,
      tags: [TAG_PREFIX, vocabularyTag('v'), domainTag('d'), classTag('c'), standardTag('S')],
      count_key: wordCountKey('w', 0, ['b', 'a']),
      model: searchModelDefinition(),
    }),
  )
  .digest('hex')
  .slice(0, 16);

/** The fingerprint recorded in a store ('none' when it has none: a store built before fingerprints). */
function storedSearchIndexFingerprint(db: Database.Database): string {
  try {
    const value = db.prepare("SELECT value FROM search_index_meta WHERE key = 'fingerprint'").pluck().get() as string | undefined;
    return value ?? 'none';
  } catch {
    return 'none'; // no search_index_meta table
  }
}

/** Throws the reload instruction when the store's search index was built with other definitions. */
export function assertSearchIndexFingerprint(db: Database.Database, storePath: string, label: string): void {
  const stored = storedSearchIndexFingerprint(db);
  if (stored === SEARCH_INDEX_FINGERPRINT) return;
  throw new Error(
    `store ${storePath} was built by a different search index (fingerprint ${stored}, this server expects ${SEARCH_INDEX_FINGERPRINT}): ` +
      `reload it with omopterm load <athena-dir> --release ${label} --replace`,
  );
}
