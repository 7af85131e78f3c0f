/**
 * Semantic search, first time: GET /v1/search/semantic with up to 20,000 different queries (first
 * words of standard concept names, common word pairs, rare words), so that no request repeats
 * within a run of the default length and no per-query cache has the answer.
 */
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';
import { commonWordPairs, multiWordQueries, rareWords } from '../lib/search-queries.js';
import { semanticSearchRequest, shuffled } from '../lib/semantic-requests.js';

const POOL = 20_000;

const scenario: Scenario = {
  name: 'semantic-search-unseen',
  description: `GET /v1/search/semantic with up to ${POOL.toLocaleString('en')} different never-seen queries (name beginnings, common word pairs, rare words)`,
  prepare(ctx) {
    const queries = [...multiWordQueries(ctx, POOL * 0.5), ...commonWordPairs(ctx, POOL * 0.25), ...rareWords(ctx, POOL * 0.25)];
    const seen = new Set<string>();
    const requests: BenchRequest[] = [];
    for (const q of queries) {
      const key = q.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      requests.push(semanticSearchRequest(q));
    }
    return cycle(shuffled(requests, ctx.random), ctx.random);
  },
};
export default scenario;
