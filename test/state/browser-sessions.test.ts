/**
 * Browser sessions in the StateStore contract (issue 23, "Sign-in"): a session stands for its key in `admit` (same
 * bucket and metering), expires at its absolute lifetime, ends with sign-out or when its key is revoked, keeps page
 * state up to a size limit, and is stored only as the hash of its id.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import { MAX_SESSION_DATA_BYTES, type AdmissionRequest } from '../../src/state/state-store.js';

let dir: string;
let nowMs: number;
let store: EmbeddedStateStore;

const admission = (session: string | null, over: Partial<AdmissionRequest> = {}): AdmissionRequest => ({
  secret: null,
  session,
  clientAddress: '192.0.2.7',
  anonymousRatePerSecond: 1,
  meter: true,
  ...over,
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'omopterm-sessions-'));
  nowMs = Date.UTC(2026, 10, 28, 9, 0, 0);
  store = new EmbeddedStateStore(join(dir, 'state.sqlite'), { flushIntervalMs: 0, now: () => nowMs });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('browser sessions', () => {
  it('stand for their key in admit: the key is returned, its bucket taken and the call metered', async () => {
    const { record } = await store.createKey({ name: 'reader', rate_per_second: 5, monthly_quota: 100, cpt4_validated_until: null });
    const session = await store.createSession(record.id, 3600);
    expect(session.keyId).toBe(record.id);
    expect(session.expiresAtMs).toBe(nowMs + 3_600_000);
    const first = await store.admit(admission(session.id));
    expect(first.key?.id).toBe(record.id);
    expect(first.session).toEqual(session);
    expect(first.rate.limit).toBe(5);
    expect(first.quota?.used).toBe(1);
    expect(await store.usageOf(record.id, '2026-11')).toBe(1);
  });

  it('are unknown when the id is wrong, and anonymous callers share the address bucket', async () => {
    const res = await store.admit(admission('ohs_unknown-session-id-0000000000000000'));
    expect(res.key).toBeNull();
    expect(res.session).toBeNull();
    expect(res.rate.limit).toBe(1);
  });

  it('expire at their absolute lifetime', async () => {
    const { record } = await store.createKey({ name: 'k', rate_per_second: 100, monthly_quota: null, cpt4_validated_until: null });
    const session = await store.createSession(record.id, 60);
    nowMs += 59_000;
    expect((await store.admit(admission(session.id))).session?.id).toBe(session.id);
    nowMs += 1_000;
    const expired = await store.admit(admission(session.id));
    expect(expired.session).toBeNull();
    expect(expired.key).toBeNull();
  });

  it('end with sign-out and when their key is revoked', async () => {
    const { record } = await store.createKey({ name: 'k', rate_per_second: 100, monthly_quota: null, cpt4_validated_until: null });
    const a = await store.createSession(record.id);
    const b = await store.createSession(record.id);
    expect(a.id).not.toBe(b.id);
    expect(a.csrfToken).not.toBe(b.csrfToken);
    await store.endSession(a.id);
    expect((await store.admit(admission(a.id))).session).toBeNull();
    expect((await store.admit(admission(b.id))).key?.id).toBe(record.id);
    await store.revokeKey('k');
    expect((await store.admit(admission(b.id))).key).toBeNull();
    expect((await store.admit(admission(b.id))).session).toBeNull();
  });

  it('may be anonymous (no key), and are refused for a key that is not active', async () => {
    const anon = await store.createSession(null, 60);
    const res = await store.admit(admission(anon.id));
    expect(res.session?.keyId).toBeNull();
    expect(res.key).toBeNull();
    await expect(store.createSession('no-such-key-id')).rejects.toThrow(/no active API key/);
  });

  it('keep page state, up to the size limit, only while alive', async () => {
    const session = await store.createSession(null, 60);
    expect(await store.readSessionData(session.id)).toBe('{}');
    expect(await store.writeSessionData(session.id, '{"sets":[1,2]}')).toBe(true);
    expect(await store.readSessionData(session.id)).toBe('{"sets":[1,2]}');
    await expect(store.writeSessionData(session.id, 'x'.repeat(MAX_SESSION_DATA_BYTES + 1))).rejects.toThrow(/over the limit/);
    expect(await store.readSessionData(session.id)).toBe('{"sets":[1,2]}');
    nowMs += 60_000;
    expect(await store.readSessionData(session.id)).toBeUndefined();
    expect(await store.writeSessionData(session.id, '{}')).toBe(false);
  });

  it('are stored as the hash of their id, never the id itself', async () => {
    const session = await store.createSession(null, 60);
    await store.close();
    const db = new Database(join(dir, 'state.sqlite'), { readonly: true });
    const dump = JSON.stringify(db.prepare('SELECT * FROM browser_session').all());
    db.close();
    expect(dump).not.toContain(session.id);
    expect(dump).not.toContain(session.id.slice(4));
    store = new EmbeddedStateStore(join(dir, 'state.sqlite'), { flushIntervalMs: 0, now: () => nowMs });
    expect((await store.admit(admission(session.id))).session?.id).toBe(session.id);
  });
});
