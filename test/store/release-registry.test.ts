/**
 * The release registry opens every build of a data directory through the store opener it is given
 * (the one place that chooses a store implementation is src/store/openers/release-store-openers.ts), and
 * keeps serving what it has when an opener refuses a build.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDirName, releasesDir, type ReleaseBuild } from '../../src/store/data-dir.js';
import { ReleaseRegistry } from '../../src/store/release-registry.js';
import type { ReleaseStore, ReleaseStoreOpener } from '../../src/store/release-store.js';
import { MANIFEST_FILE_NAME, STORE_FILE_NAME } from '../../src/store/schema.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'omopterm-registry-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** A published build as `omopterm load` leaves it (the store file's content is the opener's business). */
function publish(label: string, buildId: string, releaseDate?: string): void {
  const dir = join(releasesDir(dataDir), buildDirName(label, buildId));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, MANIFEST_FILE_NAME), JSON.stringify({ label, build_id: buildId, ...(releaseDate ? { release_date: releaseDate } : {}) }));
  writeFileSync(join(dir, STORE_FILE_NAME), '');
}

/** An opener that records what it opened and closed, and refuses the builds in `refuse`. */
function recordingOpener(refuse = new Set<string>()) {
  const opened: string[] = [];
  const closed: string[] = [];
  const open: ReleaseStoreOpener = (build: ReleaseBuild) => {
    const key = buildDirName(build.label, build.buildId);
    if (refuse.has(key)) throw new Error(`cannot open ${key}`);
    opened.push(key);
    return { manifest: build.manifest, close: () => closed.push(key) } as unknown as ReleaseStore;
  };
  return { open, opened, closed, refuse };
}

describe('ReleaseRegistry', () => {
  it('opens every build through the injected opener and serves the store it returned', () => {
    publish('2024.2', 'b1');
    publish('2025.1', 'b1');
    const opener = recordingOpener();
    const registry = new ReleaseRegistry({ dataDir, openStore: opener.open, rescanIntervalMs: 0 });
    try {
      expect(opener.opened.sort()).toEqual(['2024.2__b1', '2025.1__b1']);
      expect(registry.labels()).toEqual(['2024.2', '2025.1']);
      const selected = registry.select('2024.2');
      expect(selected.ok && selected.release.store.manifest).toEqual({ label: '2024.2', build_id: 'b1' });
      const latest = registry.select('latest');
      expect(latest.ok && latest.release.build.buildId).toBe('b1');
      expect(latest.ok && latest.release.label).toBe('2025.1');
    } finally {
      registry.close();
    }
    expect(opener.closed.sort()).toEqual(['2024.2__b1', '2025.1__b1']);
  });

  it('reports and skips a build the opener refuses, keeps serving the rest, and does not retry it', () => {
    publish('2024.2', 'b1');
    publish('2025.1', 'b1');
    const opener = recordingOpener(new Set(['2025.1__b1']));
    const errors: string[] = [];
    const registry = new ReleaseRegistry({ dataDir, openStore: opener.open, rescanIntervalMs: 0, onError: (m) => errors.push(m) });
    try {
      expect(errors).toEqual(['cannot open 2025.1__b1']);
      expect(registry.labels()).toEqual(['2024.2']);
      expect(registry.getDefaultLabel()).toBe('2024.2');
      registry.rescan();
      expect(errors).toHaveLength(1);
    } finally {
      registry.close();
    }
  });

  it('opens a newer build of a label at rescan; if the opener refuses it, the older build keeps serving', () => {
    publish('2025.1', 'b1');
    const opener = recordingOpener(new Set(['2025.1__b2']));
    const changes: string[][] = [];
    const registry = new ReleaseRegistry({ dataDir, openStore: opener.open, rescanIntervalMs: 0, onError: () => {}, onChange: (labels) => changes.push(labels) });
    try {
      publish('2025.1', 'b2');
      registry.rescan();
      const refused = registry.select('2025.1');
      expect(refused.ok && refused.release.buildId).toBe('b1');
      publish('2025.1', 'b3');
      registry.rescan();
      const replaced = registry.select('2025.1');
      expect(replaced.ok && replaced.release.buildId).toBe('b3');
      expect(opener.opened).toEqual(['2025.1__b1', '2025.1__b3']);
      expect(changes).toEqual([['2025.1'], ['2025.1']]);
    } finally {
      registry.close();
    }
  });

  it('serves the demo label beside real ones: older than every real release, selectable in any case, default only when marked', () => {
    publish('2025.1', 'b1');
    publish('demo', 'b1');
    publish('2024.4', 'b1');
    publish('<script>', 'b1'); // not a label a data directory can hold: ignored
    const registry = new ReleaseRegistry({ dataDir, openStore: recordingOpener().open, rescanIntervalMs: 0 });
    try {
      expect(registry.labels()).toEqual(['demo', '2024.4', '2025.1']);
      expect(registry.getDefaultLabel()).toBe('2025.1');
      const demo = registry.select('DEMO');
      expect(demo.ok && demo.release.label).toBe('demo');
      writeFileSync(join(dataDir, 'default-release'), 'demo\n');
      registry.rescan();
      expect(registry.getDefaultLabel()).toBe('demo');
      const unnamed = registry.select(undefined);
      expect(unnamed.ok && unnamed.release.label).toBe('demo');
    } finally {
      registry.close();
    }
  });

  it('gives the demo its own FHIR code-system version, so a real release of the same vocabulary date owns omop-v<date>', () => {
    publish('demo', 'b1', '2025-08-27'); // the demo vocabulary carries a real release's date
    publish('2025.2', 'b1', '2025-08-27');
    writeFileSync(join(dataDir, 'default-release'), 'demo\n');
    const registry = new ReleaseRegistry({ dataDir, openStore: recordingOpener().open, rescanIntervalMs: 0 });
    try {
      for (const selector of ['20250827', 'omop-v20250827']) {
        const real = registry.select(selector);
        expect(real.ok && real.release.label, selector).toBe('2025.2');
      }
      const demo = registry.select('omop-vdemo');
      expect(demo.ok && demo.release.label).toBe('demo');
    } finally {
      registry.close();
    }
  });
});
