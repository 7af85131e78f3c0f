/**
 * The vector host (src/threads/vector-host.ts): an HNSW vector file (sets embedded before format 4) searched through it
 * answers exactly what the file opened in the calling thread answers; however many threads open such a file, the host
 * views it once and lets it go with its last user (a closed index, an ended thread); a searching thread whose host has
 * ended fails at once. Vector lists (format 4) are opened by each searching thread itself, never by the host.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEmbeddingWorkspace,
  embeddingFiles,
  newEmbeddingId,
  publishEmbedding,
  readCurrentEmbedding,
  publishedEmbeddingFiles,
  SEMANTIC_ENTRIES_FILE,
  SEMANTIC_GRAPH_VECTORS_FILE,
  type EmbeddingFiles,
} from '../../src/store/semantic-dir.js';
import { createVectorIndex, openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { readAllVectors } from '../../src/store/vector-lists.js';
import { VectorHost, vectorHostOpener } from '../../src/threads/vector-host.js';
import { WorkerPool } from '../../src/threads/worker-pool.js';
import { openDemoRelease, type DemoRelease } from '../source-mapping/demo-release.js';

let demo: DemoRelease;
/** The demo release's vectors as loaded: vector lists. */
let listFiles: EmbeddingFiles;
/** The same entries and vectors as an HNSW graph, as sets embedded before format 4 are stored. */
let files: EmbeddingFiles;
let scratch: string;

/** The same vectors and keys as a usearch HNSW file beside a copy of the entries, in `dir`. */
function graphCopy(from: EmbeddingFiles, dir: string): EmbeddingFiles {
  mkdirSync(dir, { recursive: true });
  copyFileSync(from.entriesPath, join(dir, SEMANTIC_ENTRIES_FILE));
  const { dimension, vectors, keys } = readAllVectors(from.vectorsPath);
  const graph = createVectorIndex(dimension);
  graph.add(BigUint64Array.from(keys, (k) => BigInt(k)), vectors, 1);
  graph.save(join(dir, SEMANTIC_GRAPH_VECTORS_FILE));
  const copy = embeddingFiles(dir);
  expect(copy.vectorsPath).toBe(join(dir, SEMANTIC_GRAPH_VECTORS_FILE));
  return copy;
}

