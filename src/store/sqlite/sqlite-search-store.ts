/**
 * SQLite implementation of SearchStore over the tables written by src/importer/build-search-index.ts.
 * Each indexed tier becomes one FTS5 expression per band; see tierExpression() for the definitions.
 */
import type Database from 'better-sqlite3';
import { BAND_COUNT, ORD_SPAN } from '../../services/search/ranking.js';
import type { SynonymRecord } from '../records.js';
import type {
  BrowseRequest,
  ExactLookupRequest,
  ExactLookups,
  IndexedTier,
  IndexFilter,
  SearchHit,
  SearchStore,
  StandardFlag,
  TextPhrasing,
  TextStream,
  TextStreamQuery,
} from '../search-store.js';
import type { ConceptRecord } from '../records.js';
import { LruCache } from '../../lru-cache.js';
import { CONCEPT_COLUMNS, toConceptRecord, type StoredConceptRow } from './sqlite-concept-store.js';

/**
 * Format of the search tables (written by src/importer/build-search-index.ts). Version 2 added the
 * per-word band masks (search_word.bands); version 1 indexes are still read (every band is then
 * assumed possible). Any other version disables search for that release.
 */
export const SEARCH_INDEX_VERSION = 2;
const READABLE_INDEX_VERSIONS: ReadonlySet<number> = new Set([1, 2]);
/** Every band (the mask of a word when the index has no band masks). */
const ALL_BANDS = 2 ** BAND_COUNT - 1;

/** Prefix of the filter tags stored in the `tags` column (no real word starts with it in practice). */
export const TAG_PREFIX = 'zzzt';
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
export const vocabularyTag = (v: string) => `${TAG_PREFIX}v${hex(v)}`;
export const domainTag = (d: string) => `${TAG_PREFIX}d${hex(d)}`;
export const classTag = (c: string) => `${TAG_PREFIX}c${hex(c)}`;
export const standardTag = (s: StandardFlag) => `${TAG_PREFIX}s${s.toLowerCase()}`;
export const textTableName = (band: number) => `search_text_${band}`;

/** A fragment (word part) of 3+ characters matches at most this many indexed words, most frequent first. */
export const FRAGMENT_EXPANSION_LIMIT = 64;
const STREAM_CACHE_MAX_ITEMS = 256;
/** Totals of queries with up to this many required words are counted as 2^n disjoint parts (see unionCountExpressions). */
const UNION_SPLIT_MAX_WORDS = 3;
/** Prefix expansion of a 1–2 character last word (autocomplete) looks at most this many words. */
const SHORT_PREFIX_SCAN = 5000;
/** Lists of up to this many values are bound as `IN (?, ?, …)`; longer ones go through json_each. */
const MAX_BOUND_LIST = 64;

const QUALIFIED = CONCEPT_COLUMNS.split(', ')
  .map((c) => `c.${c}`)
  .join(', ');

/** Appends `value` to the list of `key` in `map`. */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

