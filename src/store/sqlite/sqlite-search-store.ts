/**
 * SQLite implementation of SearchStore over the tables written by src/importer/build-search-index.ts.
 * Each indexed tier becomes one FTS5 expression per band; see tierExpression() for the definitions.
 */
import type Database from 'better-sqlite3';
import { BAND_COUNT, ORD_SPAN } from '../../services/search/ranking.js';
import type { SynonymRecord } from '../records.js';
import type { BrowseRequest, IndexedTier, IndexFilter, SearchHit, SearchStore, TextPhrasing, TextStreamQuery } from '../search-store.js';
import type { ConceptRecord } from '../records.js';
import { CONCEPT_COLUMNS, toConceptRecord, type StoredConceptRow } from './sqlite-concept-store.js';

/** Format of the search tables (written by src/importer/build-search-index.ts); a mismatch disables search. */
export const SEARCH_INDEX_VERSION = 1;

/** Prefix of the filter tags stored in the `tags` column (no real word starts with it in practice). */
export const TAG_PREFIX = 'zzzt';
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
export const vocabularyTag = (v: string) => `${TAG_PREFIX}v${hex(v)}`;
export const domainTag = (d: string) => `${TAG_PREFIX}d${hex(d)}`;
export const classTag = (c: string) => `${TAG_PREFIX}c${hex(c)}`;
export const standardTag = (s: 'S' | 'C' | 'N') => `${TAG_PREFIX}s${s.toLowerCase()}`;
export const textTableName = (band: number) => `search_text_${band}`;

/** A fragment (word part) of 3+ characters matches at most this many indexed words, most frequent first. */
export const FRAGMENT_EXPANSION_LIMIT = 64;
const STREAM_CACHE_MAX_ITEMS = 256;
/** Totals of queries with up to this many required words are counted as 2^n disjoint parts (see unionCountExpressions). */
const UNION_SPLIT_MAX_WORDS = 3;
/** Prefix expansion of a 1–2 character last word (autocomplete) looks at most this many words. */
const SHORT_PREFIX_SCAN = 5000;

const QUALIFIED = CONCEPT_COLUMNS.split(', ')
  .map((c) => `c.${c}`)
  .join(', ');

class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly capacity: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
  }
}

