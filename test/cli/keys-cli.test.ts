/** `omopterm keys`: create prints only the key, list never shows secrets, revoke disables. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import { stateStorePath } from '../../src/store/data-dir.js';
import { runCli } from '../helpers/cli.js';

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-keys-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('omopterm keys', () => {
  let secret = '';

  it('create prints the key alone on stdout and stores only its hash', () => {
    const res = runCli(['keys', 'create', '--name', 'alice', '--rate', '5', '--monthly-quota', '1000', '--cpt4-validated-until', '2030-01-31', '--data-dir', dataDir]);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^oh_[A-Za-z0-9_-]{20,}\n$/);
    secret = res.stdout.trim();
    const state = new EmbeddedStateStore(stateStorePath(dataDir), { flushIntervalMs: 0 });
    try {
      const key = state.authenticate(secret);
      expect(key).toMatchObject({ name: 'alice', rate_per_second: 5, monthly_quota: 1000, cpt4_validated_until: '2030-01-31' });
    } finally {
      state.close();
    }
  });

  it('list shows the key without its secret', () => {
    const res = runCli(['keys', 'list', '--json', '--data-dir', dataDir]);
    expect(res.status).toBe(0);
    const rows = JSON.parse(res.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0].name).toBe('alice');
    expect(res.stdout).not.toContain(secret);
  });

  it('rejects bad option values with a clear message', () => {
    const res = runCli(['keys', 'create', '--name', 'bob', '--rate', 'fast', '--data-dir', dataDir]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('--rate must be a positive number');
    const date = runCli(['keys', 'create', '--name', 'bob', '--cpt4-validated-until', '2030-02-30', '--data-dir', dataDir]);
    expect(date.status).not.toBe(0);
    expect(date.stderr).toContain('YYYY-MM-DD');
  });

  it('revoke disables the key', () => {
    const res = runCli(['keys', 'revoke', 'alice', '--data-dir', dataDir]);
    expect(res.status).toBe(0);
    const state = new EmbeddedStateStore(stateStorePath(dataDir), { flushIntervalMs: 0 });
    try {
      expect(state.authenticate(secret)).toBeUndefined();
    } finally {
      state.close();
    }
    const again = runCli(['keys', 'revoke', 'alice', '--data-dir', dataDir]);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain("no active key");
  });
});
