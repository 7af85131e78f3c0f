/**
 * Entry point of the child process that `startLoadInChildProcess` starts: runs one loadRelease and reports
 * progress, the result or the error to the parent over IPC. It installs no signal handler, so a signal ends it at
 * once, even inside a long SQLite call; the parent (or, if the parent dies, supervisor-watchdog.ts) cleans up.
 */
import { join } from 'node:path';
import { releasesDir, tempBuildDirName } from '../store/data-dir.js';
import type { ChildLoadMessage, ChildLoadRequest } from './load-in-child-process.js';
import { loadRelease } from './load-release.js';
import { dieWithSupervisor } from './supervisor-watchdog.js';

const abort = new AbortController();
// The IPC channel closed: stop at the next opportunity; the temp dir is removed on the way out.
process.on('disconnect', () => abort.abort(new Error('the supervising omopterm process went away')));

const send = (message: ChildLoadMessage) => {
  // The callback takes delivery errors (EPIPE once the parent is gone) instead of an 'error' event.
  if (process.connected) process.send!(message, () => {});
};

process.once('message', ({ options, supervisorPid }: ChildLoadRequest) => {
  dieWithSupervisor(supervisorPid, join(releasesDir(options.dataDir!), tempBuildDirName(options.label, options.buildId!)));
  loadRelease({ ...options, supervisorPid, quiet: true, signal: abort.signal, onProgress: (event) => send({ type: 'progress', event }) })
    .then((result) => send({ type: 'result', result }))
    .catch((err: unknown) => send({ type: 'error', name: (err as Error).name ?? 'Error', message: (err as Error).message ?? String(err) }))
    .finally(() => {
      if (process.connected) process.disconnect();
    });
});
