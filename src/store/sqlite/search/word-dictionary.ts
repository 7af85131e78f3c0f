/**
 * The word dictionary of a search index (tables search_word and search_word_trigram): the bands a
 * word occurs in, and the indexed words that start with or contain a word part (the expansions of
 * E4 matching rule 2; src/search-model/tier-plan.ts decides where they apply).
 */
import { LruCache } from '../../../lru-cache.js';
import { MIN_FRAGMENT_LENGTH, type WordAlternative, type WordDictionary } from '../../../search-model/tier-plan.js';
import { quoteFtsToken } from './fts-expressions.js';
import type { StatementCache } from './statements.js';

/** Prefix expansion of a 1–2 character autocomplete word looks at most this many words (alphabetical order). */
const SHORT_PREFIX_SCAN = 5000;

export class SqliteWordDictionary implements WordDictionary {
  private readonly prefixCache = new LruCache<readonly WordAlternative[] | null>(4096);
  private readonly substringCache = new LruCache<readonly WordAlternative[]>(4096);
  private readonly wordBands = new LruCache<number>(20000);

  constructor(private readonly statements: StatementCache) {}

  bandsOfWord(word: string): number {
    let bands = this.wordBands.get(word);
    if (bands === undefined) {
      bands = (this.statements.get('SELECT bands FROM search_word WHERE word = ?').pluck().get(word) as number | undefined) ?? 0;
      this.wordBands.set(word, bands);
    }
    return bands;
  }

  wordsStartingWith(part: string, max: number): readonly WordAlternative[] | undefined {
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

  wordsContaining(part: string): readonly WordAlternative[] {
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
