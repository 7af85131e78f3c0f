/**
 * The browser's vocabulary pages (issue 23): GET /vocabularies/SNOMED (E5 statistics with every section, charts
 * drawn by the server), GET /vocabularies (the list with counts) and GET /mapping-quality?source=ICD10CM&target=SNOMED
 * (E10 report with every section plus the coverage), and the statistics page of the next largest vocabularies.
 * Pages are admitted by the session cookie: the harness signs in once and passes it as `ctx.pageHeaders`.
 */
import { cycle, type BenchContext, type BenchRequest, type Scenario } from '../lib/scenario.js';

/** The harness's page session (`{ cookie }`), added to BenchContext by the harness; absent, the pages answer 303. */
type PageBenchContext = BenchContext & { pageHeaders?: Record<string, string> };

const scenario: Scenario = {
  name: 'page-vocabulary',
  description: 'GET /vocabularies/SNOMED, /vocabularies, /mapping-quality?source=ICD10CM&target=SNOMED and 4 other vocabulary pages (HTML, session cookie)',
  prepare(context) {
    const ctx = context as PageBenchContext;
    const headers = { accept: 'text/html', ...(ctx.pageHeaders ?? {}) };
    const largest = ctx
      .sample<{ vocabulary_id: string; n: number }>(
        "SELECT vocabulary_id, sum(concept_count) AS n FROM concept_summary WHERE vocabulary_id NOT IN ('CPT4', 'GPI', 'MedDRA', 'SNOMED') GROUP BY vocabulary_id",
        1000,
      )
      .sort((a, b) => b.n - a.n)
      .slice(0, 4);
    const requests: BenchRequest[] = [];
    // SNOMED, the list and the frequent pair make up three quarters of the requests.
    for (let i = 0; i < Math.max(1, largest.length); i++) {
      requests.push({ path: '/vocabularies/SNOMED', headers });
      requests.push({ path: '/vocabularies', headers });
      requests.push({ path: '/mapping-quality?source=ICD10CM&target=SNOMED', headers });
      const other = largest[i];
      if (other) requests.push({ path: `/vocabularies/${encodeURIComponent(other.vocabulary_id)}`, headers });
    }
    return cycle(requests, ctx.random);
  },
};
export default scenario;
