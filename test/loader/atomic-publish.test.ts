/**
 * A release becomes visible by one rename when complete; a failed or aborted load leaves every
 * existing release serving and no temp dir behind.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexBuilder } from '../../src/importer/index-builder.js';
import { INDEX_BUILDERS } from '../../src/importer/index-builders.js';
import { loadRelease } from '../../src/importer/load-release.js';
import { listReleaseBuilds, readDefaultLabel, releasesDir } from '../../src/store/data-dir.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { CONCEPT_HEADER, conceptRow, makeTempDir, tab, writeLines, writeMinimalAthenaDir } from './loader-fixtures.js';

let goodDir: string;
let brokenDir: string;
let dataDir: string;

beforeEach(() => {
  goodDir = writeMinimalAthenaDir();
  brokenDir = makeTempDir('omopterm-atomic-broken-');
  writeLines(brokenDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER), tab(conceptRow(1, 'New name')), tab(conceptRow(2, 'Bad', { valid_end_date: '20991331' }))]);
  dataDir = makeTempDir('omopterm-atomic-data-');
});
afterEach(() => {
  for (const dir of [goodDir, brokenDir, dataDir]) rmSync(dir, { recursive: true, force: true });
});

/** Names in releases/ (temp dirs start with a dot). */
const releaseDirEntries = () => readdirSync(releasesDir(dataDir)).sort();

function expectReleaseAServing(buildId: string): void {
  const builds = listReleaseBuilds(dataDir);
  expect(builds.map((b) => [b.label, b.buildId])).toEqual([['2025.1', buildId]]);
  const store = openSqliteRelease(builds[0]!);
  try {
    expect(store.concepts.byId(1)?.concept_name).toBe('Alpha');
  } finally {
    store.close();
  }
  expect(releaseDirEntries().filter((n) => n.startsWith('.'))).toEqual([]);
}

describe('failed loads leave existing releases serving', () => {
  it('a broken --replace of A and a broken load of B change nothing', async () => {
    const a = await loadRelease({ sourceDir: goodDir, dataDir, label: '2025.1', quiet: true });
    expect(a.madeDefault).toBe(true); // the first release loaded becomes the default

    await expect(loadRelease({ sourceDir: brokenDir, dataDir, label: '2025.1', replace: true, quiet: true })).rejects.toThrow(
      /^CONCEPT\.csv:3:\d+: valid_end_date is not a valid date/,
    );
    expectReleaseAServing(a.buildId);

    await expect(loadRelease({ sourceDir: brokenDir, dataDir, label: '2025.2', quiet: true })).rejects.toThrow(/CONCEPT\.csv:3/);
    expectReleaseAServing(a.buildId);
    expect(releaseDirEntries()).toEqual([`2025.1__${a.buildId}`]);
    expect(readDefaultLabel(dataDir)).toBe('2025.1');
  });

  it('a failing index builder fails the load before anything is published', async () => {
    const a = await loadRelease({ sourceDir: goodDir, dataDir, label: '2025.1', quiet: true });
    const failing: IndexBuilder = {
      name: 'exploding index',
      build: () => {
        throw new Error('index build failed on purpose');
      },
    };
    await expect(
      loadRelease({ sourceDir: goodDir, dataDir, label: '2025.1', replace: true, quiet: true, indexBuilders: [...INDEX_BUILDERS, failing] }),
    ).rejects.toThrow('index build failed on purpose');
    expectReleaseAServing(a.buildId);
  });

  it('an aborted load removes its temp dir', async () => {
    const a = await loadRelease({ sourceDir: goodDir, dataDir, label: '2025.1', quiet: true });
    const controller = new AbortController();
    const seenTempDirs: string[] = [];
    const load = loadRelease({
      sourceDir: goodDir,
      dataDir,
      label: '2025.1',
      replace: true,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.type === 'table-start' && event.table === 'concept') {
          seenTempDirs.push(...releaseDirEntries().filter((n) => n.startsWith('.tmp-2025.1-')));
          controller.abort(new Error('stopped by the test'));
        }
      },
    });
    await expect(load).rejects.toThrow('stopped by the test');
    expect(seenTempDirs).toHaveLength(1);
    expectReleaseAServing(a.buildId);
  });
});

