/**
 * Where the tests find the shared real-data vocabulary subsets: `OMOPTERM_SHARED_VOCAB`, by default `../shared/vocab`
 * beside the repository. A suite that needs a subset asks `sharedVocabMissing(...)` for its skip condition; each file that
 * skips is noted for the one-line notice `test/helpers/global-setup.ts` prints at the end of the run.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject } from 'vitest';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The directory holding the subsets (eunomia-gibleed-2019/, cdm-spec/, fhir-omop-ig/, …). */
export const SHARED_VOCAB = resolve(REPO_ROOT, process.env.OMOPTERM_SHARED_VOCAB || '../shared/vocab');

/** A path inside the shared subsets. */
export const sharedVocabPath = (...segments: string[]): string => join(SHARED_VOCAB, ...segments);

declare module 'vitest' {
  export interface ProvidedContext {
    /** Directory where skipping test files leave one marker each (set by test/helpers/global-setup.ts). */
    sharedVocabSkipDir: string;
  }
}

/**
 * True when any of the named subsets (folders or files under SHARED_VOCAB) is absent; the calling test file is then
 * noted as skipped for want of them. Use as `describe.skipIf(sharedVocabMissing('cdm-spec'))(…)`.
 */
export function sharedVocabMissing(...subsets: string[]): boolean {
  const missing = subsets.filter((s) => !existsSync(sharedVocabPath(s)));
  if (missing.length === 0) return false;
  let markerDir: string | undefined;
  try {
    markerDir = inject('sharedVocabSkipDir');
  } catch {
    markerDir = undefined; // run without the global setup: the skip still shows in vitest's own counts
  }
  const testFile = expect.getState().testPath ?? 'unknown';
  if (markerDir && existsSync(markerDir)) {
    const name = createHash('sha1').update(testFile).digest('hex').slice(0, 16);
    writeFileSync(join(markerDir, name), `${testFile}\n${missing.join('\n')}\n`);
  }
  return true;
}
