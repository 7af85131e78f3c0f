/**
 * What turns text into vectors for meaning-based search: the contract of the built-in lexicon provider and of a
 * local ONNX model provider; vectors are computed per release and searched only with the provider that built them.
 */

export interface EmbeddingProvider {
  /**
   * Stable identity recorded with stored vectors, e.g. `omopterm-lexicon/1` or
   * `local-model/<model dir name>@<first 12 hex of the model file's sha256>`. Two providers with the
   * same id produce the same vectors for the same text.
   */
  readonly id: string;
  /** Length of every vector. */
  readonly dimension: number;
  /** Unit-length vectors, one per text, in order. Deterministic: the same text gives the same vector. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * Optional exact similarity (0..1) of a query to candidate texts, used to score candidates after
   * the nearest-neighbour index has found them. When absent, the cosine of embed() vectors is used.
   */
  similarity?(query: string, candidates: readonly string[]): number[];
  /** Releases resources (a model session); optional. */
  close?(): Promise<void>;
}

/** Which provider an operator asked for (CLI `--embedding-model DIR`, or the default). */
export type EmbeddingProviderChoice = { kind: 'lexicon' } | { kind: 'local-model'; modelDir: string };

/** The provider id prefix of the built-in default. */
export const LEXICON_PROVIDER_ID = 'omopterm-lexicon/1';

/** Cosine of two unit vectors (the score of the default `similarity`). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
