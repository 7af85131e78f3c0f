/**
 * The load lock and the child's lifeline: a temp build dir counts as a running load only while
 * its owner and the owner's supervisor both live; a process that called dieWithSupervisor dies,
 * and removes its temp dir, when its supervisor is killed, even while its main thread is blocked
 * (as in a long SQLite call).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cleanStaleWorkspaces } from '../../src/importer/build-workspace.js';
import { releasesDir, tempBuildDirName } from '../../src/store/data-dir.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { isRunning, makeTempDir } from './loader-fixtures.js';

const dataDir = makeTempDir('omopterm-load-lock-');
const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A process that lives until killed. */
function sleeper(): ChildProcess {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  started.push(child);
  return child;
}

/** A pid that belonged to a process that has exited. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

function writeTempBuild(label: string, owner: object): string {
  const dir = join(releasesDir(dataDir), tempBuildDirName(label, `20260101000000000p${Math.floor(Math.random() * 1e6)}`));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'owner.json'), JSON.stringify(owner));
  return dir;
}

describe('load lock', () => {
  it('a live owner with a live supervisor holds the lock', () => {
    const owner = sleeper();
    const supervisor = sleeper();
    const dir = writeTempBuild('2025.1', {
      pid: owner.pid,
      startTime: startTime(owner.pid!),
      supervisor: { pid: supervisor.pid, startTime: startTime(supervisor.pid!) },
    });
    const scan = cleanStaleWorkspaces(dataDir, '2025.1');
    expect(scan.liveLoadOfLabel).toEqual({ dir, pid: owner.pid });
    expect(existsSync(dir)).toBe(true);
    rmSync(dir, { recursive: true });
  });

  it('is stale once the supervisor is dead, even while the orphaned owner still runs', () => {
    const owner = sleeper();
    const dir = writeTempBuild('2025.2', { pid: owner.pid, startTime: startTime(owner.pid!), supervisor: { pid: deadPid(), startTime: null } });
    const scan = cleanStaleWorkspaces(dataDir, '2025.2');
    expect(scan.liveLoadOfLabel).toBeNull();
    expect(scan.removed).toEqual([dir]);
    expect(existsSync(dir)).toBe(false);
  });

  it('is stale when the owner is dead, or its pid now belongs to another process', () => {
    const reused = sleeper();
    const dead = writeTempBuild('2025.3', { pid: deadPid(), startTime: null, supervisor: null });
    const other = writeTempBuild('2025.3', { pid: reused.pid, startTime: '1', supervisor: null });
    const scan = cleanStaleWorkspaces(dataDir, '2025.3');
    expect(scan.liveLoadOfLabel).toBeNull();
    expect(scan.removed.sort()).toEqual([dead, other].sort());
  });
});

describe('dieWithSupervisor', () => {
  it('ends a blocked process and removes its temp dir when the supervisor is killed', async () => {
    const tempDir = join(dataDir, 'releases', '.tmp-2025.4-watchdog');
    mkdirSync(tempDir, { recursive: true });
    const watched = [
      `import { dieWithSupervisor } from ${JSON.stringify(join(REPO_ROOT, 'src/importer/supervisor-watchdog.ts'))};`,
      `dieWithSupervisor(process.ppid, ${JSON.stringify(tempDir)});`,
      "process.stdout.write('blocked\\n');",
      // Blocks the main thread for a minute, as a long synchronous SQLite call does.
      'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);',
    ].join('\n');
    const supervisorScript = [
      "const { spawn } = require('node:child_process');",
      `const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', ${JSON.stringify(watched)}], { stdio: ['ignore', 'pipe', 'inherit'] });`,
      "child.stdout.on('data', (d) => { if (String(d).includes('blocked')) process.stdout.write(child.pid + '\\n'); });",
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const supervisor = spawn(process.execPath, ['-e', supervisorScript], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    started.push(supervisor);
    const watchedPid = await new Promise<number>((resolve) => supervisor.stdout!.on('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    expect(isRunning(watchedPid)).toBe(true);

    supervisor.kill('SIGKILL');
    const deadline = Date.now() + 5_000;
    while (isRunning(watchedPid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isRunning(watchedPid)).toBe(false);
    expect(existsSync(tempDir)).toBe(false);
  }, 30_000);
});
