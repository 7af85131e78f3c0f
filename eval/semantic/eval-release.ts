/**
 * One evaluation release: tables written as an Athena download into a work directory, loaded with
 * the real loader (`loadRelease`, which also embeds the release for semantic search) into a data
 * directory of its own, and opened the way the server opens it — the store, and its vectors through
 * the server's semantic index registry with the built-in default provider. Its entries (the texts
 * the vectors stand for) are read with the embed pipeline's own reader, for the columns that score
 * every entry.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { entriesToEmbed, type EmbedEntry } from '../../src/importer/embed-source.js';
import { loadRelease } from '../../src/importer/load-release.js';
import { SemanticIndexRegistry, type SemanticIndexLookup } from '../../src/services/semantic/semantic-index-registry.js';
import { listReleaseBuilds, type ReleaseBuild } from '../../src/store/data-dir.js';
import type { ReleaseStore } from '../../src/store/release-store.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { writeAthenaTables, type AthenaTables } from './athena-tables.js';

export const EVAL_RELEASE_LABEL = '2025.2';

export interface EvalRelease {
  build: ReleaseBuild;
  store: ReleaseStore;
  /** The texts the semantic index holds (names and synonyms of valid S/C concepts), read as the embed pipeline reads them. */
  entries: EmbedEntry[];
  /** The release's vectors and query provider, or why there are none. */
  semantic: SemanticIndexLookup;
  /** Seconds the load took (tables, indexes and embedding). */
  loadSeconds: number;
  close(): Promise<void>;
}

export interface EvalReleaseOptions {
  /** false: load without computing vectors (semantic methods then unavailable). */
  embeddings?: false;
}

export async function loadEvalRelease(name: string, tables: AthenaTables, workDir: string, options: EvalReleaseOptions = {}): Promise<EvalRelease> {
  const sourceDir = writeAthenaTables(tables, join(workDir, name, 'athena'));
  const dataDir = join(workDir, name, 'data');
  const started = Date.now();
  await loadRelease({ sourceDir, dataDir, label: EVAL_RELEASE_LABEL, quiet: true, ...(options.embeddings === false ? { embeddings: false } : {}) });
  const loadSeconds = (Date.now() - started) / 1000;
  const build = listReleaseBuilds(dataDir).find((b) => b.label === EVAL_RELEASE_LABEL)!;
  const store = openSqliteRelease(build);
  const indexes = new SemanticIndexRegistry({ choice: { kind: 'lexicon' }, openIndex: openSqliteSemanticIndex, retireDelayMs: 0 });
  const semantic = await indexes.get({ label: build.label, build });
  return {
    build,
    store,
    entries: readEntries(build.storePath),
    semantic,
    loadSeconds,
    close: async () => {
      await indexes.close();
      store.close();
    },
  };
}

function readEntries(storePath: string): EmbedEntry[] {
  const db = new Database(storePath, { readonly: true });
  try {
    return [...entriesToEmbed(db)];
  } finally {
    db.close();
  }
}
