/**
 * `omopterm mcp` (stdio) as a desktop agent starts it: without a key, or with a bad one, it exits 1 with the reason on
 * stderr and nothing on stdout; with a key, each tool call is admitted like an HTTP call — a rate-limited key gets the
 * tool error rate_limit_exceeded with the REST message, a used-up quota monthly_quota_exceeded, every call is metered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { runCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { connectStdio, structuredOf, toolErrorOf } from './mcp-clients.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
});

afterAll(async () => {
  await t?.close();
});

describe('omopterm mcp (stdio)', () => {
  it('exits 1 without a key, naming where to give one, with nothing on stdout', () => {
    const res = runCli(['mcp', '--data-dir', t.dataDir], { OMOPTERM_API_KEY: '', OMOPTERM_MCP_KEY: '' });
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/an API key is required: give --key, or set OMOPTERM_MCP_KEY or OMOPTERM_API_KEY/);
  });

  it('exits 1 with a key that is not valid', () => {
    const res = runCli(['mcp', '--data-dir', t.dataDir, '--key', 'oh_not_a_key']);
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/the API key is not valid or has been revoked/);
  });

  it('takes the key from OMOPTERM_API_KEY', async () => {
    const mcp = await connectStdio(t.dataDir, null, { OMOPTERM_API_KEY: t.key });
    const result = (await mcp.client.callTool({ name: 'list_releases', arguments: {} })) as CallToolResult;
    expect(structuredOf(result).data).toMatchObject({ default_release: '2025.2' });
    expect(mcp.stderr()).toContain('serving MCP on stdio');
    await mcp.close();
  });

  it('a rate-limited key gets the tool error rate_limit_exceeded, with the REST message', async () => {
    const key = await t.createKey({ rate_per_second: 1 });
    const mcp = await connectStdio(t.dataDir, key);
    const results = await Promise.all([0, 1, 2, 3].map(() => mcp.client.callTool({ name: 'get_concept', arguments: { concept_id: 201826 } }) as Promise<CallToolResult>));
    const refused = results.filter((r) => r.isError).map(toolErrorOf);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.code).toBe('rate_limit_exceeded');
    expect(refused[0]!.message).toMatch(/^Rate limit exceeded: this key allows 1 requests per second\. Retry after \d+ s\.$/);
    await mcp.close();
  });

  it('meters every tool call and refuses the calls past the monthly quota', async () => {
    const key = await t.createKey({ name: 'stdio-quota', monthly_quota: 2 });
    const mcp = await connectStdio(t.dataDir, key);
    await mcp.client.listTools();
    for (let i = 0; i < 2; i++) structuredOf((await mcp.client.callTool({ name: 'get_concept', arguments: { concept_id: 201826 } })) as CallToolResult);
    const refused = toolErrorOf((await mcp.client.callTool({ name: 'get_concept', arguments: { concept_id: 201826 } })) as CallToolResult);
    expect(refused.code).toBe('monthly_quota_exceeded');
    await mcp.close();
  });
});
