/**
 * Learns word equivalences from a release's own name pairs (synonyms, both ends of `Maps to`): one-sided words of
 * each pair are paired, scored with Dice and kept above thresholds, in a pairing table of bounded memory.
 */

import { STOP_WORDS } from '../../stop-words.js';
import { tokenize } from '../../text-normalization.js';

/** One-sided word sets larger than this on either side are skipped: too many chance pairings. */
export const MAX_ONE_SIDED_WORDS = 3;
export const MIN_REPEATED_COUNT = 2;
export const MIN_REPEATED_DICE = 0.2;
export const MIN_SINGLE_DICE = 0.5;
export const MAX_EQUIVALENTS_PER_WORD = 5;
/**
 * Default bound of the pairing table. Measured: 3.5M made-up name pairs over 100k words (the table
 * pruned again and again) took 8 µs a pair and peaked at 790 MB RSS, the IDF counts of 5.4M texts
 * included.
 */
export const DEFAULT_MAX_TRACKED_PAIRINGS = 4_000_000;

const ID_BITS = 2 ** 26;

/** A learned equivalent of a word, with its strength (0..1). */
export interface WordEquivalent {
  word: string;
  strength: number;
}

/** Words → their learned equivalents, strongest first. */
export type WordEquivalences = Map<string, WordEquivalent[]>;

/**
 * The words of a name that can carry an equivalence: content words (no stop words) with a letter
 * and at least three characters (codes, numbers and abbreviations of two letters are too ambiguous).
 */
export function equivalenceWords(text: string): string[] {
  return [...new Set(tokenize(text))].filter((w) => w.length >= 3 && !STOP_WORDS.has(w) && /[a-z]/.test(w));
}

export class WordEquivalenceLearner {
  private readonly ids = new Map<string, number>();
  private readonly words: string[] = [];
  private oneSided = new Uint32Array(1024);
  private readonly pairings = new Map<number, number>();
  private readonly maxTrackedPairings: number;
  /** Pairs whose one-sided sets were usable. */
  usablePairs = 0;

  constructor(options: { maxTrackedPairings?: number } = {}) {
    this.maxTrackedPairings = options.maxTrackedPairings ?? DEFAULT_MAX_TRACKED_PAIRINGS;
  }

  /** Two names that mean the same (a name and its synonym, or both ends of a `Maps to` row). */
  addNamePair(a: string, b: string): void {
    const wordsA = equivalenceWords(a);
    const wordsB = equivalenceWords(b);
    const onlyA = wordsA.filter((w) => !wordsB.includes(w));
    const onlyB = wordsB.filter((w) => !wordsA.includes(w));
    if (onlyA.length === 0 || onlyB.length === 0) return;
    if (onlyA.length > MAX_ONE_SIDED_WORDS || onlyB.length > MAX_ONE_SIDED_WORDS) return;
    this.usablePairs++;
    const idsA = onlyA.map((w) => this.intern(w));
    const idsB = onlyB.map((w) => this.intern(w));
    for (const id of idsA) this.oneSided[id]!++;
    for (const id of idsB) this.oneSided[id]!++;
    for (const x of idsA) {
      for (const y of idsB) {
        const key = x < y ? x * ID_BITS + y : y * ID_BITS + x;
        this.pairings.set(key, (this.pairings.get(key) ?? 0) + 1);
      }
    }
    if (this.pairings.size > this.maxTrackedPairings) this.pruneRarePairings();
  }

  /** The equivalences that pass the thresholds, each word's strongest first. */
  finish(): WordEquivalences {
    const found = new Map<number, Array<{ id: number; strength: number }>>();
    const add = (from: number, to: number, strength: number): void => {
      let list = found.get(from);
      if (!list) found.set(from, (list = []));
      list.push({ id: to, strength });
    };
    for (const [key, count] of this.pairings) {
      const x = Math.floor(key / ID_BITS);
      const y = key % ID_BITS;
      const dice = (2 * count) / (this.oneSided[x]! + this.oneSided[y]!);
      const kept = count >= MIN_REPEATED_COUNT ? dice >= MIN_REPEATED_DICE : dice >= MIN_SINGLE_DICE;
      if (!kept) continue;
      const strength = (dice * count) / (count + 1);
      add(x, y, strength);
      add(y, x, strength);
    }
    const equivalences: WordEquivalences = new Map();
    for (const [id, list] of found) {
      list.sort((p, q) => q.strength - p.strength || (this.words[p.id]! < this.words[q.id]! ? -1 : 1));
      equivalences.set(
        this.words[id]!,
        list.slice(0, MAX_EQUIVALENTS_PER_WORD).map((e) => ({ word: this.words[e.id]!, strength: e.strength })),
      );
    }
    return equivalences;
  }

  private intern(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      id = this.words.length;
      if (id >= ID_BITS) throw new Error('word equivalence learner: more than 2^26 distinct words');
      this.ids.set(word, id);
      this.words.push(word);
      if (id >= this.oneSided.length) {
        const grown = new Uint32Array(this.oneSided.length * 2);
        grown.set(this.oneSided);
        this.oneSided = grown;
      }
    }
    return id;
  }

  /** Drops the pairings seen once (then twice, …) until the table is at most half its bound. */
  private pruneRarePairings(): void {
    for (let rare = 1; this.pairings.size > this.maxTrackedPairings / 2; rare++) {
      for (const [key, count] of this.pairings) if (count <= rare) this.pairings.delete(key);
    }
  }
}
