/**
 * The full-text side of the SQLite search store: per-band tier streams in ord order read page by page, union
 * counts, textual-match checks and tag-only reads, over FTS expressions built from tier plans by
 * ./fts-expressions.ts.
 */
import { LruCache, stringBytes } from '../../../lru-cache.js';
import { ORD_SPAN } from '../../../search-model/ranking.js';
import { tierLevels, tierPlan } from '../../../search-model/tier-plan.js';
import type { IndexFilter, TagQuery, TextPhrasing, TextStream, TextStreamQuery } from '../../search-store.js';
import { filterExpression, tagQueryExpression, tierExpression, unionCountExpressions } from './fts-expressions.js';
import { textTableName, wordCountKey } from './search-index-layout.js';
import { pushTo, type StatementCache } from './statements.js';
import type { SqliteWordDictionary } from './word-dictionary.js';

const STREAM_CACHE_MAX_ITEMS = 256;
/** Estimated bytes the tier expressions may hold (an expression of a common word part lists thousands of words). */
export const EXPRESSION_CACHE_BYTES = 16 * 2 ** 20;
/** Estimated bytes the small streams' contents may hold. */
export const STREAM_CACHE_BYTES = 16 * 2 ** 20;

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
  /** Short stand-in for the JSON of the phrasings and filter (see searchIds). */
  key: string;
  tiers: Map<string, TierExpression>;
}

/** What one stream reads: `match` in `table`, below `ordLimit`, minus the ords in `exclude` (JSON). */
interface StreamQuery {
  band: number;
  table: string;
  match: string;
  exclude: string;
  ordLimit: number;
  /** Cache key of the stream's counts and contents. */
  key: string;
}

const EMPTY_STREAM: TextStream = { count: () => 0, ranks: () => [], remember: () => {} };

export class SqliteTextIndex {
  private readonly counts = new LruCache<CountEntry>(20000);
  /** Tier expressions by (phrasings, tier, prefix flag, filter). */
  private readonly expressions = new LruCache<TierExpression>(10000, {
    maxBytes: EXPRESSION_CACHE_BYTES,
    sizeOf: (e, key) => stringBytes(key) + stringBytes(e.match) + 32,
  });
  private nextExpressionId = 1;
  /**
   * A short id per search (the JSON of its phrasings and filter) for the keys of `expressions`: a
   * search looks up about 100 tier expressions (tiers × bands), and hashing the long JSON in each
   * key cost more than planning a rare word's tiers.
   */
  private readonly searchIds = new LruCache<number>(10000);
  private nextSearchId = 1;
  /** Per search (its phrasings and filter objects), the tier expressions it has used. */
  private readonly searchExpressions = new WeakMap<object, WeakMap<object, SearchExpressions>>();
  /** countAnyText results by query and filter. */
  private readonly unionCounts = new LruCache<Map<number, number>>(5000);
  /** Complete contents of small streams (at most STREAM_CACHE_MAX_ITEMS ranks), keyed like `counts`. */
  private readonly streams = new LruCache<number[]>(10000, { maxBytes: STREAM_CACHE_BYTES, sizeOf: (ranks, key) => stringBytes(key) + 32 + 8 * ranks.length });

  constructor(
    private readonly statements: StatementCache,
    private readonly words: SqliteWordDictionary,
    private readonly bandSizes: readonly number[],
    /** Counts computed when the index was built, by wordCountKey (undefined while building them). */
    private readonly storedCount: ((key: string) => number | undefined) | undefined,
  ) {}

