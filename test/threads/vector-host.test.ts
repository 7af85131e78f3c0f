/**
 * The vector host (src/threads/vector-host.ts): a vector file searched through it answers exactly what the file
 * opened in the calling thread answers; however many threads open a file, the host views it once and lets it go with
 * its last user (a closed index, an ended thread); a searching thread whose host has ended fails at once.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCurrentEmbedding, publishedEmbeddingFiles, type EmbeddingFiles } from '../../src/store/semantic-dir.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { VectorHost, vectorHostOpener } from '../../src/threads/vector-host.js';
import { WorkerPool } from '../../src/threads/worker-pool.js';
import { openDemoRelease, type DemoRelease } from '../source-mapping/demo-release.js';

let demo: DemoRelease;
let files: EmbeddingFiles;
beforeAll(async () => {
  demo = await openDemoRelease();
  const current = readCurrentEmbedding(demo.build.dir);
  if (!current) throw new Error('the demo release was loaded without vectors');
  files = publishedEmbeddingFiles(demo.build.dir, current.embeddingId);
});
afterAll(() => demo?.close());

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
      expect(() => open(`${files.vectorsPath}.missing`, 128)).toThrow(/vectors\.usearch\.missing cannot be opened: ENOENT/);
      const empty = join(demo.dataDir, 'empty.usearch');
      writeFileSync(empty, '');
      expect(() => open(empty, 128)).toThrow(/empty\.usearch is empty/);
      expect(open(files.vectorsPath, 128).size).toBeGreaterThan(0);
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

  it('a pool whose threads search through the host: one viewing for all its threads, let go when they end', async () => {
    const host = new VectorHost();
    const pool = new WorkerPool({ threads: 2, vectorHost: host });
    try {
      // both threads busy at once, so that both open the release's vectors
      const searches = ['heart attack', 'type 2 diabetes', 'asthma', 'hypertension', 'kidney failure', 'pneumonia'];
      const results = await Promise.all(searches.map((query) => pool.run('semanticSearch', demo.unlicensed, { query, page: 1, pageSize: 5 })));
      for (const result of results) expect(result.totalCandidates).toBeGreaterThan(0);
      const open = await host.openFiles();
      expect(open).toHaveLength(1);
      expect(open[0]!.path).toBe(files.vectorsPath);
      expect(open[0]!.users).toBeGreaterThanOrEqual(1);
      expect(open[0]!.users).toBeLessThanOrEqual(2);
      await pool.close();
      // the threads' ports close with them: their openings are let go
      await expect.poll(() => host.openFiles(), { timeout: 5000 }).toEqual([]);
    } finally {
      await pool.close();
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
