/**
 * The vector lists file (src/store/vector-lists.ts) as a module: a set large enough for many lists is built the same on
 * one thread and on two, finds every vector from itself, finds the true nearest vectors of new queries (checked against
 * a brute-force cosine computed here), and a damaged file is refused with its path.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quantizeVector } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { isVectorListsFile, openVectorLists, SINGLE_LIST_MAX, writeVectorLists } from '../../src/store/vector-lists.js';
import { seededRandom } from '../../src/seeded-random.js';

const DIMENSION = 32;
const CLUSTERS = 400;
/** More than one list's worth: the set is split into lists. */
const COUNT = SINGLE_LIST_MAX + 25_000;


const random = seededRandom(27);
const gaussian = (): number => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
const centres = Array.from({ length: CLUSTERS }, () => Float32Array.from({ length: DIMENSION }, gaussian));

/** A point near a random cluster centre, quantised as the writer of a set quantises. */
function point(spread: number): Int8Array {
  const centre = centres[Math.floor(random() * CLUSTERS)]!;
  return quantizeVector(Float32Array.from(centre, (x) => x + spread * gaussian()));
}

/** Cosine distance of two int8 vectors, in floating point (the reference the lists are checked against). */
function distance(a: Int8Array, b: Int8Array): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let d = 0; d < a.length; d++) {
    ab += a[d]! * b[d]!;
    aa += a[d]! * a[d]!;
    bb += b[d]! * b[d]!;
  }
  return 1 - ab / Math.sqrt(aa * bb);
}

