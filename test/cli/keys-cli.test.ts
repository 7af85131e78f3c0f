/**
 * `omopterm keys`: create prints only the key, names are unique among active keys, list never
 * shows secrets, revoke disables exactly one key (by id or name), a lapsed CPT4 validation date is
 * refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import type { ApiKeyRecord } from '../../src/state/state-store.js';
import { stateStorePath } from '../../src/store/data-dir.js';
import { runCli } from '../helpers/cli.js';

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-keys-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function withState<T>(use: (state: EmbeddedStateStore) => Promise<T>): Promise<T> {
  const state = new EmbeddedStateStore(stateStorePath(dataDir), { flushIntervalMs: 0 });
  try {
    return await use(state);
  } finally {
    await state.close();
  }
}

function listKeys(): Array<ApiKeyRecord & { calls_this_month: number }> {
  const res = runCli(['keys', 'list', '--json', '--data-dir', dataDir]);
  expect(res.status).toBe(0);
  return JSON.parse(res.stdout);
}

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

describe('omopterm keys', () => {
  let secret = '';

  it('create prints the key alone on stdout and stores only its hash', async () => {
    const res = runCli(['keys', 'create', '--name', 'alice', '--rate', '5', '--monthly-quota', '1000', '--cpt4-validated-until', '2030-01-31', '--data-dir', dataDir]);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^oh_[A-Za-z0-9_-]{20,}\n$/);
    secret = res.stdout.trim();
    const key = await withState((state) => state.authenticate(secret));
    expect(key).toMatchObject({ name: 'alice', rate_per_second: 5, monthly_quota: 1000, cpt4_validated_until: '2030-01-31' });
  });

  it('list shows the key without its secret', () => {
    const res = runCli(['keys', 'list', '--json', '--data-dir', dataDir]);
    expect(res.status).toBe(0);
    const rows = JSON.parse(res.stdout);
    expect(rows).toHaveLength(1);
    expect(rows[0].name).toBe('alice');
    expect(res.stdout).not.toContain(secret);
  });

  it('refuses a second active key with the same name, with a one-line error', () => {
    const res = runCli(['keys', 'create', '--name', 'alice', '--data-dir', dataDir]);
    expect(res.status).not.toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain("already named 'alice'");
    expect(listKeys().filter((k) => k.name === 'alice')).toHaveLength(1);
  });

  it('rejects bad option values with a clear message', () => {
    const res = runCli(['keys', 'create', '--name', 'bob', '--rate', 'fast', '--data-dir', dataDir]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('--rate must be a positive number');
    const date = runCli(['keys', 'create', '--name', 'bob', '--cpt4-validated-until', '2030-02-30', '--data-dir', dataDir]);
    expect(date.status).not.toBe(0);
    expect(date.stderr).toContain('YYYY-MM-DD');
  });

  it('refuses a CPT4 validation date in the past; today and later are accepted (Authentication 5)', () => {
    const past = runCli(['keys', 'create', '--name', 'lapsed', '--cpt4-validated-until', isoDay(-1), '--data-dir', dataDir]);
    expect(past.status).not.toBe(0);
    expect(past.stdout).toBe('');
    expect(past.stderr).toContain(`${isoDay(-1)} is in the past`);
    const old = runCli(['keys', 'create', '--name', 'lapsed', '--cpt4-validated-until', '2020-01-01', '--data-dir', dataDir]);
    expect(old.status).not.toBe(0);
    expect(listKeys().some((k) => k.name === 'lapsed')).toBe(false);
    const later = runCli(['keys', 'create', '--name', 'valid-cpt4', '--cpt4-validated-until', isoDay(2), '--data-dir', dataDir]);
    expect(later.status, later.stderr).toBe(0);
  });

  it('revoke by name disables exactly that key', async () => {
    const bob = runCli(['keys', 'create', '--name', 'bob', '--data-dir', dataDir]);
    expect(bob.status).toBe(0);
    const res = runCli(['keys', 'revoke', 'alice', '--data-dir', dataDir]);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^revoked \S+ \(alice\)\n$/);
    expect(await withState((state) => state.authenticate(secret))).toBeUndefined();
    expect(await withState((state) => state.authenticate(bob.stdout.trim()))).toMatchObject({ name: 'bob' });
    const again = runCli(['keys', 'revoke', 'alice', '--data-dir', dataDir]);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain('no active key');
  });

  it('a revoked name can be used again, and revoke by id touches only that key', async () => {
    const res = runCli(['keys', 'create', '--name', 'alice', '--data-dir', dataDir]);
    expect(res.status).toBe(0);
    const active = listKeys().filter((k) => k.name === 'alice' && !k.revoked_at);
    expect(active).toHaveLength(1);
    const bobId = listKeys().find((k) => k.name === 'bob')!.id;
    expect(runCli(['keys', 'revoke', bobId, '--data-dir', dataDir]).status).toBe(0);
    const after = listKeys();
    expect(after.find((k) => k.id === bobId)!.revoked_at).not.toBeNull();
    expect(after.find((k) => k.id === active[0]!.id)!.revoked_at).toBeNull();
    expect(await withState((state) => state.authenticate(res.stdout.trim()))).toMatchObject({ name: 'alice' });
  });
});
