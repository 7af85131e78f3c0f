/**
 * Opens one release's SQLite file read-only as a ReleaseStore: checks the schema version and search index
 * fingerprint, sets the pragmas (each with the measurement that justified it), and builds every sub-store on the
 * one connection.
 */

import Database from 'better-sqlite3';
import type { ReleaseBuild } from '../data-dir.js';
import type { ReleaseStore } from '../release-store.js';
import { STORE_SCHEMA_VERSION } from '../schema.js';
import { SqliteConceptGraph } from './sqlite-concept-graph.js';
import { SqliteConceptStore } from './sqlite-concept-store.js';
import { SqliteConceptSetStore } from './sqlite-concept-set-store.js';
import { SqliteHierarchyStore } from './sqlite-hierarchy-store.js';
import { SqliteMappingQualityStore } from './sqlite-mapping-quality-store.js';
import { SqliteMappingStore } from './sqlite-mapping-store.js';
import { SqliteMetadataStore } from './sqlite-metadata-store.js';
import { assertSearchIndexFingerprint } from './search/search-index-layout.js';
import { SqliteSearchStore } from './sqlite-search-store.js';
import { SqliteRelationshipStore } from './sqlite-relationship-store.js';
import { SqliteStatisticsStore } from './sqlite-statistics-store.js';

/** Opens one release store read-only. Throws a plain explanation when the store is unusable. */
export function openSqliteRelease(build: ReleaseBuild): ReleaseStore {
  const db = new Database(build.storePath, { readonly: true, fileMustExist: true });
  try {
    db.pragma('query_only = ON');
    // A published store never changes, so the connection takes its shared lock once and keeps it:
    // in the default mode SQLite locks, unlocks and checks for a journal on every statement (8
    // system calls; measured 10.3 µs → 0.72 µs per primary-key lookup). Other readers are unaffected
    // (shared locks), and nothing ever writes a published store.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('cache_size = -65536'); // 64 MiB page cache per release
    // No memory mapping: measured at full size, a 1 GiB map made bulk search 20 % slower once a
    // varied workload had touched it (page faults, TLB misses) and put up to 1 GiB of the file in the
    // server's RSS, for 1–2 µs gained per cold lookup. Pages come from the OS page cache instead.
    db.pragma('mmap_size = 0');
    const row = db.prepare("SELECT value FROM store_meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    const version = row ? Number(row.value) : NaN;
    if (version !== STORE_SCHEMA_VERSION) {
      throw new Error(
        `release ${build.label} (${build.storePath}) has store schema version ${row?.value ?? 'unknown'}, ` +
          `this server reads version ${STORE_SCHEMA_VERSION}: load the release again with this version of omopterm`,
      );
    }
    assertSearchIndexFingerprint(db, build.storePath, build.label);
    const concepts = new SqliteConceptStore(db);
    const metadata = new SqliteMetadataStore(db);
    const search = new SqliteSearchStore(db);
    const graph = new SqliteConceptGraph(db);
    const mappingQuality = new SqliteMappingQualityStore(db, build.label);
    const relationships = new SqliteRelationshipStore(db, build.manifest);
    const mappings = new SqliteMappingStore(db);
    const hierarchy = new SqliteHierarchyStore(db);
    const statistics = new SqliteStatisticsStore(db);
    return {
      manifest: build.manifest,
      concepts,
      metadata,
      search,
      graph,
      mappingQuality,
      relationships,
      mappings,
      hierarchy,
      statistics,
      conceptSets: new SqliteConceptSetStore(db),
      close: () => db.close(),
    };
  } catch (err) {
    db.close();
    throw err;
  }
}
