/**
 * /mcp behind the gate (docs/mcp.md, docs/security.md): a missing or bad key and a rate-limited key get the REST
 * surface's documented errors; an OAuth access token is a key here as on /fhir; every tool call is one metered call (not
 * every HTTP request) and a used-up quota is a tool error; sessions belong to their key; a wrong Origin or Host is
 * refused with 403 (DNS rebinding).
 */
import https from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { rawRequest, startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';
import { connectHttp, structuredOf, toolErrorOf } from './mcp-clients.js';

let t: TestServer;
let previousTlsSetting: string | undefined;

beforeAll(async () => {
  // The SDK's fetch-based client cannot trust one self-signed certificate; this file runs in its own forked worker.
  previousTlsSetting = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
});

afterAll(async () => {
  await t?.close();
  if (previousTlsSetting === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previousTlsSetting;
});

const MCP_ACCEPT = 'application/json, text/event-stream';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-test', version: '1' } },
};

function post(body: unknown, headers: Record<string, string> = {}, key: string | null = t.key): Promise<TestResponse> {
  return rawRequest(`${t.url}/mcp`, {
    method: 'POST',
    body,
    headers: { accept: MCP_ACCEPT, ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
  });
}

async function initialize(key: string): Promise<string> {
  const res = await post(INITIALIZE, {}, key);
  expect(res.status, res.text).toBe(200);
  return String(res.headers['mcp-session-id']);
}

describe('/mcp authentication', () => {
  it('without a key: 401 missing_api_key, the REST error envelope', async () => {
    const res = await post(INITIALIZE, {}, null);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('missing_api_key');
    expect(res.headers['www-authenticate']).toContain('Bearer');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('with a bad key: 401 invalid_api_key, and the SDK client fails to connect', async () => {
    const res = await post(INITIALIZE, {}, 'oh_not_a_key');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
    await expect(connectHttp(t.url, 'oh_not_a_key')).rejects.toThrow(/401|invalid_api_key|Unauthorized/i);
  });

  it('a revoked key is refused on its open session', async () => {
    const key = await t.createKey({ name: 'mcp-revoked' });
    const mcp = await connectHttp(t.url, key);
    await t.server.state.revokeKey('mcp-revoked');
    await expect(mcp.client.callTool({ name: 'list_releases', arguments: {} })).rejects.toThrow(/401|invalid_api_key/);
    await mcp.client.close();
  });

  it('accepts an OAuth 2.0 access token as the key (as on /fhir)', async () => {
    const keys = await t.server.state.listKeys();
    const { record, secret } = await t.server.state.createClient({ key: keys[0]!.id, token_lifetime_seconds: 600 });
    const token = await t.server.state.issueAccessToken(record.client_id, secret);
    const mcp = await connectHttp(t.url, token!.access_token);
    const result = (await mcp.client.callTool({ name: 'list_releases', arguments: {} })) as CallToolResult;
    expect(structuredOf(result).data).toMatchObject({ default_release: '2025.2' });
    await mcp.close();
  });
});

describe('/mcp limits and metering', () => {
  it('a rate-limited key gets 429 rate_limit_exceeded with Retry-After, the REST error', async () => {
    const key = await t.createKey({ rate_per_second: 1 });
    const answers = await Promise.all([0, 1, 2, 3].map(() => post(INITIALIZE, {}, key)));
    const limited = answers.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.body.error.code).toBe('rate_limit_exceeded');
    expect(limited[0]!.body.error.message).toMatch(/^Rate limit exceeded: this key allows 1 requests per second/);
    expect(limited[0]!.headers['retry-after']).toBeTruthy();
    const rest = await t.request('/v1/vocabularies', { key });
    expect(rest.status).toBe(429);
    expect(rest.body.error.code).toBe(limited[0]!.body.error.code);
  });

  it('meters one call per tool call, not per HTTP request, and a used-up quota is a tool error', async () => {
    const key = await t.createKey({ name: 'mcp-quota', monthly_quota: 3 });
    const keyId = (await t.server.state.listKeys()).find((k) => k.name === 'mcp-quota')!.id;
    const month = new Date().toISOString().slice(0, 7);
    const mcp = await connectHttp(t.url, key);
    await mcp.client.listTools();
    await mcp.client.listPrompts();
    // initialize, initialized, tools/list and prompts/list are four HTTP requests and no call.
    expect(await t.server.state.usageOf(keyId, month)).toBe(0);
    for (let i = 1; i <= 3; i++) {
      structuredOf((await mcp.client.callTool({ name: 'get_concept', arguments: { concept_id: 201826 } })) as CallToolResult);
      expect(await t.server.state.usageOf(keyId, month)).toBe(i);
    }
    const refused = toolErrorOf((await mcp.client.callTool({ name: 'get_concept', arguments: { concept_id: 201826 } })) as CallToolResult);
    expect(refused.code).toBe('monthly_quota_exceeded');
    expect(refused.message).toMatch(/^Monthly quota exhausted: this key has used all 3 calls of the current month/);
    const rest = await t.request('/v1/concepts/201826', { key });
    expect(rest.status).toBe(429);
    expect(rest.body.error.code).toBe('monthly_quota_exceeded');
    await mcp.close();
  });
});

describe('/mcp sessions', () => {
  it('answers initialize with a session id; a request without one is 400; DELETE ends it (then 404)', async () => {
    const session = await initialize(t.key);
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const noSession = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(noSession.status).toBe(400);
    const listed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools.length).toBeGreaterThan(11);
    const deleted = await rawRequest(`${t.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${t.key}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } });
    expect(deleted.status).toBe(200);
    const after = await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': session });
    expect(after.status).toBe(404);
  });

  it('GET opens the session\'s event stream (text/event-stream), which the client may close', async () => {
    const session = await initialize(t.key);
    const head = await new Promise<{ status: number; type: string }>((resolve, reject) => {
      const req = https.get(
        `${t.url}/mcp`,
        { rejectUnauthorized: false, agent: false, headers: { authorization: `Bearer ${t.key}`, accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } },
        (res) => {
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? '') });
          req.destroy();
        },
      );
      req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    });
    expect(head).toEqual({ status: 200, type: 'text/event-stream' });
    // The session still answers after its stream was dropped.
    const listed = await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
    expect(listed.status).toBe(200);
  });

  it('refuses a JSON-RPC batch (one message per request, so the rate limit counts calls)', async () => {
    const session = await initialize(t.key);
    const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_releases', arguments: {} } });
    const res = await post([call(2), call(3)], { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/batches are not accepted/);
  });

  it("a session is its key's: another key using its id gets 404, as for an unknown session", async () => {
    const session = await initialize(t.key);
    const other = await t.createKey();
    const res = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }, other);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Session not found');
  });
});

describe('/mcp header validation', () => {
  it('refuses a POST whose Accept lacks text/event-stream (406) and an unsupported MCP-Protocol-Version (400)', async () => {
    const notAcceptable = await post(INITIALIZE, { accept: 'application/json' });
    expect(notAcceptable.status).toBe(406);
    expect(notAcceptable.body.jsonrpc).toBe('2.0');
    const session = await initialize(t.key);
    const badVersion = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' });
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.error.message).toContain('Unsupported protocol version');
  });
});

describe('/mcp DNS-rebinding protection', () => {
  it("refuses a foreign Origin with 403, and accepts the server's own origin and local pages", async () => {
    const foreign = await post(INITIALIZE, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.message).toBe('Invalid Origin header: https://evil.example');
    const own = await post(INITIALIZE, { origin: `https://127.0.0.1:${t.port}` });
    expect(own.status).toBe(200);
    // The server listens on loopback: a page on this machine (a loopback name, any scheme or port) may call it.
    const local = await post(INITIALIZE, { origin: 'http://localhost:3000' });
    expect(local.status).toBe(200);
    const opaque = await post(INITIALIZE, { origin: 'null' });
    expect(opaque.status).toBe(403);
  });

  it('refuses a Host that is not a loopback name on a server listening on loopback', async () => {
    const res = await post(INITIALIZE, { host: `evil.example:${t.port}` });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(`Invalid Host header: evil.example:${t.port}`);
    const localhost = await post(INITIALIZE, { host: `localhost:${t.port}` });
    expect(localhost.status).toBe(200);
  });
});
