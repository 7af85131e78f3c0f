/**
 * Test files skipped for want of something outside the repository (the shared vocabulary subsets, the optional
 * local-model package, Chromium for the real-browser tests, PostgreSQL and Redis for the shared-state tests) leave a marker here; `test/helpers/global-setup.ts` turns the markers into one line per cause.
 */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';

/** What a skip was for want of. */
export type SkipCause = 'shared-vocab' | 'local-model' | 'browser' | 'postgres' | 'redis';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Directory where skipping test files leave one marker each per cause (set by test/helpers/global-setup.ts). */
    skipNoticeDir: string;
  }
}

/** Notes that the calling test file skips suites for want of `missing` (names of what is absent). */
export function noteSkip(cause: SkipCause, missing: string[]): void {
  let dir: string | undefined;
  try {
    dir = inject('skipNoticeDir');
  } catch {
    dir = undefined; // a run without the global setup: the skip still shows in vitest's own counts
  }
  if (!dir || !existsSync(dir)) return;
  const testFile = expect.getState().testPath ?? 'unknown';
  const name = createHash('sha1').update(`${cause}\n${testFile}`).digest('hex').slice(0, 16);
  writeFileSync(join(dir, name), JSON.stringify({ cause, testFile, missing }));
}
