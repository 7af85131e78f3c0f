/**
 * What one term costs the shared candidate ranking (rankCandidates, top-10) on one core: source-like texts made from
 * sampled concept names (lower-cased, the last word dropped, words reordered), timed per term, with candidate counts.
 *
 *   npx tsx bench/tools/ranking-cost.ts DATA_DIR [--terms N]
 */
import { LicenceRules } from '../../src/licences/licence-rules.js';
import { ReleaseView } from '../../src/services/release-view.js';
import { createLexicalScorer } from '../../src/services/semantic/lexical-similarity.js';
import { gatherCandidates, rankGathered, type RankingContext } from '../../src/services/semantic/ranked-candidates.js';
import { SemanticIndexRegistry } from '../../src/services/semantic/semantic-index-registry.js';
import { UNIFORM_IDF } from '../../src/search-model/semantic/lexicon/sparse-features.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { openReleaseVectors } from './release-vectors.js';
import { numberOption } from '../lib/tool-options.js';

/** "Type 2 diabetes mellitus" → "mellitus diabetes type" (reordered, lower case, one word fewer): a name no concept has. */
function sourceLike(name: string, i: number): string {
  const words = name.toLowerCase().split(/\s+/);
  if (words.length > 2) words.pop();
  return (i % 2 ? words.reverse() : words).join(' ');
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: ranking-cost.ts DATA_DIR [--terms N]');
  const terms = numberOption('--terms', 500);
  const build = listReleaseBuilds(dataDir)[0]!;
  const store = openSqliteRelease(build);
  const vectors = await openReleaseVectors(dataDir);
  const registry = new SemanticIndexRegistry({ choice: { kind: 'lexicon' }, openIndex: openSqliteSemanticIndex, recheckIntervalMs: 0, retireDelayMs: 0 });
  const lookup = await registry.get({ label: build.label, build });
  if (!lookup.ok) throw new Error(lookup.message);
  const lexical = createLexicalScorer(lookup.idf ?? UNIFORM_IDF);
  const ctx: RankingContext = {
    view: new ReleaseView(store, new LicenceRules(null)),
    index: lookup.index,
    provider: lookup.provider,
    lexical: (q, t) => lexical.score(q, t),
  };
  const names = store.concepts.byIds(vectors.sampleConceptIds(terms)).map((c, i) => sourceLike(c.concept_name, i));
  for (const text of names.slice(0, 20)) rankGathered(await gatherCandidates(ctx, { text, filters: {}, k: 10 })); // warm-up
  const times: number[] = [];
  const cpuStart = process.cpuUsage();
  const wallStart = performance.now();
  let candidates = 0;
  let texts = 0;
  /** Every distinct candidate text of the run: how often a job meets a text again (what a text cache could save). */
  const distinct = new Set<string>();
  for (const text of names) {
    const started = performance.now();
    const gathered = await gatherCandidates(ctx, { text, filters: {}, k: 10 });
    rankGathered(gathered).slice(0, 10);
    times.push(performance.now() - started);
    candidates += gathered.candidates.length;
    texts += gathered.candidates.reduce((s, c) => s + c.texts.length, 0);
    for (const c of gathered.candidates) for (const t of c.texts) distinct.add(t.text);
  }
  const cpu = process.cpuUsage(cpuStart);
  const cpuPerTerm = (cpu.user + cpu.system) / 1000 / names.length;
  const wallTotal = performance.now() - wallStart;
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(
    `${build.label}: ${lookup.index.meta.conceptCount.toLocaleString('en-US')} vectors; ${names.length} terms, top-10: ` +
      `mean ${mean.toFixed(2)} ms, p50 ${percentile(times, 0.5).toFixed(2)} ms, p95 ${percentile(times, 0.95).toFixed(2)} ms per term; ` +
      `CPU ${cpuPerTerm.toFixed(2)} ms per term (the process's CPU time over the run, ${(wallTotal / 1000).toFixed(1)} s wall: on a busy machine wall time overstates); ` +
      `${(candidates / names.length).toFixed(0)} candidates and ${(texts / names.length).toFixed(0)} texts scored per term; ${((100 * distinct.size) / Math.max(1, texts)).toFixed(0)} % of the texts scored were distinct over the run`,
  );
  await vectors.close();
  await registry.close();
  store.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
