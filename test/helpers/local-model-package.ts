/**
 * Whether the optional local-model package (@huggingface/transformers, installed by `npm run install:local-model`) is
 * present; the suites that run a local model skip without it, noted for the run's notice.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { noteSkip } from './skip-notice.js';

/** The package the local-model provider imports (TRANSFORMERS_PACKAGE in its module). */
export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** True when the package is not installed beside the project (the calling test file is then noted). */
export function localModelPackageMissing(): boolean {
  const missing = !existsSync(join(REPO_ROOT, 'node_modules', TRANSFORMERS_PACKAGE, 'package.json'));
  if (missing) noteSkip('local-model', [TRANSFORMERS_PACKAGE]);
  return missing;
}
