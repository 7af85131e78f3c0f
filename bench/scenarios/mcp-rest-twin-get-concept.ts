/** GET /v1/concepts/{id} for exactly the concept ids mcp-get-concept asks for, in the same order: its REST baseline. */
import { mcpBenchConceptIds } from '../lib/mcp-inputs.js';
import type { Scenario } from '../lib/scenario.js';

const scenario: Scenario = {
  name: 'mcp-rest-twin-get-concept',
  description: 'GET /v1/concepts/{concept_id}, the concept ids of mcp-get-concept (the REST baseline of the MCP tool call)',
  prepare(ctx) {
    const ids = mcpBenchConceptIds(ctx);
    let n = 0;
    return () => {
      n++;
      return { path: `/v1/concepts/${ids[n % ids.length]}` };
    };
  },
};
export default scenario;