  /**
   * The tier expressions of one search. Every stream of a search shares its phrasings and filter
   * objects, so they are found by object identity; the shared cache is keyed by the id of their
   * JSON, made once per search.
   */
  private expressionsOf(q: TextStreamQuery): SearchExpressions {
    let byFilter = this.searchExpressions.get(q.phrasings);
    if (!byFilter) this.searchExpressions.set(q.phrasings, (byFilter = new WeakMap()));
    let entry = byFilter.get(q.filter);
    if (!entry) {
      const json = JSON.stringify([q.phrasings, q.filter]);
      let id = this.searchIds.get(json);
      if (id === undefined) this.searchIds.set(json, (id = this.nextSearchId++));
      byFilter.set(q.filter, (entry = { key: `#${id}`, tiers: new Map() }));
    }
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
      const plan = tierPlan(this.words.bandExpansions(q.phrasings, q.prefixLastToken ?? false, q.band, tierLevels(q.tier)), q.tier);
      entry = plan === null ? { match: '', id: 0 } : { match: filterExpression(tierExpression(plan), q.filter), id: this.nextExpressionId++ };
      this.expressions.set(key, entry);
    }
    search.tiers.set(tierKey, entry);
    return entry;
  }

  /** See SearchStore.tagMatches: the bands that hold matches, in rank order, each read in rowid (ord) order up to its count. */
  tagMatches(query: TagQuery, limit: number, bandCounts: ReadonlyMap<number, number>): number[] {
    const match = tagQueryExpression(query);
    const out: number[] = [];
    if (match === '') return out;
    for (const band of [...bandCounts.keys()].sort((a, b) => a - b)) {
      const wanted = Math.min(limit - out.length, bandCounts.get(band)!);
      if (wanted <= 0 || !this.bandSizes[band]) continue;
      const table = textTableName(band);
      const ords = this.statements.get(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid LIMIT ?`).pluck().all(match, wanted) as number[];
      for (const ord of ords) out.push(band * ORD_SPAN + ord);
      if (out.length >= limit) break;
    }
    return out;
  }

  textStream(q: TextStreamQuery): TextStream {
    if (!this.bandSizes[q.band]) return EMPTY_STREAM;
    const expression = this.tierExpressionFor(q);
    if (expression.match === '') return EMPTY_STREAM;
    const base = q.band * ORD_SPAN;
    const excluded = q.exclude.filter((r) => r >= base && r < base + ORD_SPAN).map((r) => r - base);
    const exclude = excluded.length ? JSON.stringify(excluded.sort((a, b) => a - b)) : '[]';
    const ordLimit = q.ordLimit ?? ORD_SPAN;
    const stream: StreamQuery = {
      band: q.band,
      table: textTableName(q.band),
      match: expression.match,
      exclude,
      ordLimit,
      key: `#${expression.id}\u0000${q.band}\u0000${exclude}\u0000${ordLimit}`,
    };
    return {
      count: (cap) => this.count(stream, cap),
      ranks: (offset, limit) => this.ranks(stream, offset, limit),
      remember: (ranks) => this.rememberComplete(stream.key, ranks),
    };
  }

  /** How many concepts `s` holds, at most `cap` (undefined = exact); cached under `s.key`. */
  private count(s: StreamQuery, cap: number | undefined): number {
    const cached = this.counts.get(s.key);
    if (cached && (cached.exact || (cap !== undefined && cached.value >= cap))) return cap === undefined ? cached.value : Math.min(cached.value, cap);
    const value = this.statements
      .get(
        `SELECT count(*) FROM (SELECT rowid FROM ${s.table} WHERE ${s.table} MATCH ? AND rowid < ?
            AND rowid NOT IN (SELECT value FROM json_each(?)) LIMIT ?)`,
      )
      .pluck()
      .get(s.match, s.ordLimit, s.exclude, cap ?? -1) as number;
    const exact = cap === undefined || value < cap;
    if (!cached || exact || value > cached.value) this.counts.set(s.key, { value, exact });
    return value;
  }

  private ranks(s: StreamQuery, offset: number, limit: number): number[] {
    if (limit <= 0) return [];
    const complete = this.streams.get(s.key);
    if (complete) return complete.slice(offset, offset + limit);
    const known = this.counts.get(s.key);
    if (known?.exact && offset >= known.value) return [];
    const base = s.band * ORD_SPAN;
    const ords = this.statements
      .get(
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
  private rememberComplete(key: string, ranks: readonly number[]): void {
    if (ranks.length > STREAM_CACHE_MAX_ITEMS) return;
    this.streams.set(key, [...ranks]);
    this.counts.set(key, { value: ranks.length, exact: true });
  }

  /** The one word of a query that the build-time counts may hold (a one-word query without filters), else undefined. */
  private precountedWord(phrasings: readonly TextPhrasing[], filter: IndexFilter): string | undefined {
    if (phrasings.length !== 1 || phrasings[0]!.requiredTokens.length !== 1) return undefined;
    if (filter.vocabularyIds?.length || filter.domainIds?.length || filter.conceptClassIds?.length || filter.standardConcepts?.length) return undefined;
    return phrasings[0]!.requiredTokens[0];
  }

  /**
   * Per band, how many concepts match the query textually at all (the union of every tier). With
   * `cap`, each band is counted up to `cap` and a band reaching it is left out of the map.
   */
  countAnyText(phrasings: readonly TextPhrasing[], bands: readonly number[], filter: IndexFilter, cap?: number): Map<number, number> {
    const cacheKey = JSON.stringify([phrasings.map((p) => [p.tokens, p.requiredTokens]), bands, filter, cap ?? null]);
    const cached = this.unionCounts.get(cacheKey);
    if (cached) return new Map(cached);
    const word = this.precountedWord(phrasings, filter);
    const out = new Map<number, number>();
    for (const band of bands) {
      let n = 0;
      const stored = word === undefined ? undefined : this.storedCount?.(wordCountKey(word, band, filter.hiddenVocabularyIds));
      if (stored !== undefined) n = stored;
      else if (this.bandSizes[band] && phrasings.length) {
        const table = textTableName(band);
        const sql =
          cap === undefined
            ? `SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`
            : `SELECT count(*) FROM (SELECT rowid FROM ${table} WHERE ${table} MATCH ? LIMIT ${cap})`;
        for (const union of unionCountExpressions(this.words.bandExpansions(phrasings, false, band, tierLevels('union')))) {
          n += this.statements.get(sql).pluck().get(filterExpression(union, filter)) as number;
          if (cap !== undefined && n >= cap) break;
        }
      }
      if (cap === undefined || n < cap) out.set(band, n);
    }
    this.unionCounts.set(cacheKey, out);
    return new Map(out);
  }

  /** Which of these ranks match the query textually at all. */
  textMatchesAmong(phrasings: readonly TextPhrasing[], ranks: readonly number[]): Set<number> {
    const out = new Set<number>();
    if (phrasings.length === 0 || ranks.length === 0) return out;
    const byBand = new Map<number, number[]>();
    for (const r of ranks) pushTo(byBand, Math.floor(r / ORD_SPAN), r % ORD_SPAN);
    for (const [band, ords] of byBand) {
      const plan = tierPlan(this.words.bandExpansions(phrasings, false, band, tierLevels('union')), 'union');
      if (plan === null) continue;
      const table = textTableName(band);
      // json_each, not StatementCache.inList(): see there.
      const found = this.statements
        .get(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? AND rowid IN (SELECT value FROM json_each(?))`)
        .pluck()
        .all(tierExpression(plan), JSON.stringify(ords)) as number[];
      for (const o of found) out.add(band * ORD_SPAN + o);
    }
    return out;
  }
}