describe('publishing', () => {
  it('refuses an existing label without replace, and replaces it with replace', async () => {
    const a = await loadRelease({ sourceDir: goodDir, dataDir, label: '2025.1', quiet: true });
    await expect(loadRelease({ sourceDir: goodDir, dataDir, label: '2025.1', quiet: true })).rejects.toThrow(
      /^release 2025\.1 is already loaded \(build .*\); add --replace to load it again/,
    );
    expectReleaseAServing(a.buildId);

    const b = await loadRelease({ sourceDir: goodDir, dataDir, label: '2025.1', replace: true, quiet: true });
    expect(b.buildId).not.toBe(a.buildId);
    expect(b.removedBuilds).toEqual([join(releasesDir(dataDir), `2025.1__${a.buildId}`)]);
    expect(releaseDirEntries()).toEqual([`2025.1__${b.buildId}`]);
    // The published dir holds exactly the store, its manifest and its vectors (no staging leftovers).
    expect(readdirSync(b.releaseDir).sort()).toEqual(['manifest.json', 'semantic', 'store.sqlite']);
    expect(JSON.parse(readFileSync(join(b.releaseDir, 'manifest.json'), 'utf8'))).toEqual(b.manifest);
    expect(b.manifest).toMatchObject({ label: '2025.1', build_id: b.buildId, source_vocabulary_version: 'v5.0 27-AUG-25', release_date: '2025-08-27' });
  });

  it('marks the default only for the first release or with makeDefault', async () => {
    await loadRelease({ sourceDir: goodDir, dataDir, label: '2025.1', quiet: true });
    const second = await loadRelease({ sourceDir: goodDir, dataDir, label: '2025.2', quiet: true });
    expect(second.madeDefault).toBe(false);
    expect(readDefaultLabel(dataDir)).toBe('2025.1');
    const third = await loadRelease({ sourceDir: goodDir, dataDir, label: '2024.2', makeDefault: true, quiet: true });
    expect(third.madeDefault).toBe(true);
    expect(readDefaultLabel(dataDir)).toBe('2024.2');
  });

  it('rejects labels that are not YYYY.Q', async () => {
    for (const label of ['2025', '2025.0', 'v2025.1', '2025.1.1', '../x']) {
      await expect(loadRelease({ sourceDir: goodDir, dataDir, label, quiet: true })).rejects.toThrow(`release label '${label}' is not of the form YYYY.Q`);
    }
    expect(existsSync(releasesDir(dataDir))).toBe(false);
  });
});

describe('temp dirs of other loads', () => {
  it('removes temp dirs whose process is gone', async () => {
    const stale = join(releasesDir(dataDir), '.tmp-2025.1-20200101000000000p999999');
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, 'owner.json'), JSON.stringify({ pid: 999_999_999, startTime: null }));
    writeFileSync(join(stale, 'store.sqlite'), 'partial');
    const ownerless = join(releasesDir(dataDir), '.tmp-2025.3-20200101000000000p999999999');
    mkdirSync(ownerless);
    const result = await loadRelease({ sourceDir: goodDir, dataDir, label: '2025.2', quiet: true });
    expect(result.removedStaleTempDirs.sort()).toEqual([stale, ownerless]);
    expect(releaseDirEntries()).toEqual([`2025.2__${result.buildId}`]);
  });

  it('refuses to load a label another live process is loading', async () => {
    const live = join(releasesDir(dataDir), '.tmp-2025.1-20200101000000000p1');
    mkdirSync(live, { recursive: true });
    // The parent process (vitest) is alive; startTime null means "trust the pid".
    writeFileSync(join(live, 'owner.json'), JSON.stringify({ pid: process.ppid, startTime: null }));
    await expect(loadRelease({ sourceDir: goodDir, dataDir, label: '2025.1', quiet: true })).rejects.toThrow(
      `another load of release 2025.1 is running (process ${process.ppid}`,
    );
    // Other labels are not blocked, and the live temp dir is left alone.
    await loadRelease({ sourceDir: goodDir, dataDir, label: '2025.2', quiet: true });
    expect(existsSync(live)).toBe(true);
  });
});
