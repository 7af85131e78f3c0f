/**
 * Writes one embedding set into its temp dir in the format src/store/sqlite/sqlite-semantic-index.ts reads: the
 * entries (a concept's name, then its synonyms), their vectors batch by batch, the meta, then the vector lists
 * (src/store/vector-lists.ts): one int8 vector per concept (the normalised mean of its texts' vectors), each distinct
 * vector stored once.
 */
import Database from 'better-sqlite3';
import type { EmbeddingFiles } from '../store/semantic-dir.js';
import { writeVectorLists } from '../store/vector-lists.js';
import {
  quantizeVector,
  SEMANTIC_ENTRIES_DDL,
  SEMANTIC_ENTRIES_INDEX_DDL,
  SEMANTIC_FORMAT_VERSION,
  SEMANTIC_SHARED_INDEX_DDL,
  type SemanticMetaKey,
} from '../store/sqlite/sqlite-semantic-index.js';
import type { SemanticIndexMeta } from '../store/semantic-index.js';
import type { EmbedEntry } from './embed-source.js';

/** Insertions per transaction. */
const ENTRIES_PER_TRANSACTION = 50_000;
/** Threads the vector lists are built with by default (the machine's two cores; the JS thread waits meanwhile). */
const LIST_THREADS = 2;

export class EmbeddingSetWriter {
  private readonly db: Database.Database;
  private readonly insertEntry: Database.Statement<[number, number, string, number]>;
  private readonly textsInRange: Database.Statement<[number, number]>;
  private readonly insertShared: Database.Statement<[number, number]>;
  /** Distinct quantised vectors seen: 52-bit hash → key, and a second hash of each (by key) to confirm a match. */
  private readonly keyOfVector = new Map<number, number>();
  private readonly checkOfKey = new Map<number, number>();
  private sharedCount = 0;
  private entryCount = 0;
  private conceptCount = 0;
  private lastConcept = Number.NaN;
  private pendingInTransaction = 0;
  /** The distinct quantised vectors so far (row-major) and their keys, sized for every concept at the first batch. */
  private vectors: Int8Array | null = null;
  private vectorKeys: Uint32Array | null = null;
  private vectorCount = 0;
  /** 1 for the first entry (the name) of each concept, by key (a concept's entries have consecutive keys). */
  private firstOfConcept = new Uint8Array(1 << 16);
  /** The concept of each name entry, by key. */
  private conceptOfFirst = new Float64Array(1 << 16);
  /** The concept whose vectors are being summed: its name entry's key, and the sum. */
  private openKey = -1;
  private openSum: Float64Array | null = null;

  private readonly listThreads: number;

  constructor(
    private readonly files: EmbeddingFiles,
    options: { listThreads?: number } = {},
  ) {
    this.listThreads = Math.max(1, options.listThreads ?? LIST_THREADS);
    this.db = new Database(files.entriesPath);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(SEMANTIC_ENTRIES_DDL);
    this.insertEntry = this.db.prepare('INSERT INTO entries (key, concept_id, text, is_synonym) VALUES (?, ?, ?, ?)');
    this.textsInRange = this.db.prepare<[number, number]>('SELECT text FROM entries WHERE key >= ? AND key < ? ORDER BY key').pluck();
    this.insertShared = this.db.prepare('INSERT INTO shared_vectors (concept_id, key) VALUES (?, ?)');
    this.db.exec('BEGIN');
  }

  /** Stores one entry; returns its key. Entries of one concept come together. */
  addEntry(entry: EmbedEntry): number {
    const key = this.entryCount++;
    if (entry.conceptId !== this.lastConcept) {
      this.lastConcept = entry.conceptId;
      this.conceptCount++;
      if (key >= this.firstOfConcept.length) {
        const grown = new Uint8Array(this.firstOfConcept.length * 2);
        grown.set(this.firstOfConcept);
        this.firstOfConcept = grown;
        const grownConcepts = new Float64Array(grown.length);
        grownConcepts.set(this.conceptOfFirst);
        this.conceptOfFirst = grownConcepts;
      }
      this.firstOfConcept[key] = 1;
      this.conceptOfFirst[key] = entry.conceptId;
    }
    this.insertEntry.run(key, entry.conceptId, entry.text, entry.isSynonym ? 1 : 0);
    if (++this.pendingInTransaction >= ENTRIES_PER_TRANSACTION) {
      this.db.exec('COMMIT; BEGIN');
      this.pendingInTransaction = 0;
    }
    return key;
  }

  /** Ends the entry phase (commits, indexes entries by concept). */
  finishEntries(): { entryCount: number; conceptCount: number } {
    this.db.exec('COMMIT');
    this.db.exec(SEMANTIC_ENTRIES_INDEX_DDL);
    this.db.exec('BEGIN'); // the shared_vectors rows, committed by finish()
    return { entryCount: this.entryCount, conceptCount: this.conceptCount };
  }

  /** Texts of the entries with keys in [from, to), in key order. */
  texts(from: number, to: number): string[] {
    return this.textsInRange.all(from, to) as string[];
  }

