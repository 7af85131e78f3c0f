/**
 * Vitest global setup: builds the CLI the tests spawn (test/helpers/cli-build.ts), gives the test files a directory where
 * those that skip suites for want of something outside the repository leave a marker (test/helpers/skip-notice.ts), and
 * at the end of the run prints one line per cause.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildCli } from './cli-build.js';
import { SHARED_VOCAB } from './shared-vocab.js';
import type { SkipCause } from './skip-notice.js';

const files = (n: number) => `${n} test file${n === 1 ? '' : 's'}`;

const NOTICE: Record<SkipCause, (missing: string[], fileCount: number) => string> = {
  'shared-vocab': (missing, n) =>
    `shared vocabulary subsets not found at ${SHARED_VOCAB} (${missing.join(', ')}): ${files(n)} skipped the suites that read them; ` +
    'set OMOPTERM_SHARED_VOCAB to the directory holding them (default ../shared/vocab beside the repository) to run them',
  'local-model': (missing, n) =>
    `optional package ${missing.join(', ')} not installed: ${files(n)} skipped the local-model suites; run \`npm run install:local-model\` to run them`,
};

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built CLI entry (.test-build/cli/main.js), or null: then the tests run src/cli/main.ts through tsx. */
    cliEntry: string | null;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  project.provide('cliEntry', await buildCli());
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
