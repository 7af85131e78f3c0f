/**
 * GET /v1/concepts/{id}/descendants of the concepts with the most descendants (SNOMED's top-level
 * concepts: ~310k at full size), page 1 and deep pages (middle and near the end), each with its exact
 * total; and the same with a domain filter (the filtered path: rows read with their concepts).
 */
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';

const PAGE_SIZE = 100;
const DEFAULT_MAX_LEVELS = 10;

const scenario: Scenario = {
  name: 'hierarchy-descendants-root',
  description: 'GET /v1/concepts/{id}/descendants of the 10 largest ancestors: page 1, a middle and a last-but-one page (page_size 100, exact total)',
  prepare(ctx) {
    // Descendants per large ancestor, from the facets the loader counted (valid concepts within the default 10 levels).
    const roots = ctx.store
      .prepare(
        `SELECT ancestor_concept_id AS id, sum(descendant_count) AS n FROM hierarchy_descendant_facet
          WHERE is_valid = 1 AND min_levels_of_separation <= ? GROUP BY 1 ORDER BY n DESC LIMIT 10`,
      )
      .all(DEFAULT_MAX_LEVELS) as Array<{ id: number; n: number }>;
    const requests: BenchRequest[] = [];
    for (const { id, n } of roots) {
      const pages = Math.max(1, Math.floor(n / PAGE_SIZE));
      for (const page of [1, Math.ceil(pages / 2), Math.max(1, pages - 1)]) {
        requests.push({ path: `/v1/concepts/${id}/descendants?page=${page}&page_size=${PAGE_SIZE}` });
      }
    }
    return cycle(requests, ctx.random);
  },
};
export default scenario;
