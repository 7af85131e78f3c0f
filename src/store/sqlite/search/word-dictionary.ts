/**
 * The word dictionary of a search index (search_word, search_word_trigram): the bands a word occurs in, and the
 * indexed words that start with or contain a word part, giving a query's expansions in one band (E4 matching rule
 * 2).
 */
import { LruCache, stringBytes } from '../../../lru-cache.js';
import { BAND_COUNT } from '../../../search-model/ranking.js';
import {
  ALL_BANDS,
  AUTOCOMPLETE_PREFIX_WORDS,
  isAutocompleteWord,
  MAX_LISTED_PREFIX_WORDS,
  MIN_FRAGMENT_LENGTH,
  widensAt,
  type BandExpansions,
  type Level,
  type TextPhrasing,
  type WordAlternative,
  type WordLevels,
  type WordTerm,
} from '../../../search-model/tier-plan.js';
import { quoteFtsToken } from './fts-expressions.js';
import type { StatementCache } from './statements.js';

/** Prefix expansion of a 1–2 character autocomplete word looks at most this many words (alphabetical order). */
const SHORT_PREFIX_SCAN = 5000;

/** What one query word expands to at one level, and (filled on demand) the part of it in each band. */
interface Expansion {
  terms: readonly WordTerm[];
  /** byBand[b]: the terms occurring in band b. */
  byBand: Array<readonly WordTerm[] | undefined>;
}

/**
 * Word expansions kept per dictionary (a published store's dictionary never changes). Every tier and
 * band of a search, and every search of a batch, asks for the same few words' expansions again; a
 * common word part expands to thousands of words, so rebuilding (and band-filtering) them per tier
 * and band cost more than the index walks of a rare word.
 */
const EXPANSION_CACHE_SIZE = 2048;
/** Estimated bytes the expansions of one dictionary may hold (a common word part expands to thousands of words). */
export const EXPANSION_CACHE_BYTES = 32 * 2 ** 20;
/** Estimated bytes the prefix and the substring word lists may hold, each. */
export const WORD_LIST_CACHE_BYTES = 16 * 2 ** 20;

/** A term object, its text, and its place in the expansion's list and in up to every band's filtered copy. */
const termBytes = (t: WordTerm) => 48 + stringBytes(t.text) + 8 * (1 + BAND_COUNT);
const wordListBytes = (words: readonly WordAlternative[] | null, key: string) =>
  stringBytes(key) + 32 + (words ? words.reduce((n, w) => n + 48 + stringBytes(w.word), 0) : 0);

export class SqliteWordDictionary {
  private readonly expansions = new LruCache<Expansion>(EXPANSION_CACHE_SIZE, {
    maxBytes: EXPANSION_CACHE_BYTES,
    sizeOf: (e, key) => stringBytes(key) + 64 + 8 * BAND_COUNT + e.terms.reduce((n, t) => n + termBytes(t), 0),
  });
  private readonly prefixCache = new LruCache<readonly WordAlternative[] | null>(4096, { maxBytes: WORD_LIST_CACHE_BYTES, sizeOf: wordListBytes });
  private readonly substringCache = new LruCache<readonly WordAlternative[]>(4096, { maxBytes: WORD_LIST_CACHE_BYTES, sizeOf: wordListBytes });
  private readonly wordBands = new LruCache<number>(20000);

  constructor(private readonly statements: StatementCache) {}

  /**
   * The phrasings' required words with their alternatives in `band` at `levels` (see tierLevels),
   * and whether they widen at PF and F in any band: everything tierPlan() needs, in one call.
   */
  bandExpansions(phrasings: readonly TextPhrasing[], prefixLast: boolean, band: number, levels: readonly Level[]): BandExpansions {
    const widens = { PF: false, F: false };
    const expanded = phrasings.map((p) => ({
      tokens: p.tokens,
      requiredTokens: p.requiredTokens,
      words: p.requiredTokens.map((t, i) => {
        const word: WordLevels = {};
        for (const level of levels) {
          const e = this.expansionOf(t, level, isAutocompleteWord(p, i, level, prefixLast));
          word[level] = this.inBand(e, band);
          if (level === 'PF' && !widens.PF) widens.PF = widensAt(t, 'PF', e.terms);
          if (level === 'FO' && !widens.F) widens.F = widensAt(t, 'FO', e.terms);
        }
        return word;
      }),
    }));
    return { phrasings: expanded, widens };
  }

  /** The terms of `e` that occur in `band` (the same array when all do). */
  private inBand(e: Expansion, band: number): readonly WordTerm[] {
    let inBand = e.byBand[band];
    if (inBand === undefined) {
      const bit = 1 << band;
      inBand = e.terms.every((a) => (a.bands & bit) !== 0) ? e.terms : e.terms.filter((a) => (a.bands & bit) !== 0);
      e.byBand[band] = inBand;
    }
    return inBand;
  }

