/**
 * The README's first command ends in `omopterm demo`: it loads the bundled demo vocabulary, prints a
 * key and a curl line, and serves HTTPS. This runs that command (on a free port) and follows the
 * printed instructions.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/test-server.js';
import { CLI, REPO_ROOT } from '../helpers/cli.js';

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-demo-'));
let child: ChildProcess | undefined;

afterAll(() => {
  child?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

function startDemo(): Promise<{ key: string; url: string }> {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, [...CLI, 'demo', '--port', '0', '--data-dir', dataDir], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /curl -k -H "Authorization: Bearer (\S+)" (https:\/\/\S+)\/v1\/concepts\/201826/.exec(out);
      if (m) resolve({ key: m[1]!, url: m[2]! });
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`demo exited with ${code}: ${err}`)));
  });
}

describe('omopterm demo (README first command)', () => {
  it('serves the demo vocabulary with the printed key', async () => {
    const { key, url } = await startDemo();
    const res = await rawRequest(`${url}/v1/concepts/201826`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', concept_code: '44054006' });
    expect(res.body.meta.vocab_release).toBe('2025.2');
    const byCode = await rawRequest(`${url}/v1/concepts/by-code/ICD10CM/E11.9`, { headers: { authorization: `Bearer ${key}` } });
    expect(byCode.status).toBe(200);
    expect(byCode.body.data.concept_code).toBe('E11.9');
  });
});
