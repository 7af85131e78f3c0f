/**
 * scripts/run-tests.mjs (`npm test`) on a fixture suite (test/fixtures/run-tests): its closing `N passed, N failed`
 * line counts a suite whose setup failed as failed, not as skipped, and names the file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/cli.js';

const output = mkdtempSync(join(tmpdir(), 'omopterm-run-tests-'));
afterAll(() => rmSync(output, { recursive: true, force: true }));

describe('npm test on a suite whose setup fails', () => {
  const run = spawnSync(process.execPath, ['scripts/run-tests.mjs', '--root', 'test/fixtures/run-tests'], {
    cwd: REPO_ROOT,
    env: { ...process.env, OMOPTERM_TEST_OUTPUT: output },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const lines = run.stdout.trim().split('\n');

  it('exits non-zero', () => {
    expect(run.status, run.stderr).toBe(1);
  });

  it('counts the file whose beforeAll threw and the block whose beforeAll threw as failed; only the test skipped on purpose and the one in the failed block as skipped', () => {
    // Fixture: passes (1 passed, 1 skipped), describe-hook-fails (1 passed; 1 block failed in setup, its 1 test not run),
    // setup-fails (file-level beforeAll throws; its 2 tests not run).
    expect(lines.at(-1)).toBe('2 passed, 2 failed, 2 skipped');
  });

  it('names the file whose setup failed and why', () => {
    expect(lines).toContain("setup failed: test/fixtures/run-tests/setup-fails.fixture-test.ts: ENOENT: no such file or directory, open '/nonexistent/omopterm-fixture/CONCEPT.csv'");
  });
});
