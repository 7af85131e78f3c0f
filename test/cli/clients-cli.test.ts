/**
 * `omopterm clients` (Authentication 4): create binds a client to an API key and prints its id and
 * secret once (eval-able lines), list never shows secrets, revoke disables exactly that client, and
 * bad values are refused with a clear message.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import { stateStorePath } from '../../src/store/data-dir.js';
import { runCli } from '../helpers/cli.js';

const dataDir = mkdtempSync(join(tmpdir(), 'omopterm-clients-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function withState<T>(use: (state: EmbeddedStateStore) => Promise<T>): Promise<T> {
  const state = new EmbeddedStateStore(stateStorePath(dataDir), { flushIntervalMs: 0 });
  try {
    return await use(state);
  } finally {
    await state.close();
  }
}

/** `client_id=…` / `client_secret=…` lines as a record. */
function parseCreated(stdout: string): { client_id: string; client_secret: string } {
  return Object.fromEntries(stdout.trim().split('\n').map((line) => line.split('=') as [string, string])) as { client_id: string; client_secret: string };
}

describe('omopterm clients', () => {
  let keyId = '';
  beforeAll(async () => {
    keyId = await withState(async (state) => (await state.createKey({ name: 'fhir-app', rate_per_second: 2, monthly_quota: null, cpt4_validated_until: null })).record.id);
  });

  let created = { client_id: '', client_secret: '' };

  it('create prints client_id and client_secret lines, binds the client to the key and stores the secret only as its hash', async () => {
    const res = runCli(['clients', 'create', '--key', 'fhir-app', '--token-lifetime', '900', '--data-dir', dataDir]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^client_id=ohc_[A-Za-z0-9_-]+\nclient_secret=ohcs_[A-Za-z0-9_-]{40,}\n$/);
    created = parseCreated(res.stdout);
    const issued = await withState((state) => state.issueAccessToken(created.client_id, created.client_secret));
    expect(issued).toMatchObject({ expires_in: 900, client: { key_id: keyId } });
  });

  it('list shows the client with its key name, never the secret', () => {
    const res = runCli(['clients', 'list', '--json', '--data-dir', dataDir]);
    expect(res.status).toBe(0);
    const rows = JSON.parse(res.stdout);
    expect(rows).toEqual([expect.objectContaining({ client_id: created.client_id, key_id: keyId, key_name: 'fhir-app', token_lifetime_seconds: 900, revoked_at: null })]);
    expect(res.stdout).not.toContain(created.client_secret);
  });

  it('refuses an unknown key and a lifetime beyond one day, with one-line errors', () => {
    const unknown = runCli(['clients', 'create', '--key', 'nobody', '--data-dir', dataDir]);
    expect(unknown.status).not.toBe(0);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain("no active API key with id or name 'nobody'");
    const long = runCli(['clients', 'create', '--key', 'fhir-app', '--token-lifetime', '86401', '--data-dir', dataDir]);
    expect(long.status).toBe(1);
    expect(long.stderr).toContain('--token-lifetime must be at most 86400 seconds');
  });

  it('revoke disables exactly that client; a second revoke says there is none', async () => {
    const other = parseCreated(runCli(['clients', 'create', '--key', keyId, '--data-dir', dataDir]).stdout);
    const res = runCli(['clients', 'revoke', created.client_id, '--data-dir', dataDir]);
    expect(res.status).toBe(0);
    expect(res.stdout).toBe(`revoked ${created.client_id}\n`);
    expect(await withState((state) => state.issueAccessToken(created.client_id, created.client_secret))).toBeNull();
    expect(await withState((state) => state.issueAccessToken(other.client_id, other.client_secret))).toMatchObject({ expires_in: 3600 });
    const again = runCli(['clients', 'revoke', created.client_id, '--data-dir', dataDir]);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain('no active OAuth client');
  });
});
