/** A store loaded before the mapping quality tables existed is refused at open with a plain explanation. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-mq-older-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('opening a store without the mapping quality tables', () => {
  it('fails with "load the release again", naming the release', async () => {
    const dir = writeAthenaFixture({ concepts: [{ concept_id: 1, concept_name: 'One' }] });
    await loadRelease({ sourceDir: dir, dataDir, label: '2024.1', quiet: true });
    const build = listReleaseBuilds(dataDir).find((b) => b.label === '2024.1')!;
    openSqliteRelease(build).close(); // as loaded: opens
    const db = new Database(build.storePath);
    db.exec('DROP TABLE mapping_coverage_target');
    db.close();
    expect(() => openSqliteRelease(build)).toThrow(/release 2024\.1 has no mapping quality tables .*load the release again/);
  });
});