beforeAll(async () => {
  demo = await openDemoRelease();
  const current = readCurrentEmbedding(demo.build.dir);
  if (!current) throw new Error('the demo release was loaded without vectors');
  listFiles = publishedEmbeddingFiles(demo.build.dir, current.embeddingId);
  scratch = mkdtempSync(join(tmpdir(), 'omopterm-vector-host-'));
  files = graphCopy(listFiles, join(scratch, 'graph'));
});
afterAll(() => {
  demo?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Unit vectors that are not any concept's (seeded), as queries. */
function queries(count: number, dimension: number): Float32Array[] {
  let a = 7;
  const random = () => {
    a = (Math.imul(a, 1103515245) + 12345) & 0x7fffffff;
    return a / 0x7fffffff - 0.5;
  };
  return Array.from({ length: count }, () => {
    const v = Float32Array.from({ length: dimension }, random);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

describe('VectorHost', () => {
  it('answers every search exactly as the file opened in this thread, and views each file once for all its users', async () => {
    const host = new VectorHost();
    try {
      const local = openSqliteSemanticIndex(files);
      const first = openSqliteSemanticIndex(files, vectorHostOpener(host.connect()));
      const second = openSqliteSemanticIndex(files, vectorHostOpener(host.connect()));
      expect(first.meta).toEqual(local.meta);
      for (const query of queries(25, local.meta.dimension)) {
        for (const k of [1, 10, 60]) {
          const expected = local.nearest(query, k);
          expect(expected).toHaveLength(Math.min(k, local.meta.conceptCount));
          expect(first.nearest(query, k)).toEqual(expected);
          expect(second.nearest(query, k)).toEqual(expected);
        }
      }
      expect(await host.openFiles()).toEqual([{ path: files.vectorsPath, users: 2 }]);
      // a closing is posted, not waited for: the host takes it in its turn
      first.close();
      first.close(); // twice is once
      await expect.poll(() => host.openFiles(), { timeout: 5000 }).toEqual([{ path: files.vectorsPath, users: 1 }]);
      expect(second.nearest(queries(1, local.meta.dimension)[0]!, 3)).toHaveLength(3);
      second.close();
      await expect.poll(() => host.openFiles(), { timeout: 5000 }).toEqual([]);
      expect(() => first.nearest(queries(1, local.meta.dimension)[0]!, 5)).toThrow(/closed/);
      local.close();
    } finally {
      await host.close();
    }
  });

  it('a file that cannot be opened fails its opening with the reason, and the host goes on serving', async () => {
    const host = new VectorHost();
    try {
      const open = vectorHostOpener(host.connect());
      expect(() => open(`${listFiles.vectorsPath}.missing`, 128)).toThrow(/vectors\.ivf\.missing cannot be opened: ENOENT/);
      const empty = join(demo.dataDir, 'empty.ivf');
      writeFileSync(empty, '');
      expect(() => open(empty, 128)).toThrow(/empty\.ivf is empty/);
      expect(open(files.vectorsPath, 128).size).toBeGreaterThan(0);
      expect(open(listFiles.vectorsPath, 128).size).toBeGreaterThan(0);
      // the host thread's process is intact: a new thread starts and searches (a failed usearch view() once closed fd 0)
      const pool = new WorkerPool({ threads: 1, vectorHost: host });
      try {
        const result = await pool.run('semanticSearch', demo.unlicensed, { query: 'asthma', page: 1, pageSize: 3 });
        expect(result.totalCandidates).toBeGreaterThan(0);
      } finally {
        await pool.close();
      }
    } finally {
      await host.close();
    }
  });

  it('vector lists opened through a host connection are opened in the searching thread, and answer the same', async () => {
    const host = new VectorHost();
    try {
      const local = openSqliteSemanticIndex(listFiles);
      const through = openSqliteSemanticIndex(listFiles, vectorHostOpener(host.connect()));
      for (const query of queries(10, local.meta.dimension)) expect(through.nearest(query, 10)).toEqual(local.nearest(query, 10));
      expect(await host.openFiles()).toEqual([]);
      through.close();
      local.close();
    } finally {
      await host.close();
    }
  });

  it('a pool searches vector lists in its own threads; an HNSW set through the host: one viewing for all its threads, let go when they end', async () => {
    const searches = ['heart attack', 'type 2 diabetes', 'asthma', 'hypertension', 'kidney failure', 'pneumonia'];
    const host = new VectorHost();
    try {
      const pool = new WorkerPool({ threads: 2, vectorHost: host });
      try {
        const results = await Promise.all(searches.map((query) => pool.run('semanticSearch', demo.unlicensed, { query, page: 1, pageSize: 5 })));
        for (const result of results) expect(result.totalCandidates).toBeGreaterThan(0);
        expect(await host.openFiles()).toEqual([]);
      } finally {
        await pool.close();
      }
      // the release's vectors replaced by the same vectors as an HNSW graph (a set of an older omopterm)
      const id = newEmbeddingId();
      const workspace = createEmbeddingWorkspace(demo.build.dir, id);
      rmSync(workspace.dir, { recursive: true, force: true });
      const graph = graphCopy(listFiles, workspace.dir);
      const current = readCurrentEmbedding(demo.build.dir)!;
      const published = publishEmbedding(demo.build.dir, graph, { ...current, embeddingId: id });
      expect(published.vectorsPath).toMatch(/vectors\.usearch$/);
      const graphPool = new WorkerPool({ threads: 2, vectorHost: host });
      try {
        // both threads busy at once, so that both open the release's vectors
        const results = await Promise.all(searches.map((query) => graphPool.run('semanticSearch', demo.unlicensed, { query, page: 1, pageSize: 5 })));
        for (const result of results) expect(result.totalCandidates).toBeGreaterThan(0);
        const open = await host.openFiles();
        expect(open).toHaveLength(1);
        expect(open[0]!.path).toBe(published.vectorsPath);
        expect(open[0]!.users).toBeGreaterThanOrEqual(1);
        expect(open[0]!.users).toBeLessThanOrEqual(2);
        await graphPool.close();
        // the threads' ports close with them: their openings are let go
        await expect.poll(() => host.openFiles(), { timeout: 5000 }).toEqual([]);
      } finally {
        await graphPool.close();
      }
    } finally {
      await host.close();
    }
  }, 60_000);

  it('a search whose host has ended fails at once instead of waiting', async () => {
    const host = new VectorHost();
    const index = openSqliteSemanticIndex(files, vectorHostOpener(host.connect()));
    await host.close();
    const started = Date.now();
    expect(() => index.nearest(queries(1, index.meta.dimension)[0]!, 5)).toThrow(/vector search thread has ended/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(() => host.connect()).toThrow(/closed/);
  });
});
