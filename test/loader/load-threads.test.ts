/**
 * A load that uses both cores (the table files parsed on a thread of their own, `threads: 2`) builds the same store
 * as a load on one core (`threads: 1`), issue #27: every table and index of store.sqlite holds the same rows in the
 * same order, the search index has the same fingerprint, the vectors of semantic search are the same bytes, and the
 * release answers the same.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LicenceRules } from '../../src/licences/licence-rules.js';
import { loadRelease, type LoadResult } from '../../src/importer/load-release.js';
import { ReleaseView } from '../../src/services/release-view.js';
import { searchConcepts } from '../../src/services/search/keyword-search.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { synthesize } from '../../src/synth/index.js';
import { makeTempDir } from './loader-fixtures.js';

/** Store rows that name the build or time it, not its content. */
const BUILD_SPECIFIC_META = new Set(['build_id', 'loaded_at']);
const BUILD_SPECIFIC_ROWS: Record<string, string> = { search_index_meta: "key <> 'build_ms'" };

let sourceDir: string;
const dataDirs: string[] = [];
const loads = new Map<number, LoadResult>();

beforeAll(async () => {
  sourceDir = makeTempDir('omopterm-threads-src-');
  synthesize({ outDir: sourceDir, concepts: 6000, seed: 11 });
  for (const threads of [1, 2]) {
    const dataDir = makeTempDir(`omopterm-threads-${threads}-`);
    dataDirs.push(dataDir);
    loads.set(threads, await loadRelease({ sourceDir, dataDir, label: '2025.2', quiet: true, threads }));
  }
}, 240_000);
afterAll(() => {
  rmSync(sourceDir, { recursive: true, force: true });
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** sha256 of each table's rows (every column, in the table's own order), by table name; and the store_meta rows (of a store). */
function contentOf(storePath: string, options: { buildSpecificRows?: Record<string, string> } = {}): { tables: Record<string, { rows: number; sha256: string }>; meta: Record<string, unknown>; fingerprint: string } {
  const db = new Database(storePath, { readonly: true });
  try {
    // FTS5 tables cannot be scanned; their shadow tables (the index itself) are ordinary tables and compared.
    const names = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name <> 'store_meta' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name")
      .pluck()
      .all() as string[];
    const tables: Record<string, { rows: number; sha256: string }> = {};
    for (const name of names) {
      const hash = createHash('sha256');
      let rows = 0;
      const rowsWhere = { ...BUILD_SPECIFIC_ROWS, ...options.buildSpecificRows };
      const where = rowsWhere[name] ? ` WHERE ${rowsWhere[name]}` : '';
      for (const row of db.prepare(`SELECT * FROM "${name}"${where}`).raw().iterate() as Iterable<unknown[]>) {
        rows++;
        hash.update(JSON.stringify(row, (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('base64') : typeof v === 'bigint' ? String(v) : v)));
        hash.update('\n');
      }
      tables[name] = { rows, sha256: hash.digest('hex') };
    }
    const hasStoreMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'store_meta'").get() !== undefined;
    const meta = !hasStoreMeta ? {} : Object.fromEntries(
      (db.prepare('SELECT key, value FROM store_meta ORDER BY key').all() as Array<{ key: string; value: unknown }>).filter((r) => !BUILD_SPECIFIC_META.has(r.key)).map((r) => [r.key, r.value]),
    );
    const fingerprint = names.includes('search_index_meta') ? (db.prepare("SELECT value FROM search_index_meta WHERE key = 'fingerprint'").pluck().get() as string) : '';
    return { tables, meta, fingerprint };
  } finally {
    db.close();
  }
}

describe('a load on two cores and a load on one', () => {
  it('build stores with the same content: every table, row for row, and the search index fingerprint', () => {
    const one = contentOf(loads.get(1)!.storePath);
    const two = contentOf(loads.get(2)!.storePath);
    // the fixture's own sizes: the synthetic release has 6,000 concepts and relationships and ancestors beside them
    expect(one.tables.concept?.rows).toBe(6000);
    expect(one.tables.concept_relationship!.rows).toBeGreaterThan(6000);
    expect(one.tables.concept_ancestor!.rows).toBeGreaterThan(6000);
    expect(Object.keys(one.tables).length).toBeGreaterThan(20); // the search index's tables are compared too
    expect(two.tables).toEqual(one.tables);
    expect(one.fingerprint).toMatch(/^[0-9a-f]{16,}$/);
    expect(two.fingerprint).toBe(one.fingerprint);
    expect(Object.keys(one.meta)).toEqual(expect.arrayContaining(['counts', 'anomalies', 'schema_version']));
    expect(two.meta).toEqual(one.meta);
    expect(loads.get(2)!.manifest.tables).toEqual(
      Object.fromEntries(Object.entries(loads.get(1)!.manifest.tables).map(([table, stats]) => [table, { ...stats, elapsed_ms: loads.get(2)!.manifest.tables[table]!.elapsed_ms }])),
    );
  });

  it('compute the same vectors for semantic search: the same vector file, byte for byte, and the same entries', () => {
    const [one, two] = [loads.get(1)!.embedding!, loads.get(2)!.embedding!];
    expect(one.conceptCount).toBeGreaterThan(1000);
    const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
    expect(sha(two.files.vectorsPath)).toBe(sha(one.files.vectorsPath));
    // the entries (texts, shared vectors) and the provider state; the meta rows naming the run left out
    const runSpecific = { buildSpecificRows: { meta: "key NOT IN ('built_at', 'embedding_id')" } };
    const entriesOne = contentOf(one.files.entriesPath, runSpecific);
    expect(entriesOne.tables.entries!.rows).toBeGreaterThanOrEqual(one.conceptCount);
    expect(contentOf(two.files.entriesPath, runSpecific).tables).toEqual(entriesOne.tables);
  });

  it('answer the same keyword searches', () => {
    const answers = dataDirs.map((dataDir) => {
      const build = listReleaseBuilds(dataDir)[0]!;
      const store = openSqliteRelease(build);
      try {
        const view = ReleaseView.ofRelease({ label: '2025.2', buildId: build.buildId, store, build }, new LicenceRules(null));
        return ['pain', 'acute', 'tablet', 'disorder of'].map((query) => searchConcepts(view, { query, pageSize: 20 }));
      } finally {
        store.close();
      }
    });
    for (const result of answers[0]!) expect(result.items.length).toBeGreaterThan(0);
    expect(answers[1]).toEqual(answers[0]);
  });
});
