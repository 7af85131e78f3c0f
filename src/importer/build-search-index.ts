/**
 * Builds the keyword-search index of a release (E4): the concept ranks, the synonym key hashes, one contentless
 * FTS5 table per band (rowid = static ord), the word dictionary and a cache of frequent counts, read-only at serve
 * time.
 */
import type Database from 'better-sqlite3';
import { formatQuantity } from './format.js';
import type { IndexBuildContext, IndexBuilder } from './index-builder.js';
import { BAND_COUNT, bandOf, LENGTH_BUCKET_COUNT, nameLength, ORD_SPAN, partitionOf, sortKeyLengthBucket, staticSortKey } from '../search-model/ranking.js';
import { contentTokens, wordSetKey } from '../search-model/stop-words.js';
import { exactKeyHash, indexText, tokenize, wordSetHash } from '../search-model/text-normalization.js';
import { NEVER_SERVED_VOCABULARIES, VALIDATION_REQUIRED_VOCABULARIES } from '../licences/licence-rules.js';
import {
  classTag,
  domainTag,
  SEARCH_INDEX_FINGERPRINT,
  SEARCH_INDEX_VERSION,
  standardTag,
  TAG_PREFIX,
  TEXT_TABLE_OPTIONS,
  textTableName,
  vocabularyTag,
  WORD_TRIGRAM_OPTIONS,
  wordCountKey,
} from '../store/sqlite/search/search-index-layout.js';
import { SqliteSearchStore } from '../store/sqlite/sqlite-search-store.js';

/** One-word queries whose word is in at least this many concepts get their total counted at build time. */
export const PRECOUNT_MIN_DOCS = 20000;
export const PRECOUNT_MAX_WORDS = 3000;

const SYNONYM_SEPARATOR = '\u001f';

export function dropSearchIndex(db: Database.Database): void {
  for (let b = 0; b < BAND_COUNT; b++) db.exec(`DROP TABLE IF EXISTS ${textTableName(b)}`);
  db.exec(`DROP TABLE IF EXISTS search_count; DROP TABLE IF EXISTS search_word_trigram; DROP TABLE IF EXISTS search_word; DROP TABLE IF EXISTS search_synonym_key;
           DROP TABLE IF EXISTS search_concept; DROP TABLE IF EXISTS search_index_meta;`);
}

/** Synonym text for the index: tokens of each findable synonym that differs from the name, deduplicated. */
export function synonymIndexText(name: string, joinedSynonyms: string | null): string {
  if (!joinedSynonyms) return '';
  const nameText = indexText(name);
  const seen = new Set<string>([nameText]);
  const parts: string[] = [];
  for (const synonym of joinedSynonyms.split(SYNONYM_SEPARATOR)) {
    const tokens = tokenize(synonym);
    if (contentTokens(tokens).length === 0) continue; // search rule 5: stop words/punctuation only
    const text = tokens.join(' ');
    if (seen.has(text)) continue;
    seen.add(text);
    parts.push(text);
  }
  return parts.join(' ');
}

