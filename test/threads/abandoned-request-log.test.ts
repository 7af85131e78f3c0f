/**
 * A heavy request whose client hung up while it waited for a worker thread is not computed (the pool drops it,
 * AbandonedTask) and is not a server failure: the log says so in one info line (pino level 30), with no error line
 * (level 50) and no stack. The server's log is read through the logger's stream.
 */
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCoreFixture } from '../http/fixture-vocabulary.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

interface LogLine {
  level: number;
  msg?: string;
  code?: string;
  err?: { type?: string; stack?: string };
}

let t: TestServer;
const lines: string[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(ready: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (ready()) return;
    await sleep(25);
  }
  throw new Error(`never happened: ${what}`);
}

beforeAll(async () => {
  t = await startTestServer({
    releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }],
    threads: 1,
    threadQueue: 2,
    logStream: { write: (line) => void lines.push(line) },
  });
  const pool = t.server.app.workerPool!;
  await until(() => pool.size > 0 && pool.idle === pool.size, 'the thread started');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('a heavy request abandoned by its client', () => {
  it('is dropped from the queue and logged as one info line, nothing at error level', async () => {
    const pool = t.server.app.workerPool!;
    const release = pool.holdForTest();
    let first: Promise<unknown>;
    try {
      first = t.request('/v1/search/semantic?query=diabetes');
      await until(() => pool.size - pool.idle === 1, 'the first request runs on the thread');
      // the second waits in the queue; its client then hangs up
      const socket = tls.connect({ host: '127.0.0.1', port: t.port, rejectUnauthorized: false }, () => {
        socket.write(`GET /v1/search/semantic?query=asthma HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${t.key}\r\n\r\n`);
      });
      socket.on('error', () => {});
      await until(() => pool.waiting === 1, 'the second request waits for the thread');
      lines.length = 0;
      socket.destroy();
      await sleep(100);
    } finally {
      release();
    }
    await first!;
    await until(() => pool.stats.abandoned === 1, 'the pool dropped the abandoned request');
    await until(() => lines.some((l) => (JSON.parse(l) as LogLine).code === 'client_closed'), 'the abandoned request was logged');
    const logged = lines.map((l) => JSON.parse(l) as LogLine);
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    const info = logged.filter((l) => l.code === 'client_closed');
    expect(info).toHaveLength(1);
    expect(info[0]!.level).toBe(30);
    expect(info[0]!.msg).toMatch(/closed the connection/);
    expect(info[0]!.err).toBeUndefined();
  });
});
