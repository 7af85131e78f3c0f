/**
 * GET /concepts/{id} signed in: the browser's concept page of hub concepts, the 20 concepts with the most
 * relationships among 20,000 sampled ones (picked as relationships-hub.ts picks them): the page as it opens, the page
 * with the largest relationship group open (its first and last page), and the last page of its "Mapped from" list.
 */
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';

const HUBS = 20;
/** The concept page's page sizes (src/http/pages/concept-page.tsx). */
const RELATIONSHIP_PAGE_SIZE = 20;
const MAPPED_FROM_PAGE_SIZE = 20;

const scenario: Scenario = {
  name: 'page-concept-hub',
  description: `GET /concepts/{id} (browser concept page) of the ${HUBS} concepts with most relationships among 20,000 sampled: as opened, largest group open (first and last page), last Mapped from page`,
  prepare(ctx) {
    if (!ctx.pageHeaders) throw new Error('no browser session (the harness signs in before preparing page scenarios)');
    const headers = ctx.pageHeaders;
    const count = ctx.store.prepare('SELECT count(*) AS n FROM concept_relationship WHERE concept_id_1 = ?');
    const largest = ctx.store.prepare(
      'SELECT relationship_id, count(*) AS n FROM concept_relationship WHERE concept_id_1 = ? AND invalid_reason IS NULL GROUP BY relationship_id ORDER BY n DESC LIMIT 1',
    );
    const mappedFrom = ctx.store.prepare(
      "SELECT count(*) AS n FROM concept_relationship WHERE concept_id_1 = ? AND relationship_id IN ('Mapped from', 'Value mapped from') AND invalid_reason IS NULL",
    );
    const hubs = ctx
      .sample<{ concept_id: number }>('SELECT concept_id FROM concept', 20_000)
      .map((r) => ({ id: r.concept_id, n: (count.get(r.concept_id) as { n: number }).n }))
      .sort((a, b) => b.n - a.n)
      .slice(0, HUBS);
    const requests: BenchRequest[] = hubs.flatMap(({ id }) => {
      const page = `/concepts/${id}`;
      const out: BenchRequest[] = [{ path: page, headers }];
      const group = largest.get(id) as { relationship_id: string; n: number } | undefined;
      if (group) {
        const rel = encodeURIComponent(group.relationship_id);
        out.push({ path: `${page}?rel=${rel}`, headers });
        out.push({ path: `${page}?rel=${rel}&rel_page=${Math.max(1, Math.ceil(group.n / RELATIONSHIP_PAGE_SIZE))}`, headers });
      }
      const sources = (mappedFrom.get(id) as { n: number }).n;
      if (sources > MAPPED_FROM_PAGE_SIZE) out.push({ path: `${page}?mapped_from_page=${Math.ceil(sources / MAPPED_FROM_PAGE_SIZE)}`, headers });
      return out;
    });
    return cycle(requests, ctx.random);
  },
};
export default scenario;
