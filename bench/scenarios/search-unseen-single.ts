/**
 * Single keyword searches the server has not seen before, each with its total (GET
 * /v1/search/concepts always counts total_results): a pool of up to 60,000 different requests
 * (39,434 at --scale 0.1; different ignoring case), so that no request repeats within a run of the
 * default length (about 13,000 requests at --scale 0.1) and no per-query result cache has the answer. The mix has rare words, the first words of concept names, common two-word searches, common
 * single words, and searches of each kind with a vocabulary, domain, class or standard filter. This is
 * the first-time cost of one search; targets at full scale: p50 ≤ 5 ms, p99 ≤ 50 ms.
 */
import { cycle, type BenchRequest, type Scenario } from '../lib/scenario.js';
import { commonWordPairs, commonWords, multiWordQueries, rareWords, searchRequest } from '../lib/search-queries.js';

const POOL = 60_000;

const FILTERS = [
  '&domain_ids=Condition',
  '&domain_ids=Drug',
  '&domain_ids=Measurement,Observation',
  '&vocabulary_ids=SNOMED',
  '&vocabulary_ids=RxNorm,RxNorm%20Extension',
  '&vocabulary_ids=LOINC&standard_concept=S',
  '&standard_concept=S',
  '&concept_class_ids=Clinical%20Finding,Disorder',
];

const scenario: Scenario = {
  name: 'search-unseen-single',
  description:
    `GET /v1/search/concepts with up to ${POOL.toLocaleString('en')} different never-seen queries and their totals ` +
    '(rare words, name beginnings, common word pairs, common words; a third with a filter)',
  prepare(ctx) {
    const share = (part: number) => Math.round(POOL * part);
    const unfiltered = [
      ...rareWords(ctx, share(0.15)),
      ...multiWordQueries(ctx, share(0.2)),
      ...commonWordPairs(ctx, share(0.2)),
      ...commonWords(ctx, share(0.1)),
    ];
    const toFilter = [...multiWordQueries(ctx, share(0.15)), ...commonWordPairs(ctx, share(0.1)), ...rareWords(ctx, share(0.1))];
    const paths = new Set<string>();
    const requests: BenchRequest[] = [];
    const add = (r: BenchRequest) => {
      const key = r.path.toLowerCase();
      if (paths.has(key)) return;
      paths.add(key);
      requests.push(r);
    };
    for (const q of unfiltered) add(searchRequest(q));
    toFilter.forEach((q, i) => add(searchRequest(q, FILTERS[i % FILTERS.length])));
    // shuffle (seeded) so that consecutive requests mix the kinds
    for (let i = requests.length - 1; i > 0; i--) {
      const j = Math.floor(ctx.random() * (i + 1));
      [requests[i], requests[j]] = [requests[j]!, requests[i]!];
    }
    return cycle(requests, ctx.random);
  },
};
export default scenario;
