/** Writes the `store_meta` rows that identify a release store (see StoreMetaKey in schema.ts). */
import type Database from 'better-sqlite3';
import type { ReleaseManifest } from '../store/release-manifest.js';
import type { StoreMetaKey } from '../store/schema.js';

export function writeStoreMeta(db: Database.Database, manifest: ReleaseManifest): void {
  const counts = Object.fromEntries(Object.entries(manifest.tables).map(([table, stats]) => [table, stats.rows_stored]));
  const entries: Array<[StoreMetaKey, string | null]> = [
    ['schema_version', String(manifest.schema_version)],
    ['label', manifest.label],
    ['build_id', manifest.build_id],
    ['source_vocabulary_version', manifest.source_vocabulary_version],
    ['release_date', manifest.release_date],
    ['loaded_at', manifest.loaded_at],
    ['counts', JSON.stringify(counts)],
    ['anomalies', JSON.stringify(manifest.anomalies)],
  ];
  const insert = db.prepare('INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)');
  db.transaction(() => {
    for (const [key, value] of entries) if (value !== null) insert.run(key, value);
  })();
}
