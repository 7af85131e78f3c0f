/**
 * Vitest global setup: gives the test files a directory where those skipped for want of the shared vocabulary subsets
 * leave a marker, and at the end of the run prints one line saying how many were skipped and how to run them.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { SHARED_VOCAB } from './shared-vocab.js';

export default function setup(project: TestProject): () => void {
  const skipDir = mkdtempSync(join(tmpdir(), 'omopterm-shared-skips-'));
  project.provide('sharedVocabSkipDir', skipDir);
  return () => {
    const markers = readdirSync(skipDir).map((name) => readFileSync(join(skipDir, name), 'utf8').split('\n').filter(Boolean));
    rmSync(skipDir, { recursive: true, force: true });
    if (markers.length === 0) return;
    const subsets = [...new Set(markers.flatMap((lines) => lines.slice(1)))].sort();
    console.log(
      `shared vocabulary subsets not found at ${SHARED_VOCAB} (${subsets.join(', ')}): ${markers.length} test file${markers.length === 1 ? '' : 's'} ` +
        'skipped the suites that read them; set OMOPTERM_SHARED_VOCAB to the directory holding them (default ../shared/vocab beside the repository) to run them',
    );
  };
}
