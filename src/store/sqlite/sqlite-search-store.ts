/**
 * SQLite implementation of SearchStore over the tables of src/importer/build-search-index.ts: it wires together
 * the parts in ./search/ (exact lookups, word dictionary, text streams, FTS expressions) and answers lookups by
 * rank.
 */
import type Database from 'better-sqlite3';
import type { ConceptRecord, SynonymRecord } from '../records.js';
import type {
  BrowseRequest,
  ExactLookupRequest,
  ExactLookups,
  IndexFilter,
  SearchHit,
  SearchStore,
  TagQuery,
  TextPhrasing,
  TextStream,
  TextStreamQuery,
} from '../search-store.js';
import { CONCEPT_COLUMNS, QUALIFIED_CONCEPT_COLUMNS, toConceptRecord, type StoredConceptRow } from './rows/concept-rows.js';
import { BatchedExactLookups, type RankedConceptRow } from './search/exact-lookups.js';
import { pushTo, StatementCache } from './search/statements.js';
import { SqliteTextIndex } from './search/text-streams.js';
import { SqliteWordDictionary } from './search/word-dictionary.js';

export interface SqliteSearchStoreOptions {
  /** false while the index is being built: the build-time counts (search_count) are not read. */
  useStoredCounts?: boolean;
}

export class SqliteSearchStore implements SearchStore {
  private readonly statements: StatementCache;
  private readonly bucketStarts: number[];
  private readonly text: SqliteTextIndex;

  /** `db` holds a search index of this server's layout (checked by assertSearchIndexFingerprint). */
  constructor(db: Database.Database, options: SqliteSearchStoreOptions = {}) {
    this.statements = new StatementCache(db);
    const rows = db.prepare('SELECT key, value FROM search_index_meta').all() as Array<{ key: string; value: string }>;
    const meta = new Map(rows.map((r) => [r.key, r.value]));
    this.bucketStarts = JSON.parse(meta.get('bucket_starts') ?? '[]') as number[];
    const bandSizes = JSON.parse(meta.get('band_sizes') ?? '[]') as number[];
    const storedCount = db.prepare('SELECT value FROM search_count WHERE key = ?').pluck();
    this.text = new SqliteTextIndex(
      this.statements,
      new SqliteWordDictionary(this.statements),
      bandSizes,
      options.useStoredCounts === false ? undefined : (key) => storedCount.get(key) as number | undefined,
    );
  }

  bucketStartOrds(): readonly number[] {
    return this.bucketStarts;
  }

  exactLookups(requests: readonly ExactLookupRequest[]): ExactLookups {
    return new BatchedExactLookups(this.statements, requests);
  }

  mapsToTargets(conceptId: number): SearchHit[] {
    const rows = this.statements
      .get(
        `SELECT s.rank AS rank, ${QUALIFIED_CONCEPT_COLUMNS}
           FROM concept_relationship r JOIN concept c ON c.concept_id = r.concept_id_2 JOIN search_concept s ON s.concept_id = c.concept_id
          WHERE r.concept_id_1 = ? AND r.relationship_id = 'Maps to' AND r.invalid_reason IS NULL
            AND c.standard_concept = 'S' AND c.invalid_reason IS NULL
          ORDER BY s.rank`,
      )
      .all(conceptId) as RankedConceptRow[];
    return rows.map((r) => ({ rank: r.rank, concept: toConceptRecord(r) }));
  }

  synonymsOf(conceptIds: readonly number[]): Map<number, SynonymRecord[]> {
    const out = new Map<number, SynonymRecord[]>();
    if (conceptIds.length === 0) return out;
    const list = this.statements.inList(conceptIds);
    const rows = this.statements
      .get(
        `SELECT concept_id, concept_synonym_name, language_concept_id FROM concept_synonym
          WHERE concept_id IN ${list.sql} ORDER BY concept_id, rowid`,
      )
      .all(...list.params) as Array<SynonymRecord & { concept_id: number }>;
    for (const r of rows) pushTo(out, r.concept_id, { concept_synonym_name: r.concept_synonym_name, language_concept_id: r.language_concept_id });
    return out;
  }

