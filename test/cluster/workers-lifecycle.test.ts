/**
 * The primary of `omopterm serve --workers 2` (docs/operations.md "Worker processes"): a worker killed with SIGKILL is
 * replaced while the other keeps answering; on SIGTERM an in-flight request finishes and the server exits 0; a worker
 * that dies again and again right after starting makes the primary give up with a message and exit 1; a worker that
 * cannot start on the first start stops the server with its error. Through the real CLI.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import { stateStorePath } from '../../src/store/data-dir.js';
import { loadCachedRelease } from '../helpers/release-cache.js';
import { connectionPerWorker, PinnedConnection, sleep, spawnServe, type ClusterServe } from './cluster-serve.js';

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-workers-life-'));
/** Each test starts a server of three processes (and some restart workers): minutes on a busy two-core machine. */
const SERVER_TEST_TIMEOUT_MS = 240_000;
let key = '';
const started: ClusterServe[] = [];
const opened: PinnedConnection[] = [];

beforeAll(async () => {
  await loadCachedRelease(DEMO_VOCABULARY_DIR, dataDir, '2025.2', true);
  const state = new EmbeddedStateStore(stateStorePath(dataDir));
  key = (await state.createKey({ name: 'lifecycle', rate_per_second: 100_000, monthly_quota: null, cpt4_validated_until: null })).secret;
  await state.close();
});

afterAll(async () => {
  for (const c of opened) c.close();
  for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function serveWorkers(args: string[] = []): Promise<ClusterServe> {
  const { serve, listening } = spawnServe(dataDir, ['--workers', '2', ...args]);
  started.push(serve);
  return listening;
}

/** The pids of a process's children (from /proc: the primary's workers). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

describe('a worker that dies', () => {
  it('is replaced after SIGKILL, while the other worker keeps answering on its connection', async () => {
    const serve = await serveWorkers();
    const [victim, survivor] = await connectionPerWorker(serve.url, 2);
    opened.push(victim!, survivor!);
    process.kill(victim!.pid, 'SIGKILL');
    const exitLine = await serve.stderrLine(new RegExp(`^worker \\d \\(pid ${victim!.pid}\\) exited unexpectedly \\(killed by SIGKILL\\); starting a replacement`));
    expect((await survivor!.request('/v1/concepts/201826', { key })).status).toBe(200);
    const slot = /^worker (\d)/.exec(exitLine)![1];
    const again = await serve.stderrLine(new RegExp(`^worker ${slot} is serving again \\(pid (\\d+)\\)`));
    const replacement = Number(/pid (\d+)/.exec(again)![1]);
    expect(replacement).not.toBe(victim!.pid);
    const now = await connectionPerWorker(serve.url, 2);
    opened.push(...now);
    expect(now.map((c) => c.pid).sort()).toEqual([replacement, survivor!.pid].sort());
    for (const c of now) expect((await c.request('/v1/concepts/201826', { key })).status).toBe(200);
    expect(childrenOf(serve.child.pid!).sort()).toEqual([replacement, survivor!.pid].sort());
    await serve.stop();
  }, SERVER_TEST_TIMEOUT_MS);

  it('again and again right after starting: the primary gives up, stops the other worker and exits 1', async () => {
    const serve = await serveWorkers();
    const [victim, survivor] = await connectionPerWorker(serve.url, 2);
    opened.push(victim!, survivor!);
    const killed = new Set<number>();
    let ended = false;
    void serve.exited.then(() => (ended = true));
    // Kill the worker, then each replacement as soon as it exists (before it can serve).
    while (!ended) {
      for (const pid of childrenOf(serve.child.pid!)) {
        if (pid === survivor!.pid || killed.has(pid)) continue;
        killed.add(pid);
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone already
        }
      }
      await sleep(10);
    }
    const { code } = await serve.exited;
    expect(code).toBe(1);
    expect(serve.stderr()).toMatch(/^omopterm: worker \d died 5 times in a row soon after starting \(last: killed by SIGKILL\); giving up: stopping the server/m);
    // Replacements came with growing delays, and the surviving worker was stopped, not left behind.
    expect(serve.stderr()).toMatch(/starting a replacement in 0\.25 s[\s\S]*starting a replacement in 0\.50 s[\s\S]*starting a replacement in 1 s/);
    // The first death counts as a quick one when the worker had served less than 10 s (RestartPolicy.stableAfterMs).
    expect(killed.size === 5 || killed.size === 6).toBe(true);
    // Every kill but the first and the last (given up) was answered by a replacement.
    expect(serve.stderr().match(/failed to start \(killed by SIGKILL\); starting a replacement/g)).toHaveLength(killed.size - 2);
    expect(() => process.kill(survivor!.pid, 0)).toThrow();
  }, SERVER_TEST_TIMEOUT_MS);
});

describe('stopping', () => {
  it('on SIGTERM lets an in-flight request finish on its worker, stops both workers and exits 0', async () => {
    const serve = await serveWorkers(['--shutdown-grace', '5']);
    const workerPids = childrenOf(serve.child.pid!);
    expect(workerPids).toHaveLength(2);
    const socket = tls.connect({ host: '127.0.0.1', port: serve.port, rejectUnauthorized: false });
    let received = '';
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
    const receivedMatching = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => pattern.test(received) && resolve();
        socket.on('data', (d: Buffer) => {
          received += d.toString();
          check();
        });
        check();
      });
    await new Promise<void>((resolve) => socket.once('secureConnect', () => resolve()));
    // The request's head is dispatched (100 Continue), its body not sent yet: it is in flight on one worker.
    const body = JSON.stringify({ query: 'diabetes' });
    const continued = receivedMatching(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    socket.write(
      `POST /v1/search/advanced HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
        `Expect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
    );
    await continued;

    serve.child.kill('SIGTERM');
    await serve.stderrLine(/^SIGTERM: shutting down/);
    socket.write(body);
    await closed;
    const [, answer] = received.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const envelope = JSON.parse(answer!.slice(answer!.indexOf('\r\n\r\n') + 4));
    expect(envelope.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toContain(201826);

    const { code } = await serve.exited;
    expect(code).toBe(0);
    expect(serve.stderr()).toContain('omopterm stopped: every in-flight request finished');
    for (const pid of workerPids) expect(() => process.kill(pid, 0)).toThrow();
  }, SERVER_TEST_TIMEOUT_MS);
});

describe('starting', () => {
  let blocker: Server;
  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
  });
  afterAll(() => blocker.close());

  it('a worker that cannot start on the first start stops the server with its error (exit 1), without retrying', async () => {
    const port = (blocker.address() as { port: number }).port;
    // spawnServe passes --port 0; the later --port wins.
    const { serve: busy } = spawnServe(dataDir, ['--workers', '2', '--port', String(port)]);
    started.push(busy);
    const { code } = await busy.exited;
    expect(code).toBe(1);
    expect(busy.stderr()).toMatch(new RegExp(`^omopterm: .*EADDRINUSE.*127\\.0\\.0\\.1:${port}$`, 'm'));
    expect(busy.stderr()).not.toMatch(/starting a replacement|omopterm listening on/);
  }, SERVER_TEST_TIMEOUT_MS);

  it('refuses --workers 0 with a usage error', async () => {
    const { serve } = spawnServe(dataDir, ['--workers', '0']);
    started.push(serve);
    const { code } = await serve.exited;
    expect(code).toBe(1);
    expect(serve.stderr()).toContain("--workers must be a positive whole number (got '0')");
  });
});
