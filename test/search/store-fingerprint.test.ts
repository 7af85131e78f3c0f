/**
 * A store records the fingerprint of the search index code that built it; a server whose search
 * index differs refuses that store (with the reload instruction) and keeps serving the others.
 * Checked through a real server: the fingerprint row of one release is changed on disk.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { loadRelease } from '../../src/importer/load-release.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { ReleaseRegistry } from '../../src/store/release-registry.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { concept } from './search-fixture.js';

let server: TestServer;
let sourceDir: string;

beforeAll(async () => {
  sourceDir = writeAthenaFixture({ concepts: [concept('Thunder fever', { concept_id: 11 }), concept('Plain thing', { concept_id: 12 })] });
  server = await startTestServer({ releases: [{ dir: sourceDir, label: '2025.1' }, { dir: sourceDir, label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await server?.close();
  rmSync(sourceDir, { recursive: true, force: true });
});

function setFingerprint(label: string, value: string | null): string {
  const build = listReleaseBuilds(server.dataDir).find((b) => b.label === label)!;
  const db = new Database(build.storePath);
  try {
    if (value === null) db.exec("DELETE FROM search_index_meta WHERE key = 'fingerprint'; UPDATE search_index_meta SET value = '1' WHERE key = 'version'");
    else db.prepare("UPDATE search_index_meta SET value = ? WHERE key = 'fingerprint'").run(value);
  } finally {
    db.close();
  }
  return build.storePath;
}

describe('store fingerprint', () => {
  it('both releases serve while their fingerprints match this server', async () => {
    for (const release of ['2025.1', '2025.2']) {
      const res = await server.request(`/v1/search/concepts?query=thunder&vocab_release=${release}`);
      expect(res.status).toBe(200);
      expect(res.body.data.concepts ?? res.body.data).toBeDefined();
    }
  });

  it('a store built with another fingerprint is refused with the reload instruction; the other releases keep serving', async () => {
    await loadRelease({ sourceDir, dataDir: server.dataDir, label: '2024.4', quiet: true });
    const storePath = setFingerprint('2024.4', '0123456789abcdef');
    const errors: string[] = [];
    const registry = new ReleaseRegistry({ dataDir: server.dataDir, openStore: openSqliteRelease, rescanIntervalMs: 0, onError: (m) => errors.push(m) });
    try {
      expect(registry.labels().sort()).toEqual(['2025.1', '2025.2']);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        new RegExp(
          `^store ${storePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was built by a different search index \\(fingerprint 0123456789abcdef, this server expects [0-9a-f]{16}\\): ` +
            'reload it with omopterm load .* --release 2024\\.4 --replace$',
        ),
      );
    } finally {
      registry.close();
    }
    // The running server: the refused release is not served (Errors: unknown release is a 400 naming those that are), the others are.
    server.server.registry.rescan();
    const refused = await server.request('/v1/search/concepts?query=thunder&vocab_release=2024.4');
    expect(refused.status).toBe(400);
    expect(refused.body.success).toBe(false);
    expect(refused.body.error.details.available_releases.sort()).toEqual(['2025.1', '2025.2']);
    const served = await server.request('/v1/search/concepts?query=thunder&vocab_release=2025.1');
    expect(served.status).toBe(200);
    expect(served.headers['x-request-id']).toBe(served.body.meta.request_id);
  });

  it('a store from before fingerprints (search index format 1) is refused with the same instruction', async () => {
    await loadRelease({ sourceDir, dataDir: server.dataDir, label: '2024.3', quiet: true });
    setFingerprint('2024.3', null);
    const errors: string[] = [];
    const registry = new ReleaseRegistry({ dataDir: server.dataDir, openStore: openSqliteRelease, rescanIntervalMs: 0, onError: (m) => errors.push(m) });
    try {
      expect(registry.labels()).not.toContain('2024.3');
      expect(errors.some((e) => e.includes('(fingerprint none, this server expects') && e.endsWith('--release 2024.3 --replace'))).toBe(true);
    } finally {
      registry.close();
    }
  });
});
