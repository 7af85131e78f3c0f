/**
 * How many concepts semantic search cannot reach by meaning alone: for a random sample of the
 * concepts of a loaded release's vectors, the concept's own stored vector (the normalised mean of
 * its name and synonyms, recomputed with the served provider) is searched for, and the concept is
 * counted as unreached when it is not among the k nearest. HNSW is approximate; this prints how
 * often that happens, and apart from it how often the concept is exactly as near as the k-th result
 * (a tie: concepts with the same vector, or at the same quantised distance) and is left out by order.
 *
 *   npx tsx bench/tools/semantic-reachability.ts DATA_DIR [--sample N] [--k K] [--search K2] [--rescore K2]
 *
 * `--search K2` (≥ K) asks the index for K2 neighbours and keeps the first K: a wider search, as usearch searches
 * with max(expansion_search, k). `--rescore K2` asks for K2 neighbours and keeps the K nearest by the exact cosine of
 * the provider's float vectors (recomputed from each neighbour's texts), not by the index's int8 distance: what
 * semantic search does, which scores every candidate of the index exactly (CANDIDATE_K_START of them); a concept
 * left out then only by a concept with exactly the same vector (the same texts) is counted as tied.
 */
import { openReleaseVectors } from './release-vectors.js';
import { numberOption } from '../lib/tool-options.js';

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: semantic-reachability.ts DATA_DIR [--sample N] [--k K]');
  const sample = numberOption('--sample', 2000);
  const k = numberOption('--k', 10);
  const rescoreK = numberOption('--rescore', 0);
  const searchK = Math.max(k, numberOption('--search', k), rescoreK);
  const vectors = await openReleaseVectors(dataDir);
  const ids = vectors.sampleConceptIds(sample);
  let unreached = 0;
  let notFirst = 0;
  /** Unreached concepts found by a wider search exactly as near as the k-th result: ties, not holes. */
  let tied = 0;
  const started = performance.now();
  for (const id of ids) {
    const vector = await vectors.conceptVector(id);
    let neighbours = vectors.index.nearest(vector, searchK).slice(0, rescoreK > 0 ? searchK : k);
    if (rescoreK > 0) {
      const exact = await Promise.all(neighbours.map(async (n) => ({ conceptId: n.conceptId, similarity: dot(vector, await vectors.conceptVector(n.conceptId)) })));
      neighbours = exact.sort((a, b) => b.similarity - a.similarity || a.conceptId - b.conceptId).slice(0, k);
    }
    const found = neighbours.map((n) => n.conceptId);
    if (!found.includes(id) && rescoreK > 0) {
      unreached++;
      // left out by a concept with exactly the same float vector (the same texts): a tie no ranking can break
      if (neighbours.at(-1)!.similarity >= dot(vector, vector) - 1e-6) tied++;
    } else if (!found.includes(id)) {
      unreached++;
      const self = vectors.index.nearest(vector, Math.max(k, 1000)).find((n) => n.conceptId === id);
      if (self && self.similarity >= (neighbours.at(-1)?.similarity ?? 1)) tied++;
    } else if (found[0] !== id) notFirst++;
  }
  // the lookup semantic search makes first: the 200 nearest concepts (vectors computed beforehand, so only the index is timed)
  const queries: Float32Array[] = [];
  for (const id of ids.slice(0, 500)) queries.push(await vectors.conceptVector(id));
  const lookupMs = queries.map((q) => {
    const t = performance.now();
    vectors.index.nearest(q, 200);
    return performance.now() - t;
  });
  lookupMs.sort((a, b) => a - b);
  const quantile = (q: number): string => lookupMs[Math.min(lookupMs.length - 1, Math.floor(q * lookupMs.length))]!.toFixed(2);
  const pct = (x: number): string => ((100 * x) / ids.length).toFixed(2);
  console.log(
    `${vectors.label}: ${vectors.index.meta.conceptCount.toLocaleString('en-US')} concepts; ${ids.length} sampled, k = ${k}${searchK > k ? ` (of ${searchK} searched)` : ''}: ` +
      `${rescoreK > 0 ? `the ${rescoreK} nearest re-scored exactly; ` : ''}found ${ids.length - unreached} (${pct(ids.length - unreached)} %); not found ${unreached} (${pct(unreached)} %), of which ${tied} tied with the k-th ` +
      `(exactly as near, left out by order: found or tied ${pct(ids.length - unreached + tied)} %); ${notFirst} found but not first ` +
      `(another concept as near, or quantisation); ${((performance.now() - started) / 1000).toFixed(1)} s. ` +
      `nearest(k = 200): p50 ${quantile(0.5)} ms, p99 ${quantile(0.99)} ms over ${lookupMs.length} lookups`,
  );
  await vectors.close();
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
