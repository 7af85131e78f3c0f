/**
 * An MCP session for the MCP scenarios: initialize at /mcp with the bench key, then the initialized notification; returns
 * the headers every later request of the session sends (Mcp-Session-Id, the protocol version, the Accept MCP requires).
 */
import https from 'node:https';

export const MCP_BENCH_PROTOCOL_VERSION = '2025-06-18';

function post(url: string, apiKey: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      {
        method: 'POST',
        rejectUnauthorized: false,
        agent: false,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': String(Buffer.byteLength(payload)),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export async function mcpSessionHeaders(baseUrl: string, apiKey: string): Promise<Record<string, string>> {
  const init = await post(`${baseUrl}/mcp`, apiKey, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: MCP_BENCH_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'omopterm-bench', version: '1' } },
  });
  const session = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof session !== 'string') throw new Error(`MCP initialize failed with status ${init.status}: ${init.text.slice(0, 200)}`);
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': MCP_BENCH_PROTOCOL_VERSION, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const initialized = await post(`${baseUrl}/mcp`, apiKey, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  if (initialized.status !== 202) throw new Error(`MCP initialized notification failed with status ${initialized.status}`);
  return headers;
}

/** A tools/call request body; every request of a session needs its own JSON-RPC id. */
export function toolCallBody(id: number, name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
}
