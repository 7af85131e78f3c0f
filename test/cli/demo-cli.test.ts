/**
 * The README's first command ends in `omopterm demo`: it loads the bundled demo vocabulary as release `demo`, prints a
 * key and curl lines that name that release and trust the generated certificate with --cacert, and serves HTTPS. This
 * runs that command (on a free port), follows the printed instructions, and checks that they keep working once a real
 * release is loaded as the default beside the demo.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { loadRelease } from '../../src/importer/load-release.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { rawRequest } from '../helpers/test-server.js';
import { writeMinimalAthenaDir } from '../loader/loader-fixtures.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

interface PrintedDemo {
  key: string;
  certPath: string;
  /** The URLs of the printed curl lines, in order. */
  urls: string[];
  stderr: () => string;
}

/** Starts `omopterm demo` and resolves with what it printed once the last curl line is out. */
function startDemo(dataDir: string): Promise<PrintedDemo> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'demo', '--port', '0', '--data-dir', dataDir], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (!out.includes('Stop with Ctrl-C.')) return;
      const curls = [...out.matchAll(/^ {2}curl --cacert (\S+) -H "Authorization: Bearer (\S+)" (?:-H "[^"]*" )?'(https:\/\/[^']+)'$/gm)];
      if (curls.length === 0) return reject(new Error(`no curl line in: ${out}`));
      resolve({ certPath: curls[0]![1]!, key: curls[0]![2]!, urls: curls.map((m) => m[3]!), stderr: () => err });
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`demo exited with ${code}: ${err}`)));
  });
}

/** GET trusting only the given certificate (what `curl --cacert` does): a certificate that does not verify fails. */
function getTrusting(url: string, certPath: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { ca: readFileSync(certPath), headers: { accept: 'application/json', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

describe('omopterm demo (README first command)', () => {
  it('serves the demo vocabulary as release "demo" with the printed key, certificate and URLs, also after another default is loaded', async () => {
    const dataDir = tempDir('omopterm-demo-');
    const demo = await startDemo(dataDir);
    expect(demo.certPath).toBe(join(dataDir, 'tls', 'self-signed-cert.pem'));
    expect(demo.urls.map((u) => new URL(u).pathname)).toEqual(['/v1/concepts/201826', '/v1/concepts/by-code/ICD10CM/E11.9', '/fhir/r4/CodeSystem/$lookup']);
    const auth = { authorization: `Bearer ${demo.key}` };

    const followPrinted = async () => {
      const concept = await getTrusting(demo.urls[0]!, demo.certPath, auth);
      expect(concept.status).toBe(200);
      expect(concept.body.data).toMatchObject({ concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', concept_code: '44054006' });
      expect(concept.body.meta.vocab_release).toBe('demo');
      const byCode = await getTrusting(demo.urls[1]!, demo.certPath, auth);
      expect(byCode.status).toBe(200);
      expect(byCode.body.data.concept_code).toBe('E11.9');
      const lookup = await getTrusting(demo.urls[2]!, demo.certPath, { ...auth, 'x-vocab-release': 'demo' });
      expect(lookup.status).toBe(200);
      expect(lookup.body.parameter.find((p: { name: string }) => p.name === 'display').valueString).toBe('Type 2 diabetes mellitus');
    };
    await followPrinted();

    // A real release loaded as the default beside the demo (it has no concept 201826): the printed lines still answer.
    const athenaDir = writeMinimalAthenaDir();
    dirs.push(athenaDir);
    const load = runCli(['load', athenaDir, '--release', '2025.2', '--default', '--skip-embeddings', '--data-dir', dataDir]);
    expect(load.status, load.stderr).toBe(0);
    const deadline = Date.now() + 15_000;
    let unnamed = await rawRequest(demo.urls[0]!.replace('?vocab_release=demo', ''), { headers: auth });
    while (unnamed.status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      unnamed = await rawRequest(demo.urls[0]!.replace('?vocab_release=demo', ''), { headers: auth });
    }
    expect(unnamed.status).toBe(404);
    expect(unnamed.body.meta.vocab_release).toBe('2025.2');
    await followPrinted();
  }, 180_000);

  it('leaves a demo copy an earlier version loaded as 2025.2 in place, names it, and loads the demo as "demo"', async () => {
    const dataDir = tempDir('omopterm-demo-old-');
    await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: '2025.2', makeDefault: true, quiet: true, embeddings: false });
    const demo = await startDemo(dataDir);
    expect(listReleaseBuilds(dataDir).map((b) => b.label)).toEqual(['demo', '2025.2']);
    expect(demo.stderr()).toContain(`note: release 2025.2 in ${dataDir} is a copy of the demo vocabulary loaded by an earlier omopterm`);
    expect(demo.stderr()).toContain('omopterm load <athena-dir> --release 2025.2 --replace');
    const concept = await getTrusting(demo.urls[0]!, demo.certPath, { authorization: `Bearer ${demo.key}` });
    expect(concept.body.meta.vocab_release).toBe('demo');
  }, 180_000);

  it('loads the demo vocabulary only under the label "demo", and no other vocabulary under it', async () => {
    const dataDir = tempDir('omopterm-demo-label-');
    await expect(loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: '2025.3', demo: true, quiet: true, embeddings: false })).rejects.toThrow(
      "the demo vocabulary is loaded as release 'demo', not '2025.3'",
    );
    await expect(loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: 'demo', quiet: true, embeddings: false })).rejects.toThrow(
      "release label 'demo' is reserved for the bundled demo vocabulary",
    );
    expect(listReleaseBuilds(dataDir)).toEqual([]);
  });
});
