/**
 * The StateStore contract (the multi-node seam) on the embedded implementation, with an injected
 * clock: one `admit` per request authenticates, rate-limits (per key, or per client address without
 * a valid key) and meters; key names are unique among active keys.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import type { AdmissionRequest, NewApiKey } from '../../src/state/state-store.js';

let dir: string;
let nowMs: number;
let store: EmbeddedStateStore;

const open = () => new EmbeddedStateStore(join(dir, 'state.sqlite'), { flushIntervalMs: 0, now: () => nowMs });
const newKey = (over: Partial<NewApiKey> = {}): NewApiKey => ({ name: 'k', rate_per_second: 2, monthly_quota: null, cpt4_validated_until: null, ...over });
const anonymous = (over: Partial<AdmissionRequest> = {}): AdmissionRequest => ({
  secret: null,
  clientAddress: '192.0.2.1',
  anonymousRatePerSecond: 3,
  meter: true,
  ...over,
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'omopterm-state-'));
  nowMs = Date.UTC(2026, 10, 23, 12, 0, 0);
  store = open();
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('admit (Authentication, Limits)', () => {
  it('admits a valid key, takes from its bucket and meters the call', async () => {
    const { record, secret } = await store.createKey(newKey({ rate_per_second: 2, monthly_quota: 10 }));
    const first = await store.admit(anonymous({ secret }));
    expect(first.key?.id).toBe(record.id);
    expect(first.rate).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(first.quota).toMatchObject({ allowed: true, used: 1, quota: 10 });
    await store.admit(anonymous({ secret }));
    const third = await store.admit(anonymous({ secret }));
    expect(third.rate.allowed).toBe(false);
    expect(third.quota).toBeNull(); // a refused call is not metered
    expect(await store.usageOf(record.id, '2026-11')).toBe(2);
  });

  it('uses the client address bucket for missing, empty and unknown secrets alike', async () => {
    const outcomes = [];
    for (const secret of [null, '', 'oh_unknown', null]) outcomes.push(await store.admit(anonymous({ secret })));
    expect(outcomes.map((a) => a.key)).toEqual([null, null, null, null]);
    expect(outcomes.map((a) => a.rate.allowed)).toEqual([true, true, true, false]);
    expect(outcomes[3]!.rate.retry_after_seconds).toBeGreaterThanOrEqual(1);
    // Another address has its own bucket; the first refills with time.
    expect((await store.admit(anonymous({ clientAddress: '192.0.2.2' }))).rate.allowed).toBe(true);
    nowMs += 1000;
    expect((await store.admit(anonymous())).rate.allowed).toBe(true);
  });

  it('meters only when asked', async () => {
    const { record, secret } = await store.createKey(newKey({ monthly_quota: 1 }));
    expect((await store.admit(anonymous({ secret, meter: false }))).quota).toBeNull();
    expect(await store.usageOf(record.id, '2026-11')).toBe(0);
  });

  it('refuses calls beyond the monthly quota until the next UTC month', async () => {
    const { record, secret } = await store.createKey(newKey({ rate_per_second: 1000, monthly_quota: 2 }));
    await store.admit(anonymous({ secret }));
    await store.admit(anonymous({ secret }));
    const over = await store.admit(anonymous({ secret }));
    expect(over.quota).toMatchObject({ allowed: false, used: 2, quota: 2, resets_at_epoch_seconds: Date.UTC(2026, 11, 1) / 1000 });
    nowMs = Date.UTC(2026, 11, 1, 0, 0, 1);
    expect((await store.admit(anonymous({ secret }))).quota).toMatchObject({ allowed: true, used: 1 });
    expect(await store.usageOf(record.id, '2026-11')).toBe(2);
  });

  it('persists usage across processes (flush, reopen)', async () => {
    const { record, secret } = await store.createKey(newKey({ rate_per_second: 1000 }));
    for (let i = 0; i < 3; i += 1) await store.admit(anonymous({ secret }));
    await store.close();
    store = open();
    expect(await store.usageOf(record.id, '2026-11')).toBe(3);
  });

  it('a revoked key is no longer admitted', async () => {
    const { secret } = await store.createKey(newKey({ name: 'gone' }));
    expect(await store.revokeKey('gone')).toMatchObject({ name: 'gone' });
    expect((await store.admit(anonymous({ secret }))).key).toBeNull();
    expect(await store.authenticate(secret)).toBeUndefined();
  });
});

describe('key names', () => {
  it('are unique among active keys', async () => {
    await store.createKey(newKey({ name: 'alice' }));
    await expect(store.createKey(newKey({ name: 'alice' }))).rejects.toThrow("an active key is already named 'alice'");
    expect((await store.listKeys()).filter((k) => k.name === 'alice')).toHaveLength(1);
  });

  it('revoke by id touches only that key; a revoked name can be reused', async () => {
    const a = await store.createKey(newKey({ name: 'team' }));
    expect(await store.revokeKey(a.record.id)).toMatchObject({ id: a.record.id });
    const b = await store.createKey(newKey({ name: 'team' }));
    expect(await store.authenticate(b.secret)).toMatchObject({ id: b.record.id });
    expect(await store.revokeKey(a.record.id)).toBeNull();
    expect(await store.revokeKey('nobody')).toBeNull();
  });
});
