/**
 * The startup message of `omopterm serve` names only endpoints that exist: it is derived from the
 * registered routes (src/http/advertised-endpoints.ts), so a surface appears when its routes do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { advertisedEndpoints } from '../../src/http/advertised-endpoints.js';
import { loadRelease } from '../../src/importer/load-release.js';
import { writeCoreFixture } from '../http/fixture-vocabulary.js';
import { CLI, REPO_ROOT, runCli } from '../helpers/cli.js';
import { rawRequest } from '../helpers/test-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-serve-message-'));
let child: ChildProcess | undefined;

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function startServe(): Promise<string> {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, [...CLI, 'serve', '--port', '0', '--data-dir', dataDir], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const line = err.split('\n').find((l) => l.startsWith('omopterm listening on '));
      if (line) resolve(line);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

describe('advertisedEndpoints', () => {
  const base = 'https://127.0.0.1:8443';

  it('names the REST base and the API reference when their routes exist, and no FHIR base without a /fhir route', () => {
    expect(advertisedEndpoints(base, ['/health', '/v1/concepts/:concept_id', '/docs', '/docs/*'])).toBe(
      `REST ${base}/v1, API reference ${base}/docs`,
    );
  });

  it('names each FHIR version that has a route', () => {
    expect(advertisedEndpoints(base, ['/fhir/r4/metadata'])).toBe(`FHIR ${base}/fhir/r4`);
    expect(advertisedEndpoints(base, ['/fhir/r4/metadata', '/fhir/r5/metadata'])).toBe(`FHIR ${base}/fhir/{r4,r5}`);
  });

  it('names the MCP endpoint when /mcp is registered', () => {
    expect(advertisedEndpoints(base, ['/v1/concepts/:concept_id', '/mcp', '/docs'])).toBe(`REST ${base}/v1, MCP ${base}/mcp, API reference ${base}/docs`);
    expect(advertisedEndpoints(base, ['/mcpx'])).toBe('');
  });

  it('names all four versions (Versioning rule 2) for a route with a version parameter', () => {
    expect(advertisedEndpoints(base, ['/fhir/:version/metadata'])).toBe(`FHIR ${base}/fhir/{r4,r4b,r5,r6}`);
  });

  it('is empty when nothing is registered, and does not take /v10 or /fhirx for a surface', () => {
    expect(advertisedEndpoints(base, [])).toBe('');
    expect(advertisedEndpoints(base, ['/v10/x', '/fhirx/r4/metadata', '/documentation'])).toBe('');
  });
});

describe('omopterm serve startup message', () => {
  it('lists only endpoints that answer', async () => {
    await loadRelease({ sourceDir: writeCoreFixture(), dataDir, label: '2025.2', makeDefault: true, replace: false, quiet: true });
    const created = runCli(['keys', 'create', '--name', 'message-test', '--rate', '100', '--data-dir', dataDir]);
    expect(created.status).toBe(0);
    const authorization = `Bearer ${created.stdout.trim()}`;

    const line = await startServe();
    const match = /^omopterm listening on (https:\/\/127\.0\.0\.1:\d+) \((.*)\)$/.exec(line);
    expect(match).not.toBeNull();
    const entries = match![2]!.split(', ').map((entry) => /^(REST|FHIR|MCP|API reference) (\S+)$/.exec(entry));
    expect(entries.every((e) => e !== null)).toBe(true);
    expect(entries.map((e) => e![1])).toContain('REST');
    expect(entries.map((e) => e![1])).toContain('MCP');

    for (const [, kind, url] of entries as RegExpExecArray[]) {
      if (kind === 'REST') {
        const res = await rawRequest(`${url}/vocabularies/releases`, { headers: { authorization } });
        expect(res.status).toBe(200);
      } else if (kind === 'FHIR') {
        const bases = /^(.*\/fhir\/)\{(.*)\}$/.exec(url!);
        for (const fhirBase of bases ? bases[2]!.split(',').map((v) => `${bases[1]}${v}`) : [url!]) {
          const res = await rawRequest(`${fhirBase}/metadata`, { headers: { authorization, accept: 'application/fhir+json' } });
          expect(res.status, `${fhirBase}/metadata`).toBe(200);
        }
      } else if (kind === 'MCP') {
        const res = await rawRequest(url!, {
          method: 'POST',
          headers: { authorization, accept: 'application/json, text/event-stream' },
          body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'startup-test', version: '1' } } },
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body.result.serverInfo.name).toBe('omopterm');
      } else {
        const res = await rawRequest(url!, { headers: { accept: 'text/html' } });
        expect(res.status).toBeLessThan(400);
      }
    }
  });
});
