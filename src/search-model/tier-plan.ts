/**
 * THE E4 TIER PLAN: which texts match a query at which text tier, independent of any index backend.
 * A store's full-text index only has to answer "which concepts' name (or name and synonyms) contain
 * these words"; this module says which words, and which better tiers a tier leaves out:
 *
 *   name_phrase    name: all words in order                  (multi-word phrasings only)
 *   name_words     name: W                   unless  name: phrase
 *   any_words      name+syn: W               unless  name: W
 *   name_prefixes  name: PF                  unless  name+syn: W
 *   any_prefixes   name+syn: PF              unless  name: PF,  name+syn: W
 *   name_fragments name: F                   unless  name+syn: PF
 *   any_fragments  name+syn: F               unless  name: F,   name+syn: PF
 *   union          name+syn: F               (every tier together: what the total counts)
 *
 * with W = every required word, PF = every required word as a word or the start of a word,
 * F = as a word, start of a word or part of a word (W ⊆ PF ⊆ F), OR-ed over the phrasings. (With
 * one required word, the fragment tiers match F-minus-PF words only: the same concepts.) A word
 * part widens only when it has 3+ characters (or it is the autocomplete word). The prefix tiers
 * exist only when some word has prefix expansions, the fragment tiers only when some word has
 * fragment expansions. Expansions are every indexed word that starts with / contains the part (E4
 * matching rule 2: substring matching is complete), looked up in the store's word dictionary.
 *
 * Plans are per band: alternatives that do not occur in the band are left out (so a rare word's
 * expansions shrink to the few that occur there), and an `unless` part that can match nothing in
 * the band is dropped.
 */
import type { IndexedTier, TextPhrasing } from '../store/search-store.js';
import { LruCache } from '../lru-cache.js';
import { BAND_COUNT } from './ranking.js';

/** An indexed word a query word may match, and the bands it occurs in (bit b = band b). */
export interface WordAlternative {
  word: string;
  bands: number;
}

/** What a query word may match: one indexed word, or (prefix) every indexed word starting with `text`. */
export interface WordTerm {
  text: string;
  prefix: boolean;
  /** Bands where it can match (bit b = band b). */
  bands: number;
}

/** The store's dictionary of indexed words (most frequent first). */
export interface WordDictionary {
  /** Bands a word occurs in (0 when it is not indexed). */
  bandsOfWord(word: string): number;
  /**
   * The indexed words other than `part` that start with it, most frequent first; `undefined` when
   * there are more than `max`. A part shorter than MIN_FRAGMENT_LENGTH (the autocomplete word) is
   * answered with at most `max` of the most frequent such words.
   */
  wordsStartingWith(part: string, max: number): readonly WordAlternative[] | undefined;
  /** Every indexed word that contains `part` (MIN_FRAGMENT_LENGTH+ characters), most frequent first. */
  wordsContaining(part: string): readonly WordAlternative[];
}

/**
 * Widening levels of a required word: the word (W), or a word it starts (PF), or contains (F);
 * FO is F without PF (only the words containing the word elsewhere than at their start).
 */
export type Level = 'W' | 'PF' | 'F' | 'FO';

/**
 * Words a text must contain: OR over the phrasings, of AND over their required words, of OR over
 * each word's alternatives.
 */
export type WordsCondition = ReadonlyArray<ReadonlyArray<readonly WordTerm[]>>;

/** What one text condition looks at: the name alone, or the name and the synonyms together. */
export type TextColumns = 'name' | 'name_synonyms';

export type TextMatch =
  | { columns: TextColumns; words: WordsCondition }
  /** Some phrase (token sequence, in order) occurs in the name. */
  | { columns: 'name'; phrases: ReadonlyArray<readonly string[]> };

/** A tier in one band: the concepts matching `match` and none of `unless`. */
export interface TierPlan {
  match: TextMatch;
  unless: readonly TextMatch[];
}

/** A fragment (word part) must have at least this many characters to match inside words or as a prefix. */
export const MIN_FRAGMENT_LENGTH = 3;
const ALL_BANDS = 2 ** BAND_COUNT - 1;
/**
 * A word that starts more than this many indexed words matches them through one prefix term instead
 * of a list: an index walks a list of n words at n times the cost per match (cheap for a page, and
 * the list keeps frequent words' doclists lazy), while a prefix term merges every such word's
 * doclist once per read (cheaper when the list is long).
 */