  wordDocCounts(words: readonly string[]): Map<string, number> {
    const out = new Map<string, number>();
    if (words.length === 0) return out;
    const list = this.statements.inList(words);
    const rows = this.statements.get(`SELECT word, docs FROM search_word WHERE word IN ${list.sql}`).all(...list.params) as Array<{ word: string; docs: number }>;
    for (const r of rows) out.set(r.word, r.docs);
    return out;
  }

  hitsByRank(ranks: readonly number[]): SearchHit[] {
    if (ranks.length === 0) return [];
    const list = this.statements.inList(ranks);
    const rows = this.statements
      .get(`SELECT s.rank AS rank, ${QUALIFIED_CONCEPT_COLUMNS} FROM search_concept s JOIN concept c ON c.concept_id = s.concept_id WHERE s.rank IN ${list.sql}`)
      .all(...list.params) as RankedConceptRow[];
    const byRank = new Map(rows.map((r) => [r.rank, r]));
    const out: SearchHit[] = [];
    for (const rank of ranks) {
      const row = byRank.get(rank);
      if (row) out.push({ rank, concept: toConceptRecord(row) });
    }
    return out;
  }

  textStream(query: TextStreamQuery): TextStream {
    return this.text.textStream(query);
  }

  countAnyText(phrasings: readonly TextPhrasing[], bands: readonly number[], filter: IndexFilter, cap?: number): Map<number, number> {
    return this.text.countAnyText(phrasings, bands, filter, cap);
  }

  textMatchesAmong(phrasings: readonly TextPhrasing[], ranks: readonly number[]): Set<number> {
    return this.text.textMatchesAmong(phrasings, ranks);
  }

  tagMatches(query: TagQuery, limit: number, bandCounts: ReadonlyMap<number, number>): number[] {
    return this.text.tagMatches(query, limit, bandCounts);
  }

  browseVocabulary(request: BrowseRequest): { concepts: ConceptRecord[]; total: number } {
    const where = ['vocabulary_id = ?'];
    const params: unknown[] = [request.vocabularyId];
    if (!request.includeInvalid) where.push('invalid_reason IS NULL');
    if (request.standardConcepts?.length) {
      const parts = request.standardConcepts.map((s) => (s === 'N' ? 'standard_concept IS NULL' : `standard_concept = '${s}'`));
      where.push(`(${parts.join(' OR ')})`);
    }
    const condition = where.join(' AND ');
    const total = this.statements.get(`SELECT count(*) FROM concept INDEXED BY concept_by_vocabulary_code WHERE ${condition}`)
      .pluck()
      .get(...params) as number;
    const direction = request.descending ? 'DESC' : 'ASC';
    let rows: StoredConceptRow[];
    if (request.sortBy === 'concept_code') {
      rows = this.statements.get(
        `SELECT ${CONCEPT_COLUMNS} FROM concept INDEXED BY concept_by_vocabulary_code WHERE ${condition}
          ORDER BY vocabulary_id ${direction}, concept_code ${direction}, concept_id ${direction} LIMIT ? OFFSET ?`,
      ).all(...params, request.limit, request.offset) as StoredConceptRow[];
    } else {
      const key = request.sortBy === 'concept_name' ? 'concept_name' : 'concept_id';
      rows = this.statements.get(
        `SELECT ${CONCEPT_COLUMNS} FROM concept INDEXED BY concept_by_vocabulary_code WHERE ${condition}
          ORDER BY ${key} ${direction}, concept_id ${direction} LIMIT ? OFFSET ?`,
      ).all(...params, request.limit, request.offset) as StoredConceptRow[];
    }
    return { concepts: rows.map(toConceptRecord), total };
  }
}
