#!/usr/bin/env node
// Runs the whole test suite with vitest and ends with the plain line `N passed, N failed` (CI reads that line; vitest's
// own summary is not one of the formats it parses). A suite whose setup failed counts as one failed, read from the JSON report.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const VITEST = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'vitest', 'vitest.mjs');
const outDir = process.env.OMOPTERM_TEST_OUTPUT || '.test-output';
mkdirSync(outDir, { recursive: true });
const report = resolve(outDir, 'vitest.json'); // absolute: vitest resolves a relative one against --root
rmSync(report, { force: true });

const run = spawnSync(
  process.execPath,
  [VITEST, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);

/**
 * Counts from vitest's JSON report. A test file that failed with a message of its own failed in setup (collecting it,
 * or a file-level hook such as beforeAll); its tests, reported as skipped, are not counted as skipped. A describe
 * block whose own hook failed is not named in the report, only counted in numFailedTestSuites: the failed suites that
 * no failing test and no failed file accounts for are those.
 */
function countResults(result) {
  const files = result.testResults ?? [];
  const setupFailed = files.filter((f) => f.status === 'failed' && f.message);
  const accounted = new Set();
  for (const file of files) {
    if (file.status === 'failed') accounted.add(file.name);
    for (const a of file.assertionResults) {
      if (a.status !== 'failed') continue;
      for (let depth = 1; depth <= a.ancestorTitles.length; depth++) accounted.add([file.name, ...a.ancestorTitles.slice(0, depth)].join(' > '));
    }
  }
  const failedHooks = Math.max(0, (result.numFailedTestSuites ?? 0) - accounted.size);
  const skippedBySetup = setupFailed.reduce((n, f) => n + f.assertionResults.filter((a) => a.status === 'skipped' || a.status === 'pending').length, 0);
  return {
    passed: result.numPassedTests ?? 0,
    failed: (result.numFailedTests ?? 0) + setupFailed.length + failedHooks,
    skipped: Math.max(0, (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0) - skippedBySetup),
    setupFailed: setupFailed.map((f) => ({ file: relative(process.cwd(), f.name), message: String(f.message).split('\n')[0] })),
    failedHooks,
  };
}

let counts = { passed: 0, failed: 1, skipped: 0, setupFailed: [], failedHooks: 0 };
if (existsSync(report)) counts = countResults(JSON.parse(readFileSync(report, 'utf8')));
for (const { file, message } of counts.setupFailed) console.log(`setup failed: ${file}: ${message}`);
if (counts.failedHooks) console.log(`setup failed: ${counts.failedHooks} describe block(s) whose hook failed (see vitest's report above)`);
const ok = run.status === 0 && counts.failed === 0 && counts.passed > 0;
if (!ok && counts.failed === 0) counts.failed = 1; // vitest failed outside any test (config error, no tests found)
console.log(`${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ''}`);
process.exit(ok ? 0 : 1);
