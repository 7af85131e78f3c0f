/**
 * Builds a release's lexicon (./release-lexicon.ts) from the embed pipeline's streams: indexed texts for document
 * frequencies and same-meaning name pairs for word equivalences, in memory bounded by the distinct words.
 */

import type { GloveVectors } from './glove-vectors.js';
import { ReleaseLexicon } from './release-lexicon.js';
import { lexiconWords } from './text-features.js';
import { WordEquivalenceLearner } from './word-equivalences.js';

export interface FinishLexiconOptions {
  /** Pretrained word vectors (./glove-vectors.ts loadGloveVectors), or null to build without them. */
  glove: GloveVectors | null;
}

export class ReleaseLexiconBuilder {
  private readonly documentFrequency = new Map<string, number>();
  private documentCount = 0;
  private readonly learner: WordEquivalenceLearner;

  constructor(options: { maxTrackedPairings?: number } = {}) {
    this.learner = new WordEquivalenceLearner(options);
  }

  /** One indexed text (a name or synonym of a concept that will be searched). */
  addEntryText(text: string): void {
    this.documentCount++;
    for (const word of new Set(lexiconWords(text))) this.documentFrequency.set(word, (this.documentFrequency.get(word) ?? 0) + 1);
  }

  /** Two names that mean the same. */
  addNamePair(a: string, b: string): void {
    this.learner.addNamePair(a, b);
  }

  finish(options: FinishLexiconOptions): ReleaseLexicon {
    const equivalences = this.learner.finish();
    const words = [...this.documentFrequency.keys()];
    const index = new Map<string, number>();
    words.forEach((w, i) => index.set(w, i));
    // Equivalents the indexed texts never use still count: a query may use them.
    for (const [word, list] of equivalences) {
      for (const w of [word, ...list.map((e) => e.word)]) {
        if (!index.has(w)) {
          index.set(w, words.length);
          words.push(w);
        }
      }
    }
    const documentFrequency = new Uint32Array(words.length);
    words.forEach((w, i) => (documentFrequency[i] = this.documentFrequency.get(w) ?? 0));

    const equivalentOffsets = new Uint32Array(words.length + 1);
    let total = 0;
    for (let i = 0; i < words.length; i++) {
      equivalentOffsets[i] = total;
      total += equivalences.get(words[i]!)?.length ?? 0;
    }
    equivalentOffsets[words.length] = total;
    const equivalentWords = new Uint32Array(total);
    const equivalentStrengths = new Float32Array(total);
    for (let i = 0; i < words.length; i++) {
      let r = equivalentOffsets[i]!;
      for (const e of equivalences.get(words[i]!) ?? []) {
        equivalentWords[r] = index.get(e.word)!;
        equivalentStrengths[r] = e.strength;
        r++;
      }
    }

    const glove = options.glove;
    const gloveDimension = glove?.dimension ?? 0;
    const gloveRows = new Int32Array(words.length).fill(-1);
    const found: Int8Array[] = [];
    if (glove) {
      words.forEach((w, i) => {
        const v = glove.vectorOf(w);
        if (v) {
          gloveRows[i] = found.length;
          found.push(v);
        }
      });
    }
    const gloveVectors = new Int8Array(found.length * gloveDimension);
    found.forEach((v, row) => gloveVectors.set(v, row * gloveDimension));

    return new ReleaseLexicon({
      documentCount: this.documentCount,
      words,
      documentFrequency,
      equivalentOffsets,
      equivalentWords,
      equivalentStrengths,
      gloveDimension,
      gloveRows,
      gloveVectors,
    });
  }
}
