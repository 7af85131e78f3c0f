/**
 * The StateStore contract for OAuth 2.0 clients and access tokens (Authentication 4, RFC 6749 §4.4),
 * on the embedded implementation with an injected clock: a client is bound to an active key, its
 * secret is checked and stored hashed, a token is accepted by `admit` only when asked to (FHIR
 * routes), acts as its key (bucket, quota, licence), expires, and dies with its client or key —
 * also when another process (the CLI) revokes them.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import type { AdmissionRequest, NewApiKey } from '../../src/state/state-store.js';

let dir: string;
let nowMs: number;
let store: EmbeddedStateStore;

const stateFile = () => join(dir, 'state.sqlite');
const open = () => new EmbeddedStateStore(stateFile(), { flushIntervalMs: 0, now: () => nowMs });
const newKey = (over: Partial<NewApiKey> = {}): NewApiKey => ({ name: 'k', rate_per_second: 2, monthly_quota: null, cpt4_validated_until: null, ...over });
const onFhir = (secret: string, over: Partial<AdmissionRequest> = {}): AdmissionRequest => ({
  secret,
  clientAddress: '192.0.2.1',
  anonymousRatePerSecond: 1000,
  meter: true,
  acceptAccessToken: true,
  ...over,
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'omopterm-oauth-'));
  nowMs = Date.UTC(2026, 10, 23, 12, 0, 0);
  store = open();
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('OAuth clients (Authentication 4)', () => {
  it('binds a client to an active key by id or by name; an unknown or revoked key is refused', async () => {
    const { record: key } = await store.createKey(newKey({ name: 'team' }));
    const byName = await store.createClient({ key: 'team', token_lifetime_seconds: 3600 });
    const byId = await store.createClient({ key: key.id, token_lifetime_seconds: 60 });
    expect(byName.record).toMatchObject({ key_id: key.id, token_lifetime_seconds: 3600, revoked_at: null });
    expect(byId.record).toMatchObject({ key_id: key.id, token_lifetime_seconds: 60 });
    expect(byName.record.client_id).not.toBe(byId.record.client_id);
    await expect(store.createClient({ key: 'nobody', token_lifetime_seconds: 60 })).rejects.toThrow("no active API key with id or name 'nobody'");
    await store.revokeKey('team');
    await expect(store.createClient({ key: key.id, token_lifetime_seconds: 60 })).rejects.toThrow('no active API key');
  });

  it('stores the client secret and the tokens only as hashes', async () => {
    await store.createKey(newKey());
    const { record, secret } = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
    const token = (await store.issueAccessToken(record.client_id, secret))!.access_token;
    const db = new Database(stateFile(), { readonly: true });
    try {
      const dump = JSON.stringify([db.prepare('SELECT * FROM oauth_client').all(), db.prepare('SELECT * FROM oauth_access_token').all()]);
      expect(dump).toContain(record.client_id);
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(token);
    } finally {
      db.close();
    }
    expect(JSON.stringify(await store.listClients())).not.toContain(secret);
  });

  it('issues a token only for the right id and secret of an active client', async () => {
    await store.createKey(newKey());
    const { record, secret } = await store.createClient({ key: 'k', token_lifetime_seconds: 900 });
    const other = await store.createClient({ key: 'k', token_lifetime_seconds: 900 });
    expect(await store.issueAccessToken(record.client_id, `${secret}x`)).toBeNull();
    expect(await store.issueAccessToken(record.client_id, other.secret)).toBeNull();
    expect(await store.issueAccessToken('ohc_unknown', secret)).toBeNull();
    const issued = await store.issueAccessToken(record.client_id, secret);
    expect(issued).toMatchObject({ expires_in: 900, client: { client_id: record.client_id } });
    const again = await store.issueAccessToken(record.client_id, secret);
    expect(again!.access_token).not.toBe(issued!.access_token);
  });
});

describe('access tokens in admit (Authentication 4: FHIR surface only)', () => {
  it('a token acts as its key: the key record (licence), its bucket and its monthly quota', async () => {
    const { record: key, secret: apiKey } = await store.createKey(newKey({ rate_per_second: 2, monthly_quota: 3, cpt4_validated_until: '2030-12-31' }));
    const client = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
    const token = (await store.issueAccessToken(client.record.client_id, client.secret))!.access_token;

    const first = await store.admit(onFhir(token));
    expect(first.key).toMatchObject({ id: key.id, cpt4_validated_until: '2030-12-31' });
    expect(first.rate).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    // The key's own second request empties the same bucket.
    expect((await store.admit(onFhir(apiKey))).rate).toMatchObject({ allowed: true, remaining: 0 });
    expect((await store.admit(onFhir(token))).rate.allowed).toBe(false);
    nowMs += 1000;
    const third = await store.admit(onFhir(token));
    expect(third.quota).toMatchObject({ allowed: true, used: 3, quota: 3 });
    expect(await store.usageOf(key.id, '2026-11')).toBe(3);
  });

  it('a token is no key where tokens are not accepted (the REST surface)', async () => {
    await store.createKey(newKey());
    const client = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
    const token = (await store.issueAccessToken(client.record.client_id, client.secret))!.access_token;
    expect((await store.admit(onFhir(token, { acceptAccessToken: false }))).key).toBeNull();
    expect((await store.admit(onFhir(token, { acceptAccessToken: undefined }))).key).toBeNull();
    expect(await store.authenticate(token)).toBeUndefined();
  });

  it('a token expires after its client\'s lifetime', async () => {
    await store.createKey(newKey());
    const client = await store.createClient({ key: 'k', token_lifetime_seconds: 60 });
    const token = (await store.issueAccessToken(client.record.client_id, client.secret))!.access_token;
    nowMs += 59_999;
    expect((await store.admit(onFhir(token))).key).not.toBeNull();
    nowMs += 1;
    expect((await store.admit(onFhir(token))).key).toBeNull();
  });

  it('revoking the client ends its tokens and its grants; other clients of the key go on', async () => {
    await store.createKey(newKey());
    const doomed = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
    const kept = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
    const doomedToken = (await store.issueAccessToken(doomed.record.client_id, doomed.secret))!.access_token;
    const keptToken = (await store.issueAccessToken(kept.record.client_id, kept.secret))!.access_token;
    expect((await store.revokeClient(doomed.record.client_id))?.revoked_at).not.toBeNull();
    expect(await store.revokeClient(doomed.record.client_id)).toBeNull();
    expect((await store.admit(onFhir(doomedToken))).key).toBeNull();
    expect(await store.issueAccessToken(doomed.record.client_id, doomed.secret)).toBeNull();
    expect((await store.admit(onFhir(keptToken))).key).not.toBeNull();
  });

  it('revoking the key revokes its clients and ends their tokens, also when another process revokes it', async () => {
    await store.createKey(newKey());
    const client = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
    const token = (await store.issueAccessToken(client.record.client_id, client.secret))!.access_token;
    const cli = open();
    try {
      await cli.revokeKey('k');
    } finally {
      await cli.close();
    }
    expect((await store.admit(onFhir(token))).key).toBeNull();
    expect(await store.issueAccessToken(client.record.client_id, client.secret)).toBeNull();
    expect((await store.listClients())[0]!.revoked_at).not.toBeNull();
  });

  it('a token issued by one process is accepted by another sharing the state file', async () => {
    const { record: key } = await store.createKey(newKey());
    const client = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
    const token = (await store.issueAccessToken(client.record.client_id, client.secret))!.access_token;
    const otherNode = open();
    try {
      expect((await otherNode.admit(onFhir(token))).key?.id).toBe(key.id);
    } finally {
      await otherNode.close();
    }
  });
});
