/**
 * The plain lexical similarity (the `lexical` algorithm of /v1/search/similar and the evaluation's baseline): a
 * weighted sum of the IDF-weighted word cosine (typo-tolerant) and the character-trigram cosine, 0..1.
 */

import { tokenize } from '../../search-model/text-normalization.js';
import {
  addFeature,
  addWordTrigrams,
  featureDot,
  normalizeFeatures,
  type IdfSource,
  type SparseFeatures,
  type WordWeights,
} from '../../search-model/semantic/lexicon/sparse-features.js';
import { typoTolerantWordDot } from '../../search-model/semantic/lexicon/typo-matching.js';

/** Share of the word cosine in the score (the rest is the trigram cosine). */
export const WORD_SHARE = 0.5;

export interface LexicalScorer {
  /** Similarity (0..1) of the query to each text, in order. */
  score(query: string, texts: readonly string[]): number[];
  /** score() for many queries against the same texts, whose features are computed once (brute-force baselines). */
  against(texts: readonly string[]): (query: string) => number[];
}

interface LexicalFeatures {
  words: WordWeights;
  trigrams: SparseFeatures;
}

export function createLexicalScorer(idf: IdfSource): LexicalScorer {
  const features = (text: string): LexicalFeatures => {
    const words: WordWeights = new Map();
    const trigrams: SparseFeatures = new Map();
    for (const word of tokenize(text)) {
      const weight = idf.idf(word);
      addFeature(words, word, weight);
      addWordTrigrams(trigrams, word, weight / Math.sqrt(word.length));
    }
    return { words: normalizeFeatures(words), trigrams: normalizeFeatures(trigrams) };
  };
  const similarity = (q: LexicalFeatures, f: LexicalFeatures): number => {
    const s = WORD_SHARE * typoTolerantWordDot(q.words, f.words, idf) + (1 - WORD_SHARE) * featureDot(q.trigrams, f.trigrams);
    return Math.min(1, Math.max(0, s));
  };
  return {
    score(query, texts) {
      const q = features(query);
      return texts.map((t) => similarity(q, features(t)));
    },
    against(texts) {
      const prepared = texts.map(features);
      return (query) => {
        const q = features(query);
        return prepared.map((f) => similarity(q, f));
      };
    },
  };
}
