/** The browser's search page: keyword results, facet counts and the validity counts of one query, rendered as HTML. */
import { cycle, type BenchContext, type BenchRequest, type Scenario } from '../lib/scenario.js';
import { multiWordQueries } from '../lib/search-queries.js';

/** The harness signs a browser session in and passes its cookie (pages need a session, not a key). */
type PageBenchContext = BenchContext & { pageHeaders?: Record<string, string> };

const scenario: Scenario = {
  name: 'page-search',
  description: 'GET /search?q=<first 2–3 words of one of 200 standard concept names> (HTML page: results, facets, paging)',
  prepare: (ctx: PageBenchContext) =>
    cycle(
      multiWordQueries(ctx).map((q): BenchRequest => ({ path: `/search?q=${encodeURIComponent(q)}`, headers: { accept: 'text/html', ...ctx.pageHeaders } })),
      ctx.random,
    ),
};
export default scenario;
