/**
 * The layout of a data directory (releases/<label>__<build-id>/, their temp dirs, default-release, state.sqlite,
 * tls/) and the operations on it; a build becomes visible by one atomic rename of its finished temp directory.
 */
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeDirectory } from './make-directory.js';
import { compareReleaseLabels, isStoredReleaseLabel, type ReleaseManifest } from './release-manifest.js';
import { MANIFEST_FILE_NAME, STORE_FILE_NAME } from './schema.js';

export const DEFAULT_DATA_DIR = 'omopterm-data';

export function resolveDataDir(dataDir: string | undefined): string {
  return resolve(dataDir ?? process.env.OMOPTERM_DATA_DIR ?? DEFAULT_DATA_DIR);
}

export function releasesDir(dataDir: string): string {
  return join(dataDir, 'releases');
}

/** The embedded state store (API keys, usage) of a data directory. */
export function stateStorePath(dataDir: string): string {
  return join(dataDir, 'state.sqlite');
}

export function buildDirName(label: string, buildId: string): string {
  return `${label}__${buildId}`;
}

export function tempBuildDirName(label: string, buildId: string): string {
  return `.tmp-${label}-${buildId}`;
}

export interface ReleaseBuild {
  label: string;
  buildId: string;
  dir: string;
  storePath: string;
  manifest: ReleaseManifest;
}

/** Every complete build, newest build per label only, sorted by label. */
export function listReleaseBuilds(dataDir: string): ReleaseBuild[] {
  const root = releasesDir(dataDir);
  if (!existsSync(root)) return [];
  const newest = new Map<string, ReleaseBuild>();
  for (const name of readdirSync(root)) {
    if (name.startsWith('.')) continue;
    const sep = name.lastIndexOf('__');
    if (sep <= 0) continue;
    const label = name.slice(0, sep);
    const buildId = name.slice(sep + 2);
    if (!isStoredReleaseLabel(label)) continue;
    const dir = join(root, name);
    const manifestPath = join(dir, MANIFEST_FILE_NAME);
    const storePath = join(dir, STORE_FILE_NAME);
    if (!existsSync(manifestPath) || !existsSync(storePath)) continue;
    let manifest: ReleaseManifest;
    try {
      manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as ReleaseManifest;
    } catch {
      continue;
    }
    const current = newest.get(label);
    if (!current || current.buildId < buildId) newest.set(label, { label, buildId, dir, storePath, manifest });
  }
  return [...newest.values()].sort((a, b) => compareReleaseLabels(a.label, b.label));
}

/** All build directories of a label except the given one (superseded builds to remove). */
export function supersededBuildDirs(dataDir: string, label: string, keepBuildId: string): string[] {
  const root = releasesDir(dataDir);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => name.startsWith(`${label}__`) && name !== buildDirName(label, keepBuildId))
    .map((name) => join(root, name));
}

export function readDefaultLabel(dataDir: string): string | null {
  const file = join(dataDir, 'default-release');
  if (!existsSync(file)) return null;
  const label = readFileSync(file, 'utf8').trim();
  return label || null;
}

export function writeDefaultLabel(dataDir: string, label: string): void {
  makeDirectory(dataDir);
  const file = join(dataDir, 'default-release');
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, `${label}\n`);
  renameSync(tmp, file);
}

/**
 * The default release: the one marked with `load --default` or `releases default` if it still exists,
 * otherwise the newest label (the demo label counts as oldest). Null when nothing is loaded.
 */
export function effectiveDefaultLabel(dataDir: string, builds: ReleaseBuild[]): string | null {
  const marked = readDefaultLabel(dataDir);
  if (marked && builds.some((b) => b.label === marked)) return marked;
  return builds.length ? builds[builds.length - 1]!.label : null;
}

/** A sortable, unique build id: UTC timestamp plus pid. */
export function newBuildId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:.TZ]/g, '').slice(0, 17)}p${process.pid}`;
}
