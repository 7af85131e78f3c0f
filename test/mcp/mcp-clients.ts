/**
 * MCP clients for tests, through the SDK's own Client: over stdio (the real `omopterm mcp` process, spawned as test/cli
 * spawns the CLI) and over Streamable HTTP against a running test server's /mcp.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI, REPO_ROOT } from '../helpers/cli.js';

export type TransportKind = 'stdio' | 'http';

export interface McpTestClient {
  client: Client;
  /** What the server process wrote to stderr (stdio only). */
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns `omopterm mcp --data-dir DIR --key KEY` and connects to it. */
export async function connectStdio(dataDir: string, key: string | null, env: Record<string, string> = {}): Promise<McpTestClient> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, 'mcp', '--data-dir', dataDir, ...(key === null ? [] : ['--key', key])],
    cwd: REPO_ROOT,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'omopterm-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Connects to https://…/mcp with a Bearer key (the test file must trust the server's self-signed certificate). */
export async function connectHttp(baseUrl: string, key: string, headers: Record<string, string> = {}): Promise<McpTestClient> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } } });
  const client = new Client({ name: 'omopterm-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => '',
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** The structured result of a successful call, or a failure naming the tool's error text. */
export function structuredOf(result: CallToolResult): { data: unknown; meta: { vocab_release: string | null; pagination?: Record<string, unknown>; next_page?: string } } {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent as never;
}

/** The error of a failed call: its code and message (from the JSON content). */
export function toolErrorOf(result: CallToolResult): { code: string; message: string; details?: Record<string, unknown> } {
  if (!result.isError) throw new Error(`expected a tool error, got ${JSON.stringify(result.structuredContent)}`);
  const json = (result.content as Array<{ type: string; text: string }>).find((c) => c.text.startsWith('{'));
  return (JSON.parse(json!.text) as { error: { code: string; message: string } }).error;
}
