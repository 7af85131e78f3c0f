/**
 * The stored vector index as its writer and reader agree on it (format 4: vector lists, format 3's sharing of identical
 * vectors): concepts whose vectors are identical are all found, near-identical ones stay apart, sets of formats 2 and 3
 * (an HNSW graph, previous releases) are still read, others are refused.
 */
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingSetWriter } from '../../src/importer/embed-index-writer.js';
import { embeddingFiles, SEMANTIC_GRAPH_VECTORS_FILE, type EmbeddingFiles } from '../../src/store/semantic-dir.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { openVectorLists } from '../../src/store/vector-lists.js';
import { seededRandom } from '../../src/seeded-random.js';

const { Index, MetricKind, ScalarKind } = createRequire(import.meta.url)('usearch') as typeof import('usearch');

const DIMENSION = 128;
/** Groups of concepts with one identical vector each: larger than the graph degree, as the synthetic release has. */
const GROUPS = 20;
const GROUP_SIZE = 40;
const DISTINCT = 3000;


function unit(values: ArrayLike<number>): Float32Array {
  const v = Float32Array.from(values);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function randomUnit(random: () => number): Float32Array {
  return unit(Array.from({ length: DIMENSION }, () => random() * 2 - 1));
}

interface Fixture {
  conceptId: number;
  vector: Float32Array;
  group: number | null;
}

/** Writes one embedding set: each concept has one text, whose vector is the concept's vector. */
function writeSet(files: EmbeddingFiles, concepts: readonly Fixture[]): void {
  const writer = new EmbeddingSetWriter(files);
  for (const c of concepts) writer.addEntry({ conceptId: c.conceptId, text: `concept ${c.conceptId}`, isSynonym: false });
  const counts = writer.finishEntries();
  const matrix = new Float32Array(concepts.length * DIMENSION);
  concepts.forEach((c, i) => matrix.set(c.vector, i * DIMENSION));
  for (let from = 0; from < concepts.length; from += 500) {
    writer.addVectors(from, matrix.subarray(from * DIMENSION, Math.min(concepts.length, from + 500) * DIMENSION), DIMENSION);
  }
  writer.finishVectors(DIMENSION);
  writer.finish({ provider: 'test/1', dimension: DIMENSION, ...counts, builtAt: '2026-11-28T00:00:00Z', embeddingId: 'e1' }, null);
}

let root: string;
let concepts: Fixture[];
let files: EmbeddingFiles;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'omopterm-vector-format-'));
  const random = seededRandom(24);
  concepts = [];
  let id = 1000;
  for (let i = 0; i < DISTINCT; i++) concepts.push({ conceptId: id++, vector: randomUnit(random), group: null });
  for (let g = 0; g < GROUPS; g++) {
    const shared = randomUnit(random);
    for (let i = 0; i < GROUP_SIZE; i++) concepts.push({ conceptId: id++, vector: shared, group: g });
  }
  // shuffled, so that copies arrive in different batches as they do in a release
  for (let i = concepts.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [concepts[i], concepts[j]] = [concepts[j]!, concepts[i]!];
  }
  files = embeddingFiles(join(root, 'format4'));
  mkdirSync(files.dir);
  writeSet(files, concepts);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('vector index format 4', () => {
  it('finds every concept of a group of identical vectors, each with similarity 1, as many as k allows', () => {
    const index = openSqliteSemanticIndex(files);
    try {
      expect(index.meta.conceptCount).toBe(DISTINCT + GROUPS * GROUP_SIZE);
      for (let g = 0; g < GROUPS; g++) {
        const members = concepts.filter((c) => c.group === g);
        const found = index.nearest(members[0]!.vector, GROUP_SIZE);
        expect(found.map((n) => n.conceptId).sort()).toEqual(members.map((m) => m.conceptId).sort());
        for (const n of found) expect(n.similarity).toBeCloseTo(1, 5);
        // a smaller k returns that many of them, never more
        expect(index.nearest(members[0]!.vector, 5)).toHaveLength(5);
      }
    } finally {
      index.close();
    }
  });

  it('stores a vector shared by several concepts once', () => {
    const db = new Database(files.entriesPath, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) FROM shared_vectors').pluck().get()).toBe(GROUPS * (GROUP_SIZE - 1));
    } finally {
      db.close();
    }
    expect(files.vectorsPath).toMatch(/vectors\.ivf$/);
    const vectors = openVectorLists(files.vectorsPath, DIMENSION);
    expect(vectors.size).toBe(DISTINCT + GROUPS);
    vectors.close();
  });

  it('reaches the distinct concepts among their 10 nearest, the groups of copies notwithstanding', () => {
    const index = openSqliteSemanticIndex(files);
    try {
      const missed = concepts.filter((c) => c.group === null && index.nearest(c.vector, 10)[0]?.conceptId !== c.conceptId);
      // a set this small is one list, searched exactly: every concept is the first found for its own vector
      expect(missed.map((c) => c.conceptId)).toEqual([]);
    } finally {
      index.close();
    }
  });

  it('keeps close but different vectors apart, with similarities within 0.01 of the exact cosine (int8)', () => {
    const random = seededRandom(7);
    const near = embeddingFiles(join(root, 'near'));
    mkdirSync(near.dir);
    const fixtures: Fixture[] = [];
    for (let i = 0; i < 50; i++) {
      const base = randomUnit(random);
      fixtures.push({ conceptId: 10 * i, vector: base, group: i });
      // a few hundredths on one component: cosine distances about 0.001, like names differing by one rare word
      for (let v = 1; v <= 3; v++) fixtures.push({ conceptId: 10 * i + v, vector: unit(base.map((x, d) => (d === v ? x + 0.04 * v : x))), group: i });
    }
    writeSet(near, fixtures);
    const index = openSqliteSemanticIndex(near);
    try {
      const unreached: number[] = [];
      for (const f of fixtures) {
        const found = index.nearest(f.vector, 4);
        // its own vector is found (an exact search within one list), and a neighbour comes first only as a tie
        // within int8 precision
        const own = found.find((n) => n.conceptId === f.conceptId);
        if (!own) unreached.push(f.conceptId);
        else expect(found[0]!.similarity - own.similarity).toBeLessThan(0.01);
        for (const n of found) {
          const other = fixtures.find((x) => x.conceptId === n.conceptId)!;
          const exact = other.vector.reduce((sum, x, d) => sum + x * f.vector[d]!, 0);
          expect(Math.abs(n.similarity - exact)).toBeLessThan(0.01);
        }
      }
      expect(unreached, 'not reached').toEqual([]);
    } finally {
      index.close();
    }
  });
});

