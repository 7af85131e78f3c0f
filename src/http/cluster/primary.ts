/**
 * The primary process of `serve --workers N`: forks N workers (Node's cluster; they share one listening port), answers
 * their rate and MCP-session questions, tells them to rescan releases when the data directory changes, replaces a
 * worker that dies (RestartPolicy), and on SIGTERM/SIGINT has every worker drain, then exits. It opens no release.
 */
import cluster, { type Worker } from 'node:cluster';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerOptions } from '../start-server.js';
import { loadTlsMaterial, type TlsMaterial } from '../transport.js';
import { MAPPING_JOBS_SLOT, WORKER_OPTIONS_ENV, WORKER_SLOT_ENV, type PrimaryMessage, type WorkerMessage } from './cluster-messages.js';
import { PrimaryServices } from './primary-services.js';
import { ReleaseWatch } from './release-watch.js';
import { DEFAULT_RESTART_POLICY, RestartPolicy, type RestartPolicyOptions } from './restart-policy.js';

/** Options of the workers' servers: plain data (they travel to each worker as JSON), no callbacks. */
export type WorkerServerOptions = Omit<ServerOptions, 'onNotice' | 'logStream' | 'workerGroup' | 'rateLimiter'>;

export interface ClusterOptions {
  workers: number;
  server: WorkerServerOptions;
  /** Lines for the operator (stderr). */
  out: (line: string) => void;
  restartPolicy?: RestartPolicyOptions;
}

export interface ClusterServing {
  url: string;
  endpoints: string;
  tls: TlsMaterial;
  /** Releases the workers found at start. */
  releases: number;
}

/** Time allowed beyond the grace period for a draining worker to close its stores and exit before it is killed. */
const EXIT_ALLOWANCE_MS = 10_000;
/** A notice every worker prints (e.g. the releases found at start) is shown once within this time. */
const NOTICE_DEDUP_MS = 10_000;

interface Slot {
  number: number;
  worker: Worker | null;
  startedAt: number;
  listened: boolean;
  /** Why its last worker failed to start, as it said. */
  failure: string | null;
  /** Killed by the primary (stopping while it was still starting): its end needs no word. */
  killed: boolean;
  unfinishedConnections: number;
  restartTimer?: NodeJS.Timeout;
}

/** The worker entry beside this file (worker-main.ts from source through tsx, worker-main.js when built). */
function workerEntry(): string {
  const self = fileURLToPath(import.meta.url);
  return fileURLToPath(new URL(`./worker-main${extname(self)}`, import.meta.url));
}

/** A message to a worker that exited meanwhile is dropped: the worker's exit is handled where it is seen. */
function ignoreClosedChannel(): void {}

