/**
 * `omopterm load` runs the load in a child process. When the omopterm process itself is killed
 * outright (SIGKILL: no handler runs), the child must not live on: it dies within a moment, removes
 * its partial build, prints no stack trace, and a rerun started right away is not refused as
 * "another load is running".
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listReleaseBuilds, releasesDir } from '../../src/store/data-dir.js';
import { CLI, REPO_ROOT, runCli } from '../helpers/cli.js';
import { isRunning, makeTempDir, writeSlowAthenaDir } from '../loader/loader-fixtures.js';

let slowDir: string;
let dataDir: string;

beforeAll(() => {
  slowDir = writeSlowAthenaDir();
  dataDir = makeTempDir('omopterm-cli-kill-');
});
afterAll(() => {
  for (const dir of [slowDir, dataDir]) rmSync(dir, { recursive: true, force: true });
});

const tempDirs = () => (existsSync(releasesDir(dataDir)) ? readdirSync(releasesDir(dataDir)).filter((n) => n.startsWith('.tmp-')) : []);

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

describe('omopterm load killed with SIGKILL', () => {
  it('takes its load process with it, leaves no partial build, and a rerun works at once', async () => {
    const parent = spawn(process.execPath, [...CLI, 'load', slowDir, '--release', '2025.1', '--data-dir', dataDir], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The child inherits these pipes: whatever it writes after the parent died still arrives here.
    let output = '';
    parent.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    parent.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const pipesClosed = new Promise<void>((resolve) => parent.stderr.on('close', () => resolve()));

    expect(await waitFor(() => output.includes('concept_relationship: reading'), 60_000)).toBe(true);
    const [tempDir] = tempDirs();
    expect(tempDir).toBeDefined();
    const owner = JSON.parse(readFileSync(join(releasesDir(dataDir), tempDir!, 'owner.json'), 'utf8')) as { pid: number; supervisor: { pid: number } };
    expect(owner.supervisor.pid).toBe(parent.pid);
    expect(owner.pid).not.toBe(parent.pid);
    expect(isRunning(owner.pid)).toBe(true);

    parent.kill('SIGKILL');
    expect(await waitFor(() => !isRunning(owner.pid), 5_000)).toBe(true);
    await pipesClosed;
    expect(tempDirs()).toEqual([]);
    expect(output).not.toMatch(/EPIPE|Error|at .*\.(ts|js):\d+/);

    const rerun = runCli(['load', slowDir, '--release', '2025.1', '--data-dir', dataDir]);
    expect(rerun.stderr).not.toContain('another load');
    expect(rerun.status).toBe(0);
    expect(listReleaseBuilds(dataDir).map((b) => b.label)).toEqual(['2025.1']);
    expect(tempDirs()).toEqual([]);
  }, 120_000);
});