const MAX_LISTED_PREFIX_WORDS = 256;
/**
 * A 1–2 character autocomplete word (shorter than any fragment, so outside matching rule 2) matches
 * at most this many of the most frequent words it starts; a prefix term would match too much.
 */
const AUTOCOMPLETE_PREFIX_WORDS = 64;

/** What one query word expands to at one level, and (filled on demand) the part of it in each band. */
interface Expansion {
  terms: readonly WordTerm[];
  /** byBand[b]: the terms occurring in band b (index BAND_COUNT: every band). */
  byBand: Array<readonly WordTerm[] | undefined>;
}

/**
 * Word expansions kept per planner (a published store's dictionary never changes). Every tier and
 * band of a search, and every search of a batch, asks for the same few words' expansions again; a
 * common word part expands to thousands of words, so rebuilding (and band-filtering) them per tier
 * and band cost more than the index walks of a rare word.
 */
const EXPANSION_CACHE_SIZE = 2048;

export class TierPlanner {
  private readonly expansions = new LruCache<Expansion>(EXPANSION_CACHE_SIZE);

  constructor(private readonly dictionary: WordDictionary) {}

  /**
   * What required word `index` of `p` may match at `level`: W the word itself; PF also the words it
   * starts (listed, or one prefix term when there are many); F also every word containing it; FO
   * only those containing it elsewhere than at their start. The answer is shared: do not modify it.
   */
  alternatives(p: TextPhrasing, index: number, level: Level, prefixLast: boolean): readonly WordTerm[] {
    return this.expansion(p, index, level, prefixLast).terms;
  }

  /** alternatives() that occur in `band` (undefined: any band). */
  private alternativesIn(p: TextPhrasing, index: number, level: Level, prefixLast: boolean, band: number | undefined): readonly WordTerm[] {
    const e = this.expansion(p, index, level, prefixLast);
    const slot = band === undefined ? BAND_COUNT : band;
    let inBand = e.byBand[slot];
    if (inBand === undefined) {
      const bit = band === undefined ? ALL_BANDS : 1 << band;
      inBand = e.terms.every((a) => (a.bands & bit) !== 0) ? e.terms : e.terms.filter((a) => (a.bands & bit) !== 0);
      e.byBand[slot] = inBand;
    }
    return inBand;
  }

  private expansion(p: TextPhrasing, index: number, level: Level, prefixLast: boolean): Expansion {
    const t = p.requiredTokens[index]!;
    // The autocomplete word widens even when short; nothing else about the phrasing matters.
    const lastWord = (level === 'PF' || level === 'F') && prefixLast && index === p.requiredTokens.length - 1 && t === p.tokens[p.tokens.length - 1];
    return this.expansionOf(t, level, lastWord);
  }

  private expansionOf(t: string, level: Level, lastWord: boolean): Expansion {
    const key = `${level}${lastWord ? '+' : ''}\u0000${t}`;
    let e = this.expansions.get(key);
    if (e === undefined) {
      e = { terms: this.expand(t, level, lastWord), byBand: [] };
      this.expansions.set(key, e);
    }
    return e;
  }

  private expand(t: string, level: Level, lastWord: boolean): readonly WordTerm[] {
    if (level === 'W') return [{ text: t, prefix: false, bands: this.dictionary.bandsOfWord(t) }];
    const asTerm = (a: WordAlternative): WordTerm => ({ text: a.word, prefix: false, bands: a.bands });
    const longEnough = t.length >= MIN_FRAGMENT_LENGTH;
    if (level === 'FO') return longEnough ? this.dictionary.wordsContaining(t).filter((a) => !a.word.startsWith(t)).map(asTerm) : [];
    let out: WordTerm[] = [...this.expansionOf(t, 'W', false).terms];
    if (longEnough || lastWord) {
      const prefixWords = this.dictionary.wordsStartingWith(t, longEnough ? MAX_LISTED_PREFIX_WORDS : AUTOCOMPLETE_PREFIX_WORDS);
      // Too many to list: one prefix term, which may match in any band.
      if (prefixWords === undefined) out = [{ text: t, prefix: true, bands: ALL_BANDS }];
      else out.push(...prefixWords.map(asTerm));
    }
    return level === 'F' ? [...out, ...this.expansionOf(t, 'FO', false).terms] : out;
  }

