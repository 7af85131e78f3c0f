/**
 * How many concepts semantic search cannot reach by meaning alone: for a random sample of the
 * concepts of a loaded release's vectors, the concept's own stored vector (the normalised mean of
 * its name and synonyms, recomputed with the served provider) is searched for, and the concept is
 * counted as unreached when it is not among the k nearest. HNSW is approximate, and a graph built
 * by several threads can leave a node without inbound links; this prints how often that happens.
 *
 *   npx tsx bench/tools/semantic-reachability.ts DATA_DIR [--sample N] [--k K]
 */
import { openReleaseVectors } from './release-vectors.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: semantic-reachability.ts DATA_DIR [--sample N] [--k K]');
  const sample = option('--sample', 2000);
  const k = option('--k', 10);
  const vectors = await openReleaseVectors(dataDir);
  const ids = vectors.sampleConceptIds(sample);
  let unreached = 0;
  let notFirst = 0;
  /** Unreached concepts whose nearest neighbour is (nearly) as close as the concept itself would be: ties, not holes. */
  let tied = 0;
  const started = performance.now();
  for (const id of ids) {
    const neighbours = vectors.index.nearest(await vectors.conceptVector(id), k);
    const found = neighbours.map((n) => n.conceptId);
    if (!found.includes(id)) {
      unreached++;
      if ((neighbours.at(-1)?.similarity ?? 0) >= 0.995) tied++;
    } else if (found[0] !== id) notFirst++;
  }
  console.log(
    `${vectors.label}: ${vectors.index.meta.conceptCount.toLocaleString('en-US')} vectors; ${ids.length} sampled concepts, k = ${k}: ` +
      `${unreached} not found (${((100 * unreached) / ids.length).toFixed(2)} %; of which ${tied} behind k neighbours at similarity ≥ 0.995: ties), ${notFirst} found but not first ` +
      `(another concept with the same vector, or quantisation); ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await vectors.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
