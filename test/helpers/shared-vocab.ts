/**
 * Where the tests find the shared real-data vocabulary subsets: `OMOPTERM_SHARED_VOCAB`, by default `../shared/vocab`
 * beside the repository. A suite that needs some asks `sharedVocabMissing(...)` for its skip condition.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { noteSkip } from './skip-notice.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The directory holding the subsets (eunomia-gibleed-2019/, cdm-spec/, fhir-omop-ig/, …). */
export const SHARED_VOCAB = resolve(REPO_ROOT, process.env.OMOPTERM_SHARED_VOCAB || '../shared/vocab');

/** A path inside the shared subsets. */
export const sharedVocabPath = (...segments: string[]): string => join(SHARED_VOCAB, ...segments);

/**
 * True when any of the named subsets (folders under SHARED_VOCAB) is absent; the calling test file is then noted for
 * the run's notice. Use as `describe.skipIf(sharedVocabMissing('cdm-spec'))(…)`.
 */
export function sharedVocabMissing(...subsets: string[]): boolean {
  const missing = subsets.filter((s) => !existsSync(sharedVocabPath(s)));
  if (missing.length > 0) noteSkip('shared-vocab', missing);
  return missing.length > 0;
}