describe('other formats', () => {
  /** A set as format 2 wrote it: float vectors cast by usearch into an HNSW graph, one per concept, no shared_vectors table. */
  function writeFormat2(dir: string, format: number): EmbeddingFiles {
    mkdirSync(dir);
    const set = { ...embeddingFiles(dir), vectorsPath: join(dir, SEMANTIC_GRAPH_VECTORS_FILE) };
    const db = new Database(set.entriesPath);
    db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
      CREATE TABLE entries (key INTEGER PRIMARY KEY, concept_id INTEGER NOT NULL, text TEXT NOT NULL, is_synonym INTEGER NOT NULL);
      CREATE INDEX entries_by_concept ON entries (concept_id);`);
    const first = concepts.filter((c) => c.group === null).slice(0, 200);
    const insert = db.prepare('INSERT INTO entries VALUES (?, ?, ?, 0)');
    first.forEach((c, key) => insert.run(key, c.conceptId, `concept ${c.conceptId}`));
    const meta = { provider: 'test/1', dimension: DIMENSION, entry_count: first.length, concept_count: first.length, built_at: 'x', embedding_id: 'e2', format };
    for (const [key, value] of Object.entries(meta)) db.prepare('INSERT INTO meta VALUES (?, ?)').run(key, value);
    db.close();
    const vectors = new Index({ dimensions: DIMENSION, metric: MetricKind.Cos, quantization: ScalarKind.I8, connectivity: 12, expansion_add: 0, expansion_search: 0, multi: false });
    const matrix = new Float32Array(first.length * DIMENSION);
    first.forEach((c, i) => matrix.set(c.vector, i * DIMENSION));
    vectors.add(BigUint64Array.from(first, (_, i) => BigInt(i)), matrix);
    vectors.save(set.vectorsPath);
    // the name such a set has is the one its reader finds
    expect(embeddingFiles(dir).vectorsPath).toBe(set.vectorsPath);
    return set;
  }

  it('reads a format-2 set (float queries, one concept per vector)', () => {
    const index = openSqliteSemanticIndex(writeFormat2(join(root, 'format2'), 2));
    try {
      const c = concepts.find((x) => x.group === null)!;
      expect(index.nearest(c.vector, 1)[0]!.conceptId).toBe(c.conceptId);
    } finally {
      index.close();
    }
  });

  it('refuses a set of an unknown format, saying to embed again', () => {
    expect(() => openSqliteSemanticIndex(writeFormat2(join(root, 'format9'), 9))).toThrow(/format 9.*embed the release again/);
  });
});
