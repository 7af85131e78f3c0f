/**
 * SemanticIndex over one embedding set (../semantic-dir.ts): `entries.sqlite` says what each vector stands for,
 * `vectors.usearch` is a usearch HNSW index (cosine, int8) memory-mapped with `view()`. The format is defined here
 * and used by the writer (src/importer/embed-index-writer.ts), so both sides agree by construction.
 */
import Database from 'better-sqlite3';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Index } from 'usearch';
import type { EmbeddingFiles } from '../semantic-dir.js';
import type { SemanticEntry, SemanticIndex, SemanticIndexMeta, SemanticNeighbour, VectorFileOpener, VectorFileSearch } from '../semantic-index.js';
import { openVectorLists, VECTOR_LISTS_MAGIC } from '../vector-lists.js';

/** entries.sqlite: meta (key → value; provider_state is a BLOB) and one row per vector. */
export const SEMANTIC_ENTRIES_DDL = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value
) WITHOUT ROWID;
CREATE TABLE entries (
  key        INTEGER PRIMARY KEY, -- the vector's key in vectors.usearch
  concept_id INTEGER NOT NULL,
  text       TEXT NOT NULL,
  is_synonym INTEGER NOT NULL     -- 0: the concept's name, 1: one of its synonyms
);
CREATE TABLE shared_vectors (
  concept_id INTEGER PRIMARY KEY, -- a concept whose quantised vector is byte-identical to an indexed one…
  key        INTEGER NOT NULL     -- …stored once, under this key (the name entry of the first such concept)
);
`;

/** Created after the entries are inserted. */
export const SEMANTIC_ENTRIES_INDEX_DDL = 'CREATE INDEX entries_by_concept ON entries (concept_id);';
/** Created after the vectors are added. */
export const SEMANTIC_SHARED_INDEX_DDL = 'CREATE INDEX shared_vectors_by_key ON shared_vectors (key);';

/** The meta keys (values are text or numbers; provider_state is a BLOB or NULL). */
export type SemanticMetaKey = 'provider' | 'dimension' | 'entry_count' | 'concept_count' | 'built_at' | 'embedding_id' | 'format' | 'provider_state';

/**
 * Layout of an embedding set, recorded in its meta (`format`). 2 = one vector per concept (the mean
 * of its texts' vectors) whose usearch key is the key of the concept's name entry. (Not the
 * concept_id itself: at full size usearch then built the index about half again as slowly — 7:52
 * instead of about 5:10 for the first 74 % of the vectors — than with these dense keys.) 3 = the
 * same, quantised here (quantizeVector) rather than by usearch, and a vector byte-identical to one
 * already indexed is stored once (shared_vectors): usearch's neighbour selection never prunes
 * identical vectors, so groups of copies linked only to each other and trapped searches (28 % of
 * concepts unreachable at full size in format 2). 4 = the same vectors and sharing, stored as inverted lists
 * (src/store/vector-lists.ts, `vectors.ivf`) instead of an HNSW graph: built in seconds rather than most of the
 * embedding run, searched exactly within the lists it reads, and held in under a MB per opening rather than ~200 MiB.
 * Formats 2 and 3 are still read; any other is refused with an "embed the release again" message, never misread.
 */
export const SEMANTIC_FORMAT_VERSION = 4;
const READABLE_FORMATS = new Set([2, 3, SEMANTIC_FORMAT_VERSION]);

/**
 * A unit vector as int8, scaled so that its largest component is ±127 and rounded. Cosine is scale-invariant, so
 * this only trades precision: usearch's own cast scales by the norm (components of a 128-dimension unit vector
 * then span about ±30) and truncates, which made many distinct concepts' vectors identical.
 */
export function quantizeVector(vector: Float32Array, out = new Int8Array(vector.length)): Int8Array {
  let max = 0;
  for (let d = 0; d < vector.length; d++) max = Math.max(max, Math.abs(vector[d]!));
  const scale = max > 0 ? 127 / max : 0;
  for (let d = 0; d < vector.length; d++) out[d] = Math.round(vector[d]! * scale);
  return out;
}

// The CommonJS build: the ESM build finds its native addon from a stack trace, which fails under
// some loaders (a `node -e` import recurses to a stack overflow); the CJS build uses __dirname.
const { Index: VectorIndex, MetricKind, ScalarKind } = createRequire(import.meta.url)('usearch') as typeof import('usearch');

/** HNSW graph degree (usearch `connectivity`; the base layer keeps twice as many links). */
const CONNECTIVITY = 12;
/**
 * Candidates kept while inserting (usearch `expansion_add`). 128 rather than 48: at full size (3.1M vectors of the
 * `--scale 1` benchmark release) 48 left 8.1 % of the concepts unreachable from their own vector and 128 leaves 1.4 %
 * (bench/tools/hnsw-sweep.ts), for 2.4 × the insertion time (the whole embed: 10.3 min on 2 cores). See
 * docs/semantic-search.md "Vector recall at full size".
 */
const EXPANSION_ADD = 128;
/** Candidates kept while searching; usearch searches with max(this, k), so a larger k widens it. */
const EXPANSION_SEARCH = 64;

/** A new, empty vector index with the configuration every embedding set uses. */
export function createVectorIndex(dimension: number): Index {
  return new VectorIndex({
    dimensions: dimension,
    metric: MetricKind.Cos,
    quantization: ScalarKind.I8,
    connectivity: CONNECTIVITY,
    expansion_add: EXPANSION_ADD,
    expansion_search: EXPANSION_SEARCH,
    multi: false,
  });
}

interface EntryRow {
  key: number;
  concept_id: number;
  text: string;
  is_synonym: number;
}

/**
 * Opens a vector file in this thread, by its first bytes. Vector lists (format 4) keep their centroids and list
 * offsets in memory and read the lists a search needs from the file. A usearch graph (formats 2 and 3): usearch maps
 * the file (`view()`, file pages the kernel may drop) and builds its
 * node and key tables in the thread's memory, about 200 MiB of anonymous memory for the 3.1 M vectors of a full release
 * (docs/performance.md): a process whose threads all search vectors shares one opening (src/threads/vector-host.ts).
 */
export const viewVectorFile: VectorFileOpener = (vectorsPath, dimension) => {
  // usearch 2.25 closes file descriptor 0 (the process's stdin, later reused by libuv, which then aborts the process)
  // when it cannot open or map the file: an unreadable or empty file is refused here, before view() is called.
  let bytes: number;
  let isLists: boolean;
  try {
    const fd = openSync(vectorsPath, 'r');
    try {
      bytes = fstatSync(fd).size;
      const head = Buffer.alloc(VECTOR_LISTS_MAGIC.length);
      isLists = readSync(fd, head, 0, head.length, 0) === head.length && head.toString('latin1') === VECTOR_LISTS_MAGIC;
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw new Error(`${vectorsPath} cannot be opened: ${(err as Error).message}`);
  }
  if (bytes === 0) throw new Error(`${vectorsPath} is empty`);
  if (isLists) {
    const lists = openVectorLists(vectorsPath, dimension);
    return {
      size: lists.size,
      search: (query, k) => {
        if (!(query instanceof Int8Array)) throw new Error(`${vectorsPath} holds int8 vectors: quantise the query`);
        return lists.search(query, k);
      },
      close: () => lists.close(),
    };
  }
  const vectors = createVectorIndex(dimension);
  try {
    vectors.view(vectorsPath);
  } catch (err) {
    throw new Error(`${vectorsPath} cannot be opened: ${(err as Error).message}`);
  }
  return {
    size: vectors.size(),
    search: (query, k) => {
      const found = vectors.search(query, k, 1);
      return { keys: Array.from(found.keys, Number), distances: found.distances };
    },
    // usearch unmaps the file when the index is collected
    close: () => {},
  };
};

/**
 * Opens a published embedding set, its vector file with `openVectors` (default: in this thread). Throws a plain
 * explanation when its files are unusable.
 */
export function openSqliteSemanticIndex(files: EmbeddingFiles, openVectors: VectorFileOpener = viewVectorFile): SemanticIndex {
  const db = new Database(files.entriesPath, { readonly: true, fileMustExist: true });
  let vectors: VectorFileSearch | null = null;
  try {
    db.pragma('query_only = ON');
    db.pragma('locking_mode = EXCLUSIVE'); // immutable file: take the shared lock once (see open-sqlite-release.ts)
    db.pragma('cache_size = -16384');
    const metaRows = db.prepare('SELECT key, value FROM meta').all() as Array<{ key: SemanticMetaKey; value: unknown }>;
    const metaValues = new Map(metaRows.map((r) => [r.key, r.value]));
    const meta: SemanticIndexMeta = {
      provider: String(metaValues.get('provider') ?? ''),
      dimension: Number(metaValues.get('dimension')),
      entryCount: Number(metaValues.get('entry_count')),
      conceptCount: Number(metaValues.get('concept_count')),
      builtAt: String(metaValues.get('built_at') ?? ''),
      embeddingId: String(metaValues.get('embedding_id') ?? ''),
    };
    if (!meta.provider || !Number.isInteger(meta.dimension) || meta.dimension <= 0) {
      throw new Error(`${files.entriesPath} has no provider or dimension in its meta table`);
    }
    const format = Number(metaValues.get('format') ?? 1);
    if (!READABLE_FORMATS.has(format)) {
      throw new Error(`${files.entriesPath} is in vector format ${format}, this omopterm reads format ${SEMANTIC_FORMAT_VERSION}: embed the release again (omopterm embed --release X)`);
    }
    const rawState = metaValues.get('provider_state');
    const providerState = rawState instanceof Uint8Array ? new Uint8Array(rawState) : null;

    const shared = format >= 3 ? (db.prepare('SELECT count(*) FROM shared_vectors').pluck().get() as number) : 0;
    const opened = (vectors = openVectors(files.vectorsPath, meta.dimension));
    if (opened.size + shared !== meta.conceptCount) {
      throw new Error(`${files.vectorsPath} holds ${opened.size} vectors (+ ${shared} shared), its entries file ${meta.conceptCount} concepts: embed the release again`);
    }

    const conceptsOfKeys = db.prepare('SELECT key, concept_id FROM entries WHERE key IN (SELECT value FROM json_each(?))');
    // Concepts sharing an indexed vector (format 3) come after the concept it is indexed under.
    const sharersOfKeys = format >= 3 ? db.prepare('SELECT key, concept_id FROM shared_vectors WHERE key IN (SELECT value FROM json_each(?)) ORDER BY key, concept_id') : null;
    const byConcepts = db.prepare(
      'SELECT key, concept_id, text, is_synonym FROM entries WHERE concept_id IN (SELECT value FROM json_each(?)) ORDER BY concept_id, key',
    );
    const toEntry = (r: EntryRow): SemanticEntry => ({ key: r.key, concept_id: r.concept_id, text: r.text, is_synonym: r.is_synonym === 1 });

    return {
      meta,
      providerState: () => providerState,
      nearest(vector: Float32Array, k: number): SemanticNeighbour[] {
        if (meta.conceptCount === 0 || k <= 0) return [];
        const wanted = Math.min(Math.ceil(k), meta.conceptCount);
        const found = opened.search(format >= 3 ? quantizeVector(vector) : vector, Math.min(wanted, opened.size));
        const keys = Array.from(found.keys);
        const conceptsOfKey = new Map<number, number[]>();
        const keysJson = JSON.stringify(keys);
        const rows = conceptsOfKeys.all(keysJson) as Array<{ key: number; concept_id: number }>;
        if (sharersOfKeys) rows.push(...(sharersOfKeys.all(keysJson) as Array<{ key: number; concept_id: number }>));
        for (const r of rows) {
          const list = conceptsOfKey.get(r.key);
          if (list) list.push(r.concept_id);
          else conceptsOfKey.set(r.key, [r.concept_id]);
        }
        const out: SemanticNeighbour[] = [];
        for (let i = 0; i < keys.length && out.length < wanted; i++) {
          const similarity = Math.min(1, Math.max(0, 1 - found.distances[i]!));
          for (const conceptId of conceptsOfKey.get(keys[i]!) ?? []) {
            if (out.length === wanted) break;
            out.push({ conceptId, similarity });
          }
        }
        return out;
      },
      entriesOfConcepts: (conceptIds) => (conceptIds.length ? (byConcepts.all(JSON.stringify(conceptIds)) as EntryRow[]).map(toEntry) : []),
      close: () => {
        opened.close();
        if (db.open) db.close();
      },
    };
  } catch (err) {
    vectors?.close();
    db.close();
    throw err;
  }
}
