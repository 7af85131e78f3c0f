/**
 * What a hand-over to a worker thread costs against computing here (the thresholds of src/threads/ and the concept-set
 * routes): for concept-set expressions of n plain items (no descendants, no mappings) and for typical phenotypes, the
 * time to resolve in this thread, the round trip through a WorkerPool thread, and the time the round trip kept this
 * thread busy (event-loop utilisation: the copy of the arguments and of the result).
 *
 *   node --expose-gc --import tsx bench/tools/pool-hop-cost.ts DATA_DIR [--reps N]
 *
 * (with --expose-gc a collection runs before each round trip, so that it does not count the garbage of earlier work)
 */
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { LicenceRules } from '../../src/licences/licence-rules.js';
import { readExpression } from '../../src/services/concept-sets/expression-formats.js';
import { ReleaseView } from '../../src/services/release-view.js';
import { SemanticIndexRegistry } from '../../src/services/semantic/semantic-index-registry.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { runOperation } from '../../src/threads/heavy-operations.js';
import { WorkerPool } from '../../src/threads/worker-pool.js';
import { phenotypeExpressions } from '../lib/concept-set-inputs.js';
import { numberOption } from '../lib/tool-options.js';

const collectGarbage = (globalThis as { gc?: () => void }).gc;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error('usage: pool-hop-cost.ts DATA_DIR [--reps N]');
  const reps = numberOption('--reps', 40);
  const build = listReleaseBuilds(dataDir)[0]!;
  const store = openSqliteRelease(build);
  const view = new ReleaseView(store, new LicenceRules('2099-12-31'), build.label, build);
  const semanticIndexes = new SemanticIndexRegistry({ choice: { kind: 'lexicon' }, openIndex: openSqliteSemanticIndex });
  const pool = new WorkerPool({ threads: 1, semanticIndexes });
  pool.retain([build]);
  while (pool.idle < 1) await new Promise((r) => setTimeout(r, 50));

  const db = new Database(build.storePath, { readonly: true });
  const ids = db.prepare("SELECT concept_id FROM concept WHERE invalid_reason IS NULL AND concept_id % 7 = 0 LIMIT 2000").pluck().all() as number[];
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const plain = (n: number) => readExpression({ items: Array.from({ length: n }, (_, i) => ({ concept: { CONCEPT_ID: ids[(i * 37 + n) % ids.length]! } })) });
  const phenotypes = phenotypeExpressions(db, random, reps).map((e) => readExpression(e));
  db.close();

  const cases: Array<[string, (k: number) => ReturnType<typeof plain>]> = [
    ...[1, 5, 10, 25, 50, 100, 200, 500].map((n): [string, (k: number) => ReturnType<typeof plain>] => [`${n} plain items`, () => plain(n)]),
    ['typical phenotype (20 items, descendants)', (k) => phenotypes[k % phenotypes.length]!],
  ];
  const page = { offset: 0, limit: 100 };
  process.stdout.write('| expression | here p50 ms | on a thread p50 ms (round trip) | this thread busy during the round trip p50 ms | answer bytes |\n|---|---:|---:|---:|---:|\n');
  for (const [name, expressionOf] of cases) {
    const here: number[] = [];
    const there: number[] = [];
    const busy: number[] = [];
    let bytes = 0;
    for (let k = 0; k < reps; k++) {
      const expression = expressionOf(k);
      const t = performance.now();
      const result = await runOperation('conceptSetPage', [view], { expression, page }, { semanticIndexes });
      here.push(performance.now() - t);
      bytes = JSON.stringify(result).length;
    }
    for (let k = 0; k < reps; k++) {
      const expression = expressionOf(k);
      collectGarbage?.(); // the garbage of earlier work is not this round trip's
      const before = performance.eventLoopUtilization();
      const t = performance.now();
      await pool.run('conceptSetPage', view, { expression, page });
      there.push(performance.now() - t);
      busy.push(performance.eventLoopUtilization(before).active);
    }
    process.stdout.write(`| ${name} | ${median(here).toFixed(2)} | ${median(there).toFixed(2)} | ${median(busy).toFixed(2)} | ${bytes.toLocaleString('en')} |\n`);
  }
  await pool.close();
  await semanticIndexes.close();
  store.close();
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
