/**
 * `omopterm serve` on SIGTERM/SIGINT: stops accepting, lets an in-flight request finish (a request
 * pipelined behind it gets 503 in the envelope), closes idle keep-alive connections, destroys a slow
 * client's connection when --shutdown-grace ends (it cannot hold shutdown), and exits 0 with a
 * notice. Run through the real CLI on a temp data directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { writeCoreFixture } from '../http/fixture-vocabulary.js';
import { CLI, REPO_ROOT, runCli } from '../helpers/cli.js';

const SHUTDOWN_GRACE_S = 2;
/** Time allowed on top of the grace period for the process to close its stores and exit. */
const EXIT_ALLOWANCE_MS = 8_000;

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-serve-'));
let key = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
  await loadRelease({ sourceDir: writeCoreFixture(), dataDir, label: '2025.2', makeDefault: true, replace: false, quiet: true });
  const created = runCli(['keys', 'create', '--name', 'shutdown-test', '--rate', '1000', '--data-dir', dataDir]);
  expect(created.status).toBe(0);
  key = created.stdout.trim();
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface ServeProcess {
  child: ChildProcess;
  port: number;
  stderr: () => string;
  exited: Promise<{ code: number | null; at: number }>;
  /** Resolves when stderr has a line matching `pattern`. */
  stderrLine(pattern: RegExp): Promise<string>;
}

function startServe(extraArgs: string[] = []): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [...CLI, 'serve', '--port', '0', '--data-dir', dataDir, '--shutdown-grace', String(SHUTDOWN_GRACE_S), ...extraArgs],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  let err = '';
  const waiters: Array<() => void> = [];
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    for (const w of [...waiters]) w();
  });
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: Date.now() })));
  const stderrLine = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = err.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) resolve(line);
      };
      waiters.push(check);
      check();
      void exited.then(() => reject(new Error(`serve exited before printing ${pattern}: ${err}`)));
    });
  return stderrLine(/^omopterm listening on https:\/\/127\.0\.0\.1:\d+ /).then((line) => ({
    child,
    port: Number(/:(\d+) /.exec(line)![1]),
    stderr: () => err,
    exited,
    stderrLine,
  }));
}

/** A TLS connection that collects what the server sends. */
function connect(port: number) {
  const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false });
  let received = '';
  const listeners: Array<() => void> = [];
  socket.on('data', (d: Buffer) => {
    received += d.toString();
    for (const l of [...listeners]) l();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const ready = new Promise<void>((resolve) => socket.once('secureConnect', () => resolve()));
  /** Resolves once the received text matches `pattern`. */
  const receivedMatching = (pattern: RegExp) =>
    new Promise<string>((resolve) => {
      const check = () => {
        if (pattern.test(received)) resolve(received);
      };
      listeners.push(check);
      check();
    });
  return { socket, ready, closed, receivedMatching, received: () => received };
}

describe('omopterm serve shutdown', () => {
  it('on SIGTERM finishes an in-flight request, cuts a slow client at --shutdown-grace, and exits 0', async () => {
    const serve = await startServe(['--request-timeout', '120', '--headers-timeout', '60']);

    // A slow client: declares 100 bytes of body, sends 20, then nothing.
    const slow = connect(serve.port);
    await slow.ready;
    slow.socket.write(
      `POST /v1/search/advanced HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
        `Expect: 100-continue\r\nContent-Length: 100\r\n\r\n`,
    );
    await slow.receivedMatching(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    slow.socket.write('{"query":"diabetes",');

    // A normal request in flight: its headers are taken (100 Continue says the server dispatched it), its body not yet sent.
    const body = JSON.stringify({ query: 'diabetes' });
    const normal = connect(serve.port);
    await normal.ready;
    normal.socket.write(
      `POST /v1/search/advanced HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n` +
        `Expect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await normal.receivedMatching(/^HTTP\/1\.1 100 Continue\r\n\r\n/);

    const signalledAt = Date.now();
    serve.child.kill('SIGTERM');
    await serve.stderrLine(/^SIGTERM: shutting down/);

    // New connections are no longer served.
    const late = connect(serve.port);
    await late.closed;
    expect(late.received()).toBe('');

    // The in-flight request completes normally; a request pipelined behind it gets 503 in the envelope.
    normal.socket.write(`${body}GET /v1/concepts/201826 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    // ...and the connection is closed after that.
    await normal.closed;
    const [continued, completed, refused] = normal.received().split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(continued).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    expect(completed).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const envelope = JSON.parse(completed!.slice(completed!.indexOf('\r\n\r\n') + 4));
    expect(envelope.success).toBe(true);
    expect(envelope.data.concepts.map((c: { concept_id: number }) => c.concept_id)).toContain(201826);
    expect(refused).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(refused).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(refused!.slice(refused!.indexOf('\r\n\r\n') + 4))).toMatchObject({ success: false, error: { code: 'service_unavailable' } });

    // The slow client holds shutdown no longer than the grace period.
    const { code, at } = await serve.exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(SHUTDOWN_GRACE_S * 1000 + EXIT_ALLOWANCE_MS);
    await slow.closed;
    expect(serve.stderr()).toContain(`omopterm stopped: closed 1 connection(s) still unfinished after ${SHUTDOWN_GRACE_S} s`);
  });

  it('on SIGINT with only an idle keep-alive connection open, exits 0 without waiting for it', async () => {
    const serve = await startServe();
    const idle = connect(serve.port);
    await idle.ready;
    idle.socket.write(`GET /health HTTP/1.1\r\nHost: x\r\n\r\n`);
    await idle.receivedMatching(/^HTTP\/1\.1 200 OK\r\n/);

    serve.child.kill('SIGINT');
    const { code } = await serve.exited;
    expect(code).toBe(0);
    await idle.closed;
    expect(serve.stderr()).toContain('omopterm stopped: every in-flight request finished');
  });
});
