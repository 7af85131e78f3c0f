/**
 * How many concepts semantic search cannot reach by meaning alone: for a random sample of the
 * concepts of a loaded release's vectors, the concept's own stored vector (the normalised mean of
 * its name and synonyms, recomputed with the served provider) is searched for, and the concept is
 * counted as unreached when it is not among the k nearest. HNSW is approximate, and a graph built
 * by several threads can leave a node without inbound links; this prints how often that happens.
 *
 *   npx tsx bench/tools/semantic-reachability.ts DATA_DIR [--sample N] [--k K]
 */
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { SemanticIndexRegistry } from '../../src/services/semantic/semantic-index-registry.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import type { OpenRelease } from '../../src/store/release-registry.js';
import Database from 'better-sqlite3';
import { publishedEmbeddingFiles, readCurrentEmbedding } from '../../src/store/semantic-dir.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

function unitMean(vectors: readonly Float32Array[]): Float32Array {
  const sum = new Float32Array(vectors[0]!.length);
  for (const v of vectors) for (let d = 0; d < v.length; d++) sum[d]! += v[d]!;
  const norm = Math.hypot(...sum) || 1;
  return sum.map((x) => x / norm);
}

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: semantic-reachability.ts DATA_DIR [--sample N] [--k K]');
  const sample = option('--sample', 2000);
  const k = option('--k', 10);
  const build = listReleaseBuilds(dataDir)[0];
  if (!build) throw new Error(`no release in ${dataDir}`);
  const release: OpenRelease = { label: build.label, buildId: build.buildId, build, store: undefined as never };
  const registry = new SemanticIndexRegistry({ choice: { kind: 'lexicon' }, openIndex: openSqliteSemanticIndex, recheckIntervalMs: 0, retireDelayMs: 60_000 });
  const lookup = await registry.get(release);
  if (!lookup.ok) throw new Error(lookup.message);
  const current = readCurrentEmbedding(build.dir);
  if (!current) throw new Error(`release ${build.label} has no vectors`);
  const entries = new Database(publishedEmbeddingFiles(build.dir, current.embeddingId).entriesPath, { readonly: true });
  const ids = entries.prepare('SELECT DISTINCT concept_id FROM entries ORDER BY random() LIMIT ?').pluck().all(sample) as number[];
  let unreached = 0;
  let notFirst = 0;
  /** Unreached concepts whose nearest neighbour is (nearly) as close as the concept itself would be: ties, not holes. */
  let tied = 0;
  const started = performance.now();
  for (const id of ids) {
    const texts = lookup.index.entriesOfConcepts([id]).map((e) => e.text);
    const neighbours = lookup.index.nearest(unitMean(await lookup.provider.embed(texts)), k);
    const found = neighbours.map((n) => n.conceptId);
    if (!found.includes(id)) {
      unreached++;
      if ((neighbours.at(-1)?.similarity ?? 0) >= 0.995) tied++;
    } else if (found[0] !== id) notFirst++;
  }
  console.log(
    `${build.label}: ${lookup.index.meta.conceptCount.toLocaleString('en-US')} vectors; ${ids.length} sampled concepts, k = ${k}: ` +
      `${unreached} not found (${((100 * unreached) / ids.length).toFixed(2)} %; of which ${tied} behind k neighbours at similarity ≥ 0.995: ties), ${notFirst} found but not first ` +
      `(another concept with the same vector, or quantisation); ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await registry.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
