/**
 * Requests the HTTP parser refuses or that take too long never reach a route; they are answered by
 * the transport (src/http/transport.ts) with a complete HTTP/1.1 response in the REST envelope
 * (Errors rule 1) or an OperationOutcome for /fhir targets (Errors rule 2), with X-Request-Id and
 * `Connection: close`, and the connection is closed cleanly (FIN, not a reset). Checked with raw
 * sockets, over TLS and as plain HTTP on the same port, and followed each time by a normal request
 * on a fresh connection.
 */
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRANSPORT_LIMITS } from '../../src/http/transport.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 1_500;
const { maxUrlBytes: MAX_URL_BYTES, maxHeaderBytes: MAX_HEADER_BYTES } = DEFAULT_TRANSPORT_LIMITS;

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({
    releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }],
    limits: { headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS },
  });
});

afterAll(async () => {
  await t?.close();
});

interface RawExchange {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server ended the connection (FIN) rather than resetting it. */
  endedCleanly: boolean;
}

/**
 * Opens a connection (TLS unless `plain`), lets `send` write to it, and collects everything the
 * server sends until it closes the connection. Fails if the server says nothing.
 */
function exchange(send: (socket: net.Socket) => void, options: { plain?: boolean } = {}): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket: net.Socket = options.plain
      ? net.connect({ host: '127.0.0.1', port: t.port })
      : tls.connect({ host: '127.0.0.1', port: t.port, rejectUnauthorized: false });
    const chunks: Buffer[] = [];
    let endedCleanly = false;
    let failure: Error | undefined;
    socket.on(options.plain ? 'connect' : 'secureConnect', () => send(socket));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      endedCleanly = true;
      socket.end();
    });
    socket.on('error', (err) => (failure = err));
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`no HTTP response (${failure?.message ?? 'connection closed'}): ${JSON.stringify(raw.slice(0, 200))}`));
        return;
      }
      const [statusLine, ...headerLines] = raw.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine!)?.[1]), headers, body: raw.slice(split + 4), endedCleanly });
    });
  });
}

/** A complete response whose body is the REST error envelope with `code`, closing the connection. */
function expectEnvelope(res: RawExchange, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers.connection).toBe('close');
  const body = JSON.parse(res.body);
  expect(body).toMatchObject({ success: false, error: { code }, meta: { vocab_release: null } });
  expect(typeof body.error.message).toBe('string');
  expect(Number.isNaN(Date.parse(body.meta.timestamp))).toBe(false);
  expect(res.headers['x-request-id']).toBe(body.meta.request_id);
  // Reading note 12: rate headers on every response (here the client address's bucket: no key was read).
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(res.headers[name]).toMatch(/^\d+$/);
  expect(res.endedCleanly).toBe(true);
}

async function expectNormalRequestWorks(): Promise<void> {
  const res = await t.request('/v1/concepts/201826');
  expect(res.status).toBe(200);
  expect(res.body.data.concept_id).toBe(201826);
}

const authorization = () => `Authorization: Bearer ${t.key}\r\n`;