  private expansionOf(t: string, level: Level, autocomplete: boolean): Expansion {
    const key = `${level}${autocomplete ? '+' : ''}\u0000${t}`;
    let e = this.expansions.get(key);
    if (e === undefined) {
      e = { terms: this.expand(t, level, autocomplete), byBand: new Array<readonly WordTerm[] | undefined>(BAND_COUNT) };
      this.expansions.set(key, e);
    }
    return e;
  }

  /**
   * What word `t` may match at `level`: W the word itself; PF also the words it starts (listed, or
   * one prefix term when there are many; a short word only as the autocomplete word); F also every
   * word containing it; FO only those containing it elsewhere than at their start.
   */
  private expand(t: string, level: Level, autocomplete: boolean): readonly WordTerm[] {
    if (level === 'W') return [{ text: t, prefix: false, bands: this.bandsOfWord(t) }];
    const asTerm = (a: WordAlternative): WordTerm => ({ text: a.word, prefix: false, bands: a.bands });
    const longEnough = t.length >= MIN_FRAGMENT_LENGTH;
    if (level === 'FO') return longEnough ? this.wordsContaining(t).filter((a) => !a.word.startsWith(t)).map(asTerm) : [];
    let out: WordTerm[] = [...this.expansionOf(t, 'W', false).terms];
    if (longEnough || autocomplete) {
      const prefixWords = this.wordsStartingWith(t, longEnough ? MAX_LISTED_PREFIX_WORDS : AUTOCOMPLETE_PREFIX_WORDS);
      // Too many to list: one prefix term, which may match in any band.
      if (prefixWords === undefined) out = [{ text: t, prefix: true, bands: ALL_BANDS }];
      else out.push(...prefixWords.map(asTerm));
    }
    return level === 'F' ? [...out, ...this.expansionOf(t, 'FO', false).terms] : out;
  }

  /** Bands a word occurs in (0 when it is not indexed). */
  private bandsOfWord(word: string): number {
    let bands = this.wordBands.get(word);
    if (bands === undefined) {
      bands = (this.statements.get('SELECT bands FROM search_word WHERE word = ?').pluck().get(word) as number | undefined) ?? 0;
      this.wordBands.set(word, bands);
    }
    return bands;
  }

  /**
   * The indexed words other than `part` that start with it, most frequent first; `undefined` when
   * there are more than `max`. A part shorter than MIN_FRAGMENT_LENGTH (the autocomplete word) is
   * answered with at most `max` of the most frequent such words.
   */
  private wordsStartingWith(part: string, max: number): readonly WordAlternative[] | undefined {
    const cacheKey = `${max}:${part}`;
    const cached = this.prefixCache.get(cacheKey);
    if (cached !== undefined) return cached ?? undefined;
    const upper = part.slice(0, -1) + String.fromCodePoint(part.codePointAt(part.length - 1)! + 1);
    let words: WordAlternative[] | null;
    if (part.length < MIN_FRAGMENT_LENGTH) {
      words = this.statements
        .get(`SELECT w.word, w.bands FROM (SELECT * FROM search_word WHERE word > ? AND word < ? LIMIT ${SHORT_PREFIX_SCAN}) w ORDER BY w.id LIMIT ?`)
        .all(part, upper, max) as WordAlternative[];
    } else {
      // In word order (the index), one more than `max` to tell "too many" without reading them all.
      const rows = this.statements.get('SELECT id, word, bands FROM search_word WHERE word > ? AND word < ? LIMIT ?').all(part, upper, max + 1) as Array<
        WordAlternative & { id: number }
      >;
      words = rows.length > max ? null : rows.sort((a, b) => a.id - b.id).map((r) => ({ word: r.word, bands: r.bands }));
    }
    this.prefixCache.set(cacheKey, words);
    return words ?? undefined;
  }

  /** Every indexed word that contains `part` (MIN_FRAGMENT_LENGTH+ characters), most frequent first. */
  private wordsContaining(part: string): readonly WordAlternative[] {
    const cached = this.substringCache.get(part);
    if (cached) return cached;
    // Fewer than 3 characters (a part of 3 UTF-16 units may hold 2): no trigram to look up.
    if (Array.from(part).length < 3) return [];
    const words = this.statements
      .get(
        `SELECT w.word, w.bands FROM search_word_trigram t JOIN search_word w ON w.id = t.rowid
          WHERE search_word_trigram MATCH ? AND instr(w.word, ?) > 0 ORDER BY t.rowid`,
      )
      .all(trigramCandidates(part), part) as WordAlternative[];
    this.substringCache.set(part, words);
    return words;
  }
}

/**
 * The FTS5 query for words that may contain `part` (at least 3 characters): its first, middle and
 * last trigram. The index has no positions, so candidates are checked with instr() afterwards;
 * three trigrams keep the candidates few while reading three doclists instead of all of them.
 */
function trigramCandidates(part: string): string {
  const chars = Array.from(part);
  const trigram = (i: number) => chars.slice(i, i + 3).join('');
  const last = chars.length - 3;
  return [...new Set([trigram(0), trigram(Math.floor(last / 2)), trigram(last)])].map(quoteFtsToken).join(' AND ');
}