export function buildSearchIndex(ctx: IndexBuildContext): void {
  const { db, log } = ctx;
  const started = Date.now();
  dropSearchIndex(db);

  // 1. Static order: one pass over the concepts, keys in typed arrays (no names kept in memory).
  const total = (db.prepare('SELECT count(*) AS n FROM concept').get() as { n: number }).n;
  const keys = new Float64Array(total);
  const bands = new Uint8Array(total);
  const nameHashes = new Float64Array(total);
  let n = 0;
  const scan = db.prepare(
    'SELECT concept_id, concept_name, domain_id, vocabulary_id, concept_class_id, standard_concept, invalid_reason FROM concept ORDER BY concept_id',
  );
  for (const [conceptId, name, domainId, vocabularyId, conceptClassId, standardConcept, invalidReason] of scan.raw().iterate() as IterableIterator<
    [number, string, string, string, string, string | null, string | null]
  >) {
    keys[n] = staticSortKey(nameLength(name), vocabularyId, conceptId);
    bands[n] = bandOf(partitionOf({ standard_concept: standardConcept, concept_class_id: conceptClassId, invalid_reason: invalidReason }), domainId);
    nameHashes[n] = exactKeyHash(name);
    n++;
  }
  const sorted = Float64Array.from(keys).sort();
  // ord of row i = position of keys[i] in `sorted`; collect rows per band in ord order.
  const ordOf = new Uint32Array(total);
  const bandSizes = new Array<number>(BAND_COUNT).fill(0);
  for (let i = 0; i < total; i++) {
    let lo = 0;
    let hi = total - 1;
    const k = keys[i]!;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < k) lo = mid + 1;
      else hi = mid;
    }
    ordOf[i] = lo;
    bandSizes[bands[i]!]!++;
  }
  // bucketStarts[b] = first ord whose length bucket is ≥ b (ords below bucketStarts[b + 1] are in buckets ≤ b).
  const bucketStarts = new Array<number>(LENGTH_BUCKET_COUNT + 1).fill(total);
  let nextBucket = 0;
  for (let ord = 0; ord < total; ord++) {
    const bucket = sortKeyLengthBucket(sorted[ord]!);
    while (nextBucket <= bucket) bucketStarts[nextBucket++] = ord;
  }
  // rows in rank order (band, ord): counting sort by band over rows sorted by ord
  const rowByOrd = new Uint32Array(total);
  for (let i = 0; i < total; i++) rowByOrd[ordOf[i]!] = i;
  // concept ids are needed again to insert: read them back in the same order as the scan
  const conceptIds = new Int32Array(total);
  {
    let i = 0;
    for (const row of db.prepare('SELECT concept_id FROM concept ORDER BY concept_id').pluck().iterate() as IterableIterator<number>) {
      conceptIds[i++] = row;
    }
  }
  db.exec(`CREATE TABLE search_concept (rank INTEGER PRIMARY KEY, concept_id INTEGER NOT NULL, name_hash INTEGER NOT NULL)`);
  const insertConcept = db.prepare('INSERT INTO search_concept (rank, concept_id, name_hash) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let band = 0; band < BAND_COUNT; band++) {
      if (bandSizes[band] === 0) continue;
      for (let ord = 0; ord < total; ord++) {
        const i = rowByOrd[ord]!;
        if (bands[i] !== band) continue;
        insertConcept.run(band * ORD_SPAN + ord, conceptIds[i]!, nameHashes[i]!);
      }
    }
  })();
  db.exec(`CREATE INDEX search_concept_by_concept ON search_concept (concept_id);
           CREATE INDEX search_concept_by_name ON search_concept (name_hash);`);
  log(`static order of ${formatQuantity(total, 'concept')} (${Date.now() - started} ms)`);

  // 2. Synonym keys (exact key and word set) of every findable synonym.
  const t2 = Date.now();
  db.exec(`CREATE TEMP TABLE search_synonym_key_tmp (key_hash INTEGER NOT NULL, rank INTEGER NOT NULL)`);
  // Hashes are computed by SQL functions so the rows never travel through JavaScript one by one
  // (and so no write happens while a read cursor is open).
  db.function('search_findable', { deterministic: true }, (text: unknown) => (contentTokens(tokenize(String(text ?? ''))).length > 0 ? 1 : 0));
  db.function('search_exact_hash', { deterministic: true }, (text: unknown) => exactKeyHash(String(text ?? '')));
  db.function('search_word_set_hash', { deterministic: true }, (text: unknown) => wordSetHash(wordSetKey(tokenize(String(text ?? '')))));
  const synonymCount = db
    .prepare(
      `INSERT INTO search_synonym_key_tmp (key_hash, rank)
       SELECT search_exact_hash(cs.concept_synonym_name), s.rank
         FROM concept_synonym cs JOIN search_concept s ON s.concept_id = cs.concept_id
        WHERE search_findable(cs.concept_synonym_name)`, // search rule 5: stop words/punctuation only → not findable
    )
    .run().changes;
  db.prepare(
    `INSERT INTO search_synonym_key_tmp (key_hash, rank)
     SELECT search_word_set_hash(cs.concept_synonym_name), s.rank
       FROM concept_synonym cs JOIN search_concept s ON s.concept_id = cs.concept_id
      WHERE search_findable(cs.concept_synonym_name)`,
  ).run();
  db.exec(`CREATE TABLE search_synonym_key (key_hash INTEGER NOT NULL, rank INTEGER NOT NULL, PRIMARY KEY (key_hash, rank)) WITHOUT ROWID;
           INSERT INTO search_synonym_key SELECT DISTINCT key_hash, rank FROM search_synonym_key_tmp ORDER BY key_hash, rank;
           DROP TABLE search_synonym_key_tmp;`);
  log(`${formatQuantity(synonymCount, 'synonym key')} (${Date.now() - t2} ms)`);

  // 3. One contentless FTS5 table per band, filled in ord order.
  const t3 = Date.now();
  db.function('search_index_text', { deterministic: true }, (text: unknown) => indexText(String(text ?? '')));
  db.function('search_synonym_text', { deterministic: true }, (name: unknown, joined: unknown) =>
    synonymIndexText(String(name ?? ''), joined === null || joined === undefined ? null : String(joined)),
  );
  db.function('search_tags', { deterministic: true }, (v: unknown, d: unknown, c: unknown, s: unknown) =>
    [vocabularyTag(String(v)), domainTag(String(d)), classTag(String(c)), standardTag(s === 'S' ? 'S' : s === 'C' ? 'C' : 'N')].join(' '),
  );
  for (let band = 0; band < BAND_COUNT; band++) {
    const table = textTableName(band);
    db.exec(`CREATE VIRTUAL TABLE ${table} USING fts5(name, syn, tags, ${TEXT_TABLE_OPTIONS})`);
    if (bandSizes[band] === 0) continue;
    db.prepare(
      `INSERT INTO ${table} (rowid, name, syn, tags)
       SELECT s.rank - ?, search_index_text(c.concept_name),
              search_synonym_text(c.concept_name,
                (SELECT group_concat(cs.concept_synonym_name, char(31)) FROM concept_synonym cs WHERE cs.concept_id = c.concept_id)),
              search_tags(c.vocabulary_id, c.domain_id, c.concept_class_id, c.standard_concept)
         FROM search_concept s JOIN concept c ON c.concept_id = s.concept_id
        WHERE s.rank >= ? AND s.rank < ?
        ORDER BY s.rank`,
    ).run(band * ORD_SPAN, band * ORD_SPAN, (band + 1) * ORD_SPAN);
    db.exec(`INSERT INTO ${table} (${table}) VALUES ('optimize')`);
  }
  log(`full-text tables for ${BAND_COUNT} bands (${Date.now() - t3} ms)`);

  // 4. Word dictionary (most frequent first) and its trigram index, for fragment matching.
  const t4 = Date.now();
  db.exec(`CREATE TEMP TABLE search_word_tmp (word TEXT NOT NULL, docs INTEGER NOT NULL, band INTEGER NOT NULL)`);
  for (let band = 0; band < BAND_COUNT; band++) {
    if (bandSizes[band] === 0) continue;
    db.exec(`CREATE VIRTUAL TABLE temp.search_vocab_tmp USING fts5vocab(main, ${textTableName(band)}, 'row');
             INSERT INTO search_word_tmp SELECT term, doc, ${band} FROM temp.search_vocab_tmp WHERE term NOT LIKE '${TAG_PREFIX}%';
             DROP TABLE temp.search_vocab_tmp;`);
  }
  // bands: bit b set ⇔ the word occurs in band b (each (word, band) pair appears once, so the sum is an OR).
  db.exec(`CREATE TABLE search_word (id INTEGER PRIMARY KEY, word TEXT NOT NULL, docs INTEGER NOT NULL, bands INTEGER NOT NULL);
           INSERT INTO search_word (id, word, docs, bands)
             SELECT row_number() OVER (ORDER BY sum(docs) DESC, word), word, sum(docs), sum(1 << band) FROM search_word_tmp GROUP BY word ORDER BY 1;
           DROP TABLE search_word_tmp;
           CREATE UNIQUE INDEX search_word_by_word ON search_word (word);
           CREATE VIRTUAL TABLE search_word_trigram USING fts5(word, ${WORD_TRIGRAM_OPTIONS});
           INSERT INTO search_word_trigram (rowid, word) SELECT id, word FROM search_word WHERE length(word) >= 3 ORDER BY id;
           INSERT INTO search_word_trigram (search_word_trigram) VALUES ('optimize');`);
  const words = (db.prepare('SELECT count(*) AS n FROM search_word').get() as { n: number }).n;
  log(`dictionary of ${formatQuantity(words, 'word')} (${Date.now() - t4} ms)`);

  db.exec(`CREATE TABLE search_index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`);
  const meta = db.prepare('INSERT INTO search_index_meta (key, value) VALUES (?, ?)');
  meta.run('version', String(SEARCH_INDEX_VERSION));
  meta.run('fingerprint', SEARCH_INDEX_FINGERPRINT);
  meta.run('bucket_starts', JSON.stringify(bucketStarts));
  meta.run('band_sizes', JSON.stringify(bandSizes));

  // 5. Total counts of frequent one-word queries, for both sets of vocabularies a caller can be denied.
  const t5 = Date.now();
  db.exec(`CREATE TABLE search_count (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID`);
  const frequent = db
    .prepare(`SELECT word FROM search_word WHERE docs >= ? AND length(word) >= 3 ORDER BY id LIMIT ?`)
    .pluck()
    .all(PRECOUNT_MIN_DOCS, PRECOUNT_MAX_WORDS) as string[];
  const hiddenSets = [[...NEVER_SERVED_VOCABULARIES], [...NEVER_SERVED_VOCABULARIES, ...VALIDATION_REQUIRED_VOCABULARIES]];
  const reader = new SqliteSearchStore(db, { useStoredCounts: false });
  const insertCount = db.prepare('INSERT OR REPLACE INTO search_count (key, value) VALUES (?, ?)');
  const allBands = Array.from({ length: BAND_COUNT }, (_, b) => b);
  const rows: Array<[string, number]> = [];
  for (const word of frequent) {
    for (const hidden of hiddenSets) {
      const counts = reader.countAnyText([{ tokens: [word], requiredTokens: [word] }], allBands, { hiddenVocabularyIds: hidden });
      for (const [band, n] of counts) rows.push([wordCountKey(word, band, hidden), n]);
    }
  }
  db.transaction(() => {
    for (const [key, value] of rows) insertCount.run(key, value);
  })();
  log(`counts of ${formatQuantity(frequent.length, 'frequent word')} (${Date.now() - t5} ms)`);

  meta.run('concepts', String(total));
  meta.run('synonyms_indexed', String(synonymCount));
  meta.run('words', String(words));
  meta.run('build_ms', String(Date.now() - started));
  log(`done in ${Date.now() - started} ms`);
}

export const searchIndexBuilder: IndexBuilder = {
  name: 'search index',
  build: buildSearchIndex,
};