  /**
   * Takes the unit vectors of the entries with consecutive keys from `firstKey` (a row-major
   * count × dimension matrix, batches in key order) and adds each concept's mean vector to the
   * index once its last entry has been seen.
   */
  addVectors(firstKey: number, matrix: Float32Array, dimension: number): void {
    const count = matrix.length / dimension;
    if (count === 0) return;
    if (!this.vectors) {
      this.vectors = new Int8Array(this.conceptCount * dimension);
      this.vectorKeys = new Uint32Array(this.conceptCount);
    }
    const done: Array<{ key: number; vector: Float32Array }> = [];
    for (let i = 0; i < count; i++) {
      const key = firstKey + i;
      if (this.firstOfConcept[key] === 1) {
        if (this.openSum) done.push({ key: this.openKey, vector: unitVector(this.openSum) });
        this.openKey = key;
        this.openSum = new Float64Array(dimension);
      }
      const sum = this.openSum!;
      for (let d = 0, at = i * dimension; d < dimension; d++) sum[d]! += matrix[at + d]!;
    }
    this.addConceptVectors(done, dimension);
  }

  /** Adds each concept's quantised vector, or records that it equals one already added (see SEMANTIC_FORMAT_VERSION). */
  private addConceptVectors(done: ReadonlyArray<{ key: number; vector: Float32Array }>, dimension: number): void {
    if (done.length === 0) return;
    const quantized = new Int8Array(dimension);
    for (const c of done) {
      quantizeVector(c.vector, quantized);
      const [hash, check] = vectorHashes(quantized);
      const existing = this.keyOfVector.get(hash);
      if (existing !== undefined && this.checkOfKey.get(existing) === check) {
        this.insertShared.run(this.conceptOfFirst[c.key]!, existing);
        this.sharedCount++;
        continue;
      }
      if (existing === undefined) {
        this.keyOfVector.set(hash, c.key);
        this.checkOfKey.set(c.key, check);
      }
      this.vectors!.set(quantized, this.vectorCount * dimension);
      this.vectorKeys![this.vectorCount++] = c.key;
    }
  }

  /** Ends the vector phase: the last concept's vector, then the lists and their file (the long part of this step). */
  finishVectors(dimension: number, onProgress?: (done: number, total: number) => void): { lists: number; probe: number } {
    if (this.openSum) this.addConceptVectors([{ key: this.openKey, vector: unitVector(this.openSum) }], dimension);
    this.openSum = null;
    if (this.vectorCount + this.sharedCount !== this.conceptCount) throw new Error(`${this.vectorCount} vectors (+ ${this.sharedCount} shared) for ${this.conceptCount} concepts`);
    const vectors = this.vectors?.subarray(0, this.vectorCount * dimension) ?? new Int8Array(0);
    const keys = this.vectorKeys?.subarray(0, this.vectorCount) ?? new Uint32Array(0);
    const written = writeVectorLists(this.files.vectorsPath, vectors, keys, dimension, { threads: this.listThreads, onProgress });
    this.vectors = null;
    this.vectorKeys = null;
    this.keyOfVector.clear();
    this.checkOfKey.clear();
    return written;
  }

  /** Writes the meta (after finishVectors) and closes. */
  finish(meta: SemanticIndexMeta, providerState: Uint8Array | null): void {
    if (this.vectorCount + this.sharedCount !== meta.conceptCount) throw new Error(`${this.vectorCount} vectors (+ ${this.sharedCount} shared) for ${meta.conceptCount} concepts`);
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.db.exec(SEMANTIC_SHARED_INDEX_DDL);
    const values: Record<SemanticMetaKey, string | number | Buffer | null> = {
      provider: meta.provider,
      dimension: meta.dimension,
      entry_count: meta.entryCount,
      concept_count: meta.conceptCount,
      built_at: meta.builtAt,
      embedding_id: meta.embeddingId,
      format: SEMANTIC_FORMAT_VERSION,
      provider_state: providerState ? Buffer.from(providerState.buffer, providerState.byteOffset, providerState.byteLength) : null,
    };
    const insert = this.db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const [key, value] of Object.entries(values)) insert.run(key, value);
    })();
    this.db.close();
  }

  /** Closes without finishing (the temp dir is then removed). */
  abandon(): void {
    if (this.db.open) this.db.close();
    this.vectors = null;
  }
}

/**
 * Hashes of an int8 vector (FNV-1a-style, three multipliers): a 52-bit one to look it up and a 32-bit one to
 * confirm, so two different vectors are taken for one with a probability of about n² / 2^85.
 */
function vectorHashes(vector: Int8Array): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x5bd1e995;
  let c = 0x27d4eb2f;
  for (let d = 0; d < vector.length; d++) {
    const byte = vector[d]! & 0xff;
    a = Math.imul(a ^ byte, 0x01000193);
    b = Math.imul(b ^ byte, 0x9e3779b1);
    c = Math.imul(c ^ byte, 0x85ebca77);
  }
  return [(a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff), c >>> 0];
}

/** A sum of unit vectors, scaled to unit length (a zero sum stays zero). */
function unitVector(sum: Float64Array): Float32Array {
  let norm = 0;
  for (let d = 0; d < sum.length; d++) norm += sum[d]! * sum[d]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  const out = new Float32Array(sum.length);
  for (let d = 0; d < sum.length; d++) out[d] = sum[d]! * scale;
  return out;
}
