/**
 * How well the served vector lists (format 4, src/store/vector-lists.ts) find the true nearest vectors: for a random
 * sample of a loaded release's concepts, three queries each — the concept's own stored vector, the vector of its name
 * alone, and of its name without its last word (a source term that says less than its target) — searched through the
 * lists and, as the reference, by brute force over every vector of the file (usearch exactSearch). Prints recall@k
 * (a found key counts when it is as near as the reference's k-th; ties count) per kind of query, how often a concept is
 * found first from its own vector, and the search time per query.
 *
 *   npx tsx bench/tools/vector-recall.ts DATA_DIR [--sample N] [--k K] [--probe P]
 */
import { createRequire } from 'node:module';
import { quantizeVector } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { openVectorLists, readAllVectors } from '../../src/store/vector-lists.js';
import { openReleaseVectors } from './release-vectors.js';
import { numberOption } from '../lib/tool-options.js';

const { exactSearch, MetricKind } = createRequire(import.meta.url)('usearch') as typeof import('usearch');

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: vector-recall.ts DATA_DIR [--sample N] [--k K] [--probe P]');
  const sample = numberOption('--sample', 300);
  const k = numberOption('--k', 10);
  const probe = process.argv.includes('--probe') ? numberOption('--probe', 0) : undefined;
  const release = await openReleaseVectors(dataDir);
  const all = readAllVectors(release.vectorsPath);
  const lists = openVectorLists(release.vectorsPath, all.dimension, { probe });
  const ids = release.sampleConceptIds(sample);
  const kinds = { 'own vector': { hits: 0, asked: 0 }, 'name alone': { hits: 0, asked: 0 }, 'name less its last word': { hits: 0, asked: 0 } };
  let ownFirst = 0;
  const times: number[] = [];
  for (const id of ids) {
    const texts = release.index.entriesOfConcepts([id]);
    const name = texts.find((e) => !e.is_synonym)?.text ?? texts[0]!.text;
    const words = name.split(/\s+/);
    const queries: Array<[keyof typeof kinds, Float32Array]> = [
      ['own vector', await release.conceptVector(id)],
      ['name alone', await release.textVector(name)],
    ];
    if (words.length > 1) queries.push(['name less its last word', await release.textVector(words.slice(0, -1).join(' '))]);
    for (const [kind, vector] of queries) {
      const q = quantizeVector(vector);
      const truth = exactSearch(all.vectors, q, all.dimension, k, MetricKind.Cos, 2);
      const kth = truth.distances[k - 1]!;
      const t = performance.now();
      const found = lists.search(q, k);
      times.push(performance.now() - t);
      let hits = 0;
      for (let i = 0; i < found.keys.length; i++) if (found.distances[i]! <= kth + 1e-6) hits++;
      kinds[kind].hits += hits;
      kinds[kind].asked += k;
      if (kind === 'own vector' && found.distances[0]! <= truth.distances[0]! + 1e-6) ownFirst++;
    }
  }
  times.sort((a, b) => a - b);
  const q = (p: number): string => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(2);
  console.log(
    `${release.label}: ${lists.size.toLocaleString('en-US')} vectors in ${lists.lists.toLocaleString('en-US')} lists, ${lists.probe} read per search; ` +
      `${ids.length} concepts sampled, k = ${k}`,
  );
  for (const [kind, r] of Object.entries(kinds)) if (r.asked) console.log(`  ${kind}: recall@${k} ${((100 * r.hits) / r.asked).toFixed(2)} % (${r.asked / k} queries)`);
  console.log(`  own vector found first (or tied with the first): ${((100 * ownFirst) / ids.length).toFixed(2)} %`);
  console.log(`  search time: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms over ${times.length} searches`);
  lists.close();
  await release.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
