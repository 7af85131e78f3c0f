/**
 * Loads of fixture releases for test servers, done once per run and copied after: a release is loaded with the real
 * loader the first time a (source files, label) pair is asked for with this src/, its build directory kept under
 * .test-output/release-cache/<src hash>/, and later servers get a copy of that build (and the default marker the loader
 * would write). The loader's own tests call loadRelease directly and never go through here.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { listReleaseBuilds, readDefaultLabel, releasesDir, writeDefaultLabel } from '../../src/store/data-dir.js';
import { RELEASE_CACHE_ROOT } from './cli-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Hash of src/ for this run (test/helpers/cli-build.ts): the release cache is valid for it only. */
    sourceHash: string | null;
  }
}

function sourceHash(): string | null {
  try {
    return inject('sourceHash') ?? null;
  } catch {
    return null;
  }
}

function hashOfDirectory(dir: string): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(dir, file);
    hash.update(file).update('\0');
    try {
      hash.update(readFileSync(path));
    } catch {
      hash.update('(directory)');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * Puts release `label` loaded from `sourceDir` into `dataDir`, as `loadRelease({ sourceDir, dataDir, label, makeDefault })`
 * would; from the cache when this src/ already loaded the same files under the same label.
 */
export async function loadCachedRelease(sourceDir: string, dataDir: string, label: string, makeDefault: boolean): Promise<void> {
  const srcHash = sourceHash();
  const labelTaken = listReleaseBuilds(dataDir).some((b) => b.label === label);
  if (!srcHash || labelTaken) {
    await loadRelease({ sourceDir, dataDir, label, makeDefault, quiet: true });
    return;
  }
  const entry = join(RELEASE_CACHE_ROOT, srcHash.slice(0, 16), createHash('sha256').update(label).update('\0').update(hashOfDirectory(sourceDir)).digest('hex').slice(0, 24));
  if (!existsSync(entry)) {
    mkdirSync(dirname(entry), { recursive: true });
    const scratch = mkdtempSync(join(dirname(entry), '.loading-'));
    try {
      await loadRelease({ sourceDir, dataDir: scratch, label, quiet: true });
      renameSync(releasesDir(scratch), entry);
    } catch (err) {
      if (!existsSync(entry)) throw err; // else another worker cached the same release first: use that one
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  const builds = readdirSync(entry);
  if (builds.length !== 1) throw new Error(`release cache entry ${entry} holds ${builds.length} builds, expected one`);
  const buildName = builds[0]!;
  const firstRelease = readDefaultLabel(dataDir) === null && !listReleaseBuilds(dataDir).some((b) => b.label !== label);
  mkdirSync(releasesDir(dataDir), { recursive: true });
  cpSync(join(entry, buildName), join(releasesDir(dataDir), buildName), { recursive: true });
  if (makeDefault || firstRelease) writeDefaultLabel(dataDir, label);
}
