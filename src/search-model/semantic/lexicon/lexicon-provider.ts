/**
 * The built-in default embedding provider ("lexicon"): `embed()` randomly projects a text's feature map over the
 * release's lexicon to a short unit vector for the index, and `similarity()` is the exact cosine of the feature
 * maps.
 */

import { LEXICON_PROVIDER_ID, type EmbeddingProvider } from '../embedding-provider.js';
import { RandomProjection } from './random-projection.js';
import { featureHash, WORD_FEATURE } from './sparse-features.js';
import type { ReleaseLexicon } from './release-lexicon.js';
import { DEFAULT_LEXICON_WEIGHTS, TextFeatureExtractor, type LexiconFeatureWeights, type TextFeatures } from './text-features.js';

export const LEXICON_DIMENSION = 128;
const PROJECTION_SEED = `${LEXICON_PROVIDER_ID} random projection`;

export interface LexiconProvider extends EmbeddingProvider {
  readonly lexicon: ReleaseLexicon;
  readonly weights: Readonly<LexiconFeatureWeights>;
  similarity(query: string, candidates: readonly string[]): number[];
  /** embed() for one text, synchronously. */
  embedOne(text: string): Float32Array;
}

/**
 * The default provider over one release's lexicon. `weights` (for ablations) changes the vectors,
 * so a provider with non-default weights has an id of its own (`omopterm-lexicon/1;words=…`).
 */
export function createLexiconProvider(
  lexicon: ReleaseLexicon,
  options: { weights?: Partial<LexiconFeatureWeights> } = {},
): LexiconProvider {
  const weights: LexiconFeatureWeights = { ...DEFAULT_LEXICON_WEIGHTS, ...options.weights };
  const extractor = new TextFeatureExtractor(lexicon, weights);
  const projection = new RandomProjection(LEXICON_DIMENSION, lexicon.gloveDimension, PROJECTION_SEED);
  const isDefault = (Object.keys(DEFAULT_LEXICON_WEIGHTS) as Array<keyof LexiconFeatureWeights>).every(
    (k) => weights[k] === DEFAULT_LEXICON_WEIGHTS[k],
  );
  const id = isDefault
    ? LEXICON_PROVIDER_ID
    : `${LEXICON_PROVIDER_ID};${Object.entries(weights).map(([k, v]) => `${k}=${v}`).join(',')}`;

  const embedFeatures = (f: TextFeatures): Float32Array => {
    const sum = new Float64Array(LEXICON_DIMENSION);
    // Part p enters the concatenation scaled by √weight (see ./text-features.ts).
    const wordScale = Math.sqrt(weights.words);
    if (wordScale > 0) for (const [word, v] of f.words) projection.addSparse(sum, featureHash(WORD_FEATURE, word), v * wordScale);
    const trigramScale = Math.sqrt(weights.trigrams);
    if (trigramScale > 0) for (const [key, v] of f.trigrams) projection.addSparse(sum, key, v * trigramScale);
    if (f.glove && weights.glove > 0) projection.addDense(sum, f.glove, Math.sqrt(weights.glove));
    return unitVector(sum);
  };
  const embedOne = (text: string): Float32Array => embedFeatures(extractor.features(text));

  return {
    id,
    dimension: LEXICON_DIMENSION,
    lexicon,
    weights,
    embedOne,
    async embed(texts) {
      return texts.map(embedOne);
    },
    similarity(query, candidates) {
      const q = extractor.features(query);
      const qWeight = extractor.partWeight(q);
      return candidates.map((c) => extractor.similarity(q, extractor.features(c), qWeight));
    },
  };
}

/** Float32 unit vector of a sum (a text with no features gets a fixed unit vector, not NaN). */
function unitVector(sum: Float64Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < sum.length; i++) norm += sum[i]! * sum[i]!;
  const out = new Float32Array(sum.length);
  if (norm === 0) {
    out[0] = 1;
    return out;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < sum.length; i++) out[i] = sum[i]! * inv;
  return out;
}
