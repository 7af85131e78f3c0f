#!/usr/bin/env node
// Runs the whole test suite with vitest and ends with the plain line `N passed, N failed`
// (CI reads that line; vitest's own summary is not one of the formats it parses).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const outDir = '.test-output';
mkdirSync(outDir, { recursive: true });
const report = join(outDir, 'vitest.json');
rmSync(report, { force: true });

const run = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(report)) {
  const result = JSON.parse(readFileSync(report, 'utf8'));
  passed = result.numPassedTests ?? 0;
  failed = (result.numFailedTests ?? 0) + (result.numRuntimeErrorTestSuites ?? 0);
  skipped = (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
} else {
  failed = 1;
}
const ok = run.status === 0 && failed === 0 && passed > 0;
if (!ok && failed === 0) failed = 1; // vitest failed outside any test (config error, no tests found)
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(ok ? 0 : 1);
