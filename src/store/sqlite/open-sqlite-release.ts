import Database from 'better-sqlite3';
import type { ReleaseBuild } from '../data-dir.js';
import type { ReleaseStore } from '../release-store.js';
import { STORE_SCHEMA_VERSION } from '../schema.js';
import { SqliteConceptStore } from './sqlite-concept-store.js';
import { SqliteMetadataStore } from './sqlite-metadata-store.js';
import { SqliteSearchStore } from './sqlite-search-store.js';

/** Opens one release store read-only. Throws a plain explanation when the store is unusable. */
export function openSqliteRelease(build: ReleaseBuild): ReleaseStore {
  const db = new Database(build.storePath, { readonly: true, fileMustExist: true });
  try {
    db.pragma('query_only = ON');
    db.pragma('cache_size = -65536'); // 64 MiB page cache per release
    db.pragma('mmap_size = 1073741824');
    const row = db.prepare("SELECT value FROM store_meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
    const version = row ? Number(row.value) : NaN;
    if (version !== STORE_SCHEMA_VERSION) {
      throw new Error(
        `release ${build.label} (${build.storePath}) has store schema version ${row?.value ?? 'unknown'}, ` +
          `this server reads version ${STORE_SCHEMA_VERSION}: load the release again with this version of omopterm`,
      );
    }
    const concepts = new SqliteConceptStore(db);
    const metadata = new SqliteMetadataStore(db);
    const search = new SqliteSearchStore(db);
    return {
      manifest: build.manifest,
      concepts,
      metadata,
      search,
      close: () => db.close(),
    };
  } catch (err) {
    db.close();
    throw err;
  }
}
