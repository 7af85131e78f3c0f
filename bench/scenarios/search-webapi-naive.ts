/**
 * Comparison with the naive search of OHDSI WebAPI on the same store: `LOWER(concept_name) LIKE
 * '%q%' ORDER BY concept_name` (a full scan of CONCEPT per query). prepare() times that SQL on the
 * benchmark's read-only store for a small query mix (one run each: it takes seconds), prints the
 * table and writes it to bench/results/latest-search-webapi-naive.md; the scenario itself then drives
 * GET /v1/search/concepts with the same queries, so the report row is omopterm's latency for them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cycle, type Scenario } from '../lib/scenario.js';
import { multiWordQueries, rareWords, searchRequest, veryCommonWords, wordParts } from '../lib/search-queries.js';

const scenario: Scenario = {
  name: 'search-webapi-naive',
  description: "GET /v1/search/concepts for the queries timed with WebAPI's naive LIKE search (see bench/results/latest-search-webapi-naive.md)",
  prepare(ctx) {
    const queries = [
      ['very common word', veryCommonWords(ctx, 1)[0]!],
      ['rare word', rareWords(ctx, 1)[0]!],
      ['multi-word', multiWordQueries(ctx, 1)[0]!],
      ['substring', wordParts(ctx, 1)[0]!],
    ].filter(([, q]) => q) as Array<[string, string]>;
    const naive = ctx.store.prepare(
      `SELECT concept_id, concept_name, vocabulary_id FROM concept WHERE LOWER(concept_name) LIKE ? ORDER BY concept_name LIMIT 20 OFFSET 0`,
    );
    const count = ctx.store.prepare(`SELECT count(*) FROM concept WHERE LOWER(concept_name) LIKE ?`).pluck();
    const lines = ['| query kind | query | WebAPI naive page (ms) | WebAPI naive count (ms) |', '|---|---|---:|---:|'];
    for (const [kind, q] of queries) {
      const pattern = `%${q.toLowerCase()}%`;
      let t = process.hrtime.bigint();
      naive.all(pattern);
      const pageMs = Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      count.get(pattern);
      const countMs = Number(process.hrtime.bigint() - t) / 1e6;
      lines.push(`| ${kind} | ${q} | ${pageMs.toFixed(0)} | ${countMs.toFixed(0)} |`);
    }
    const text = `WebAPI naive search on the same store (release ${ctx.release}); omopterm's latency for these queries is the search-webapi-naive row of the benchmark table.\n\n${lines.join('\n')}\n`;
    process.stderr.write(`[bench] ${text}`);
    try {
      const dir = new URL('../results/', import.meta.url);
      mkdirSync(dir, { recursive: true });
      writeFileSync(new URL('latest-search-webapi-naive.md', dir), text);
    } catch {
      // the table is on stderr anyway
    }
    return cycle(
      queries.map(([, q]) => searchRequest(q)),
      ctx.random,
    );
  },
};
export default scenario;
