/**
 * Sparse feature maps of text shared by the default embedding provider and the lexical baseline: words keyed by
 * the word, character trigrams by a platform-independent 32-bit hash; similarity is the cosine of two maps.
 */

/** Trigram (or hashed word) features: 32-bit key → weight. */
export type SparseFeatures = Map<number, number>;
/** Word features: word → weight. */
export type WordWeights = Map<string, number>;

/** Salts of the feature kinds. */
export const WORD_FEATURE = 0x57; // 'W'
export const TRIGRAM_FEATURE = 0x47; // 'G'

/** FNV-1a over a salt and a string's UTF-16 code units, finished with murmur3's fmix32. */
export function featureHash(kind: number, text: string, start = 0, end = text.length): number {
  let h = Math.imul(0x811c9dc5 ^ kind, 0x01000193);
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix32(h);
}

/** murmur3 fmix32: spreads every input bit over the output. */
export function mix32(value: number): number {
  let h = value ^ (value >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function addFeature<K>(features: Map<K, number>, key: K, weight: number): void {
  features.set(key, (features.get(key) ?? 0) + weight);
}

/** Adds `weight` for each character trigram of the word padded with a space on each side ("renal" → " re", "ren", …, "al "). */
export function addWordTrigrams(features: SparseFeatures, word: string, weight: number): void {
  const padded = ` ${word} `;
  for (let i = 0; i + 3 <= padded.length; i++) addFeature(features, featureHash(TRIGRAM_FEATURE, padded, i, i + 3), weight);
}

/** Euclidean length of a feature map. */
export function featureNorm(features: Map<unknown, number>): number {
  let sum = 0;
  for (const v of features.values()) sum += v * v;
  return Math.sqrt(sum);
}

/** Scales a feature map to unit length in place (an empty map stays empty). */
export function normalizeFeatures<M extends Map<unknown, number>>(features: M): M {
  const norm = featureNorm(features);
  if (norm > 0) for (const [k, v] of features) features.set(k, v / norm);
  return features;
}

/** Dot product of two feature maps (iterates the smaller). */
export function featureDot<K>(a: Map<K, number>, b: Map<K, number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [k, v] of small) {
    const u = large.get(k);
    if (u !== undefined) sum += u * v;
  }
  return sum;
}

/** Where word weights come from: a release's inverse document frequencies, or uniform. */
export interface IdfSource {
  idf(word: string): number;
  /** Whether the word occurs in the texts the IDF was counted over (absent: no word is known). */
  knows?(word: string): boolean;
}

/** Every word weighs the same (no statistics at hand) and none is known. */
export const UNIFORM_IDF: IdfSource = { idf: () => 1 };

/** ln((documents + 1) / (frequency + 1)) + 1: never below 1, highest for words no document has. */
export function inverseDocumentFrequency(documentCount: number, documentFrequency: number): number {
  return Math.log((documentCount + 1) / (documentFrequency + 1)) + 1;
}
