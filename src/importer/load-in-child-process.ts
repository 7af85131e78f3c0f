/**
 * Runs loadRelease in a child process for the CLI, so the parent stays responsive while the child sits in long
 * synchronous SQLite calls: progress keeps ticking, SIGINT/SIGTERM kill the child and remove its temp dir at once,
 * and if this process is killed outright the child does the same itself.
 */
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newBuildId, releasesDir, resolveDataDir, tempBuildDirName } from '../store/data-dir.js';
import { makeDirectory } from '../store/make-directory.js';
import { LoadInterruptedError } from './load-error.js';
import type { LoadReleaseOptions, LoadResult } from './load-release.js';
import type { LoadProgressEvent, LoadProgressListener } from './progress-events.js';

export type ChildLoadOptions = Pick<
  LoadReleaseOptions,
  'sourceDir' | 'dataDir' | 'label' | 'makeDefault' | 'replace' | 'buildId' | 'cacheSizeMiB' | 'embeddings' | 'threads'
>;

export interface ChildLoadRequest {
  /** With dataDir and buildId filled in. */
  options: ChildLoadOptions;
  /** The parent: the child dies with it (supervisor-watchdog.ts). */
  supervisorPid: number;
}

export type ChildLoadMessage =
  | { type: 'progress'; event: LoadProgressEvent }
  | { type: 'result'; result: LoadResult }
  | { type: 'error'; name: string; message: string };

/** Error reported by the child, rebuilt in the parent with the same name and message. */
export class ChildLoadError extends Error {
  constructor(
    override readonly name: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ChildLoadHandle {
  /** Settles with the load's result; rejects with its error or a LoadInterruptedError. */
  result: Promise<LoadResult>;
  /** Kills the child and removes its temp dir (the promise rejects with LoadInterruptedError). */
  interrupt(reason: string): void;
}

const moduleUrl = import.meta.url;

export function startLoadInChildProcess(options: ChildLoadOptions, onProgress: LoadProgressListener): ChildLoadHandle {
  const dataDir = resolveDataDir(options.dataDir);
  const buildId = options.buildId ?? newBuildId();
  const entry = fileURLToPath(new URL(`./load-child-entry${extname(fileURLToPath(moduleUrl))}`, moduleUrl));
  // SQLite spills its sorts (gigabytes at full scale) to temp files: keep them on the data
  // directory's disk rather than a possibly small /tmp, unless the operator chose a place.
  makeDirectory(releasesDir(dataDir));
  const env = { ...process.env, SQLITE_TMPDIR: process.env.SQLITE_TMPDIR ?? releasesDir(dataDir) };
  const child = fork(entry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: process.execArgv, env });
  let outcome: { result: LoadResult } | { error: Error } | null = null;
  let interruption: string | null = null;

  child.on('message', (message: ChildLoadMessage) => {
    if (message.type === 'progress') onProgress(message.event);
    else if (message.type === 'result') outcome = { result: message.result };
    else outcome = { error: new ChildLoadError(message.name, message.message) };
  });

  const result = new Promise<LoadResult>((resolve, reject) => {
    child.on('error', (err) => reject(new Error(`cannot start the load process: ${err.message}`)));
    child.on('exit', (code, signal) => {
      if (interruption !== null) {
        rmSync(join(releasesDir(dataDir), tempBuildDirName(options.label, buildId)), { recursive: true, force: true });
        reject(new LoadInterruptedError(`${interruption}: the load was stopped and its partial build removed; existing releases are untouched`));
      } else if (outcome && 'result' in outcome) {
        resolve(outcome.result);
      } else if (outcome) {
        reject(outcome.error);
      } else {
        rmSync(join(releasesDir(dataDir), tempBuildDirName(options.label, buildId)), { recursive: true, force: true });
        reject(new Error(`the load process ended unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}); nothing was published`));
      }
    });
  });
  child.send({ options: { ...options, dataDir, buildId }, supervisorPid: process.pid } satisfies ChildLoadRequest);

  return {
    result,
    interrupt(reason: string) {
      if (interruption !== null || child.exitCode !== null || child.signalCode !== null) return;
      interruption = reason;
      child.kill('SIGKILL');
    },
  };
}
