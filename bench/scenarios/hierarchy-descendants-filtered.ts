/**
 * GET /v1/concepts/{id}/descendants of the largest ancestors with domain_ids (the filter keeps part
 * of each level, so rows are read with their concepts): page 1 and a middle page, exact total.
 */
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';

const PAGE_SIZE = 100;

const scenario: Scenario = {
  name: 'hierarchy-descendants-filtered',
  description: 'GET /v1/concepts/{id}/descendants?domain_ids=<its second domain> of the 10 largest ancestors: page 1 and a middle page',
  prepare(ctx) {
    const roots = ctx.store
      .prepare(
        `SELECT ancestor_concept_id AS id, sum(descendant_count) AS n FROM hierarchy_descendant_facet
          WHERE is_valid = 1 AND min_levels_of_separation <= 10 GROUP BY 1 ORDER BY n DESC LIMIT 10`,
      )
      .all() as Array<{ id: number; n: number }>;
    const domainsOf = ctx.store.prepare(
      `SELECT domain_id AS domain, sum(descendant_count) AS n FROM hierarchy_descendant_facet
        WHERE ancestor_concept_id = ? AND is_valid = 1 AND min_levels_of_separation <= 10 AND domain_id IS NOT NULL GROUP BY 1 ORDER BY n DESC`,
    );
    const requests: BenchRequest[] = [];
    for (const { id } of roots) {
      const domains = domainsOf.all(id) as Array<{ domain: string; n: number }>;
      const { domain, n } = domains[1] ?? domains[0]!;
      const middle = Math.max(1, Math.floor(n / PAGE_SIZE / 2));
      for (const page of [1, middle]) {
        requests.push({ path: `/v1/concepts/${id}/descendants?domain_ids=${encodeURIComponent(domain)}&page=${page}&page_size=${PAGE_SIZE}` });
      }
    }
    return cycle(requests, ctx.random);
  },
};
export default scenario;
