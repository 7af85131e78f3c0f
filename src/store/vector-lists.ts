/**
 * A release's concept vectors as inverted lists (IVF): the int8 vectors are grouped around centroids (two levels of
 * spherical k-means: each vector goes to the nearest list of its nearest top group), and a search compares the query
 * with every centroid, then exactly with every vector of the nearest lists (`probe` of them, and at least k vectors).
 * The lists hold every vector once and are read from the file at search time (vectors and keys), so an opening holds
 * only the centroids and the list offsets (about 0.5 MB at full size, against the ~200 MiB of tables an HNSW graph's
 * view builds; every searching thread opens the file itself), and
 * building them takes two passes of k-means (10 s at full size) rather than millions of graph insertions (9+ min).
 * A set of at most SINGLE_LIST_MAX vectors is one list: every search is exact.
 *
 * File layout (little-endian; each section starts at a multiple of 8 bytes):
 *   "OMOPIVF1" · u32 dimension · u32 count · u32 lists · u32 probe
 *   centroids  lists × dimension int8
 *   offsets    (lists + 1) × u32: the first vector of each list, then count
 *   keys       count × u32, list by list (in key order within a list)
 *   vectors    count × dimension int8, in the order of keys
 * Distances are usearch's int8 cosine distances (1 − cosine), the same as the HNSW sets before (format 3).
 */
import { closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { seededRandom } from '../seeded-random.js';

const { exactSearch, MetricKind } = createRequire(import.meta.url)('usearch') as typeof import('usearch');

export const VECTOR_LISTS_MAGIC = 'OMOPIVF1';
const HEADER_BYTES = 24;
/** Up to this many vectors, a set is one list: every search compares the query with all of them (about 1 ms at 65,536). */
export const SINGLE_LIST_MAX = 65_536;
/** Vectors per list the build aims at: a search reads `probe` lists of about this many. */
const LIST_SIZE = 768;
/**
 * Lists a search reads at least (stored in the file, so a set answers the same whatever the code's default later). 32
 * of the 4,051 lists of a full release (1 % of its vectors, about 0.9 ms a search) find 81 % of a query's true 10
 * nearest vectors, as many as the HNSW graph this replaced found asked for 200 (82 %, 0.56 ms); docs/semantic-search.md.
 */
export const DEFAULT_PROBE = 32;
/** Sample points per centroid that k-means trains on, and its rounds. */
const SAMPLE_PER_CENTROID = 64;
const KMEANS_ROUNDS = 8;
/** Vectors assigned to centroids per exactSearch call (bounds the result arrays, lets progress through). */
const ASSIGN_CHUNK = 1 << 17;
/** A vector file kept whole in memory below this size (small sets: no file read per search). */
const IN_MEMORY_BELOW = 16 << 20;

export interface VectorListsBuildOptions {
  /** Threads exactSearch compares with (default 2). */
  threads?: number;
  /** Seed of the k-means samples (default: fixed, so a set is built the same on every run). */
  seed?: number;
  /** Lists a search reads at least (default DEFAULT_PROBE). */
  probe?: number;
  /** Called after each chunk of assignments. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Groups `count` int8 vectors (row-major, `dimension` wide) with their keys into lists and writes the file. Vectors are
 * not changed; the lists are the same for the same input, whatever `threads`.
 */
export function writeVectorLists(
  path: string,
  vectors: Int8Array,
  keys: Uint32Array,
  dimension: number,
  options: VectorListsBuildOptions = {},
): { lists: number; probe: number } {
  const count = keys.length;
  if (vectors.length !== count * dimension) throw new Error(`writeVectorLists: ${vectors.length} values for ${count} vectors of ${dimension}`);
  const threads = Math.max(1, options.threads ?? 2);
  const random = seededRandom(options.seed ?? 0x0a11ce5);
  const { centroids, listOf } = count <= SINGLE_LIST_MAX ? oneList(vectors, count, dimension) : twoLevels(vectors, count, dimension, threads, random, options.onProgress);
  const lists = centroids.length / dimension;
  const probe = Math.min(lists, Math.max(1, options.probe ?? DEFAULT_PROBE));

  // order the vectors by list (stable: key order within a list)
  const offsets = new Uint32Array(lists + 1);
  for (let i = 0; i < count; i++) offsets[listOf[i]! + 1]!++;
  for (let l = 0; l < lists; l++) offsets[l + 1]! += offsets[l]!;
  const next = offsets.slice(0, lists);
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[next[listOf[i]!]!++] = i;

  const layout = fileLayout(dimension, count, lists);
  const fd = openSync(path, 'w');
  try {
    const header = Buffer.alloc(layout.centroidsAt);
    header.write(VECTOR_LISTS_MAGIC, 0, 'latin1');
    header.writeUInt32LE(dimension, 8);
    header.writeUInt32LE(count, 12);
    header.writeUInt32LE(lists, 16);
    header.writeUInt32LE(probe, 20);
    writeSync(fd, header, 0, header.length, 0);
    writeSync(fd, bytesOf(centroids), 0, centroids.byteLength, layout.centroidsAt);
    writeSync(fd, bytesOf(offsets), 0, offsets.byteLength, layout.offsetsAt);
    const sortedKeys = new Uint32Array(count);
    for (let i = 0; i < count; i++) sortedKeys[i] = keys[order[i]!]!;
    writeSync(fd, bytesOf(sortedKeys), 0, sortedKeys.byteLength, layout.keysAt);
    // the vectors in chunks of list order
    const chunkRows = 1 << 15;
    const chunk = new Int8Array(chunkRows * dimension);
    for (let from = 0; from < count; from += chunkRows) {
      const rows = Math.min(chunkRows, count - from);
      for (let r = 0; r < rows; r++) {
        const at = order[from + r]! * dimension;
        chunk.set(vectors.subarray(at, at + dimension), r * dimension);
      }
      writeSync(fd, bytesOf(chunk), 0, rows * dimension, layout.vectorsAt + from * dimension);
    }
  } finally {
    closeSync(fd);
  }
  return { lists, probe };
}

export interface VectorListsFile {
  readonly size: number;
  readonly lists: number;
  readonly probe: number;
  /** The k nearest vectors (cosine distance, nearest first; ties in list order). */
  search(query: Int8Array, k: number): { keys: Uint32Array; distances: Float32Array };
  close(): void;
}

/** True when the file starts as a vector lists file (the reader of a set chooses by this, not by its name). */
export function isVectorListsFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(8);
    return readSync(fd, head, 0, 8, 0) === 8 && head.toString('latin1') === VECTOR_LISTS_MAGIC;
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a vector lists file read-only; throws naming the file when it is not one, or is cut short. `probe` replaces the
 * file's own number of lists read per search (measuring tools only: a served set answers as it was built).
 */
export function openVectorLists(path: string, dimension: number, options: { probe?: number } = {}): VectorListsFile {
  const fd = openSync(path, 'r');
  try {
    const fileBytes = fstatSync(fd).size;
    const header = Buffer.alloc(HEADER_BYTES);
    if (readSync(fd, header, 0, HEADER_BYTES, 0) !== HEADER_BYTES || header.toString('latin1', 0, 8) !== VECTOR_LISTS_MAGIC) {
      throw new Error(`${path} is not a vector lists file`);
    }
    const fileDimension = header.readUInt32LE(8);
    const count = header.readUInt32LE(12);
    const lists = header.readUInt32LE(16);
    const probe = options.probe ?? header.readUInt32LE(20);
    if (fileDimension !== dimension) throw new Error(`${path} holds vectors of ${fileDimension} dimensions, its entries ${dimension}`);
    const layout = fileLayout(dimension, count, lists);
    if (lists === 0 && count > 0) throw new Error(`${path} is damaged: ${count} vectors in no list`);
    if (fileBytes !== layout.bytes) throw new Error(`${path} is damaged: ${fileBytes} bytes, its header says ${layout.bytes}`);
    const centroids = new Int8Array(lists * dimension);
    readExactly(fd, centroids, layout.centroidsAt, path);
    const offsets = new Uint32Array(lists + 1);
    readExactly(fd, offsets, layout.offsetsAt, path);
    for (let l = 0; l < lists; l++) if (offsets[l]! > offsets[l + 1]!) throw new Error(`${path} is damaged: list ${l} ends before it starts`);
    if (offsets[0] !== 0 || offsets[lists] !== count) throw new Error(`${path} is damaged: its lists do not hold its ${count} vectors`);
    // a small set is read whole; a large one keeps only its centroids and offsets, and reads the keys and vectors of
    // the lists a search needs
    const whole = layout.bytes < IN_MEMORY_BELOW ? new Int8Array(count * dimension) : null;
    const keys = whole ? new Uint32Array(count) : null;
    if (whole) {
      readExactly(fd, keys!, layout.keysAt, path);
      readExactly(fd, whole, layout.vectorsAt, path);
    }
    let closed = false;
    if (whole) closeSync(fd);
    /** Vectors of the probed lists, gathered for one search (grown as needed, reused). */
    let gathered = new Int8Array(0);
    let gatheredKeys = new Uint32Array(0);
    return {
      size: count,
      lists,
      probe,
      search(query, k) {
        if (closed) throw new Error(`${path} is closed`);
        if (query.length !== dimension) throw new Error(`a query of ${query.length} dimensions for vectors of ${dimension}`);
        const wanted = Math.min(Math.max(0, Math.floor(k)), count);
        if (wanted === 0) return { keys: new Uint32Array(0), distances: new Float32Array(0) };
        // the lists to read: nearest centroids first, at least `probe` of them and at least `wanted` vectors
        const chosen: number[] = [];
        let rows = 0;
        // rank enough centroids for `probe` lists of average size and `wanted` vectors twice over, all of them if short
        let ranking = Math.min(lists, 2 * (probe + Math.ceil((wanted * lists) / count)));
        for (;;) {
          const ranked = lists === 1 ? [0] : rankLists(centroids, query, dimension, ranking);
          chosen.length = 0;
          rows = 0;
          for (const l of ranked) {
            if (chosen.length >= probe && rows >= wanted) break;
            const size = offsets[l + 1]! - offsets[l]!;
            if (size === 0) continue;
            chosen.push(l);
            rows += size;
          }
          if ((chosen.length >= probe && rows >= wanted) || ranking === lists) break;
          ranking = lists;
        }
        let data: Int8Array;
        let dataKeys: Uint32Array;
        if (whole && chosen.length === lists) {
          data = whole;
          dataKeys = keys!;
        } else {
          if (gathered.length < rows * dimension) {
            gathered = new Int8Array(Math.max(rows, 2 * gathered.length / dimension) * dimension);
            gatheredKeys = new Uint32Array(gathered.length / dimension);
          }
          let at = 0;
          for (const l of chosen) {
            const first = offsets[l]!;
            const size = offsets[l + 1]! - first;
            const target = gathered.subarray(at * dimension, (at + size) * dimension);
            if (whole) {
              target.set(whole.subarray(first * dimension, (first + size) * dimension));
              gatheredKeys.set(keys!.subarray(first, first + size), at);
            } else {
              readExactly(fd, target, layout.vectorsAt + first * dimension, path);
              readExactly(fd, gatheredKeys.subarray(at, at + size), layout.keysAt + first * 4, path);
            }
            at += size;
          }
          data = gathered.subarray(0, rows * dimension);
          dataKeys = gatheredKeys;
        }
        const found = exactSearch(data, atStart(query), dimension, Math.min(wanted, rows), MetricKind.Cos, 1);
        const n = found.keys.length;
        const outKeys = new Uint32Array(n);
        for (let i = 0; i < n; i++) outKeys[i] = dataKeys[Number(found.keys[i])]!;
        return { keys: outKeys, distances: Float32Array.from(found.distances.subarray(0, n)) };
      },
      close() {
        if (closed) return;
        closed = true;
        if (!whole) closeSync(fd);
      },
    };
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    throw err;
  }
}

/** Every vector of a vector lists file and its key, in the file's order (for measuring tools: brute-force references). */
export function readAllVectors(path: string): { dimension: number; vectors: Int8Array; keys: Uint32Array } {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(HEADER_BYTES);
    readSync(fd, header, 0, HEADER_BYTES, 0);
    if (header.toString('latin1', 0, 8) !== VECTOR_LISTS_MAGIC) throw new Error(`${path} is not a vector lists file`);
    const dimension = header.readUInt32LE(8);
    const count = header.readUInt32LE(12);
    const layout = fileLayout(dimension, count, header.readUInt32LE(16));
    const keys = new Uint32Array(count);
    readExactly(fd, keys, layout.keysAt, path);
    const vectors = new Int8Array(count * dimension);
    readExactly(fd, vectors, layout.vectorsAt, path);
    return { dimension, vectors, keys };
  } finally {
    closeSync(fd);
  }
}

/** The `ranking` lists of the nearest centroids, nearest first. */
function rankLists(centroids: Int8Array, query: Int8Array, dimension: number, ranking: number): number[] {
  const found = exactSearch(centroids, atStart(query), dimension, ranking, MetricKind.Cos, 1);
  const out = new Array<number>(found.keys.length);
  for (let i = 0; i < out.length; i++) out[i] = Number(found.keys[i]);
  return out;
}

function fileLayout(dimension: number, count: number, lists: number) {
  const align = (n: number) => Math.ceil(n / 8) * 8;
  const centroidsAt = HEADER_BYTES;
  const offsetsAt = align(centroidsAt + lists * dimension);
  const keysAt = align(offsetsAt + (lists + 1) * 4);
  const vectorsAt = align(keysAt + count * 4);
  return { centroidsAt, offsetsAt, keysAt, vectorsAt, bytes: vectorsAt + count * dimension };
}

function readExactly(fd: number, target: Int8Array | Uint32Array, position: number, path: string): void {
  const bytes = bytesOf(target);
  let done = 0;
  while (done < bytes.length) {
    const read = readSync(fd, bytes, done, bytes.length - done, position + done);
    if (read === 0) throw new Error(`${path} is damaged: it ends before byte ${position + bytes.length}`);
    done += read;
  }
}

function bytesOf(array: Int8Array | Uint32Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

function oneList(vectors: Int8Array, count: number, dimension: number): { centroids: Int8Array; listOf: Uint32Array } {
  const centroids = new Int8Array(dimension);
  if (count > 0) centroids.set(meanDirection(vectors, dimension, Uint32Array.from({ length: count }, (_, i) => i)));
  return { centroids, listOf: new Uint32Array(count) };
}

/**
 * Two levels of spherical k-means: about √(count / LIST_SIZE) top centroids, then within each top group as many lists as
 * its size asks for; each vector goes to its nearest list of its nearest top group (two small exact searches each).
 */
function twoLevels(
  vectors: Int8Array,
  count: number,
  dimension: number,
  threads: number,
  random: () => number,
  onProgress: VectorListsBuildOptions['onProgress'],
): { centroids: Int8Array; listOf: Uint32Array } {
  const wantedLists = Math.max(2, Math.round(count / LIST_SIZE));
  const tops = Math.max(2, Math.round(Math.sqrt(wantedLists)));
  const everyone = Uint32Array.from({ length: count }, (_, i) => i);
  const topCentroids = kMeans(vectors, dimension, everyone, tops, threads, random);
  const topOf = assign(vectors, dimension, everyone, topCentroids, threads, (done) => onProgress?.(done, 2 * count));
  const members = groupBy(topOf, tops);
  const leafCentroids: Int8Array[] = [];
  const listOf = new Uint32Array(count);
  let assigned = count;
  let firstList = 0;
  for (let t = 0; t < tops; t++) {
    const group = members[t]!;
    if (group.length === 0) continue;
    const leaves = Math.max(1, Math.round(group.length / LIST_SIZE));
    const centroids = leaves === 1 ? meanDirection(vectors, dimension, group) : kMeans(vectors, dimension, group, leaves, threads, random);
    const leafOf = leaves === 1 ? new Uint32Array(group.length) : assign(vectors, dimension, group, centroids, threads);
    for (let i = 0; i < group.length; i++) listOf[group[i]!] = firstList + leafOf[i]!;
    leafCentroids.push(centroids);
    firstList += centroids.length / dimension;
    assigned += group.length;
    onProgress?.(assigned, 2 * count);
  }
  const centroids = new Int8Array(firstList * dimension);
  let at = 0;
  for (const c of leafCentroids) {
    centroids.set(c, at);
    at += c.length;
  }
  return { centroids, listOf };
}

/** `k` centroids (int8, each a quantised unit mean direction) of the vectors `ids`, trained on a seeded sample. */
function kMeans(vectors: Int8Array, dimension: number, ids: Uint32Array, k: number, threads: number, random: () => number): Int8Array {
  const sample = sampleOf(ids, Math.min(ids.length, k * SAMPLE_PER_CENTROID), random);
  // the first centroids: k distinct sample points
  const centroids = new Int8Array(k * dimension);
  for (let c = 0; c < k; c++) {
    const at = sample[Math.floor((c * sample.length) / k)]! * dimension;
    centroids.set(vectors.subarray(at, at + dimension), c * dimension);
  }
  const sums = new Float64Array(k * dimension);
  const sizes = new Uint32Array(k);
  for (let round = 0; round < KMEANS_ROUNDS; round++) {
    const nearest = assign(vectors, dimension, sample, centroids, threads);
    sums.fill(0);
    sizes.fill(0);
    for (let i = 0; i < sample.length; i++) addUnit(sums, nearest[i]! * dimension, vectors, sample[i]! * dimension, dimension);
    for (let i = 0; i < sample.length; i++) sizes[nearest[i]!]!++;
    for (let c = 0; c < k; c++) {
      if (sizes[c] === 0) {
        // an empty centroid starts again from a random sample point
        const at = sample[Math.floor(random() * sample.length)]! * dimension;
        centroids.set(vectors.subarray(at, at + dimension), c * dimension);
      } else {
        quantizeInto(sums, c * dimension, dimension, centroids);
      }
    }
  }
  return centroids;
}

/** The nearest centroid of each of the vectors `ids` (exact, in chunks). */
function assign(vectors: Int8Array, dimension: number, ids: Uint32Array, centroids: Int8Array, threads: number, onChunk?: (done: number) => void): Uint32Array {
  const out = new Uint32Array(ids.length);
  const buffer = new Int8Array(Math.min(ids.length, ASSIGN_CHUNK) * dimension);
  for (let from = 0; from < ids.length; from += ASSIGN_CHUNK) {
    const rows = Math.min(ASSIGN_CHUNK, ids.length - from);
    for (let r = 0; r < rows; r++) {
      const at = ids[from + r]! * dimension;
      buffer.set(vectors.subarray(at, at + dimension), r * dimension);
    }
    const found = exactSearch(centroids, atStart(buffer.subarray(0, rows * dimension)), dimension, 1, MetricKind.Cos, threads);
    for (let r = 0; r < rows; r++) out[from + r] = Number(found.keys[r]);
    onChunk?.(from + rows);
  }
  return out;
}

/**
 * The array itself when it starts at the start of its buffer, else a copy: usearch 2.25's exactSearch reads a typed
 * array's buffer from its first byte, whatever the array's byteOffset (a subarray would be read from the wrong place).
 */
function atStart(array: Int8Array): Int8Array {
  return array.byteOffset === 0 ? array : array.slice();
}

function groupBy(groupOf: Uint32Array, groups: number): Uint32Array[] {
  const sizes = new Uint32Array(groups);
  for (const g of groupOf) sizes[g]!++;
  const out = Array.from(sizes, (n) => new Uint32Array(n));
  sizes.fill(0);
  for (let i = 0; i < groupOf.length; i++) out[groupOf[i]!]![sizes[groupOf[i]!]!++] = i;
  return out;
}

/** The quantised unit mean of the unit directions of the vectors `ids`. */
function meanDirection(vectors: Int8Array, dimension: number, ids: Uint32Array): Int8Array {
  const sum = new Float64Array(dimension);
  for (const id of ids) addUnit(sum, 0, vectors, id * dimension, dimension);
  const out = new Int8Array(dimension);
  quantizeInto(sum, 0, dimension, out);
  return out;
}

/** Adds the unit direction of one int8 vector into sums[at..at+dimension) (a zero vector adds nothing). */
function addUnit(sums: Float64Array, at: number, vectors: Int8Array, from: number, dimension: number): void {
  let norm = 0;
  for (let d = 0; d < dimension; d++) norm += vectors[from + d]! * vectors[from + d]!;
  if (norm === 0) return;
  const scale = 1 / Math.sqrt(norm);
  for (let d = 0; d < dimension; d++) sums[at + d]! += vectors[from + d]! * scale;
}

/** sums[at..at+dimension) as int8 (largest component ±127, as src/store/sqlite/sqlite-semantic-index.ts quantises). */
function quantizeInto(sums: Float64Array, at: number, dimension: number, out: Int8Array): void {
  let max = 0;
  for (let d = 0; d < dimension; d++) max = Math.max(max, Math.abs(sums[at + d]!));
  const scale = max > 0 ? 127 / max : 0;
  for (let d = 0; d < dimension; d++) out[at + d] = Math.round(sums[at + d]! * scale);
}

/** `n` of `ids` chosen without repetition by a seeded partial shuffle (all of them when n ≥ their number), in id order. */
function sampleOf(ids: Uint32Array, n: number, random: () => number): Uint32Array {
  if (n >= ids.length) return ids;
  const copy = Uint32Array.from(ids);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (copy.length - i));
    const t = copy[i]!;
    copy[i] = copy[j]!;
    copy[j] = t;
  }
  return copy.subarray(0, n).sort();
}

