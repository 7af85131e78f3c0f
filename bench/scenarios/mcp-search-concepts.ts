/** MCP tools/call search_concepts (page_size 10) for the queries of mcp-rest-twin-search-concepts: the MCP cost on a search. */
import { mcpBenchQueries } from '../lib/mcp-inputs.js';
import { toolCallBody } from '../lib/mcp-session.js';
import type { Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'mcp-search-concepts',
  description: 'POST /mcp tools/call search_concepts, page_size 10, the two-word queries of mcp-rest-twin-search-concepts',
  prepare(ctx) {
    if (!ctx.mcpHeaders) throw new Error('no MCP session');
    const queries = mcpBenchQueries(ctx);
    const headers = ctx.mcpHeaders;
    let n = 0;
    return () => {
      n++;
      return { method: 'POST', path: '/mcp', headers, body: toolCallBody(n, 'search_concepts', { query: queries[n % queries.length], page_size: 10 }) };
    };
  },
};
export default scenario;
