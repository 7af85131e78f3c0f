/**
 * A release's lexicon, what the default embedding provider knows about its words: IDFs, learned word equivalences
 * and pretrained word vectors, as rows of flat typed arrays; built once per release and stored with its vectors.
 */

import { inverseDocumentFrequency, type IdfSource } from './sparse-features.js';

export interface ReleaseLexiconData {
  /** Number of texts the document frequencies were counted over. */
  documentCount: number;
  words: string[];
  /** Per word: in how many texts it occurs. */
  documentFrequency: Uint32Array;
  /** Per word w: its equivalents are rows equivalentOffsets[w] .. equivalentOffsets[w+1]−1. */
  equivalentOffsets: Uint32Array;
  /** Word index of each equivalent. */
  equivalentWords: Uint32Array;
  /** Strength (0..1) of each equivalent. */
  equivalentStrengths: Float32Array;
  gloveDimension: number;
  /** Per word: its row in gloveVectors, or −1. */
  gloveRows: Int32Array;
  /** int8 rows of gloveDimension components (unit vector × 127). */
  gloveVectors: Int8Array;
}

export interface WordEquivalentRef {
  word: number;
  strength: number;
}

export class ReleaseLexicon implements IdfSource {
  private readonly index = new Map<string, number>();
  /** idf of each word, precomputed. */
  private readonly idfs: Float32Array;
  /** idf of a word the release does not have. */
  readonly unknownIdf: number;

  constructor(readonly data: ReleaseLexiconData) {
    data.words.forEach((w, i) => this.index.set(w, i));
    this.idfs = new Float32Array(data.words.length);
    for (let i = 0; i < data.words.length; i++) this.idfs[i] = inverseDocumentFrequency(data.documentCount, data.documentFrequency[i]!);
    this.unknownIdf = inverseDocumentFrequency(data.documentCount, 0);
  }

  get wordCount(): number {
    return this.data.words.length;
  }

  get gloveDimension(): number {
    return this.data.gloveDimension;
  }

  /** The word's row, or −1 when the release does not have it. */
  wordIndex(word: string): number {
    return this.index.get(word) ?? -1;
  }

  word(index: number): string {
    return this.data.words[index]!;
  }

  idf(word: string): number {
    const i = this.index.get(word);
    return i === undefined ? this.unknownIdf : this.idfs[i]!;
  }

  /** Whether an indexed text of the release has the word (an equivalent alone does not count). */
  knows(word: string): boolean {
    const i = this.index.get(word);
    return i !== undefined && this.data.documentFrequency[i]! > 0;
  }

  idfOfIndex(index: number): number {
    return index < 0 ? this.unknownIdf : this.idfs[index]!;
  }

  /** The learned equivalents of a word (by row), strongest first. */
  equivalentsOfIndex(index: number): WordEquivalentRef[] {
    if (index < 0) return [];
    const { equivalentOffsets, equivalentWords, equivalentStrengths } = this.data;
    const out: WordEquivalentRef[] = [];
    for (let r = equivalentOffsets[index]!; r < equivalentOffsets[index + 1]!; r++) {
      out.push({ word: equivalentWords[r]!, strength: equivalentStrengths[r]! });
    }
    return out;
  }

  /** The learned equivalents of a word, strongest first (for explanations and tests). */
  equivalentsOf(word: string): Array<{ word: string; strength: number }> {
    return this.equivalentsOfIndex(this.wordIndex(word)).map((e) => ({ word: this.word(e.word), strength: e.strength }));
  }

  /** The word's int8 unit vector (× 127), or null when GloVe does not know it. */
  gloveOfIndex(index: number): Int8Array | null {
    if (index < 0) return null;
    const row = this.data.gloveRows[index]!;
    if (row < 0) return null;
    const d = this.data.gloveDimension;
    return this.data.gloveVectors.subarray(row * d, (row + 1) * d);
  }
}
