/**
 * What the default provider sees in a text: IDF-weighted words with their learned equivalents, character trigrams,
 * and the mean GloVe vector, each part unit-length; the similarity of two texts is a weighted mix of the three
 * cosines.
 */

import { contentTokens } from '../../stop-words.js';
import { tokenize } from '../../text-normalization.js';
import type { ReleaseLexicon } from './release-lexicon.js';
import { GLOVE_INT8_SCALE } from './glove-vectors.js';
import { addFeature, addWordTrigrams, featureDot, normalizeFeatures, type SparseFeatures, type WordWeights } from './sparse-features.js';
import { typoTolerantWordDot } from './typo-matching.js';

const LETTERS_AND_DIGITS = /\d+|\D+/g;

/**
 * The words of a text as the lexicon counts them: tokenize() (../../search/text-normalization.ts),
 * with a token that mixes digits and letters split between them ("200mg" → 200, mg; "b12" → b, 12),
 * so a source's "200mg/1" meets a standard name's "200 MG".
 */
export function lexiconWords(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    if (/^(?:\d+|\D+)$/.test(token)) out.push(token);
    else for (const part of token.match(LETTERS_AND_DIGITS)!) out.push(part);
  }
  return out;
}

export interface LexiconFeatureWeights {
  /** Mix weight of the word part (words and their equivalents). */
  words: number;
  /** Weight of a learned equivalent relative to the word it stands for, inside the word part. */
  equivalents: number;
  /** Mix weight of the character-trigram part. */
  trigrams: number;
  /** Mix weight of the pretrained word-vector part. */
  glove: number;
}

export const DEFAULT_LEXICON_WEIGHTS: Readonly<LexiconFeatureWeights> = Object.freeze({
  words: 1,
  equivalents: 1,
  trigrams: 0.5,
  glove: 0.15,
});

export interface TextFeatures {
  /** Unit-length word part: word → weight (empty for a text without words). */
  words: WordWeights;
  /** Unit-length trigram part. */
  trigrams: SparseFeatures;
  /** Unit-length word-vector part, or null when GloVe knows none of the words. */
  glove: Float32Array | null;
}

export class TextFeatureExtractor {
  constructor(
    readonly lexicon: ReleaseLexicon,
    readonly weights: Readonly<LexiconFeatureWeights> = DEFAULT_LEXICON_WEIGHTS,
  ) {}

  features(text: string): TextFeatures {
    const lexicon = this.lexicon;
    const tokens = lexiconWords(text);
    const content = contentTokens(tokens);
    const words = new Set(content.length > 0 ? content : tokens);
    const wordPart: WordWeights = new Map();
    const trigramPart: SparseFeatures = new Map();
    const dimension = lexicon.gloveDimension;
    let glove: Float32Array | null = null;
    for (const word of words) {
      const index = lexicon.wordIndex(word);
      const idf = lexicon.idfOfIndex(index);
      addFeature(wordPart, word, idf);
      if (this.weights.equivalents > 0) {
        for (const e of lexicon.equivalentsOfIndex(index)) {
          addFeature(wordPart, lexicon.word(e.word), this.weights.equivalents * e.strength * idf);
        }
      }
      addWordTrigrams(trigramPart, word, idf / Math.sqrt(word.length));
      const vector = dimension > 0 ? lexicon.gloveOfIndex(index) : null;
      if (vector) {
        glove ??= new Float32Array(dimension);
        const scale = idf / GLOVE_INT8_SCALE;
        for (let d = 0; d < dimension; d++) glove[d]! += vector[d]! * scale;
      }
    }
    if (glove) {
      let norm = 0;
      for (let d = 0; d < dimension; d++) norm += glove[d]! * glove[d]!;
      norm = Math.sqrt(norm);
      if (norm > 0) for (let d = 0; d < dimension; d++) glove[d]! /= norm;
      else glove = null;
    }
    return { words: normalizeFeatures(wordPart), trigrams: normalizeFeatures(trigramPart), glove };
  }

  /** Sum of the mix weights of the parts this text has (its squared norm in the concatenation). */
  partWeight(f: TextFeatures): number {
    const w = this.weights;
    return (f.words.size > 0 ? w.words : 0) + (f.trigrams.size > 0 ? w.trigrams : 0) + (f.glove ? w.glove : 0);
  }

  /**
   * Exact cosine of a query's features with a candidate's, clamped to 0..1; a query word the
   * release does not know may match a candidate word as a typo (./typo-matching.ts).
   */
  similarity(a: TextFeatures, b: TextFeatures, aWeight = this.partWeight(a)): number {
    const bWeight = this.partWeight(b);
    if (aWeight === 0 || bWeight === 0) return 0;
    const w = this.weights;
    let dot = 0;
    if (w.words > 0) dot += w.words * typoTolerantWordDot(a.words, b.words, this.lexicon);
    if (w.trigrams > 0) dot += w.trigrams * featureDot(a.trigrams, b.trigrams);
    if (w.glove > 0 && a.glove && b.glove) {
      let g = 0;
      for (let d = 0; d < a.glove.length; d++) g += a.glove[d]! * b.glove[d]!;
      dot += w.glove * g;
    }
    const cos = dot / Math.sqrt(aWeight * bWeight);
    return cos <= 0 ? 0 : cos >= 1 ? 1 : cos;
  }
}