describe('request heads over the limits', () => {
  it('answers 431 in the envelope to headers larger than the limit, and closes the connection', async () => {
    const res = await exchange((s) =>
      s.write(`GET /v1/concepts/201826 HTTP/1.1\r\nHost: x\r\n${authorization()}X-Padding: ${'a'.repeat(MAX_HEADER_BYTES + 4_000)}\r\n\r\n`),
    );
    expectEnvelope(res, 431, 'request_header_fields_too_large');
    expect(JSON.parse(res.body).error.message).toContain(String(MAX_HEADER_BYTES));
    await expectNormalRequestWorks();
  });

  it('answers 431 to a 10,000-character non-ASCII query string (percent-encoded beyond the head limit)', async () => {
    const query = encodeURIComponent('é'.repeat(10_000));
    const res = await exchange((s) => s.write(`GET /v1/search/concepts?query=${query} HTTP/1.1\r\nHost: x\r\n${authorization()}\r\n`));
    expectEnvelope(res, 431, 'request_header_fields_too_large');
    await expectNormalRequestWorks();
  });

  it('answers a 10,000-character non-ASCII query string sent as raw UTF-8 bytes (not valid in a request target) with 400', async () => {
    const res = await exchange((s) => s.write(Buffer.from(`GET /v1/search/concepts?query=${'é'.repeat(10_000)} HTTP/1.1\r\nHost: x\r\n${authorization()}\r\n`, 'utf8')));
    expectEnvelope(res, 400, 'bad_request');
    expect(JSON.parse(res.body).error.message).toContain('HPE_INVALID_URL');
    await expectNormalRequestWorks();
  });

  it('answers the same request sent in small pieces (the parser sees the overflow mid-stream)', async () => {
    const request = `GET /v1/concepts/201826 HTTP/1.1\r\nHost: x\r\n${authorization()}X-Padding: ${'b'.repeat(MAX_HEADER_BYTES * 2)}\r\n\r\n`;
    const res = await exchange((s) => {
      for (let i = 0; i < request.length; i += 1_000) s.write(request.slice(i, i + 1_000));
    });
    expectEnvelope(res, 431, 'request_header_fields_too_large');
    await expectNormalRequestWorks();
  });

  it('still delivers the 431 when the client goes on sending a large body after the head', async () => {
    const res = await exchange((s) => {
      s.write(`POST /v1/search/bulk HTTP/1.1\r\nHost: x\r\n${authorization()}Content-Length: 400000\r\nX-Padding: ${'d'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`);
      s.write('e'.repeat(400_000));
    });
    expectEnvelope(res, 431, 'request_header_fields_too_large');
  });

  it('answers 414 in the envelope to a URL longer than the URL limit but within the head limit', async () => {
    const query = 'q'.repeat(MAX_URL_BYTES);
    expect(`/v1/search/concepts?query=${query}`.length).toBeLessThan(MAX_HEADER_BYTES);
    const res = await exchange((s) => s.write(`GET /v1/search/concepts?query=${query} HTTP/1.1\r\nHost: x\r\n${authorization()}\r\n`));
    expectEnvelope(res, 414, 'uri_too_long');
    expect(JSON.parse(res.body).error.details).toEqual({ max_bytes: MAX_URL_BYTES });
    await expectNormalRequestWorks();
  });

  it('answers a URL exactly at the limit normally', async () => {
    const prefix = '/v1/search/concepts?query=diabetes&x=';
    const res = await t.request(`${prefix}${'x'.repeat(MAX_URL_BYTES - prefix.length)}`);
    expect(res.status).toBe(200);
  });

  it('answers 414 to a /fhir target as an OperationOutcome (Errors rule 2)', async () => {
    const res = await exchange((s) => s.write(`GET /fhir/r4/CodeSystem?x=${'f'.repeat(MAX_URL_BYTES)} HTTP/1.1\r\nHost: x\r\n${authorization()}\r\n`));
    expect(res.status).toBe(414);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(res.headers.connection).toBe('close');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(res.body)).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'too-long' }] });
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(res.endedCleanly).toBe(true);
  });

  it('answers 431 to a /fhir target sent in one piece as an OperationOutcome', async () => {
    const res = await exchange((s) => s.write(`GET /fhir/r4/metadata HTTP/1.1\r\nHost: x\r\nX-Padding: ${'c'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`));
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'too-long' }] });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('malformed HTTP', () => {
  const malformed: Array<[string, string]> = [
    ['an invalid method', 'G@T /v1/concepts/201826 HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['a header line without a colon', 'GET /v1/concepts/201826 HTTP/1.1\r\nHost: x\r\nthis is not a header\r\n\r\n'],
    ['an invalid Content-Length', 'POST /v1/search/bulk HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n'],
  ];
  for (const [what, request] of malformed) {
    it(`answers ${what} with 400 bad_request in the envelope, naming the problem`, async () => {
      const res = await exchange((s) => s.write(request));
      expectEnvelope(res, 400, 'bad_request');
      expect(JSON.parse(res.body).error.message).toMatch(/^Malformed HTTP request: .+\(HPE_[A-Z_]+\)\.$/);
      await expectNormalRequestWorks();
    });
  }

  it('answers malformed plain HTTP (no TLS) on the same port in the envelope as well', async () => {
    const res = await exchange((s) => s.write('G@T / HTTP/1.1\r\nHost: x\r\n\r\n'), { plain: true });
    expectEnvelope(res, 400, 'bad_request');
  });

  it('answers an over-long URL sent as plain HTTP with 414, and a normal plain-HTTP request still with https_required', async () => {
    const res = await exchange((s) => s.write(`GET /v1/search/concepts?query=${'p'.repeat(MAX_URL_BYTES)} HTTP/1.1\r\nHost: x\r\n\r\n`), { plain: true });
    expectEnvelope(res, 414, 'uri_too_long');
    const plain = await t.request('/v1/concepts/201826', { plain: true });
    expect(plain.status).toBe(400);
    expect(plain.body.error.code).toBe('https_required');
  });
});

describe('slow clients', () => {
  it('answers 408 in the envelope to a body that stops arriving (Content-Length 100, 20 bytes sent)', async () => {
    const res = await exchange((s) =>
      s.write(`POST /v1/search/bulk HTTP/1.1\r\nHost: x\r\n${authorization()}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n${'{"searches":[{"q":"a'.slice(0, 20)}`),
    );
    expectEnvelope(res, 408, 'request_timeout');
    expect(JSON.parse(res.body).error.message).toContain(`${REQUEST_TIMEOUT_MS / 1000} s`);
    await expectNormalRequestWorks();
  });

  it('answers 408 to headers that stop arriving', async () => {
    const res = await exchange((s) => s.write(`GET /v1/concepts/201826 HTTP/1.1\r\nHost: x\r\nX-Partial: still typ`));
    expectEnvelope(res, 408, 'request_timeout');
  });

  it('answers 408 to a slow plain-HTTP client too', async () => {
    const res = await exchange((s) => s.write('GET /v1/concepts/201826 HTTP/1.1\r\nHost: x\r\nX-Partial: still typ'), { plain: true });
    expectEnvelope(res, 408, 'request_timeout');
  });

  it('closes a connection that never says anything, without an answer', async () => {
    const closed = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port: t.port });
      socket.on('error', () => {});
      socket.on('close', () => resolve(true));
    });
    expect(closed).toBe(true);
  });
});
