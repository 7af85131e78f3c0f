/**
 * A client that stops reading its responses cannot hold a connection: after `idleTimeoutMs` with no
 * activity on the socket in either direction the server cuts it (src/http/transport.ts,
 * TransportLimits.idleTimeoutMs), so such a client ties up neither memory nor shutdown.
 */
import tls from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

const IDLE_TIMEOUT_MS = 1_000;
const PIPELINED = 200;
/** How many idle timeouts the client stays silent before reading again. */
const SILENT_TIMEOUTS = 10;

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({
    releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }],
    limits: { idleTimeoutMs: IDLE_TIMEOUT_MS },
  });
});

afterAll(async () => {
  await t?.close();
});

it('cuts a connection whose client stops reading a large response, and keeps serving others', async () => {
  const documentBytes = (await t.request('/openapi.json')).text.length;
  // Far more than the socket buffers hold, so the server's writes stall while the client does not read.
  expect(documentBytes * PIPELINED).toBeGreaterThan(16 * 1024 * 1024);

  const outcome = await new Promise<{ closed: boolean; received: number }>((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port: t.port, rejectUnauthorized: false });
    let received = 0;
    let closed = false;
    socket.on('secureConnect', () => {
      socket.write('GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n'.repeat(PIPELINED));
      socket.pause();
      // Stay silent well past the idle timeout, then read whatever is left. The server must first fill the socket
      // buffers (some 50 responses) before it falls idle: on a busy machine (the suite runs Chromium beside this)
      // that alone took over 3 s, so the silence lasts 10 idle timeouts.
      setTimeout(() => {
        socket.on('data', (chunk: Buffer) => (received += chunk.length));
        socket.resume();
      }, IDLE_TIMEOUT_MS * SILENT_TIMEOUTS);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      resolve({ closed, received });
    });
    // Without the idle timeout the connection stays open (keep-alive) and this settles instead.
    setTimeout(() => resolve({ closed, received }), IDLE_TIMEOUT_MS * (SILENT_TIMEOUTS + 15));
  });

  expect(outcome.closed).toBe(true);
  expect(outcome.received).toBeLessThan(documentBytes * PIPELINED);
  const res = await t.request('/v1/concepts/201826');
  expect(res.status).toBe(200);
  expect(res.body.data.concept_id).toBe(201826);
});
