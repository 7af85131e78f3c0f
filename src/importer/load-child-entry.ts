/**
 * Entry point of the child process that `runLoadInChildProcess` starts: runs one loadRelease and
 * reports progress, the result or the error to the parent over IPC. It installs no signal handler,
 * so SIGINT/SIGTERM/SIGKILL end it at once, even inside a long SQLite call; the parent cleans up.
 */
import { loadRelease } from './load-release.js';
import type { ChildLoadRequest, ChildLoadMessage } from './load-in-child-process.js';

const abort = new AbortController();
// The parent is gone (killed): stop at the next opportunity; the temp dir is removed on the way out.
process.on('disconnect', () => abort.abort(new Error('the supervising omopterm process went away')));

const send = (message: ChildLoadMessage) => {
  if (process.connected) process.send!(message);
};

process.once('message', (request: ChildLoadRequest) => {
  loadRelease({ ...request.options, quiet: true, signal: abort.signal, onProgress: (event) => send({ type: 'progress', event }) })
    .then((result) => send({ type: 'result', result }))
    .catch((err: unknown) => send({ type: 'error', name: (err as Error).name ?? 'Error', message: (err as Error).message ?? String(err) }))
    .finally(() => {
      if (process.connected) process.disconnect();
    });
});
