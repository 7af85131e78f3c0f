/**
 * GET /v1/domains/Drug/concepts at the middle page of the largest domain (about 1M concepts before
 * it at full scale): a deep page is a seek on (segment, position) in domain_concept_order, so it
 * should cost what page 1 costs (metadata-domain-concepts).
 */
import type { Scenario } from '../lib/scenario.js';

const PAGE_SIZE = 50;

const scenario: Scenario = {
  name: 'metadata-domain-concepts-deep',
  description: 'GET /v1/domains/Drug/concepts?page_size=50 at the middle page of Drug',
  prepare(ctx) {
    const drugConcepts = ctx.store
      .prepare("SELECT coalesce(sum(concept_count), 0) FROM concept_summary WHERE domain_id = 'Drug' AND is_invalid = 0")
      .pluck()
      .get() as number;
    const middle = Math.max(1, Math.floor(drugConcepts / PAGE_SIZE / 2));
    return () => ({ path: `/v1/domains/Drug/concepts?page_size=${PAGE_SIZE}&page=${middle}` });
  },
};
export default scenario;
