/**
 * Vector-index layouts and HNSW parameters against self-recall, on vectors of a loaded release: N random concepts'
 * vectors (the normalised mean of their name and synonyms, with the served provider) are indexed afresh with each
 * configuration, and each is asked for 2,000 of them: how often is the concept not among its 10 nearest (copies of
 * one vector expanded as nearest() does, ties told apart)? Prints build time, index size and misses, to choose the
 * layout and `connectivity` / `expansion_add` (src/store/sqlite/sqlite-semantic-index.ts) with figures.
 *
 *   npx tsx bench/tools/hnsw-sweep.ts DATA_DIR [N=200000] [--only label,label] [--queries 2000]
 *
 * DATA_DIR may instead be a file of float32 vectors (`*.f32`, N × 128, in concept_id order), to sweep without a store.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quantizeVector } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { openReleaseVectors } from './release-vectors.js';

const { Index, MetricKind, ScalarKind, exactSearch } = createRequire(import.meta.url)('usearch') as typeof import('usearch');

/**
 * `usearch-cast`: float vectors cast by usearch (norm-scaled, truncated; format 2); `i8`: quantizeVector (format 3);
 * `f16`: half floats. `dedup`: copies with the same stored bytes indexed once (format 3), by the stored bytes
 * (`exact`) or by usearch's coarser cast (`coarse`); `near`: also a vector within `epsilon` (cosine distance) of one
 * already indexed, or of one earlier in its batch of 256, joins it.
 */
interface Configuration {
  label: string;
  layout: 'usearch-cast' | 'i8' | 'f16';
  dedup: 'none' | 'exact' | 'coarse' | 'near';
  epsilon?: number;
  connectivity: number;
  expansionAdd: number;
  expansionSearch: number;
  threads: number;
}

const CONFIGURATIONS: Configuration[] = [
  { label: 'cast c12 ea48 (format 2)', layout: 'usearch-cast', dedup: 'none', connectivity: 12, expansionAdd: 48, expansionSearch: 64, threads: 2 },
  { label: 'cast c12 ea48 dedup', layout: 'usearch-cast', dedup: 'exact', connectivity: 12, expansionAdd: 48, expansionSearch: 64, threads: 2 },
  { label: 'i8 c12 ea48', layout: 'i8', dedup: 'none', connectivity: 12, expansionAdd: 48, expansionSearch: 64, threads: 2 },
  { label: 'i8 c12 ea48 dedup (format 3)', layout: 'i8', dedup: 'exact', connectivity: 12, expansionAdd: 48, expansionSearch: 64, threads: 2 },
  { label: 'i8 c12 ea48 coarse dedup', layout: 'i8', dedup: 'coarse', connectivity: 12, expansionAdd: 48, expansionSearch: 64, threads: 2 },
  { label: 'i8 c16 ea64 dedup', layout: 'i8', dedup: 'exact', connectivity: 16, expansionAdd: 64, expansionSearch: 64, threads: 2 },
  { label: 'i8 c12 ea48 near 2e-4', layout: 'i8', dedup: 'near', epsilon: 2e-4, connectivity: 12, expansionAdd: 48, expansionSearch: 64, threads: 2 },
  { label: 'i8 c12 ea48 near 1e-3', layout: 'i8', dedup: 'near', epsilon: 1e-3, connectivity: 12, expansionAdd: 48, expansionSearch: 64, threads: 2 },
  { label: 'i8 c16 ea64 near 2e-4', layout: 'i8', dedup: 'near', epsilon: 2e-4, connectivity: 16, expansionAdd: 64, expansionSearch: 64, threads: 2 },
  { label: 'i8 c12 ea128 dedup', layout: 'i8', dedup: 'exact', connectivity: 12, expansionAdd: 128, expansionSearch: 64, threads: 2 },
  { label: 'i8 c16 ea128 near 2e-4', layout: 'i8', dedup: 'near', epsilon: 2e-4, connectivity: 16, expansionAdd: 128, expansionSearch: 64, threads: 2 },
  { label: 'f16 c12 ea48', layout: 'f16', dedup: 'none', connectivity: 12, expansionAdd: 48, expansionSearch: 64, threads: 2 },
  { label: 'f16 c12 ea48 dedup', layout: 'f16', dedup: 'exact', connectivity: 12, expansionAdd: 48, expansionSearch: 64, threads: 2 },
];

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** usearch's own float → int8 cast (scaled by the norm, truncated): what format 2 stored. */
function usearchCast(vector: Float32Array): Int8Array {
  const norm = Math.hypot(...vector);
  return Int8Array.from(vector, (x) => (norm > 0 ? Math.trunc(Math.max(-127, Math.min(127, (x * 127) / norm))) : 0));
}

