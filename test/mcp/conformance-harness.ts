/**
 * The MCP conformance suite (@modelcontextprotocol/conformance, server mode) against a running test server's /mcp: the
 * suite's client speaks plain HTTP without credentials, so a local forwarder adds the API key and the TLS hop and
 * passes every other header (Host and Origin included, for the DNS-rebinding scenario) through unchanged.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
/** The suite's command-line entry (its package exports only the CLI). */
export const CONFORMANCE_CLI = join(dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');

export interface Forwarder {
  url: string;
  close(): Promise<void>;
}

/** http://localhost:<port>/mcp → https://127.0.0.1:<serverPort>/mcp with `Authorization: Bearer <key>`. */
export async function startKeyForwarder(serverPort: number, key: string): Promise<Forwarder> {
  const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false });
  const server = http.createServer((req, res) => {
    const upstream = https.request(
      { host: '127.0.0.1', port: serverPort, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${key}` }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`forwarder: ${err.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://localhost:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        agent.destroy();
      }),
  };
}

export interface ScenarioRun {
  scenario: string;
  status: number;
  output: string;
}

/** Runs one server scenario of the suite (asynchronously: the server under test runs in this process). */
export function runScenario(url: string, scenario: string, timeoutMs = 60_000): Promise<ScenarioRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CONFORMANCE_CLI, 'server', '--url', url, '--scenario', scenario], { timeout: timeoutMs, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const status = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : -1) : 0;
      resolve({ scenario, status, output: `${stdout}${stderr}` });
    });
  });
}
