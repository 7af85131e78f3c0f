/**
 * A worker process of `serve --workers N` (forked by primary.ts): starts the server with the options the primary passed
 * (WORKER_OPTIONS_ENV), sharing rate decisions, MCP sessions and mapping jobs through the primary; drains and exits
 * when the primary says so, on its own SIGTERM/SIGINT, or when the primary is gone.
 */
import { startServer, type RunningServer, type ServerOptions } from '../start-server.js';
import { MAPPING_JOBS_SLOT, WORKER_OPTIONS_ENV, WORKER_SLOT_ENV, type PrimaryMessage, type WorkerMessage } from './cluster-messages.js';
import { PrimaryLink } from './primary-link.js';

const options = JSON.parse(process.env[WORKER_OPTIONS_ENV] ?? '{}') as ServerOptions;
const slot = Number(process.env[WORKER_SLOT_ENV]);

function sendToPrimary(message: WorkerMessage, then?: () => void): void {
  if (!process.connected) return then?.();
  process.send!(message, undefined, undefined, () => then?.());
}

const link = new PrimaryLink({ send: (message) => sendToPrimary(message), onMessage: (listener) => process.on('message', listener) });
let server: RunningServer | null = null;
let stopping = false;
let signals = 0;

async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Still starting: nothing is in flight yet.
  if (!server) process.exit(0);
  // close() refuses new connections and requests before its first await.
  const closing = server.close();
  sendToPrimary({ t: 'draining' });
  const { unfinishedConnections } = await closing;
  sendToPrimary({ t: 'stopped', unfinishedConnections }, () => process.exit(0));
}

const onSignal = () => {
  if (++signals > 1) process.exit(1);
  void stop();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('disconnect', () => {
  link.disconnected();
  void stop();
});
process.on('message', (message: PrimaryMessage) => {
  if (message.t === 'shutdown') void stop();
  else if (message.t === 'rescan') server?.registry.rescan();
  else if (message.t === 'jobs' && message.op === 'kick') server?.app.mappingJobs.kick();
  else if (message.t === 'jobs' && message.op === 'cancel') server?.app.mappingJobs.cancel(message.job);
});

try {
  server = await startServer({
    ...options,
    onNotice: (line) => link.tell({ t: 'notice', line }),
    workerGroup: link.groupLink(slot === MAPPING_JOBS_SLOT),
  });
} catch (error) {
  sendToPrimary({ t: 'start-failed', message: (error as Error).message }, () => process.exit(1));
}
if (server) link.tell({ t: 'listening', url: server.url, endpoints: server.endpoints, releases: server.registry.labels().length });