let root: string;
let vectors: Int8Array;
let keys: Uint32Array;
let onePath: string;
let twoPath: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'omopterm-vector-lists-'));
  vectors = new Int8Array(COUNT * DIMENSION);
  for (let i = 0; i < COUNT; i++) vectors.set(point(0.6), i * DIMENSION);
  // keys as a set has them: increasing, not dense
  keys = Uint32Array.from({ length: COUNT }, (_, i) => 3 * i + 5);
  onePath = join(root, 'one.ivf');
  twoPath = join(root, 'two.ivf');
  writeVectorLists(onePath, vectors, keys, DIMENSION, { threads: 1 });
  writeVectorLists(twoPath, vectors, keys, DIMENSION, { threads: 2 });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('vector lists', () => {
  it('are built the same on one thread and on two', () => {
    expect(sha(twoPath)).toBe(sha(onePath));
  });

  it('split a large set into lists of a few hundred vectors, and hold every vector once', () => {
    const lists = openVectorLists(onePath, DIMENSION);
    try {
      expect(isVectorListsFile(onePath)).toBe(true);
      expect(lists.size).toBe(COUNT);
      expect(lists.lists).toBeGreaterThan(COUNT / 2000);
      expect(lists.lists).toBeLessThan(COUNT / 300);
      // k = every vector: each key once
      const all = lists.search(vectors.subarray(0, DIMENSION), COUNT);
      expect(all.keys.length).toBe(COUNT);
      expect(new Set(all.keys).size).toBe(COUNT);
      for (let i = 1; i < all.distances.length; i++) expect(all.distances[i]!).toBeGreaterThanOrEqual(all.distances[i - 1]!);
    } finally {
      lists.close();
    }
  });

  it('find every vector from itself, first or tied with the first', () => {
    const lists = openVectorLists(onePath, DIMENSION);
    try {
      const missed: number[] = [];
      for (let i = 0; i < COUNT; i += 7) {
        const query = vectors.subarray(i * DIMENSION, (i + 1) * DIMENSION);
        const found = lists.search(query, 10);
        const at = Array.from(found.keys).indexOf(keys[i]!);
        if (at < 0 || found.distances[at]! > found.distances[0]! + 1e-6) missed.push(i);
      }
      expect(missed).toEqual([]);
    } finally {
      lists.close();
    }
  });

  it('find the true 10 nearest of new queries (recall against brute force), with their exact distances', () => {
    const lists = openVectorLists(onePath, DIMENSION);
    try {
      let hits = 0;
      const queries = 100;
      for (let q = 0; q < queries; q++) {
        const query = point(0.6);
        const exact = Array.from({ length: COUNT }, (_, i) => ({ key: keys[i]!, d: distance(query, vectors.subarray(i * DIMENSION, (i + 1) * DIMENSION)) }))
          .sort((a, b) => a.d - b.d)
          .slice(0, 10);
        const found = lists.search(query, 10);
        const tenth = exact[9]!.d;
        // a key found counts when it is among the true 10, or exactly as near as the 10th (a tie)
        for (let i = 0; i < found.keys.length; i++) {
          const truth = distance(query, vectors.subarray(((found.keys[i]! - 5) / 3) * DIMENSION, ((found.keys[i]! - 5) / 3 + 1) * DIMENSION));
          expect(Math.abs(found.distances[i]! - truth)).toBeLessThan(2e-3);
          if (truth <= tenth + 1e-6) hits++;
        }
      }
      expect(hits / (queries * 10)).toBeGreaterThanOrEqual(0.95);
    } finally {
      lists.close();
    }
  });

  it('keep a set up to SINGLE_LIST_MAX vectors as one list, searched exactly', () => {
    const path = join(root, 'small.ivf');
    const n = 5000;
    const written = writeVectorLists(path, vectors.subarray(0, n * DIMENSION), keys.subarray(0, n), DIMENSION);
    expect(written.lists).toBe(1);
    const lists = openVectorLists(path, DIMENSION);
    try {
      const query = point(0.6);
      const exact = Array.from({ length: n }, (_, i) => ({ key: keys[i]!, d: distance(query, vectors.subarray(i * DIMENSION, (i + 1) * DIMENSION)) })).sort((a, b) => a.d - b.d);
      const found = lists.search(query, 20);
      expect(Array.from(found.keys)).toEqual(exact.slice(0, 20).map((e) => e.key));
    } finally {
      lists.close();
    }
  });

  it('hold an empty set', () => {
    const path = join(root, 'empty-set.ivf');
    writeVectorLists(path, new Int8Array(0), new Uint32Array(0), DIMENSION);
    const lists = openVectorLists(path, DIMENSION);
    expect(lists.size).toBe(0);
    expect(lists.search(new Int8Array(DIMENSION), 5).keys).toHaveLength(0);
    lists.close();
  });

  it('refuse a damaged file, another dimension or another kind of file, naming the file', () => {
    const cut = join(root, 'cut.ivf');
    writeFileSync(cut, readFileSync(onePath).subarray(0, 100_000));
    expect(() => openVectorLists(cut, DIMENSION)).toThrow(/cut\.ivf is damaged: 100000 bytes, its header says \d+/);
    expect(() => openVectorLists(onePath, 64)).toThrow(/one\.ivf holds vectors of 32 dimensions, its entries 64/);
    const other = join(root, 'other.bin');
    writeFileSync(other, 'not a vector file at all, just text');
    expect(isVectorListsFile(other)).toBe(false);
    expect(() => openVectorLists(other, DIMENSION)).toThrow(/other\.bin is not a vector lists file/);
    const short = join(root, 'short.ivf');
    writeFileSync(short, readFileSync(onePath));
    truncateSync(short, 12);
    expect(() => openVectorLists(short, DIMENSION)).toThrow(/short\.ivf is not a vector lists file/);
  });

  it('refuse a query of another dimension and a closed file', () => {
    const lists = openVectorLists(onePath, DIMENSION);
    expect(() => lists.search(new Int8Array(8), 3)).toThrow(/a query of 8 dimensions for vectors of 32/);
    lists.close();
    expect(() => lists.search(new Int8Array(DIMENSION), 3)).toThrow(/closed/);
  });
});
