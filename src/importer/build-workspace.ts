/**
 * The temporary directory a build is written into, and the single rename that publishes it. A temp dir records its
 * owner and supervisor in `owner.json`, so a later load removes temp dirs of dead loads and refuses to start while
 * a live, supervised process loads the same label.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDirName, releasesDir, tempBuildDirName } from '../store/data-dir.js';
import { makeDirectory } from '../store/make-directory.js';
import { STORE_FILE_NAME } from '../store/schema.js';

const OWNER_FILE = 'owner.json';
const STAGING_FILE = 'staging.sqlite';

interface ProcessIdentity {
  pid: number;
  /** Process start time (Linux /proc), to tell a reused pid from the original process; null elsewhere. */
  startTime: string | null;
}

interface BuildOwner extends ProcessIdentity {
  /** The process supervising the owner (the CLI parent of a child load); absent when unsupervised. */
  supervisor?: ProcessIdentity | null;
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

export function createBuildWorkspace(dataDir: string, label: string, buildId: string, supervisorPid?: number): BuildWorkspace {
  const root = releasesDir(dataDir);
  makeDirectory(root);
  const dir = join(root, tempBuildDirName(label, buildId));
  mkdirSync(dir);
  activeWorkspaces.add(dir);
  writeFileSync(join(dir, OWNER_FILE), JSON.stringify(currentOwner(supervisorPid)));
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
    if (owner && owner.pid !== process.pid && isAlive(owner) && (!owner.supervisor || isAlive(owner.supervisor))) {
      if (name.startsWith(`.tmp-${label}-`)) scan.liveLoadOfLabel = { dir, pid: owner.pid };
      continue;
    }
    rmSync(dir, { recursive: true, force: true });
    scan.removed.push(dir);
  }
  return scan;
}

function currentOwner(supervisorPid: number | undefined): BuildOwner {
  const identify = (pid: number): ProcessIdentity => ({ pid, startTime: processStartTime(pid) });
  return { ...identify(process.pid), supervisor: supervisorPid === undefined ? null : identify(supervisorPid) };
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

/** Whether the process is running (a zombie, dead but not yet reaped, is not); pid reuse is told by the start time. */
function isAlive(identity: ProcessIdentity): boolean {
  try {
    process.kill(identity.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(identity.pid);
  if (stat?.state === 'Z') return false;
  return identity.startTime === null || stat?.startTime === identity.startTime;
}

function processStartTime(pid: number): string | null {
  return procStat(pid)?.startTime ?? null;
}

/** Fields 3 (state) and 22 (start time in clock ticks since boot) of /proc/<pid>/stat; null where /proc is absent. */
function procStat(pid: number): { state: string; startTime: string | null } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: afterName[0]!, startTime: afterName[19] ?? null };
  } catch {
    return null;
  }
}