function bytesKey(bytes: ArrayLike<number>): string {
  return Buffer.from(Int8Array.from(bytes).buffer).toString('latin1');
}

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: hnsw-sweep.ts DATA_DIR [N] [--only label,label] [--queries Q]');
  const n = Number(process.argv[3] && !process.argv[3].startsWith('--') ? process.argv[3] : 200_000);
  const only = option('--only')?.split(',');
  const queries = Number(option('--queries') ?? 2000);
  let label: string;
  let ids: number[];
  let dimension: number;
  let vectors: Float32Array;
  if (dataDir.endsWith('.f32')) {
    const bytes = readFileSync(dataDir);
    const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    dimension = 128;
    // N of them, evenly spaced (the file is in concept_id order)
    const count = Math.min(n, all.length / dimension);
    vectors = new Float32Array(count * dimension);
    for (let i = 0; i < count; i++) {
      const from = Math.floor((i * all.length) / dimension / count) * dimension;
      vectors.set(all.subarray(from, from + dimension), i * dimension);
    }
    ids = Array.from({ length: count }, (_, i) => i);
    label = dataDir;
  } else {
    const release = await openReleaseVectors(dataDir);
    // in concept_id order, as a load adds them (related concepts often have neighbouring ids)
    ids = release.sampleConceptIds(n).sort((a, b) => a - b);
    dimension = release.index.meta.dimension;
    vectors = new Float32Array(ids.length * dimension);
    for (let i = 0; i < ids.length; i++) vectors.set(await release.conceptVector(ids[i]!), i * dimension);
    await release.close();
    label = release.label;
  }
  const vector = (i: number): Float32Array => vectors.subarray(i * dimension, (i + 1) * dimension);
  const tmp = mkdtempSync(join(tmpdir(), 'omopterm-hnsw-sweep-'));
  console.log(`${ids.length.toLocaleString('en-US')} vectors of ${label}; ${queries} self-queries, k = 10`);

  for (const c of CONFIGURATIONS.filter((x) => !only || only.some((o) => x.label.includes(o)))) {
    // stored form of each vector, and the group (first index with the same dedup key) of each
    const stored = (i: number): Float32Array | Int8Array => (c.layout === 'i8' ? quantizeVector(vector(i)) : c.layout === 'usearch-cast' ? usearchCast(vector(i)) : vector(i));
    const groupOf = new Int32Array(ids.length);
    const firstOfKey = new Map<string, number>();
    const members = new Map<number, number[]>();
    const index = new Index({
      dimensions: dimension,
      metric: MetricKind.Cos,
      quantization: c.layout === 'f16' ? ScalarKind.F16 : ScalarKind.I8,
      connectivity: c.connectivity,
      expansion_add: c.expansionAdd,
      expansion_search: c.expansionSearch,
      multi: false,
    });
    /** Moves i's group (i and the copies joined to it) into the group of `into`. */
    const join_ = (i: number, into: number): void => {
      const root = groupOf[into]!;
      const list = members.get(i) ?? [i];
      members.delete(i);
      for (const m of list) groupOf[m] = root;
      members.get(root)!.push(...list);
    };
    let kept = 0;
    let seconds = 0;
    const BATCH = c.dedup === 'near' ? 256 : 4096;
    for (let from = 0; from < ids.length; from += BATCH) {
      const started = performance.now();
      let batch: number[] = [];
      for (let i = from; i < Math.min(ids.length, from + BATCH); i++) {
        const key = c.dedup === 'none' ? null : bytesKey(c.dedup === 'coarse' ? usearchCast(vector(i)) : stored(i));
        const first = key === null ? undefined : firstOfKey.get(key);
        if (first !== undefined) join_(i, first);
        else {
          if (key !== null) firstOfKey.set(key, i);
          groupOf[i] = i;
          members.set(i, [i]);
          batch.push(i);
        }
      }
      const matrixOf = (rows: number[]): Float32Array | Int8Array => {
        const m = c.layout === 'f16' ? new Float32Array(rows.length * dimension) : new Int8Array(rows.length * dimension);
        rows.forEach((i, row) => m.set(stored(i), row * dimension));
        return m;
      };
      if (c.dedup === 'near' && batch.length) {
        const eps = c.epsilon!;
        if (index.size() > 0) {
          const found = index.search(matrixOf(batch), 1, c.threads) as unknown as { keys: BigUint64Array; distances: Float32Array; counts: BigUint64Array };
          const rest: number[] = [];
          batch.forEach((i, q) => {
            if (Number(found.counts?.[q] ?? 1) > 0 && found.distances[q]! <= eps) join_(i, Number(found.keys[q]));
            else rest.push(i);
          });
          batch = rest;
        }
        if (batch.length > 1) {
          const m = matrixOf(batch);
          const within = exactSearch(m, m, dimension, 2, MetricKind.Cos) as unknown as { keys: BigUint64Array; distances: Float32Array };
          const merged = new Set<number>();
          const rest: number[] = [];
          batch.forEach((i, q) => {
            for (let r = 0; r < 2; r++) {
              const j = Number(within.keys[q * 2 + r]);
              if (j < q && !merged.has(j) && within.distances[q * 2 + r]! <= eps) {
                join_(i, batch[j]!);
                merged.add(q);
                return;
              }
            }
            rest.push(i);
          });
          batch = rest;
        }
      }
      if (batch.length) index.add(BigUint64Array.from(batch, (i) => BigInt(i)), matrixOf(batch), c.threads);
      kept += batch.length;
      seconds += (performance.now() - started) / 1000;
    }
    const file = join(tmp, 'index.usearch');
    index.save(file);
    const mib = statSync(file).size / 2 ** 20;

    let missed = 0;
    let tied = 0;
    for (let q = 0; q < queries; q++) {
      const i = Math.floor((q * ids.length) / queries);
      const query = c.layout === 'i8' ? quantizeVector(vector(i)) : vector(i);
      const found = index.search(query, 10, 1);
      const concepts: number[] = [];
      for (const key of found.keys) for (const m of members.get(Number(key)) ?? []) if (concepts.length < 10) concepts.push(m);
      if (concepts.includes(i)) continue;
      // a tie: the concept is exactly as near as the 10th result (its group, or a vector at the same distance)
      const wide = index.search(query, 1000, 1);
      const at = Array.from(wide.keys, Number).indexOf(groupOf[i]!);
      if (at >= 0 && wide.distances[at]! <= found.distances[found.distances.length - 1]!) tied++;
      else missed++;
    }
    const shared = ids.length - kept;
    console.log(
      `${c.label}: ${kept.toLocaleString('en-US')} vectors (${shared.toLocaleString('en-US')} shared), build ${seconds.toFixed(1)} s, ${mib.toFixed(1)} MiB; ` +
        `not among the 10 nearest ${missed} of ${queries} (${((100 * missed) / queries).toFixed(2)} %), plus ${tied} tied with the 10th`,
    );
  }
  rmSync(tmp, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