const quote = (token: string) => `"${token.replace(/"/g, '""')}"`;
const orOf = (parts: readonly string[]) => (parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`);

type Row = StoredConceptRow & { rank: number };

const countKey = (table: string, match: string, exclude: string, ordLimit: number) => `${table}\u0000${match}\u0000${exclude}\u0000${ordLimit}`;

interface CountEntry {
  value: number;
  exact: boolean;
}

/** A tier's full-text expression in one band (with filters). */
interface TierExpression {
  /** '' when the tier is empty in the band. */
  match: string;
  /** Short stand-in for `match` in cache keys (hashing a long expression on every read is not free). */
  id: number;
}

/** The tier expressions one search has used, and the cache-key part its phrasings and filter make. */
interface SearchExpressions {
  key: string;
  tiers: Map<string, TierExpression>;
}

/** An indexed word a query word may match, and the bands it occurs in (bit b = band b). */
interface Alternative {
  word: string;
  bands: number;
}

/** Widening levels of a required word: the word (W), or a word it starts (PF), or contains (F). */
type Level = 'W' | 'PF' | 'F';

/** One band's stream of one tier for one search, resolved once (see SearchStore.textStream). */
class SqliteTextStream implements TextStream {
  constructor(
    private readonly store: SqliteSearchStore,
    readonly band: number,
    readonly table: string,
    readonly match: string,
    readonly exclude: string,
    readonly ordLimit: number,
    /** Cache key of this stream's counts and contents. */
    readonly key: string,
  ) {}
  count(cap?: number): number {
    return this.store.countStream(this, cap);
  }
  ranks(offset: number, limit: number): number[] {
    return this.store.streamRanks(this, offset, limit);
  }
  remember(ranks: readonly number[]): void {
    this.store.rememberComplete(this.key, ranks);
  }
}

const EMPTY_STREAM: TextStream = { count: () => 0, ranks: () => [], remember: () => {} };

/** SQLite's NOCASE folds ASCII letters only; codes are grouped the same way. */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

type LookupKind = 'code' | 'id' | 'name' | 'synonym';
type LookupKey = string | number;

/** Per kind of exact lookup: the statement (given the `IN` list), and the lookup key of a row. */
const EXACT_LOOKUPS: Record<LookupKind, { sql: (inList: string) => string; keyOf: (row: Row & { key: LookupKey }) => LookupKey }> = {
  code: {
    sql: (list) => `SELECT c.concept_code AS key, s.rank AS rank, ${QUALIFIED} FROM concept c JOIN search_concept s ON s.concept_id = c.concept_id
                     WHERE c.concept_code COLLATE NOCASE IN ${list}`,
    keyOf: (row) => asciiLower(String(row.key)),
  },
  id: {
    sql: (list) => `SELECT c.concept_id AS key, s.rank AS rank, ${QUALIFIED} FROM concept c JOIN search_concept s ON s.concept_id = c.concept_id
                     WHERE c.concept_id IN ${list}`,
    keyOf: (row) => Number(row.key),
  },
  name: {
    sql: (list) => `SELECT s.name_hash AS key, s.rank AS rank, ${QUALIFIED} FROM search_concept s JOIN concept c ON c.concept_id = s.concept_id
                     WHERE s.name_hash IN ${list}`,
    keyOf: (row) => Number(row.key),
  },
  synonym: {
    sql: (list) => `SELECT k.key_hash AS key, s.rank AS rank, ${QUALIFIED}
                      FROM search_synonym_key k JOIN search_concept s ON s.rank = k.rank JOIN concept c ON c.concept_id = s.concept_id
                     WHERE k.key_hash IN ${list}`,
    keyOf: (row) => Number(row.key),
  },
};

/**
 * ExactLookups for a batch of searches: every code, concept id, name hash and synonym hash the
 * batch announced is fetched by one statement per kind up front; a key not announced is fetched
 * when asked for. The answers are the concepts in rank order.
 */
class BatchedExactLookups implements ExactLookups {
  private readonly found: Record<LookupKind, Map<LookupKey, SearchHit[]>> = { code: new Map(), id: new Map(), name: new Map(), synonym: new Map() };
  private readonly fetched: Record<LookupKind, Set<LookupKey>> = { code: new Set(), id: new Set(), name: new Set(), synonym: new Set() };

  constructor(
    private readonly store: SqliteSearchStore,
    requests: readonly ExactLookupRequest[],
  ) {
    this.fetch('code', requests.flatMap((r) => (r.code === undefined ? [] : [r.code])));
    this.fetch('id', requests.flatMap((r) => (r.conceptId === undefined ? [] : [r.conceptId])));
    this.fetch('name', requests.flatMap((r) => r.nameHashes));
    this.fetch('synonym', requests.flatMap((r) => r.synonymHashes));
  }

  private fetch(kind: LookupKind, keys: readonly LookupKey[]): void {
    const normal = (k: LookupKey) => (kind === 'code' ? asciiLower(String(k)) : k);
    const missing = new Map<LookupKey, LookupKey>();
    for (const k of keys) if (!this.fetched[kind].has(normal(k))) missing.set(normal(k), k);
    if (missing.size === 0) return;
    for (const k of missing.keys()) this.fetched[kind].add(k);
    const { sql, keyOf } = EXACT_LOOKUPS[kind];
    for (const [key, hits] of this.store.groupedHits(sql, [...missing.values()], keyOf)) this.found[kind].set(key, hits);
  }

  private hitsOf(kind: LookupKind, key: LookupKey): SearchHit[] {
    this.fetch(kind, [key]);
    return this.found[kind].get(kind === 'code' ? asciiLower(String(key)) : key) ?? [];
  }

  identifierMatches(code: string, conceptId: number | undefined, limit: number): SearchHit[] {
    const hits = this.hitsOf('code', code).slice(0, limit);
    if (conceptId !== undefined && !hits.some((h) => h.concept.concept_id === conceptId)) hits.unshift(...this.hitsOf('id', conceptId));
    return hits;
  }

  nameKeyMatches(hash: number, limit: number): SearchHit[] {
    return this.hitsOf('name', hash).slice(0, limit);
  }

  synonymKeyMatches(hashes: readonly number[], limit: number): SearchHit[] {
    const byRank = new Map<number, SearchHit>();
    for (const h of hashes) for (const hit of this.hitsOf('synonym', h)) byRank.set(hit.rank, hit);
    return [...byRank.values()].sort((a, b) => a.rank - b.rank).slice(0, limit);
  }
}

export class SqliteSearchStore implements SearchStore {
  readonly available: boolean;
  private readonly bandMasks: boolean;
  private readonly bucketStarts: number[] = [];
  private readonly bandSizes: number[] = new Array<number>(BAND_COUNT).fill(0);
  private readonly statements = new Map<string, Database.Statement>();
  private readonly expansions = new LruCache<Alternative[]>(4096);
  private readonly wordBands = new LruCache<number>(20000);
  private readonly counts = new LruCache<CountEntry>(20000);
  /** Tier expressions by (phrasings, tier, prefix flag, filter). */
  private readonly expressions = new LruCache<TierExpression>(10000);
  private nextExpressionId = 1;
  /** Per search (its phrasings and filter objects), the tier expressions it has used. */
  private readonly searchExpressions = new WeakMap<object, WeakMap<object, SearchExpressions>>();
  /** countAnyText results by query and filter. */
  private readonly unionCounts = new LruCache<Map<number, number>>(5000);
  /** Complete contents of small streams (at most STREAM_CACHE_MAX_ITEMS ranks), keyed like `counts`. */
  private readonly streams = new LruCache<number[]>(10000);
  /** Counts computed when the index was built (frequent one-word queries), keyed by countKey(). */
  private readonly storedCount: Database.Statement | null;

  constructor(private readonly db: Database.Database) {
    let available = false;
    let bandMasks = false;
    try {
      const rows = db.prepare('SELECT key, value FROM search_index_meta').all() as Array<{ key: string; value: string }>;
      const meta = new Map(rows.map((r) => [r.key, r.value]));
      const version = Number(meta.get('version'));
      if (READABLE_INDEX_VERSIONS.has(version)) {
        available = true;
        bandMasks = version >= 2;
        this.bucketStarts = JSON.parse(meta.get('bucket_starts') ?? '[]') as number[];
        this.bandSizes = JSON.parse(meta.get('band_sizes') ?? '[]') as number[];
      }
    } catch {
      available = false;
    }
    this.available = available;
    this.bandMasks = bandMasks;
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

  /**
   * The right-hand side of `IN` for a list of values: bound parameters for short lists (one cached
   * statement per length), json_each for long ones. Not for the rowid of a full-text table: SQLite
   * 3.53 (as bundled) turns a one-value list into `rowid = ?`, and FTS5 ignores `MATCH ? AND rowid = ?`
   * with a bound rowid (every match comes back); use json_each there.
   */
  private inList(values: readonly LookupKey[]): { sql: string; params: unknown[] } {
    if (values.length <= MAX_BOUND_LIST) return { sql: `(${values.map(() => '?').join(', ')})`, params: [...values] };
    return { sql: '(SELECT value FROM json_each(?))', params: [JSON.stringify(values)] };
  }

  bucketStartOrds(): readonly number[] {
    return this.bucketStarts;
  }

  private hits(rows: Row[]): SearchHit[] {
    return rows.map((r) => ({ rank: r.rank, concept: toConceptRecord(r) }));
  }


  exactLookups(requests: readonly ExactLookupRequest[]): ExactLookups {
    return new BatchedExactLookups(this, requests);
  }

  /** Rows of `sql` (which selects `key`, rank and the concept columns) for each of `keys`, grouped by key in rank order. */
  groupedHits(sql: (inList: string) => string, keys: readonly LookupKey[], keyOf: (row: Row & { key: LookupKey }) => LookupKey): Map<LookupKey, SearchHit[]> {
    const out = new Map<LookupKey, SearchHit[]>();
    if (keys.length === 0) return out;
    const list = this.inList(keys);
    const rows = this.stmt(sql(list.sql)).all(...list.params) as Array<Row & { key: LookupKey }>;
    rows.sort((a, b) => a.rank - b.rank);
    for (const row of rows) pushTo(out, keyOf(row), { rank: row.rank, concept: toConceptRecord(row) });
    return out;
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



  synonymsOf(conceptIds: readonly number[]): Map<number, SynonymRecord[]> {
    const out = new Map<number, SynonymRecord[]>();
    if (conceptIds.length === 0) return out;
    const list = this.inList(conceptIds);
    const rows = this.stmt(
      `SELECT concept_id, concept_synonym_name, language_concept_id FROM concept_synonym
        WHERE concept_id IN ${list.sql} ORDER BY concept_id, rowid`,
    ).all(...list.params) as Array<SynonymRecord & { concept_id: number }>;
    for (const r of rows) pushTo(out, r.concept_id, { concept_synonym_name: r.concept_synonym_name, language_concept_id: r.language_concept_id });
    return out;
  }

  hitsByRank(ranks: readonly number[]): SearchHit[] {
    if (ranks.length === 0) return [];
    const list = this.inList(ranks);
    const rows = this.stmt(
      `SELECT s.rank AS rank, ${QUALIFIED} FROM search_concept s JOIN concept c ON c.concept_id = s.concept_id WHERE s.rank IN ${list.sql}`,
    ).all(...list.params) as Row[];
    const byRank = new Map(rows.map((r) => [r.rank, r]));
    const out: SearchHit[] = [];
    for (const rank of ranks) {
      const row = byRank.get(rank);
      if (row) out.push({ rank, concept: toConceptRecord(row) });
    }
    return out;
  }

  /* ------------------------------------------------------------------ full-text expressions */

  /** Bands a word occurs in (0 when it is not indexed). */
  private bandsOfWord(word: string): number {
    if (!this.bandMasks) return ALL_BANDS;
    let bands = this.wordBands.get(word);
    if (bands === undefined) {
      bands = (this.stmt('SELECT bands FROM search_word WHERE word = ?').pluck().get(word) as number | undefined) ?? 0;
      this.wordBands.set(word, bands);
    }
    return bands;
  }

  /**
   * Indexed words that start with (`prefix`) or contain (`substring`) a word part, most frequent
   * first, at most FRAGMENT_EXPANSION_LIMIT, always led by the part itself; each with its bands.
   */
  private expand(part: string, mode: 'prefix' | 'substring'): Alternative[] {
    const cacheKey = `${mode}:${part}`;
    const cached = this.expansions.get(cacheKey);
    if (cached) return cached;
    const columns = this.bandMasks ? 'w.word, w.bands' : `w.word, ${ALL_BANDS} AS bands`;
    let rows: Alternative[];
    if (mode === 'substring' && part.length >= 3) {
      rows = this.stmt(
        `SELECT ${columns} FROM search_word_trigram t JOIN search_word w ON w.id = t.rowid
          WHERE search_word_trigram MATCH ? ORDER BY t.rowid LIMIT ?`,
      ).all(quote(part), FRAGMENT_EXPANSION_LIMIT) as Alternative[];
    } else {
      const upper = part.slice(0, -1) + String.fromCodePoint(part.codePointAt(part.length - 1)! + 1);
      rows = this.stmt(
        `SELECT ${columns} FROM (SELECT * FROM search_word WHERE word >= ? AND word < ? LIMIT ${SHORT_PREFIX_SCAN}) w ORDER BY w.id LIMIT ?`,
      ).all(part, upper, FRAGMENT_EXPANSION_LIMIT) as Alternative[];
    }
    const result = [{ word: part, bands: this.bandsOfWord(part) }, ...rows.filter((r) => r.word !== part)];
    this.expansions.set(cacheKey, result);
    return result;
  }

  /**
   * What a required word may match at a widening level: W the word itself, PF also words it starts
   * (3+ characters, or the autocomplete word), F also words containing it (3+ characters). The
   * expansions are looked up only when a level needs them.
   */
  private alternatives(p: TextPhrasing, index: number, level: Level, prefixLast: boolean): Alternative[] {
    const t = p.requiredTokens[index]!;
    const own = { word: t, bands: this.bandsOfWord(t) };
    if (level === 'W') return [own];
    const lastWord = prefixLast && index === p.requiredTokens.length - 1 && t === p.tokens[p.tokens.length - 1];
    const prefixes = t.length >= 3 || lastWord ? this.expand(t, 'prefix') : [own];
    if (level === 'PF' || t.length < 3) return prefixes;
    const seen = new Set(prefixes.map((a) => a.word));
    return [...prefixes, ...this.expand(t, 'substring').filter((a) => !seen.has(a.word))];
  }

  /** Whether some required word has more alternatives at `level` than at the level below (else its tiers are empty). */
  private widened(phrasings: readonly TextPhrasing[], level: 'PF' | 'F', prefixLast: boolean): boolean {
    const below: Level = level === 'PF' ? 'W' : 'PF';
    return phrasings.some((p) =>
      p.requiredTokens.some((_, i) => this.alternatives(p, i, level, prefixLast).length > this.alternatives(p, i, below, prefixLast).length),
    );
  }

  /**
   * The required words at `level`, OR-ed over the phrasings, as the FTS5 expression to use in `band`
   * (undefined: any band): alternatives that do not occur in the band are left out, since they match
   * nothing there (so a rare word's long list of expansions shrinks to the few that occur). null when
   * nothing in the band can match.
   */
  private levelExpression(phrasings: readonly TextPhrasing[], level: Level, prefixLast: boolean, band: number | undefined): string | null {
    const bit = band === undefined ? ALL_BANDS : 1 << band;
    const perPhrasing: string[] = [];
    for (const p of phrasings) {
      const words = p.requiredTokens.map((_, i) =>
        this.alternatives(p, i, level, prefixLast)
          .filter((a) => (a.bands & bit) !== 0)
          .map((a) => quote(a.word)),
      );
      if (words.length === 0 || words.some((w) => w.length === 0)) continue;
      perPhrasing.push(words.map(orOf).join(' AND '));
    }
    return perPhrasing.length ? `(${perPhrasing.map((x) => `(${x})`).join(' OR ')})` : null;
  }

  /**
   * The FTS5 expression of a tier (without filters) for `band` (undefined: any band), or null when
   * the tier is empty there.
   *   name_phrase    {name}: "all words in order"               (multi-word phrasings only)
   *   name_words     {name}: W           NOT name_phrase
   *   any_words      {name syn}: W       NOT {name}: W
   *   name_prefixes  {name}: PF          NOT {name syn}: W
   *   any_prefixes   {name syn}: PF      NOT {name}: PF   NOT {name syn}: W
   *   name_fragments {name}: F           NOT {name syn}: PF
   *   any_fragments  {name syn}: F       NOT {name}: F    NOT {name syn}: PF
   *   union          {name syn}: F
   * with W = every required word, PF = every required word as a word or word prefix, F = as a word,
   * prefix or substring (W ⊆ PF ⊆ F), OR-ed over the phrasings. The prefix tiers exist only when
   * some word has prefix expansions, the fragment tiers only when some word has fragment expansions;
   * a NOT part that can match nothing in the band is left out.
   */
  private tierExpression(phrasings: readonly TextPhrasing[], tier: IndexedTier | 'union', prefixLast: boolean, band: number | undefined): string | null {
    const level = (l: Level) => this.levelExpression(phrasings, l, prefixLast, band);
    const not = (expr: string, column: string, excluded: string | null) => (excluded === null ? expr : `(${expr}) NOT (${column}: ${excluded})`);
    const phrase = () => {
      const phrases = phrasings
        .filter((p) => p.tokens.length >= 2 && this.levelExpression([p], 'W', prefixLast, band) !== null)
        .map((p) => quote(p.tokens.join(' ')));
      return phrases.length ? `(${phrases.join(' OR ')})` : null;
    };
    switch (tier) {
      case 'name_phrase': {
        const P = phrase();
        return P === null ? null : `{name}: ${P}`;
      }
      case 'name_words': {
        const W = level('W');
        return W === null ? null : not(`{name}: ${W}`, '{name}', phrase());
      }
      case 'any_words': {
        const W = level('W');
        return W === null ? null : not(`{name syn}: ${W}`, '{name}', W);
      }
      case 'name_prefixes': {
        const PF = this.widened(phrasings, 'PF', prefixLast) ? level('PF') : null;
        return PF === null ? null : not(`{name}: ${PF}`, '{name syn}', level('W'));
      }
      case 'any_prefixes': {
        const PF = this.widened(phrasings, 'PF', prefixLast) ? level('PF') : null;
        return PF === null ? null : not(not(`{name syn}: ${PF}`, '{name}', PF), '{name syn}', level('W'));
      }
      case 'name_fragments':
      case 'any_fragments': {
        const F = this.widened(phrasings, 'F', prefixLast) ? level('F') : null;
        if (F === null) return null;
        // (without prefix expansions the PF expression is the W expression)
        const lower = level('PF');
        return tier === 'name_fragments' ? not(`{name}: ${F}`, '{name syn}', lower) : not(not(`{name syn}: ${F}`, '{name}', F), '{name syn}', lower);
      }
      case 'union': {
        const F = level('F'); // (F ⊇ PF ⊇ W, equal where nothing widens)
        return F === null ? null : `{name syn}: ${F}`;
      }
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

  /**
   * The tier expressions of one search. Every stream of a search shares its phrasings and filter
   * objects, so they are found by object identity; the shared cache is keyed by their JSON, made
   * once per search.
   */
  private expressionsOf(q: TextStreamQuery): SearchExpressions {
    let byFilter = this.searchExpressions.get(q.phrasings);
    if (!byFilter) this.searchExpressions.set(q.phrasings, (byFilter = new WeakMap()));
    let entry = byFilter.get(q.filter);
    if (!entry) byFilter.set(q.filter, (entry = { key: JSON.stringify([q.phrasings, q.filter]), tiers: new Map() }));
    return entry;
  }

  private tierExpressionFor(q: TextStreamQuery): TierExpression {
    const search = this.expressionsOf(q);
    const tierKey = `${q.tier}${q.prefixLastToken ? '+' : ''}@${q.band}`;
    let entry = search.tiers.get(tierKey);
    if (entry) return entry;
    const key = `${tierKey}${search.key}`;
    entry = this.expressions.get(key);
    if (entry === undefined) {
      const expr = this.tierExpression(q.phrasings, q.tier, q.prefixLastToken ?? false, q.band);
      entry = expr === null ? { match: '', id: 0 } : { match: this.filterExpression(expr, q.filter), id: this.nextExpressionId++ };
      this.expressions.set(key, entry);
    }
    search.tiers.set(tierKey, entry);
    return entry;
  }

  textStream(q: TextStreamQuery): TextStream {
    if (!this.bandSizes[q.band]) return EMPTY_STREAM;
    const expression = this.tierExpressionFor(q);
    if (expression.match === '') return EMPTY_STREAM;
    const base = q.band * ORD_SPAN;
    const excluded = q.exclude.filter((r) => r >= base && r < base + ORD_SPAN).map((r) => r - base);
    const exclude = excluded.length ? JSON.stringify(excluded.sort((a, b) => a - b)) : '[]';
    const ordLimit = q.ordLimit ?? ORD_SPAN;
    return new SqliteTextStream(this, q.band, textTableName(q.band), expression.match, exclude, ordLimit, `#${expression.id}\u0000${q.band}\u0000${exclude}\u0000${ordLimit}`);
  }

  /**
   * Count of `match` in `table` (below ordLimit, minus `exclude`), at most `cap`; cached under `key`.
   * `stored`: `key` may also be among the counts computed at build time (search_count).
   */
  private countRaw(key: string, table: string, match: string, exclude: string, ordLimit: number, cap: number | undefined, stored = false): number {
    let cached = this.counts.get(key);
    if (!cached && stored && this.storedCount) {
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

  /** SqliteTextStream.count. */
  countStream(s: SqliteTextStream, cap: number | undefined): number {
    return this.countRaw(s.key, s.table, s.match, s.exclude, s.ordLimit, cap);
  }

  /** SqliteTextStream.ranks. */
  streamRanks(s: SqliteTextStream, offset: number, limit: number): number[] {
    if (limit <= 0) return [];
    const complete = this.streams.get(s.key);
    if (complete) return complete.slice(offset, offset + limit);
    const known = this.counts.get(s.key);
    if (known?.exact && offset >= known.value) return [];
    const base = s.band * ORD_SPAN;
    const ords = this.stmt(
      `SELECT rowid FROM ${s.table} WHERE ${s.table} MATCH ? AND rowid < ?
          AND rowid NOT IN (SELECT value FROM json_each(?)) ORDER BY rowid LIMIT ? OFFSET ?`,
    )
      .pluck()
      .all(s.match, s.ordLimit, s.exclude, limit, offset) as number[];
    const ranks = ords.map((o) => base + o);
    if (offset === 0 && ranks.length < limit) this.rememberComplete(s.key, ranks);
    return ranks;
  }

  /** Keeps the whole content (and so the exact count) of a small stream. */
  rememberComplete(key: string, ranks: readonly number[]): void {
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
  private unionCountExpressions(phrasings: readonly TextPhrasing[], band: number): string[] {
    const single = phrasings.length === 1 ? phrasings[0]! : undefined;
    if (!single || single.requiredTokens.length > UNION_SPLIT_MAX_WORDS) {
      const union = this.tierExpression(phrasings, 'union', false, band);
      return union === null ? [] : [union];
    }
    const bit = 1 << band;
    const oneWord = single.requiredTokens.length === 1;
    const choices = single.requiredTokens.map((t, i) => {
      const inBand = this.alternatives(single, i, 'F', false).filter((a) => (a.bands & bit) !== 0);
      const own = inBand.some((a) => a.word === t) ? [t] : [];
      const others = inBand.map((a) => a.word).filter((w) => w !== t);
      const minus = (expr: string, seen: string[]) => (seen.length ? `(${expr} NOT ${orOf(seen.map(quote))})` : expr);
      if (!oneWord) return [...own.map(quote), ...(others.length ? [minus(orOf(others.map(quote)), own)] : [])];
      // One word: expansions (most frequent first) in groups of 1, 4, 16, 64, each minus everything before it.
      const options = own.map(quote);
      let seen = own;
      for (let start = 0, size = 1; start < others.length; start += size, size *= 4) {
        const group = others.slice(start, start + size);
        options.push(minus(orOf(group.map(quote)), seen));
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
    for (const band of bands) {
      let n = 0;
      if (this.bandSizes[band] && phrasings.length) {
        const table = textTableName(band);
        for (const union of this.unionCountExpressions(phrasings, band)) {
          const expr = this.filterExpression(union, filter);
          const key = countKey(table, expr, '[]', ORD_SPAN);
          n += this.countRaw(key, table, expr, '[]', ORD_SPAN, undefined, true);
        }
      }
      out.set(band, n);
    }
    this.unionCounts.set(cacheKey, out);
    return new Map(out);
  }

  textMatchesAmong(phrasings: readonly TextPhrasing[], ranks: readonly number[]): Set<number> {
    const out = new Set<number>();
    if (phrasings.length === 0 || ranks.length === 0) return out;
    const byBand = new Map<number, number[]>();
    for (const r of ranks) pushTo(byBand, Math.floor(r / ORD_SPAN), r % ORD_SPAN);
    for (const [band, ords] of byBand) {
      const expr = this.tierExpression(phrasings, 'union', false, band);
      if (expr === null) continue;
      const table = textTableName(band);
      // json_each, not inList(): see inList().
      const found = this.stmt(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? AND rowid IN (SELECT value FROM json_each(?))`)
        .pluck()
        .all(expr, JSON.stringify(ords)) as number[];
      for (const o of found) out.add(band * ORD_SPAN + o);
    }
    return out;
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
      for (let band = 0; band < BAND_COUNT; band++) {
        if (!this.bandSizes[band]) continue;
        const table = textTableName(band);
        for (const union of this.unionCountExpressions(phrasings, band)) {
          const expr = this.filterExpression(union, { hiddenVocabularyIds: hidden });
          const key = countKey(table, expr, '[]', ORD_SPAN);
          out.push([key, this.countRaw(key, table, expr, '[]', ORD_SPAN, undefined)]);
        }
      }
    }
    return out;
  }
}
