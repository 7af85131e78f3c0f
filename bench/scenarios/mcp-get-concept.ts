/**
 * MCP tools/call get_concept over Streamable HTTP (/mcp, one session), for the same concept ids as mcp-rest-twin-get-concept:
 * the difference of their p50 is what the MCP layer adds to the REST call (docs/performance.md).
 */
import { mcpBenchConceptIds } from '../lib/mcp-inputs.js';
import { toolCallBody } from '../lib/mcp-session.js';
import type { Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'mcp-get-concept',
  description: 'POST /mcp tools/call get_concept (Streamable HTTP, JSON response), the concept ids of mcp-rest-twin-get-concept',
  prepare(ctx) {
    if (!ctx.mcpHeaders) throw new Error('no MCP session');
    const ids = mcpBenchConceptIds(ctx);
    const headers = ctx.mcpHeaders;
    let n = 0;
    return () => {
      n++;
      return { method: 'POST', path: '/mcp', headers, body: toolCallBody(n, 'get_concept', { concept_id: ids[n % ids.length] }) };
    };
  },
};
export default scenario;