  /** Whether some required word can match more at `level` than at the level below (else its tiers are empty). */
  widened(phrasings: readonly TextPhrasing[], level: 'PF' | 'F', prefixLast: boolean): boolean {
    return phrasings.some((p) =>
      p.requiredTokens.some((_, i) =>
        level === 'F'
          ? this.alternatives(p, i, 'FO', prefixLast).length > 0
          : this.alternatives(p, i, 'PF', prefixLast).some((a) => a.prefix || a.text !== p.requiredTokens[i]),
      ),
    );
  }

  /** The required words at `level` that occur in `band` (undefined: any band); null when nothing there can match. */
  levelWords(phrasings: readonly TextPhrasing[], level: Level, prefixLast: boolean, band: number | undefined): WordsCondition | null {
    const out: Array<Array<readonly WordTerm[]>> = [];
    for (const p of phrasings) {
      const words = p.requiredTokens.map((_, i) => this.alternativesIn(p, i, level, prefixLast, band));
      if (words.length === 0 || words.some((w) => w.length === 0)) continue;
      out.push(words);
    }
    return out.length ? out : null;
  }

  /** The multi-word phrasings (as phrases) whose words all occur in `band`; null when there are none. */
  private phrases(phrasings: readonly TextPhrasing[], prefixLast: boolean, band: number | undefined): string[][] | null {
    const out = phrasings.filter((p) => p.tokens.length >= 2 && this.levelWords([p], 'W', prefixLast, band) !== null).map((p) => [...p.tokens]);
    return out.length ? out : null;
  }

  /** The plan of `tier` in `band` (undefined: any band), or null when the tier is empty there. */
  tierPlan(phrasings: readonly TextPhrasing[], tier: IndexedTier | 'union', prefixLast: boolean, band: number | undefined): TierPlan | null {
    const words = (columns: TextColumns, level: Level): TextMatch | null => {
      const w = this.levelWords(phrasings, level, prefixLast, band);
      return w === null ? null : { columns, words: w };
    };
    const plan = (match: TextMatch | null, ...unless: Array<TextMatch | null>): TierPlan | null =>
      match === null ? null : { match, unless: unless.filter((u): u is TextMatch => u !== null) };
    const phrase = (): TextMatch | null => {
      const p = this.phrases(phrasings, prefixLast, band);
      return p === null ? null : { columns: 'name', phrases: p };
    };
    const widened = (level: 'PF' | 'F') => this.widened(phrasings, level, prefixLast);
    // With one required word, a fragment tier's concepts are exactly those matching a fragment-only
    // word (the others match PF, which the tier leaves out): a much shorter walk than all of F.
    const fragments: Level = phrasings.every((p) => p.requiredTokens.length === 1) ? 'FO' : 'F';
    switch (tier) {
      case 'name_phrase':
        return plan(phrase());
      case 'name_words':
        return plan(words('name', 'W'), phrase());
      case 'any_words':
        return plan(words('name_synonyms', 'W'), words('name', 'W'));
      case 'name_prefixes':
        return widened('PF') ? plan(words('name', 'PF'), words('name_synonyms', 'W')) : null;
      case 'any_prefixes':
        return widened('PF') ? plan(words('name_synonyms', 'PF'), words('name', 'PF'), words('name_synonyms', 'W')) : null;
      case 'name_fragments':
        return widened('F') ? plan(words('name', fragments), words('name_synonyms', 'PF')) : null;
      case 'any_fragments':
        return widened('F') ? plan(words('name_synonyms', fragments), words('name', 'F'), words('name_synonyms', 'PF')) : null;
      case 'union':
        return plan(words('name_synonyms', 'F')); // (F ⊇ PF ⊇ W, equal where nothing widens)
    }
  }
}
