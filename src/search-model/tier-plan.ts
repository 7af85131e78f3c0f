/**
 * The E4 tier plan: which texts match a query at which text tier and which better tiers each leaves out, per band
 * and independent of any index backend; tierPlan() turns a band's word expansions into the tier's plan.
 */
import { BAND_COUNT } from './ranking.js';

export type IndexedTier = 'name_phrase' | 'name_words' | 'any_words' | 'name_prefixes' | 'any_prefixes' | 'name_fragments' | 'any_fragments';

/** The words of one phrasing of the query (see QueryPhrasing). */
export interface TextPhrasing {
  tokens: readonly string[];
  requiredTokens: readonly string[];
}

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

/**
 * Widening levels of a required word: the word (W), or a word it starts (PF), or contains (F);
 * FO is F without PF (only the words containing the word elsewhere than at their start).
 * PF is W plus the words the word starts (listed, or one prefix term when there are many); F is
 * PF followed by FO.
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
/** Every band (bit b = band b): the bands of a prefix term, which may match anywhere. */
export const ALL_BANDS = 2 ** BAND_COUNT - 1;
/**
 * A word that starts more than this many indexed words matches them through one prefix term instead
 * of a list: an index walks a list of n words at n times the cost per match (cheap for a page, and
 * the list keeps frequent words' doclists lazy), while a prefix term merges every such word's
 * doclist once per read (cheaper when the list is long).
 */
export const MAX_LISTED_PREFIX_WORDS = 256;
/**
 * A 1–2 character autocomplete word (shorter than any fragment, so outside matching rule 2) matches
 * at most this many of the most frequent words it starts; a prefix term would match too much.
 */
export const AUTOCOMPLETE_PREFIX_WORDS = 64;

/**
 * Whether required word `index` of `p` widens at `level` as the autocomplete word: the last word of
 * an autocomplete query widens even when it is shorter than MIN_FRAGMENT_LENGTH (at PF and F only).
 */
export function isAutocompleteWord(p: TextPhrasing, index: number, level: Level, prefixLast: boolean): boolean {
  return (level === 'PF' || level === 'F') && prefixLast && index === p.requiredTokens.length - 1 && p.requiredTokens[index] === p.tokens[p.tokens.length - 1];
}

/** The levels a tier's plan reads (the store looks up only these expansions). */
export function tierLevels(tier: IndexedTier | 'union'): readonly Level[] {
  switch (tier) {
    case 'name_phrase':
    case 'name_words':
    case 'any_words':
      return ['W'];
    case 'name_prefixes':
    case 'any_prefixes':
      return ['W', 'PF'];
    default:
      return ['W', 'PF', 'F', 'FO'];
  }
}

/** One required word's alternatives in one band, at the levels asked for. */
export type WordLevels = Partial<Record<Level, readonly WordTerm[]>>;

/** A phrasing with, per required word (same order as requiredTokens), its alternatives in the band. */
export interface ExpandedPhrasing extends TextPhrasing {
  words: readonly WordLevels[];
}

/** What a store hands the planner for one band: the query's phrasings with their expansions there. */
export interface BandExpansions {
  phrasings: readonly ExpandedPhrasing[];
  /**
   * Whether some required word can match more at PF / at F than at the level below, in any band
   * (else those tiers are empty everywhere): PF when it starts some other indexed word (or has a
   * prefix term), F when some indexed word contains it elsewhere than at its start.
   */
  widens: { PF: boolean; F: boolean };
}

/** Whether a word's alternatives (over every band) at PF / FO widen it (see BandExpansions.widens). */
export function widensAt(word: string, level: 'PF' | 'FO', alternatives: readonly WordTerm[]): boolean {
  return level === 'FO' ? alternatives.length > 0 : alternatives.some((a) => a.prefix || a.text !== word);
}

function levelOf(word: WordLevels, level: Level): readonly WordTerm[] {
  const terms = word[level];
  if (terms === undefined) throw new Error(`tier plan: the ${level} expansions of a word were not looked up (see tierLevels)`);
  return terms;
}

/** The required words at `level` in the band; null when nothing there can match. */
export function levelWords(phrasings: readonly ExpandedPhrasing[], level: Level): WordsCondition | null {
  const out: Array<ReadonlyArray<readonly WordTerm[]>> = [];
  for (const p of phrasings) {
    const words = p.words.map((w) => levelOf(w, level));
    if (words.length === 0 || words.some((w) => w.length === 0)) continue;
    out.push(words);
  }
  return out.length ? out : null;
}

/** The multi-word phrasings (as phrases) whose words all occur in the band; null when there are none. */
function phrases(phrasings: readonly ExpandedPhrasing[]): string[][] | null {
  const out = phrasings.filter((p) => p.tokens.length >= 2 && levelWords([p], 'W') !== null).map((p) => [...p.tokens]);
  return out.length ? out : null;
}

/** The plan of `tier` in the band of `expansions`, or null when the tier is empty there. */
export function tierPlan(expansions: BandExpansions, tier: IndexedTier | 'union'): TierPlan | null {
  const { phrasings, widens } = expansions;
  const words = (columns: TextColumns, level: Level): TextMatch | null => {
    const w = levelWords(phrasings, level);
    return w === null ? null : { columns, words: w };
  };
  const plan = (match: TextMatch | null, ...unless: Array<TextMatch | null>): TierPlan | null =>
    match === null ? null : { match, unless: unless.filter((u): u is TextMatch => u !== null) };
  const phrase = (): TextMatch | null => {
    const p = phrases(phrasings);
    return p === null ? null : { columns: 'name', phrases: p };
  };
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
      return widens.PF ? plan(words('name', 'PF'), words('name_synonyms', 'W')) : null;
    case 'any_prefixes':
      return widens.PF ? plan(words('name_synonyms', 'PF'), words('name', 'PF'), words('name_synonyms', 'W')) : null;
    case 'name_fragments':
      return widens.F ? plan(words('name', fragments), words('name_synonyms', 'PF')) : null;
    case 'any_fragments':
      return widens.F ? plan(words('name_synonyms', fragments), words('name', 'F'), words('name_synonyms', 'PF')) : null;
    case 'union':
      return plan(words('name_synonyms', 'F')); // (F ⊇ PF ⊇ W, equal where nothing widens)
  }
}
