/**
 * The temporary directory a build is written into, and the single rename that publishes it.
 *
 * A temp dir records who owns it (pid + process start time) in `owner.json`; a later load removes
 * temp dirs whose owner is gone (a load killed with SIGKILL, a crashed machine) and refuses to
 * start while a live process is loading the same label.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDirName, releasesDir, tempBuildDirName } from '../store/data-dir.js';
import { STORE_FILE_NAME } from '../store/schema.js';

const OWNER_FILE = 'owner.json';
const STAGING_FILE = 'staging.sqlite';

interface BuildOwner {
  pid: number;
  /** Process start time (Linux /proc), to tell a reused pid from the original owner; null elsewhere. */
  startTime: string | null;
}

export interface BuildWorkspace {
  label: string;
  buildId: string;
  dir: string;
  storePath: string;
  /** Scratch database for staging tables; deleted before publishing. */
  stagingPath: string;
}

/** Temp dirs of this process's loads still running (a pid check cannot tell them apart). */
const activeWorkspaces = new Set<string>();

export function createBuildWorkspace(dataDir: string, label: string, buildId: string): BuildWorkspace {
  const root = releasesDir(dataDir);
  mkdirSync(root, { recursive: true });
  const dir = join(root, tempBuildDirName(label, buildId));
  mkdirSync(dir);
  activeWorkspaces.add(dir);
  writeFileSync(join(dir, OWNER_FILE), JSON.stringify(currentOwner()));
  return { label, buildId, dir, storePath: join(dir, STORE_FILE_NAME), stagingPath: join(dir, STAGING_FILE) };
}

/** Removes the temp dir (after a failure, or the staging leftovers). Never throws. */
export function discardBuildWorkspace(workspace: BuildWorkspace): void {
  activeWorkspaces.delete(workspace.dir);
  try {
    rmSync(workspace.dir, { recursive: true, force: true });
  } catch {
    // best effort: the next load removes stale temp dirs
  }
}

/** The one atomic step that makes a finished build visible; returns the published directory. */
export function publishBuildWorkspace(dataDir: string, workspace: BuildWorkspace): string {
  rmSync(workspace.stagingPath, { force: true });
  rmSync(join(workspace.dir, OWNER_FILE), { force: true });
  const target = join(releasesDir(dataDir), buildDirName(workspace.label, workspace.buildId));
  renameSync(workspace.dir, target);
  activeWorkspaces.delete(workspace.dir);
  return target;
}

export interface TempDirScan {
  /** Stale temp dirs removed (their owner process is gone). */
  removed: string[];
  /** A live load of the requested label, if any. */
  liveLoadOfLabel: { dir: string; pid: number } | null;
}

/** Removes temp dirs of dead loads and finds a live load of `label`. */
export function cleanStaleWorkspaces(dataDir: string, label: string): TempDirScan {
  const root = releasesDir(dataDir);
  const scan: TempDirScan = { removed: [], liveLoadOfLabel: null };
  if (!existsSync(root)) return scan;
  for (const name of readdirSync(root)) {
    if (!name.startsWith('.tmp-')) continue;
    const dir = join(root, name);
    if (activeWorkspaces.has(dir)) {
      if (name.startsWith(`.tmp-${label}-`)) scan.liveLoadOfLabel = { dir, pid: process.pid };
      continue;
    }
    const owner = readOwner(dir, name);
    if (owner && isAlive(owner) && owner.pid !== process.pid) {
      if (name.startsWith(`.tmp-${label}-`)) scan.liveLoadOfLabel = { dir, pid: owner.pid };
      continue;
    }
    rmSync(dir, { recursive: true, force: true });
    scan.removed.push(dir);
  }
  return scan;
}

function currentOwner(): BuildOwner {
  return { pid: process.pid, startTime: processStartTime(process.pid) };
}

function readOwner(dir: string, name: string): BuildOwner | null {
  try {
    return JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as BuildOwner;
  } catch {
    // No owner file (killed right after mkdir): fall back to the pid in the build id (…p<pid>).
    const pid = /p(\d+)$/.exec(name)?.[1];
    return pid ? { pid: Number(pid), startTime: null } : null;
  }
}

function isAlive(owner: BuildOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.startTime === null) return true;
  return processStartTime(owner.pid) === owner.startTime;
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); null where /proc is absent. */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return afterName[19] ?? null;
  } catch {
    return null;
  }
}
