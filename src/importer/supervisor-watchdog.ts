/**
 * Makes a load's child process die with the omopterm process that supervises it: a watchdog thread polls for the
 * child's re-parenting (its supervisor was killed, even with SIGKILL), then removes the build's temp dir and kills
 * its own process; a thread, because the main thread may sit for minutes in one SQLite call.
 */
import { Worker } from 'node:worker_threads';

const POLL_INTERVAL_MS = 200;

/** Plain JavaScript run by the watchdog thread (no TypeScript loader needed). */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { rmSync } = require('node:fs');
setInterval(() => {
  if (process.ppid === workerData.supervisorPid) return;
  try {
    rmSync(workerData.tempDir, { recursive: true, force: true });
  } finally {
    process.kill(process.pid, 'SIGKILL');
  }
}, workerData.pollIntervalMs);
`;

/**
 * From now on, this process removes `tempDir` and kills itself within a fraction of a second once
 * `supervisorPid` is no longer its parent. Does not keep the process alive.
 */
export function dieWithSupervisor(supervisorPid: number, tempDir: string): void {
  // execArgv []: the source is plain CommonJS, whatever loader or --input-type this process runs with.
  const watchdog = new Worker(WATCHDOG_SOURCE, { eval: true, execArgv: [], workerData: { supervisorPid, tempDir, pollIntervalMs: POLL_INTERVAL_MS } });
  // A watchdog that cannot run must not fail the load; the IPC 'disconnect' still stops it when it is idle.
  watchdog.on('error', () => {});
  watchdog.unref();
}
