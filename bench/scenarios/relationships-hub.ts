/**
 * GET /v1/concepts/{concept_id}/relationships of hub concepts: the 20 concepts with the most
 * relationships among 20,000 sampled ones (each counted through the primary key, so picking them
 * stays bounded), page 1 and their last page of 100, and page 1 with include_reverse.
 */
import { cycle, type Scenario } from '../lib/scenario.js';

const HUBS = 20;
const PAGE_SIZE = 100;

const scenario: Scenario = {
  name: 'relationships-hub',
  description: `GET /v1/concepts/{id}/relationships of the ${HUBS} concepts with most relationships among 20,000 sampled: page 1, last page, include_reverse`,
  prepare(ctx) {
    const count = ctx.store.prepare('SELECT count(*) AS n FROM concept_relationship WHERE concept_id_1 = ?');
    const hubs = ctx
      .sample<{ concept_id: number }>('SELECT concept_id FROM concept', 20_000)
      .map((r) => ({ id: r.concept_id, n: (count.get(r.concept_id) as { n: number }).n }))
      .sort((a, b) => b.n - a.n)
      .slice(0, HUBS);
    const requests = hubs.flatMap(({ id, n }) => [
      { path: `/v1/concepts/${id}/relationships?page_size=${PAGE_SIZE}` },
      { path: `/v1/concepts/${id}/relationships?page_size=${PAGE_SIZE}&page=${Math.max(1, Math.ceil(n / PAGE_SIZE))}` },
      { path: `/v1/concepts/${id}/relationships?page_size=${PAGE_SIZE}&include_reverse=true` },
    ]);
    return cycle(requests, ctx.random);
  },
};
export default scenario;