const quote = (token: string) => `"${token.replace(/"/g, '""')}"`;
const orOf = (parts: readonly string[]) => (parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`);

type Row = StoredConceptRow & { rank: number };

const countKey = (table: string, match: string, exclude: string, ordLimit: number) => `${table}\u0000${match}\u0000${exclude}\u0000${ordLimit}`;

interface CountEntry {
  value: number;
  exact: boolean;
}

export class SqliteSearchStore implements SearchStore {
  readonly available: boolean;
  private readonly bucketStarts: number[] = [];
  private readonly bandSizes: number[] = new Array<number>(BAND_COUNT).fill(0);
  private readonly statements = new Map<string, Database.Statement>();
  private readonly expansions = new Lru<string[]>(4096);
  private readonly counts = new Lru<CountEntry>(20000);
  /** Filtered FTS5 expressions by (phrasings, tier, prefix flag, filter); '' = empty tier. */
  private readonly expressions = new Lru<string>(10000);
  /** countAnyText results by query and filter. */
  private readonly unionCounts = new Lru<Map<number, number>>(5000);
  /** Complete contents of small streams (at most STREAM_CACHE_MAX_ITEMS ranks), keyed like `counts`. */
  private readonly streams = new Lru<number[]>(10000);
  /** Counts computed when the index was built (frequent one-word queries), keyed like `counts`. */
  private readonly storedCount: Database.Statement | null;

  constructor(private readonly db: Database.Database) {
    let available = false;
    try {
      const rows = db.prepare('SELECT key, value FROM search_index_meta').all() as Array<{ key: string; value: string }>;
      const meta = new Map(rows.map((r) => [r.key, r.value]));
      if (Number(meta.get('version')) === SEARCH_INDEX_VERSION) {
        available = true;
        this.bucketStarts = JSON.parse(meta.get('bucket_starts') ?? '[]') as number[];
        this.bandSizes = JSON.parse(meta.get('band_sizes') ?? '[]') as number[];
      }
    } catch {
      available = false;
    }
    this.available = available;
    let storedCount: Database.Statement | null = null;
    try {
      storedCount = available ? db.prepare('SELECT value FROM search_count WHERE key = ?').pluck() : null;
    } catch {
      storedCount = null;
    }
    this.storedCount = storedCount;
  }

  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  bucketStartOrds(): readonly number[] {
    return this.bucketStarts;
  }

  private hits(rows: Row[]): SearchHit[] {
    return rows.map((r) => ({ rank: r.rank, concept: toConceptRecord(r) }));
  }

  identifierMatches(code: string, conceptId: number | undefined, limit: number): SearchHit[] {
    const rows = this.stmt(
      `SELECT s.rank AS rank, ${QUALIFIED} FROM concept c JOIN search_concept s ON s.concept_id = c.concept_id
        WHERE c.concept_code = ? COLLATE NOCASE ORDER BY s.rank LIMIT ?`,
    ).all(code, limit) as Row[];
    if (conceptId !== undefined && !rows.some((r) => r.concept_id === conceptId)) {
      const byId = this.stmt(
        `SELECT s.rank AS rank, ${QUALIFIED} FROM concept c JOIN search_concept s ON s.concept_id = c.concept_id WHERE c.concept_id = ?`,
      ).all(conceptId) as Row[];
      rows.unshift(...byId);
    }
    return this.hits(rows);
  }

  mapsToTargets(conceptId: number): SearchHit[] {
    return this.hits(
      this.stmt(
        `SELECT s.rank AS rank, ${QUALIFIED}
           FROM concept_relationship r JOIN concept c ON c.concept_id = r.concept_id_2 JOIN search_concept s ON s.concept_id = c.concept_id
          WHERE r.concept_id_1 = ? AND r.relationship_id = 'Maps to' AND r.invalid_reason IS NULL
            AND c.standard_concept = 'S' AND c.invalid_reason IS NULL
          ORDER BY s.rank`,
      ).all(conceptId) as Row[],
    );
  }

  nameKeyMatches(hash: number, limit: number): SearchHit[] {
    return this.hits(
      this.stmt(
        `SELECT s.rank AS rank, ${QUALIFIED} FROM search_concept s JOIN concept c ON c.concept_id = s.concept_id
          WHERE s.name_hash = ? ORDER BY s.rank LIMIT ?`,
      ).all(hash, limit) as Row[],
    );
  }

  synonymKeyMatches(hashes: readonly number[], limit: number): SearchHit[] {
    if (hashes.length === 0) return [];
    return this.hits(
      this.stmt(
        `SELECT s.rank AS rank, ${QUALIFIED} FROM search_concept s JOIN concept c ON c.concept_id = s.concept_id
          WHERE s.rank IN (SELECT DISTINCT k.rank FROM search_synonym_key k WHERE k.key_hash IN (SELECT value FROM json_each(?)))
          ORDER BY s.rank LIMIT ?`,
      ).all(JSON.stringify(hashes), limit) as Row[],
    );
  }

  synonymsOf(conceptIds: readonly number[]): Map<number, SynonymRecord[]> {
    const out = new Map<number, SynonymRecord[]>();
    if (conceptIds.length === 0) return out;
    const rows = this.stmt(
      `SELECT concept_id, concept_synonym_name, language_concept_id FROM concept_synonym
        WHERE concept_id IN (SELECT value FROM json_each(?)) ORDER BY concept_id, rowid`,
    ).all(JSON.stringify(conceptIds)) as Array<SynonymRecord & { concept_id: number }>;
    for (const r of rows) {
      let list = out.get(r.concept_id);
      if (!list) out.set(r.concept_id, (list = []));
      list.push({ concept_synonym_name: r.concept_synonym_name, language_concept_id: r.language_concept_id });
    }
    return out;
  }

  hitsByRank(ranks: readonly number[]): SearchHit[] {
    if (ranks.length === 0) return [];
    const rows = this.stmt(
      `SELECT s.rank AS rank, ${QUALIFIED} FROM search_concept s JOIN concept c ON c.concept_id = s.concept_id
        WHERE s.rank IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(ranks)) as Row[];
    const byRank = new Map(rows.map((r) => [r.rank, r]));
    const out: SearchHit[] = [];
    for (const rank of ranks) {
      const row = byRank.get(rank);
      if (row) out.push({ rank, concept: toConceptRecord(row) });
    }
    return out;
  }

  /* ------------------------------------------------------------------ full-text expressions */

  /**
   * Indexed words that start with (`prefix`) or contain (`substring`) a word part, most frequent
   * first, at most FRAGMENT_EXPANSION_LIMIT, always led by the part itself.
   */
  private expand(part: string, mode: 'prefix' | 'substring'): string[] {
    const cacheKey = `${mode}:${part}`;
    const cached = this.expansions.get(cacheKey);
    if (cached) return cached;
    let words: string[];
    if (mode === 'substring' && part.length >= 3) {
      words = this.stmt(
        `SELECT w.word FROM search_word_trigram t JOIN search_word w ON w.id = t.rowid
          WHERE search_word_trigram MATCH ? ORDER BY t.rowid LIMIT ?`,
      )
        .pluck()
        .all(quote(part), FRAGMENT_EXPANSION_LIMIT) as string[];
    } else {
      const upper = part.slice(0, -1) + String.fromCodePoint(part.codePointAt(part.length - 1)! + 1);
      words = this.stmt(
        `SELECT word FROM (SELECT word, id FROM search_word WHERE word >= ? AND word < ? LIMIT ${SHORT_PREFIX_SCAN}) ORDER BY id LIMIT ?`,
      )
        .pluck()
        .all(part, upper, FRAGMENT_EXPANSION_LIMIT) as string[];
    }
    const result = [part, ...words.filter((w) => w !== part)];
    this.expansions.set(cacheKey, result);
    return result;
  }

  /**
   * Per phrasing, the three widenings of the required words: W (whole words), PF (word or word
   * prefix), F (word, prefix or substring). `prefixLast`: the last word may be a prefix whatever its
   * length (autocomplete).
   */
  private widenings(p: TextPhrasing, prefixLast: boolean): { W: string; PF: string; F: string; prefixWidened: boolean; fragmentWidened: boolean } {
    let prefixWidened = false;
    let fragmentWidened = false;
    const last = p.requiredTokens.length - 1;
    const pf: string[] = [];
    const f: string[] = [];
    p.requiredTokens.forEach((t, i) => {
      const lastWord = prefixLast && i === last && t === p.tokens[p.tokens.length - 1];
      const prefixes = t.length >= 3 || lastWord ? this.expand(t, 'prefix') : [t];
      const substrings = t.length >= 3 ? this.expand(t, 'substring') : [];
      const fragments = [...new Set([...prefixes, ...substrings])];
      if (prefixes.length > 1) prefixWidened = true;
      if (fragments.length > prefixes.length) fragmentWidened = true;
      pf.push(orOf(prefixes.map(quote)));
      f.push(orOf(fragments.map(quote)));
    });
    return { W: p.requiredTokens.map(quote).join(' AND '), PF: pf.join(' AND '), F: f.join(' AND '), prefixWidened, fragmentWidened };
  }

  /**
   * The FTS5 expression of a tier (without filters), or null when the tier is empty by construction.
   *   name_phrase    {name}: "all words in order"               (multi-word phrasings only)
   *   name_words     {name}: W           NOT name_phrase
   *   any_words      {name syn}: W       NOT {name}: W
   *   name_prefixes  {name}: PF          NOT {name syn}: W
   *   any_prefixes   {name syn}: PF      NOT {name}: PF   NOT {name syn}: W
   *   name_fragments {name}: F           NOT {name syn}: PF
   *   any_fragments  {name syn}: F       NOT {name}: F    NOT {name syn}: PF
   *   union          {name syn}: F
   * with W = every required word, PF = every required word as a word or word prefix, F = as a word,
   * prefix or substring (W ⊆ PF ⊆ F), OR-ed over the phrasings.
   */
  private tierExpression(phrasings: readonly TextPhrasing[], tier: IndexedTier | 'union', prefixLast = false): string | null {
    const w = phrasings.map((p) => this.widenings(p, prefixLast));
    const group = (parts: string[]) => `(${parts.map((x) => `(${x})`).join(' OR ')})`;
    const W = group(w.map((x) => x.W));
    const PF = group(w.map((x) => x.PF));
    const F = group(w.map((x) => x.F));
    const prefixWidened = w.some((x) => x.prefixWidened);
    const fragmentWidened = w.some((x) => x.fragmentWidened);
    const phrases = phrasings.filter((p) => p.tokens.length >= 2).map((p) => quote(p.tokens.join(' ')));
    const P = phrases.length ? `(${phrases.join(' OR ')})` : null;
    switch (tier) {
      case 'name_phrase':
        return P ? `{name}: ${P}` : null;
      case 'name_words':
        return P ? `({name}: ${W}) NOT ({name}: ${P})` : `{name}: ${W}`;
      case 'any_words':
        return `({name syn}: ${W}) NOT ({name}: ${W})`;
      case 'name_prefixes':
        return prefixWidened ? `({name}: ${PF}) NOT ({name syn}: ${W})` : null;
      case 'any_prefixes':
        return prefixWidened ? `(({name syn}: ${PF}) NOT ({name}: ${PF})) NOT ({name syn}: ${W})` : null;
      case 'name_fragments':
        return fragmentWidened ? `({name}: ${F}) NOT ({name syn}: ${prefixWidened ? PF : W})` : null;
      case 'any_fragments':
        return fragmentWidened ? `(({name syn}: ${F}) NOT ({name}: ${F})) NOT ({name syn}: ${prefixWidened ? PF : W})` : null;
      case 'union':
        return `{name syn}: ${fragmentWidened ? F : prefixWidened ? PF : W}`;
    }
  }

  private filterExpression(expr: string, filter: IndexFilter): string {
    const clauses: string[] = [`(${expr})`];
    const tagClause = (tags: string[]) => `({tags}: ${orOf(tags.map(quote))})`;
    if (filter.vocabularyIds?.length) clauses.push(tagClause(filter.vocabularyIds.map(vocabularyTag)));
    if (filter.domainIds?.length) clauses.push(tagClause(filter.domainIds.map(domainTag)));
    if (filter.conceptClassIds?.length) clauses.push(tagClause(filter.conceptClassIds.map(classTag)));
    if (filter.standardConcepts?.length) clauses.push(tagClause(filter.standardConcepts.map(standardTag)));
    let out = clauses.length === 1 ? clauses[0]! : `(${clauses.join(' AND ')})`;
    const hidden = filter.hiddenVocabularyIds.filter((v) => !filter.vocabularyIds || filter.vocabularyIds.includes(v)).sort();
    if (hidden.length) out = `${out} NOT ({tags}: ${orOf(hidden.map(vocabularyTag).map(quote))})`;
    return out;
  }

  /* ------------------------------------------------------------------ streams */

  private streamParts(q: TextStreamQuery): { table: string; match: string; exclude: string; ordLimit: number } | null {
    if (!this.bandSizes[q.band]) return null;
    const exprKey = JSON.stringify([q.phrasings, q.tier, q.prefixLastToken ?? false, q.filter]);
    let match = this.expressions.get(exprKey);
    if (match === undefined) {
      const expr = this.tierExpression(q.phrasings, q.tier, q.prefixLastToken ?? false);
      match = expr === null ? '' : this.filterExpression(expr, q.filter);
      this.expressions.set(exprKey, match);
    }
    if (match === '') return null;
    const base = q.band * ORD_SPAN;
    const exclude = q.exclude.filter((r) => r >= base && r < base + ORD_SPAN).map((r) => r - base);
    return {
      table: textTableName(q.band),
      match,
      exclude: exclude.length ? JSON.stringify(exclude.sort((a, b) => a - b)) : '[]',
      ordLimit: q.ordLimit ?? ORD_SPAN,
    };
  }

  private countRaw(table: string, match: string, exclude: string, ordLimit: number, cap: number | undefined): number {
    const key = countKey(table, match, exclude, ordLimit);
    let cached = this.counts.get(key);
    if (!cached && this.storedCount) {
      const stored = this.storedCount.get(key) as number | undefined;
      if (stored !== undefined) this.counts.set(key, (cached = { value: stored, exact: true }));
    }
    if (cached && (cached.exact || (cap !== undefined && cached.value >= cap))) return cap === undefined ? cached.value : Math.min(cached.value, cap);
    const value = this.stmt(
      `SELECT count(*) FROM (SELECT rowid FROM ${table} WHERE ${table} MATCH ? AND rowid < ?
          AND rowid NOT IN (SELECT value FROM json_each(?)) LIMIT ?)`,
    )
      .pluck()
      .get(match, ordLimit, exclude, cap ?? -1) as number;
    const exact = cap === undefined || value < cap;
    if (!cached || exact || value > cached.value) this.counts.set(key, { value, exact });
    return value;
  }

  countText(q: TextStreamQuery, cap?: number): number {
    const parts = this.streamParts(q);
    if (!parts) return 0;
    return this.countRaw(parts.table, parts.match, parts.exclude, parts.ordLimit, cap);
  }

  textRanks(q: TextStreamQuery, offset: number, limit: number): number[] {
    const parts = this.streamParts(q);
    if (!parts || limit <= 0) return [];
    const key = countKey(parts.table, parts.match, parts.exclude, parts.ordLimit);
    const complete = this.streams.get(key);
    if (complete) return complete.slice(offset, offset + limit);
    const known = this.counts.get(key);
    if (known?.exact && offset >= known.value) return [];
    const base = q.band * ORD_SPAN;
    const ords = this.stmt(
      `SELECT rowid FROM ${parts.table} WHERE ${parts.table} MATCH ? AND rowid < ?
          AND rowid NOT IN (SELECT value FROM json_each(?)) ORDER BY rowid LIMIT ? OFFSET ?`,
    )
      .pluck()
      .all(parts.match, parts.ordLimit, parts.exclude, limit, offset) as number[];
    const ranks = ords.map((o) => base + o);
    if (offset === 0 && ranks.length < limit) this.rememberComplete(key, ranks);
    return ranks;
  }

  rememberStream(q: TextStreamQuery, ranks: readonly number[]): void {
    const parts = this.streamParts(q);
    if (parts) this.rememberComplete(countKey(parts.table, parts.match, parts.exclude, parts.ordLimit), ranks);
  }

  /** Keeps the whole content (and so the exact count) of a small stream. */
  private rememberComplete(key: string, ranks: readonly number[]): void {
    if (ranks.length > STREAM_CACHE_MAX_ITEMS) return;
    this.streams.set(key, [...ranks]);
    this.counts.set(key, { value: ranks.length, exact: true });
  }

  /**
   * The union of every tier as disjoint expressions whose counts add up. FTS5 advances an OR node by
   * looking at every child, so a common word OR-ed with its 60 rare expansions costs 60 times its
   * doclist; split per required word into "the word itself" and "only an expansion" (expansions NOT
   * the word), every combination of which is cheap except the one made of the plain words.
   */
  private unionCountExpressions(phrasings: readonly TextPhrasing[]): string[] {
    const single = phrasings.length === 1 ? phrasings[0]! : undefined;
    if (!single || single.requiredTokens.length > UNION_SPLIT_MAX_WORDS) return [this.tierExpression(phrasings, 'union')!];
    const oneWord = single.requiredTokens.length === 1;
    const choices = single.requiredTokens.map((t) => {
      const fragments = t.length >= 3 ? [...new Set([...this.expand(t, 'prefix'), ...this.expand(t, 'substring')])] : [t];
      const others = fragments.filter((w) => w !== t);
      if (others.length === 0) return [quote(t)];
      if (!oneWord) return [quote(t), `(${orOf(others.map(quote))} NOT ${quote(t)})`];
      // One word: expansions (most frequent first) in groups of 1, 4, 16, 64, each minus everything before it.
      const options = [quote(t)];
      let seen = [t];
      for (let start = 0, size = 1; start < others.length; start += size, size *= 4) {
        const group = others.slice(start, start + size);
        options.push(`(${orOf(group.map(quote))} NOT ${orOf(seen.map(quote))})`);
        seen = [...seen, ...group];
      }
      return options;
    });
    let combos: string[][] = [[]];
    for (const options of choices) combos = combos.flatMap((c) => options.map((o) => [...c, o]));
    return combos.map((c) => `{name syn}: (${c.join(' AND ')})`);
  }

  countAnyText(phrasings: readonly TextPhrasing[], bands: readonly number[], filter: IndexFilter): Map<number, number> {
    const cacheKey = JSON.stringify([phrasings.map((p) => [p.tokens, p.requiredTokens]), bands, filter]);
    const cached = this.unionCounts.get(cacheKey);
    if (cached) return new Map(cached);
    const out = new Map<number, number>();
    const expressions = phrasings.length ? this.unionCountExpressions(phrasings).map((e) => this.filterExpression(e, filter)) : [];
    for (const band of bands) {
      let n = 0;
      if (this.bandSizes[band]) for (const expr of expressions) n += this.countRaw(textTableName(band), expr, '[]', ORD_SPAN, undefined);
      out.set(band, n);
    }
    this.unionCounts.set(cacheKey, out);
    return new Map(out);
  }

  textMatchesAmong(phrasings: readonly TextPhrasing[], ranks: readonly number[]): Set<number> {
    const out = new Set<number>();
    if (phrasings.length === 0 || ranks.length === 0) return out;
    const expr = this.tierExpression(phrasings, 'union')!;
    const byBand = new Map<number, number[]>();
    for (const r of ranks) {
      const band = Math.floor(r / ORD_SPAN);
      let list = byBand.get(band);
      if (!list) byBand.set(band, (list = []));
      list.push(r - band * ORD_SPAN);
    }
    for (const [band, ords] of byBand) {
      const table = textTableName(band);
      const found = this.stmt(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? AND rowid IN (SELECT value FROM json_each(?))`)
        .pluck()
        .all(expr, JSON.stringify(ords)) as number[];
      for (const o of found) out.add(band * ORD_SPAN + o);
    }
    return out;
  }

  anyTextRanks(phrasings: readonly TextPhrasing[], band: number, filter: IndexFilter, limit: number): number[] {
    if (phrasings.length === 0 || !this.bandSizes[band]) return [];
    const table = textTableName(band);
    const expr = this.filterExpression(this.tierExpression(phrasings, 'union')!, filter);
    const ords = this.stmt(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid LIMIT ?`).pluck().all(expr, limit) as number[];
    return ords.map((o) => band * ORD_SPAN + o);
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
    const total = this.stmt(`SELECT count(*) FROM concept INDEXED BY concept_by_vocabulary_code WHERE ${condition}`)
      .pluck()
      .get(...params) as number;
    const direction = request.descending ? 'DESC' : 'ASC';
    let rows: StoredConceptRow[];
    if (request.sortBy === 'concept_code') {
      rows = this.stmt(
        `SELECT ${CONCEPT_COLUMNS} FROM concept INDEXED BY concept_by_vocabulary_code WHERE ${condition}
          ORDER BY vocabulary_id ${direction}, concept_code ${direction}, concept_id ${direction} LIMIT ? OFFSET ?`,
      ).all(...params, request.limit, request.offset) as StoredConceptRow[];
    } else {
      const key = request.sortBy === 'concept_name' ? 'concept_name' : 'concept_id';
      rows = this.stmt(
        `SELECT ${CONCEPT_COLUMNS} FROM concept INDEXED BY concept_by_vocabulary_code WHERE ${condition}
          ORDER BY ${key} ${direction}, concept_id ${direction} LIMIT ? OFFSET ?`,
      ).all(...params, request.limit, request.offset) as StoredConceptRow[];
    }
    return { concepts: rows.map(toConceptRecord), total };
  }

  /**
   * Index build only: counts of the one-word query `word` (every band, each hidden-vocabulary set),
   * as (key, value) rows for the search_count table, so that frequent words are counted instantly.
   */
  precomputedWordCounts(word: string, hiddenSets: ReadonlyArray<readonly string[]>): Array<[string, number]> {
    const phrasings: TextPhrasing[] = [{ tokens: [word], requiredTokens: [word] }];
    const out: Array<[string, number]> = [];
    for (const hidden of hiddenSets) {
      for (const union of this.unionCountExpressions(phrasings)) {
        const expr = this.filterExpression(union, { hiddenVocabularyIds: hidden });
        for (let band = 0; band < BAND_COUNT; band++) {
          if (!this.bandSizes[band]) continue;
          out.push([countKey(textTableName(band), expr, '[]', ORD_SPAN), this.countRaw(textTableName(band), expr, '[]', ORD_SPAN, undefined)]);
        }
      }
    }
    return out;
  }
}
