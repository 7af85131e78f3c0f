/**
 * The SDK's web-standard transport in JSON-response mode (1.32.2) keeps an entry per answered POST for the life of a
 * session; /mcp drops each once answered (releaseAnsweredStreams). Without the workaround the map grows by one per
 * request — the first test shows the SDK's behaviour, so the workaround can go when an SDK release fixes it.
 */
import { describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { pendingStreamsOf, releaseAnsweredStreams } from '../../src/http/mcp-route.js';

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const CALLS = 200;

async function pendingAfterCalls(workaround: boolean): Promise<number> {
  const server = new Server({ name: 'streams-test', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 'session-1', enableJsonResponse: true });
  if (workaround) releaseAnsweredStreams(transport);
  await server.connect(transport);
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  await transport.handleRequest(new Request('http://localhost/mcp', { method: 'POST', headers: HEADERS }), { parsedBody: init });
  for (let id = 1; id <= CALLS; id++) {
    const answer = await transport.handleRequest(
      new Request('http://localhost/mcp', { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': 'session-1', 'mcp-protocol-version': '2025-06-18' } }),
      { parsedBody: { jsonrpc: '2.0', id, method: 'tools/list' } },
    );
    expect(JSON.parse(await answer.text())).toMatchObject({ id, result: { tools: [] } });
  }
  const pending = pendingStreamsOf(transport);
  await server.close();
  return pending;
}

describe('answered MCP requests are not kept by the session', () => {
  it('the SDK alone keeps one entry per answered request (the reason for the workaround)', async () => {
    expect(await pendingAfterCalls(false)).toBeGreaterThanOrEqual(CALLS);
  });

  it('with releaseAnsweredStreams, none is left once every request is answered', async () => {
    expect(await pendingAfterCalls(true)).toBe(0);
  });
});