function describeExit(code: number | null, signal: string | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/**
 * Starts the workers and resolves once every one listens (or exits the process with status 1 when one cannot start).
 * From then on the primary supervises them and handles SIGTERM/SIGINT itself.
 */
export async function runClusterPrimary(options: ClusterOptions): Promise<ClusterServing> {
  const { out } = options;
  const policy = new RestartPolicy(options.restartPolicy ?? DEFAULT_RESTART_POLICY);
  const services = new PrimaryServices();
  const shutdownGraceMs = options.server.shutdownGraceMs ?? 10_000;
  // Generated once here, so that the workers find it instead of each writing its own.
  const tls = await loadTlsMaterial(options.server.dataDir, options.server.tlsCert, options.server.tlsKey);
  if (tls.generated) out(`generated a self-signed TLS certificate: ${tls.certPath} (key ${tls.keyPath})`);

  if (process.env.NODE_CLUSTER_SCHED_POLICY === undefined) cluster.schedulingPolicy = cluster.SCHED_RR;
  cluster.setupPrimary({ exec: workerEntry(), args: [] });

  const slots: Slot[] = Array.from({ length: options.workers }, (_, i) => ({
    number: i + 1,
    worker: null,
    startedAt: 0,
    listened: false,
    failure: null,
    killed: false,
    unfinishedConnections: 0,
  }));
  const slotOf = new Map<Worker, Slot>();
  const noticesShown = new Map<string, number>();
  let serving: ClusterServing | null = null;
  let stopping: { exitCode: number; announce: boolean } | null = null;
  /** Said once every worker has stopped taking requests (so that it is true when read). */
  let drainingNotice: { line: string; waiting: Set<Slot> } | null = null;
  let watch: ReleaseWatch | null = null;
  let started!: { resolve: (s: ClusterServing) => void };
  const ready = new Promise<ClusterServing>((resolve) => (started = { resolve }));

  // With a callback, a write to a worker that has just died (EPIPE) is reported there instead of as an 'error' event
  // that would end the primary; its 'exit' handler deals with the death itself.
  const send = (worker: Worker | null, message: PrimaryMessage): void => {
    if (worker?.isConnected()) worker.send(message, undefined, ignoreClosedChannel);
  };
  const live = () => slots.filter((s) => s.worker !== null);

  function fork(slot: Slot): void {
    slot.restartTimer = undefined;
    const worker = cluster.fork({ [WORKER_OPTIONS_ENV]: JSON.stringify(options.server), [WORKER_SLOT_ENV]: String(slot.number) });
    Object.assign(slot, { worker, startedAt: Date.now(), listened: false, failure: null, killed: false, unfinishedConnections: 0 });
    slotOf.set(worker, slot);
    worker.on('message', (message: WorkerMessage) => receive(slot, worker, message));
    worker.on('exit', (code, signal) => exited(slot, worker, code, signal));
    // The IPC channel's errors (a write racing the worker's exit); without a listener they would end the primary.
    worker.on('error', ignoreClosedChannel);
  }

  function receive(slot: Slot, worker: Worker, message: WorkerMessage): void {
    const answer = services.answer(message);
    if (answer) return send(worker, answer);
    switch (message.t) {
      case 'listening':
        slot.listened = true;
        if (serving) {
          out(`worker ${slot.number} is serving again (pid ${worker.process.pid})`);
        } else if (slots.every((s) => s.listened)) {
          serving = { url: message.url, endpoints: message.endpoints, tls, releases: message.releases };
          out(`${options.workers} worker processes (pids ${slots.map((s) => s.worker?.process.pid).join(', ')}) under primary pid ${process.pid}`);
          watch = new ReleaseWatch(options.server.dataDir, () => slots.forEach((s) => send(s.worker, { t: 'rescan' })));
          started.resolve(serving);
        }
        return;
      case 'start-failed':
        slot.failure = message.message;
        return;
      case 'notice': {
        const now = Date.now();
        if (now - (noticesShown.get(message.line) ?? -Infinity) < NOTICE_DEDUP_MS) return;
        noticesShown.set(message.line, now);
        for (const [line, at] of noticesShown) if (now - at >= NOTICE_DEDUP_MS) noticesShown.delete(line);
        out(message.line);
        return;
      }
      case 'jobs':
        // The worker that runs the jobs resumes queued ones when it starts, so nothing is lost while it is away.
        return send(slots[MAPPING_JOBS_SLOT - 1]!.worker, message);
      case 'draining':
        return drained(slot);
      case 'stopped':
        slot.unfinishedConnections = message.unfinishedConnections;
        return;
    }
  }

  function exited(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    slotOf.delete(worker);
    if (slot.worker !== worker) return;
    slot.worker = null;
    const how = describeExit(code, signal);
    if (stopping) {
      drained(slot);
      if (code !== 0 && !slot.killed) {
        out(`worker ${slot.number} (pid ${worker.process.pid}) ended its shutdown with ${how}`);
        stopping.exitCode = 1;
      }
      if (live().length === 0) finish();
      return;
    }
    if (!serving) {
      // A worker that cannot start on the first start would fail the same way again (port, certificate, model…).
      out(`omopterm: ${slot.failure ?? `a worker process failed to start (${how})`}`);
      stopAll(1, false);
      return;
    }
    const decision = policy.onExit(slot.number, { listened: slot.listened, uptimeMs: Date.now() - slot.startedAt });
    const last = slot.failure ? `: ${slot.failure}` : '';
    if (!decision.restart) {
      out(
        `omopterm: worker ${slot.number} died ${decision.quickFailures} times in a row soon after starting (last: ${how}${last}); ` +
          'giving up: stopping the server (its output above says why; fix that and start it again)',
      );
      stopAll(1, false);
      return;
    }
    const when = decision.delayMs > 0 ? ` in ${(decision.delayMs / 1000).toFixed(decision.delayMs < 1000 ? 2 : 0)} s` : '';
    out(`worker ${slot.number} (pid ${worker.process.pid}) ${slot.listened ? 'exited unexpectedly' : 'failed to start'} (${how}${last}); starting a replacement${when}`);
    slot.restartTimer = setTimeout(() => fork(slot), decision.delayMs);
  }

  /** `slot` no longer takes requests (or is gone); the notice is said when none does. */
  function drained(slot?: Slot): void {
    if (!drainingNotice) return;
    if (slot) drainingNotice.waiting.delete(slot);
    if (drainingNotice.waiting.size > 0) return;
    out(drainingNotice.line);
    drainingNotice = null;
  }

  /**
   * Has every worker drain and exit; then the primary exits with exitCode (`announce`: saying how the drain went).
   * `notice` is said once no worker takes requests any more.
   */
  function stopAll(exitCode: number, announce: boolean, notice?: string): void {
    stopping = { exitCode, announce };
    watch?.close();
    const waiting = new Set<Slot>();
    for (const slot of slots) {
      clearTimeout(slot.restartTimer);
      if (!slot.worker) continue;
      // A worker still starting has nothing in flight.
      if (slot.listened) {
        send(slot.worker, { t: 'shutdown' });
        waiting.add(slot);
      } else {
        slot.killed = true;
        slot.worker.process.kill('SIGKILL');
      }
    }
    if (notice !== undefined) {
      drainingNotice = { line: notice, waiting };
      drained();
    }
    if (live().length === 0) return finish();
    setTimeout(() => {
      for (const slot of live()) {
        out(`worker ${slot.number} (pid ${slot.worker!.process.pid}) did not stop within ${(shutdownGraceMs + EXIT_ALLOWANCE_MS) / 1000} s: killing it`);
        stopping!.exitCode = 1;
        slot.worker!.process.kill('SIGKILL');
      }
    }, shutdownGraceMs + EXIT_ALLOWANCE_MS).unref();
  }

  function finish(): void {
    const { exitCode, announce } = stopping!;
    if (announce) {
      const unfinished = slots.reduce((n, s) => n + s.unfinishedConnections, 0);
      out(
        unfinished === 0
          ? 'omopterm stopped: every in-flight request finished'
          : `omopterm stopped: closed ${unfinished} connection(s) still unfinished after ${shutdownGraceMs / 1000} s`,
      );
    }
    process.exit(exitCode);
  }

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      out(`${signal} again: exiting without waiting for in-flight requests`);
      for (const slot of live()) slot.worker!.process.kill('SIGKILL');
      process.exit(1);
    }
    stopAll(0, true, `${signal}: shutting down (in-flight requests get up to ${shutdownGraceMs / 1000} s)`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  for (const slot of slots) fork(slot);
  return ready;
}
