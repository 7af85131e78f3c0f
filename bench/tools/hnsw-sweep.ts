/**
 * HNSW parameters against self-recall, on vectors of a loaded release: N random concepts' vectors
 * (the normalised mean of their name and synonyms, with the served provider) are indexed afresh
 * with each configuration, and every configuration is asked for 2,000 of them: how often is the
 * concept itself not among its 10 nearest? Prints the build time and the misses per configuration,
 * to choose `connectivity` / `expansion_add` (src/store/sqlite/sqlite-semantic-index.ts) with
 * figures. Configurations: quantisation, connectivity, expansion_add, threads.
 *
 *   npx tsx bench/tools/hnsw-sweep.ts DATA_DIR [N=200000]
 */
import { createRequire } from 'node:module';
import { openReleaseVectors } from './release-vectors.js';

const { Index, MetricKind, ScalarKind } = createRequire(import.meta.url)('usearch') as typeof import('usearch');

const CONFIGURATIONS: Array<{ label: string; quantization: (typeof ScalarKind)[keyof typeof ScalarKind]; connectivity: number; expansionAdd: number; threads: number }> = [
  { label: 'i8 c12 ea48 t2 (served today)', quantization: ScalarKind.I8, connectivity: 12, expansionAdd: 48, threads: 2 },
  { label: 'i8 c12 ea48 t1', quantization: ScalarKind.I8, connectivity: 12, expansionAdd: 48, threads: 1 },
  { label: 'f32 c12 ea48 t2', quantization: ScalarKind.F32, connectivity: 12, expansionAdd: 48, threads: 2 },
  { label: 'i8 c12 ea96 t2', quantization: ScalarKind.I8, connectivity: 12, expansionAdd: 96, threads: 2 },
  { label: 'i8 c16 ea64 t2', quantization: ScalarKind.I8, connectivity: 16, expansionAdd: 64, threads: 2 },
  { label: 'i8 c16 ea96 t2', quantization: ScalarKind.I8, connectivity: 16, expansionAdd: 96, threads: 2 },
  { label: 'i8 c24 ea48 t2', quantization: ScalarKind.I8, connectivity: 24, expansionAdd: 48, threads: 2 },
];
const QUERIES = 2000;

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: hnsw-sweep.ts DATA_DIR [N]');
  const n = Number(process.argv[3] ?? 200_000);
  const release = await openReleaseVectors(dataDir);
  const ids = release.sampleConceptIds(n);
  const dimension = release.index.meta.dimension;
  const vectors = new Float32Array(ids.length * dimension);
  for (let i = 0; i < ids.length; i++) vectors.set(await release.conceptVector(ids[i]!), i * dimension);
  const keys = new BigUint64Array(ids.length).map((_, i) => BigInt(i));
  console.log(`${ids.length.toLocaleString('en-US')} vectors of ${release.label}; ${QUERIES} self-queries, k = 10, expansion_search 64`);
  for (const c of CONFIGURATIONS) {
    const index = new Index({ dimensions: dimension, metric: MetricKind.Cos, quantization: c.quantization, connectivity: c.connectivity, expansion_add: c.expansionAdd, expansion_search: 64, multi: false });
    const started = performance.now();
    index.add(keys, vectors, c.threads);
    const seconds = (performance.now() - started) / 1000;
    let missed = 0;
    for (let q = 0; q < QUERIES; q++) {
      const i = Math.floor((q * ids.length) / QUERIES);
      const found = index.search(vectors.subarray(i * dimension, (i + 1) * dimension), 10, 1);
      if (!Array.from(found.keys).some((k) => Number(k) === i)) missed++;
    }
    console.log(`${c.label}: build ${seconds.toFixed(1)} s, self not among the 10 nearest ${missed} of ${QUERIES} (${((100 * missed) / QUERIES).toFixed(1)} %)`);
  }
  await release.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
