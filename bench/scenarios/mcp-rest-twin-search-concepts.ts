/** GET /v1/search/concepts (page_size 10) for exactly the queries of mcp-search-concepts: its REST baseline. */
import { mcpBenchQueries } from '../lib/mcp-inputs.js';
import type { Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'mcp-rest-twin-search-concepts',
  description: 'GET /v1/search/concepts?page_size=10, the queries of mcp-search-concepts (the REST baseline of the MCP tool call)',
  prepare(ctx) {
    const queries = mcpBenchQueries(ctx);
    let n = 0;
    return () => {
      n++;
      return { path: `/v1/search/concepts?query=${encodeURIComponent(queries[n % queries.length]!)}&page_size=10` };
    };
  },
};
export default scenario;
