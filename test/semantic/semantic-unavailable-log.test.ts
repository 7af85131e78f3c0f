/**
 * The expected 503 semantic_unavailable (a release loaded without vectors) is logged as the expected
 * condition it is: one warn line (pino level 40) with the code and the message, no error line (level
 * 50) and no stack trace. The server's log is read through the logger's stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { DEMO_VOCABULARY_DIR } from '../metadata/concept-file.js';

interface LogLine {
  level: number;
  msg?: string;
  code?: string;
  status?: number;
  err?: { stack?: string };
  reqId?: string;
}

let t: TestServer;
const lines: string[] = [];

beforeAll(async () => {
  t = await startTestServer({ logStream: { write: (line) => void lines.push(line) } });
  // as `omopterm load --skip-embeddings` leaves it
  await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir: t.dataDir, label: '2025.1', quiet: true, embeddings: false, makeDefault: true });
  t.server.registry.rescan();
});
afterAll(async () => {
  await t?.close();
});

describe('503 semantic_unavailable in the server log', () => {
  it('is one warn line naming the code, without a stack, and nothing at error level', async () => {
    lines.length = 0;
    const r = await t.request('/v1/search/semantic?query=diabetes&vocab_release=2025.1');
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('semantic_unavailable');

    const logged = lines.map((line) => JSON.parse(line) as LogLine);
    expect(logged.length).toBeGreaterThan(0); // the stream does receive the request's lines
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    const about = logged.filter((l) => l.code === 'semantic_unavailable' || /semantic|embed/i.test(l.msg ?? ''));
    expect(about).toHaveLength(1);
    expect(about[0]).toMatchObject({ level: 40, status: 503, code: 'semantic_unavailable', reqId: r.body.meta.request_id });
    expect(about[0]!.msg).toBe(r.body.error.message);
    expect(about[0]!.err).toBeUndefined();
    expect(lines.join('')).not.toMatch(/\n\s+at /); // no stack trace anywhere
  });
});
