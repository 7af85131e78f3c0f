/**
 * Times concept-set resolution in-process on a loaded release, without HTTP: `npx tsx bench/tools/concept-set-timing.ts
 * DATA_DIR [LABEL]` prints p50 / p95 / max of typical phenotypes (page + summary) and of 20 large hierarchies
 * (ids only), with the CPU time of each request (wall time on a busy machine overstates it) and the longest synchronous
 * slice each request held the event loop.
 */
import Database from 'better-sqlite3';
import { ReleaseView } from '../../src/services/release-view.js';
import { resolveConceptSetIds, resolveConceptSetPage } from '../../src/services/concept-sets/concept-set-operations.js';
import { readExpression } from '../../src/services/concept-sets/expression-formats.js';
import type { ConceptSetScope } from '../../src/services/concept-sets/resolve.js';
import { effectiveDefaultLabel, listReleaseBuilds } from '../../src/store/data-dir.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { largeHierarchyExpressions, phenotypeExpressions } from '../lib/concept-set-inputs.js';

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: concept-set-timing.ts DATA_DIR [LABEL]');
  const builds = listReleaseBuilds(dataDir);
  const label = process.argv[3] ?? effectiveDefaultLabel(dataDir, builds);
  const build = builds.find((b) => b.label === label);
  if (!build) throw new Error(`release ${label} is not loaded in ${dataDir}`);
  const store = openSqliteRelease(build);
  const scope: ConceptSetScope = ReleaseView.of(store, null, build.label);
  const db = new Database(build.storePath, { readonly: true });
  const random = seeded(22);
  const workloads = [
    { name: 'typical phenotype, page of 100 + summary', expressions: phenotypeExpressions(db, random, 60), idsOnly: false },
    { name: '20 large hierarchies, ids_only', expressions: largeHierarchyExpressions(db, random, 20), idsOnly: true },
  ];
  db.close();
  for (const w of workloads) {
    const times: number[] = [];
    const cpuTimes: number[] = [];
    const slices: number[] = [];
    const sizes: number[] = [];
    for (const [i, e] of w.expressions.entries()) {
      const expression = readExpression(e);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const result = w.idsOnly ? await resolveConceptSetIds(scope, expression) : await resolveConceptSetPage(scope, expression, { offset: 0, limit: 100 });
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      if (i >= 3) {
        // the first few warm the page cache
        times.push(ms);
        cpuTimes.push((used.user + used.system) / 1000);
        slices.push(result.timing.longest_synchronous_slice_ms);
        sizes.push('total' in result ? result.total : result.summary.total);
      }
    }
    console.log(
      `${w.name}: ${times.length} requests, resolved concepts p50 ${quantile(sizes, 0.5)} (max ${Math.max(...sizes)}); ` +
        `latency p50 ${fmt(quantile(times, 0.5))}, p95 ${fmt(quantile(times, 0.95))}, max ${fmt(Math.max(...times))}; CPU time p50 ${fmt(quantile(cpuTimes, 0.5))}, p95 ${fmt(quantile(cpuTimes, 0.95))}; ` +
        `longest synchronous slice p50 ${fmt(quantile(slices, 0.5))}, max ${fmt(Math.max(...slices))}`,
    );
  }
  store.close();
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
