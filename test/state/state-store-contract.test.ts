/**
 * The StateStore contract, written once and run on every backend: the embedded store (state.sqlite, rate limits in
 * memory) and PostgreSQL (a schema of its own, rate limits in the same database). Keys and their names, admission (key,
 * client address, session, OAuth token), rate limits, monthly quotas, usage across instances, OAuth clients and
 * tokens, browser sessions and their data, mapping jobs. Time is a fake Date the test moves; "another instance" is a
 * second store opened on the same backend, as a second node or process would be.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SourceTerm, TermCandidate, TermReview } from '../../src/services/source-mapping/mapping-types.js';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import { MAX_MAPPING_JOBS_PER_OWNER, MAX_TERMS_PER_MAPPING_JOB, MappingJobLimitError, type NewMappingJob } from '../../src/state/mapping-job-store.js';
import { openStateStore, stateChoice } from '../../src/state/openers/open-state-store.js';
import { AUTH_CACHE_MS } from '../../src/state/postgres/postgres-state-store.js';
import { MAX_SESSION_DATA_BYTES, type AdmissionRequest, type NewApiKey, type StateStore } from '../../src/state/state-store.js';
import { freshPostgresSchema, postgresMissing, TEST_POSTGRES_URL } from '../helpers/state-backends.js';

/** One backend under test: `open` makes another instance (node) on the same storage. */
interface Backend {
  open(): Promise<StateStore>;
  /** Every row of the tables that hold secrets, as text (to check that none holds a secret). */
  dumpSecretsTables(): Promise<string>;
  destroy(): Promise<void>;
}

const SECRET_TABLES = ['api_key', 'oauth_client', 'oauth_access_token', 'browser_session'];

function embeddedBackend(): Backend {
  const dir = mkdtempSync(join(tmpdir(), 'omopterm-state-contract-'));
  const file = join(dir, 'state.sqlite');
  return {
    open: async () => new EmbeddedStateStore(file, { flushIntervalMs: 0 }),
    dumpSecretsTables: async () => {
      const db = new Database(file, { readonly: true });
      try {
        return JSON.stringify(SECRET_TABLES.map((t) => db.prepare(`SELECT * FROM ${t}`).all()));
      } finally {
        db.close();
      }
    },
    destroy: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresBackend(): Backend {
  const schema = freshPostgresSchema();
  return {
    open: () => openStateStore(stateChoice({ sqliteFile: '/nonexistent/state.sqlite', state: schema.url }), { flushIntervalMs: 0 }),
    dumpSecretsTables: async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        const rows = [];
        for (const t of SECRET_TABLES) rows.push((await client.query(`SELECT * FROM "${schema.schema}".${t}`)).rows);
        return JSON.stringify(rows);
      } finally {
        await client.end();
      }
    },
    destroy: () => schema.drop(),
  };
}

const BACKENDS: [string, () => Backend][] = [['embedded (SQLite)', embeddedBackend]];
if (!(await postgresMissing())) BACKENDS.push(['PostgreSQL', postgresBackend]);

const START = Date.UTC(2026, 10, 23, 12, 0, 0);
const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);

const newKey = (over: Partial<NewApiKey> = {}): NewApiKey => ({ name: 'k', rate_per_second: 2, monthly_quota: null, cpt4_validated_until: null, ...over });
const request = (over: Partial<AdmissionRequest> = {}): AdmissionRequest => ({
  secret: null,
  clientAddress: '192.0.2.1',
  anonymousRatePerSecond: 3,
  meter: true,
  ...over,
});
const onFhir = (secret: string, over: Partial<AdmissionRequest> = {}) => request({ secret, anonymousRatePerSecond: 1000, acceptAccessToken: true, ...over });

const term = (index: number, name: string, frequency: number): SourceTerm => ({
  index,
  line: index + 2,
  source_code: `C${index}`,
  source_name: name,
  source_frequency: frequency,
  additional_info: { ward: `W${index}` },
});
const TERMS = [term(0, 'chest pain', 5), term(1, 'type 2 diabetes', 40), term(2, 'aspirin 100 mg', 12)];
const newJob = (owner: string | null, terms: SourceTerm[] = TERMS): NewMappingJob => ({
  owner_key_id: owner,
  name: 'ward codes.csv',
  release_label: '2025.2',
  cpt4_validated_until: null,
  options: { k: 5, filters: { domain_ids: ['Condition'] }, auto_approve: { exact_name: true } },
  columns: { source_code: 'code', source_name: 'name', source_frequency: 'count' },
  terms,
});
const candidate = (id: number, score: number): TermCandidate => ({
  concept_id: id,
  concept_name: `concept ${id}`,
  domain_id: 'Condition',
  vocabulary_id: 'SNOMED',
  concept_class_id: 'Clinical Finding',
  concept_code: String(id),
  standard_concept: 'S',
  score,
  matched_text: `concept ${id}`,
  reasons: ['keyword'],
});
const review = (status: TermReview['status'], ids: number[]): TermReview => ({
  status,
  equivalence: status === 'approved' ? 'EQUAL' : 'UNREVIEWED',
  concept_ids: ids,
  comment: '',
  status_set_by: status === 'unchecked' ? null : { kind: 'reviewer', reviewer: 'ana' },
  status_set_at: status === 'unchecked' ? null : '2026-11-28T00:00:00.000Z',
  assigned_reviewer: '',
});

describe.each(BACKENDS)('StateStore contract: %s', (_name, makeBackend) => {
  let backend: Backend;
  let store: StateStore;
  const others: StateStore[] = [];
  /** Another instance on the same storage (closed after the test). */
  const another = async () => {
    const other = await backend.open();
    others.push(other);
    return other;
  };

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
    backend = makeBackend();
    store = await backend.open();
  });
  afterEach(async () => {
    for (const other of others.splice(0)) await other.close();
    await store.close();
    await backend.destroy();
    vi.useRealTimers();
  });

  describe('admit (Authentication, Limits)', () => {
    it('admits a valid key, takes from its rate limit and meters the call; a refused call is not metered', async () => {
      const { record, secret } = await store.createKey(newKey({ rate_per_second: 2, monthly_quota: 10 }));
      const first = await store.admit(request({ secret }));
      expect(first.key?.id).toBe(record.id);
      expect(first.rate).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
      expect(first.quota).toMatchObject({ allowed: true, used: 1, quota: 10 });
      expect((await store.admit(request({ secret }))).rate).toMatchObject({ allowed: true, remaining: 0 });
      const third = await store.admit(request({ secret }));
      expect(third.rate).toMatchObject({ allowed: false, remaining: 0 });
      expect(third.rate.retry_after_seconds).toBeGreaterThanOrEqual(1);
      expect(third.quota).toBeNull();
      expect(await store.usageOf(record.id, '2026-11')).toBe(2);
    });

    it('limits missing, empty and unknown secrets by client address; the budget returns after its window', async () => {
      const outcomes = [];
      for (const secret of [null, '', 'oh_unknown', null]) outcomes.push(await store.admit(request({ secret })));
      expect(outcomes.map((a) => a.key)).toEqual([null, null, null, null]);
      expect(outcomes.map((a) => a.rate.allowed)).toEqual([true, true, true, false]);
      expect(outcomes[3]!.rate.retry_after_seconds).toBe(1);
      expect((await store.admit(request({ clientAddress: '192.0.2.2' }))).rate.allowed).toBe(true);
      advance(1000);
      expect((await store.admit(request())).rate.allowed).toBe(true);
    });

    it('meters only when asked', async () => {
      const { record, secret } = await store.createKey(newKey({ monthly_quota: 1 }));
      expect((await store.admit(request({ secret, meter: false }))).quota).toBeNull();
      expect(await store.usageOf(record.id, '2026-11')).toBe(0);
    });

    it('refuses calls beyond the monthly quota until the next UTC month', async () => {
      const { record, secret } = await store.createKey(newKey({ rate_per_second: 1000, monthly_quota: 2 }));
      await store.admit(request({ secret }));
      await store.admit(request({ secret }));
      const over = await store.admit(request({ secret }));
      expect(over.quota).toMatchObject({ allowed: false, used: 2, quota: 2, resets_at_epoch_seconds: Date.UTC(2026, 11, 1) / 1000 });
      vi.setSystemTime(Date.UTC(2026, 11, 1, 0, 0, 1));
      expect((await store.admit(request({ secret }))).quota).toMatchObject({ allowed: true, used: 1 });
      expect(await store.usageOf(record.id, '2026-11')).toBe(2);
      expect(await store.usageOf(record.id, '2026-12')).toBe(1);
    });

    it('meter() counts one call of an admitted key against its quota (MCP tool calls)', async () => {
      const { record } = await store.createKey(newKey({ monthly_quota: 1 }));
      expect(await store.meter(record)).toMatchObject({ allowed: true, used: 1 });
      expect(await store.meter(record)).toMatchObject({ allowed: false, used: 1 });
    });

    it('usage of a key without a quota is kept across instances (written on flush and close)', async () => {
      const { record, secret } = await store.createKey(newKey({ rate_per_second: 1000 }));
      const other = await another();
      for (let i = 0; i < 3; i += 1) await store.admit(request({ secret }));
      for (let i = 0; i < 2; i += 1) await other.admit(request({ secret }));
      expect(await store.usageOf(record.id, '2026-11')).toBe(3);
      await other.flush();
      expect(await store.usageOf(record.id, '2026-11')).toBe(5);
      await store.close();
      store = await backend.open();
      expect(await store.usageOf(record.id, '2026-11')).toBe(5);
    });

    it('a quota is shared by every instance: the calls of all of them count', async () => {
      const { record, secret } = await store.createKey(newKey({ rate_per_second: 1000, monthly_quota: 3 }));
      const other = await another();
      expect((await store.admit(request({ secret }))).quota?.allowed).toBe(true);
      expect((await other.admit(request({ secret }))).quota?.allowed).toBe(true);
      expect((await store.admit(request({ secret }))).quota).toMatchObject({ allowed: true, used: 3 });
      expect((await other.admit(request({ secret }))).quota).toMatchObject({ allowed: false });
      expect(await other.usageOf(record.id, '2026-11')).toBe(3);
    });

    it('a revoked key is no longer admitted, on this instance at once and on another within AUTH_CACHE_MS', async () => {
      const { secret } = await store.createKey(newKey({ name: 'gone' }));
      const other = await another();
      expect((await other.admit(request({ secret }))).key).not.toBeNull();
      expect(await store.revokeKey('gone')).toMatchObject({ name: 'gone' });
      expect((await store.admit(request({ secret }))).key).toBeNull();
      expect(await store.authenticate(secret)).toBeUndefined();
      advance(AUTH_CACHE_MS);
      expect((await other.admit(request({ secret }))).key).toBeNull();
      expect(await other.authenticate(secret)).toBeUndefined();
    });
  });

  describe('key names', () => {
    it('are unique among active keys, also across instances', async () => {
      await store.createKey(newKey({ name: 'alice' }));
      await expect(store.createKey(newKey({ name: 'alice' }))).rejects.toThrow("an active key is already named 'alice'");
      await expect((await another()).createKey(newKey({ name: 'alice' }))).rejects.toThrow("an active key is already named 'alice'");
      expect((await store.listKeys()).filter((k) => k.name === 'alice')).toHaveLength(1);
    });

    it('revoke by id touches only that key; a revoked name can be reused', async () => {
      const a = await store.createKey(newKey({ name: 'team' }));
      expect(await store.revokeKey(a.record.id)).toMatchObject({ id: a.record.id });
      const b = await store.createKey(newKey({ name: 'team' }));
      expect(await store.authenticate(b.secret)).toMatchObject({ id: b.record.id });
      expect(await store.revokeKey(a.record.id)).toBeNull();
      expect(await store.revokeKey('nobody')).toBeNull();
      const keys = await store.listKeys();
      expect(keys.filter((k) => k.revoked_at === null).map((k) => k.id)).toEqual([b.record.id]);
      expect(keys.find((k) => k.id === a.record.id)?.revoked_at).toBe(new Date(START).toISOString());
    });

    it('keys keep every field as created; secrets are stored only as hashes', async () => {
      const { record, secret } = await store.createKey(newKey({ name: 'full', rate_per_second: 2.5, monthly_quota: 1_000_000, cpt4_validated_until: '2030-12-31' }));
      expect(await store.listKeys()).toEqual([record]);
      expect(record).toMatchObject({ name: 'full', rate_per_second: 2.5, monthly_quota: 1_000_000, cpt4_validated_until: '2030-12-31', revoked_at: null });
      expect(secret).toMatch(/^oh_/);
      const dump = await backend.dumpSecretsTables();
      expect(dump).toContain(record.id);
      expect(dump).not.toContain(secret);
    });
  });

  describe('OAuth clients (Authentication 4)', () => {
    it('binds a client to an active key by id or by name; an unknown or revoked key is refused', async () => {
      const { record: key } = await store.createKey(newKey({ name: 'team' }));
      const byName = await store.createClient({ key: 'team', token_lifetime_seconds: 3600 });
      const byId = await store.createClient({ key: key.id, token_lifetime_seconds: 60 });
      expect(byName.record).toMatchObject({ key_id: key.id, token_lifetime_seconds: 3600, revoked_at: null });
      expect(byId.record).toMatchObject({ key_id: key.id, token_lifetime_seconds: 60 });
      expect(byName.record.client_id).not.toBe(byId.record.client_id);
      expect((await store.listClients()).map((c) => c.client_id).sort()).toEqual([byName.record.client_id, byId.record.client_id].sort());
      await expect(store.createClient({ key: 'nobody', token_lifetime_seconds: 60 })).rejects.toThrow("no active API key with id or name 'nobody'");
      await store.revokeKey('team');
      await expect(store.createClient({ key: key.id, token_lifetime_seconds: 60 })).rejects.toThrow('no active API key');
    });

    it('stores the client secret and the tokens only as hashes', async () => {
      await store.createKey(newKey());
      const { record, secret } = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
      const token = (await store.issueAccessToken(record.client_id, secret))!.access_token;
      const dump = await backend.dumpSecretsTables();
      expect(dump).toContain(record.client_id);
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(token);
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
    it('a token acts as its key: the key record (licence), its rate limit and its monthly quota', async () => {
      const { record: key, secret: apiKey } = await store.createKey(newKey({ rate_per_second: 2, monthly_quota: 3, cpt4_validated_until: '2030-12-31' }));
      const client = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
      const token = (await store.issueAccessToken(client.record.client_id, client.secret))!.access_token;
      const first = await store.admit(onFhir(token));
      expect(first.key).toMatchObject({ id: key.id, cpt4_validated_until: '2030-12-31' });
      expect(first.rate).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
      // The key's own request takes from the same budget.
      expect((await store.admit(onFhir(apiKey))).rate).toMatchObject({ allowed: true, remaining: 0 });
      expect((await store.admit(onFhir(token))).rate.allowed).toBe(false);
      advance(1000);
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

    it("a token expires after its client's lifetime", async () => {
      await store.createKey(newKey());
      const client = await store.createClient({ key: 'k', token_lifetime_seconds: 60 });
      const token = (await store.issueAccessToken(client.record.client_id, client.secret))!.access_token;
      advance(59_999);
      expect((await store.admit(onFhir(token))).key).not.toBeNull();
      advance(1);
      expect((await store.admit(onFhir(token))).key).toBeNull();
    });

    it('revoking the client ends its tokens and its grants; other clients of the key go on', async () => {
      await store.createKey(newKey());
      const doomed = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
      const kept = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
      const doomedToken = (await store.issueAccessToken(doomed.record.client_id, doomed.secret))!.access_token;
      const keptToken = (await store.issueAccessToken(kept.record.client_id, kept.secret))!.access_token;
      expect((await store.admit(onFhir(doomedToken))).key).not.toBeNull();
      expect((await store.revokeClient(doomed.record.client_id))?.revoked_at).not.toBeNull();
      expect(await store.revokeClient(doomed.record.client_id)).toBeNull();
      expect((await store.admit(onFhir(doomedToken))).key).toBeNull();
      expect(await store.issueAccessToken(doomed.record.client_id, doomed.secret)).toBeNull();
      expect((await store.admit(onFhir(keptToken))).key).not.toBeNull();
    });

    it('revoking the key on another instance revokes its clients and ends their tokens here within AUTH_CACHE_MS', async () => {
      await store.createKey(newKey());
      const client = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
      const token = (await store.issueAccessToken(client.record.client_id, client.secret))!.access_token;
      expect((await store.admit(onFhir(token))).key).not.toBeNull();
      await (await another()).revokeKey('k');
      advance(AUTH_CACHE_MS);
      expect((await store.admit(onFhir(token))).key).toBeNull();
      expect(await store.issueAccessToken(client.record.client_id, client.secret)).toBeNull();
      expect((await store.listClients())[0]!.revoked_at).not.toBeNull();
    });

    it('a token issued by one instance is accepted by another', async () => {
      const { record: key } = await store.createKey(newKey());
      const client = await store.createClient({ key: 'k', token_lifetime_seconds: 3600 });
      const token = (await store.issueAccessToken(client.record.client_id, client.secret))!.access_token;
      expect((await (await another()).admit(onFhir(token))).key?.id).toBe(key.id);
    });
  });

  describe('browser sessions', () => {
    const bySession = (session: string | null, over: Partial<AdmissionRequest> = {}) => request({ session, anonymousRatePerSecond: 1, ...over });

    it('stand for their key in admit: the key is returned, its rate limit taken and the call metered', async () => {
      const { record } = await store.createKey(newKey({ name: 'reader', rate_per_second: 5, monthly_quota: 100 }));
      const session = await store.createSession(record.id, 3600);
      expect(session.keyId).toBe(record.id);
      expect(session.expiresAtMs).toBe(START + 3_600_000);
      const first = await store.admit(bySession(session.id));
      expect(first.key?.id).toBe(record.id);
      expect(first.session).toEqual(session);
      expect(first.rate.limit).toBe(5);
      expect(first.quota?.used).toBe(1);
      expect(await store.usageOf(record.id, '2026-11')).toBe(1);
    });

    it('are unknown when the id is wrong, and anonymous callers share the address limit', async () => {
      const res = await store.admit(bySession('ohs_unknown-session-id-0000000000000000'));
      expect(res.key).toBeNull();
      expect(res.session).toBeNull();
      expect(res.rate.limit).toBe(1);
    });

    it('expire at their absolute lifetime', async () => {
      const { record } = await store.createKey(newKey({ rate_per_second: 100 }));
      const session = await store.createSession(record.id, 60);
      advance(59_000);
      expect((await store.admit(bySession(session.id))).session?.id).toBe(session.id);
      advance(1_000);
      const expired = await store.admit(bySession(session.id));
      expect(expired.session).toBeNull();
      expect(expired.key).toBeNull();
    });

    it('end with sign-out and when their key is revoked', async () => {
      const { record } = await store.createKey(newKey({ rate_per_second: 100 }));
      const a = await store.createSession(record.id);
      const b = await store.createSession(record.id);
      expect(a.id).not.toBe(b.id);
      expect(a.csrfToken).not.toBe(b.csrfToken);
      await store.endSession(a.id);
      expect((await store.admit(bySession(a.id))).session).toBeNull();
      expect((await store.admit(bySession(b.id))).key?.id).toBe(record.id);
      await store.revokeKey('k');
      expect((await store.admit(bySession(b.id))).key).toBeNull();
      expect((await store.admit(bySession(b.id))).session).toBeNull();
    });

    it('are seen by every instance: made on one, admitted and ended from another', async () => {
      const { record } = await store.createKey(newKey({ rate_per_second: 100 }));
      const session = await store.createSession(record.id);
      const other = await another();
      expect((await other.admit(bySession(session.id))).key?.id).toBe(record.id);
      await other.writeSessionData(session.id, '{"sets":[7]}');
      expect(await store.readSessionData(session.id)).toBe('{"sets":[7]}');
      await other.endSession(session.id);
      advance(AUTH_CACHE_MS);
      expect((await store.admit(bySession(session.id))).session).toBeNull();
    });

    it('may be anonymous (no key), and are refused for a key that is not active', async () => {
      const anon = await store.createSession(null, 60);
      const res = await store.admit(bySession(anon.id));
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
      advance(60_000);
      expect(await store.readSessionData(session.id)).toBeUndefined();
      expect(await store.writeSessionData(session.id, '{}')).toBe(false);
    });

    it('are stored as the hash of their id, never the id itself', async () => {
      const session = await store.createSession(null, 60);
      const dump = await backend.dumpSecretsTables();
      expect(dump).not.toContain(session.id);
      expect(dump).not.toContain(session.id.slice(4));
      expect((await (await another()).admit(bySession(session.id))).session?.id).toBe(session.id);
    });
  });

  describe('mapping jobs', () => {
    it('a job, its terms and reviews survive closing and reopening; an unfinished job is listed', async () => {
      const job = await store.createMappingJob(newJob('key-a'));
      expect(job).toMatchObject({ state: 'queued', total_terms: 3, mapped_terms: 0, owner_key_id: 'key-a', name: 'ward codes.csv', error: null, finished_at: null });
      await store.setMappingJobState(job.id, 'running');
      await store.saveMappedTerms(job.id, [{ index: 0, candidates: [candidate(101, 0.9), candidate(102, 0.5)], review: review('unchecked', [101]) }]);
      await store.updateReview(job.id, 0, review('approved', [102]));
      await store.close();

      store = await backend.open();
      const again = await store.mappingJob(job.id, 'key-a');
      expect(again).toMatchObject({ state: 'running', total_terms: 3, mapped_terms: 1, options: newJob('key-a').options, columns: newJob('key-a').columns });
      expect(Object.keys(again!.columns)).toEqual(['source_code', 'source_name', 'source_frequency']);
      // still unfinished: a runner claims it
      expect((await store.claimMappingJob('runner', Date.now() + 60_000))?.id).toBe(job.id);
      const first = await store.mappedTerm(job.id, 0);
      expect(first?.term).toEqual(TERMS[0]);
      expect(first?.candidates.map((c) => c.concept_id)).toEqual([101, 102]);
      expect(first?.review).toEqual(review('approved', [102]));
      // the two terms without candidates are the ones a resumed runner maps, in index order
      expect((await store.pendingTerms(job.id, 10)).map((t) => t.index)).toEqual([1, 2]);
    });

    it('a job made on one instance is seen, mapped and reviewed from another', async () => {
      const job = await store.createMappingJob(newJob('key-a'));
      const other = await another();
      expect((await other.listMappingJobs('key-a')).map((j) => j.id)).toEqual([job.id]);
      await other.saveMappedTerms(job.id, [{ index: 2, candidates: [candidate(7, 0.8)], review: review('unchecked', [7]) }]);
      expect((await store.mappingJob(job.id, 'key-a'))?.mapped_terms).toBe(1);
      expect((await store.mappedTerm(job.id, 2))?.candidates.map((c) => c.concept_id)).toEqual([7]);
    });

    it('another key (or the anonymous browser) does not find the job, cannot list or delete it', async () => {
      const job = await store.createMappingJob(newJob('key-a'));
      expect(await store.mappingJob(job.id, 'key-b')).toBeUndefined();
      expect(await store.mappingJob(job.id, null)).toBeUndefined();
      expect(await store.listMappingJobs('key-b')).toEqual([]);
      expect(await store.deleteMappingJob(job.id, 'key-b')).toBe(false);
      expect((await store.listMappingJobs('key-a')).map((j) => j.id)).toEqual([job.id]);
      const anonymous = await store.createMappingJob(newJob(null));
      expect((await store.listMappingJobs(null)).map((j) => j.id)).toEqual([anonymous.id]);
      expect(await store.mappingJob(anonymous.id, 'key-a')).toBeUndefined();
    });

    it('a term is mapped once: saving it again changes neither it nor the count', async () => {
      const job = await store.createMappingJob(newJob('key-a'));
      await store.saveMappedTerms(job.id, [
        { index: 1, candidates: [candidate(201, 0.8)], review: review('unchecked', [201]) },
        { index: 2, candidates: [candidate(301, 0.7)], review: review('unchecked', [301]) },
      ]);
      await store.saveMappedTerms(job.id, [{ index: 1, candidates: [candidate(999, 0.1)], review: review('unchecked', [999]) }]);
      expect((await store.mappingJob(job.id, 'key-a'))?.mapped_terms).toBe(2);
      expect((await store.mappedTerm(job.id, 1))?.candidates.map((c) => c.concept_id)).toEqual([201]);
    });

    it('a review given at creation (an imported file) is kept when the term gets its candidates', async () => {
      const imported = review('approved', [4]);
      const job = await store.createMappingJob({ ...newJob('key-a'), reviews: [imported, undefined, undefined] });
      expect((await store.mappedTerm(job.id, 0))?.review).toEqual(imported);
      expect((await store.reviewProgress(job.id)).approved_terms).toBe(1);
      await store.saveMappedTerms(job.id, [
        { index: 0, candidates: [candidate(4, 0.9)], review: review('unchecked', [9]) },
        { index: 1, candidates: [candidate(5, 0.9)], review: review('unchecked', [5]) },
      ]);
      const first = await store.mappedTerm(job.id, 0);
      expect(first?.review).toEqual(imported);
      expect(first?.candidates.map((c) => c.concept_id)).toEqual([4]);
      expect((await store.mappedTerm(job.id, 1))?.review).toEqual(review('unchecked', [5]));
      expect((await store.mappedTerms(job.id, { offset: 0, limit: 5, status: 'approved' })).total).toBe(1);
    });

    it('pages terms by frequency (then index) or by index, filtered by status', async () => {
      const job = await store.createMappingJob(newJob('key-a'));
      const byFrequency = await store.mappedTerms(job.id, { offset: 0, limit: 2 });
      expect(byFrequency.total).toBe(3);
      expect(byFrequency.items.map((t) => t.term.source_name)).toEqual(['type 2 diabetes', 'aspirin 100 mg']);
      const second = await store.mappedTerms(job.id, { offset: 2, limit: 2, order: 'frequency' });
      expect(second.items.map((t) => t.term.index)).toEqual([0]);
      expect((await store.mappedTerms(job.id, { offset: 0, limit: 5, order: 'index' })).items.map((t) => t.term.index)).toEqual([0, 1, 2]);
      await store.updateReview(job.id, 2, review('approved', [7]));
      const approved = await store.mappedTerms(job.id, { offset: 0, limit: 5, status: 'approved' });
      expect(approved).toMatchObject({ total: 1 });
      expect(approved.items[0]?.term.source_name).toBe('aspirin 100 mg');
      expect((await store.mappedTerms(job.id, { offset: 0, limit: 5, status: 'unchecked', order: 'index' })).items.map((t) => t.term.index)).toEqual([0, 1]);
    });

    it('review progress counts terms and the frequency approved terms carry', async () => {
      const job = await store.createMappingJob(newJob('key-a'));
      await store.updateReview(job.id, 1, review('approved', [5]));
      await store.updateReview(job.id, 0, review('flagged', []));
      expect(await store.reviewProgress(job.id)).toEqual({
        total_terms: 3,
        reviewed_terms: 2,
        approved_terms: 1,
        total_frequency: 57,
        approved_frequency: 40,
        by_status: { unchecked: 1, approved: 1, flagged: 1, ignored: 0 },
      });
    });

    it('an unknown term or job answers undefined on review', async () => {
      const job = await store.createMappingJob(newJob('key-a'));
      expect(await store.updateReview(job.id, 3, review('approved', [1]))).toBeUndefined();
      expect(await store.updateReview('no-such-job', 0, review('approved', [1]))).toBeUndefined();
      expect(await store.mappedTerm(job.id, 3)).toBeUndefined();
    });

    it('a finished state is final, with its time; cancelled or completed jobs are never claimed', async () => {
      const a = await store.createMappingJob(newJob('key-a'));
      const b = await store.createMappingJob(newJob('key-a'));
      const cancelled = await store.setMappingJobState(a.id, 'cancelled');
      expect(cancelled?.state).toBe('cancelled');
      expect(cancelled?.finished_at).toBe(new Date(START).toISOString());
      expect((await store.setMappingJobState(a.id, 'completed'))?.state).toBe('cancelled');
      expect(await store.setMappingJobState(b.id, 'failed', 'release 2025.2 is gone')).toMatchObject({ state: 'failed', error: 'release 2025.2 is gone' });
      expect(await store.claimMappingJob('runner', Date.now() + 60_000)).toBeUndefined();
    });

    it('runners claim unfinished jobs oldest first; a key lists its own newest first', async () => {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push((await store.createMappingJob(newJob('key-a'))).id);
      const claimed = [];
      for (let i = 0; i < 3; i++) claimed.push((await store.claimMappingJob(`runner-${i}`, Date.now() + 60_000))?.id);
      expect(claimed).toEqual(ids);
      expect((await store.listMappingJobs('key-a')).map((j) => j.id)).toEqual([...ids].reverse());
    });

    // Issue 26: "a mapping job is visible from every node" — and mapped by one of them: a lease per job.
    it('a claim leases the oldest unfinished job to one runner: another instance claims the next one, then none', async () => {
      const [a, b] = [await store.createMappingJob(newJob('key-a')), await store.createMappingJob(newJob('key-b'))];
      const other = await another();
      const lease = Date.now() + 60_000;
      expect((await store.claimMappingJob('runner-1', lease))?.id).toBe(a.id);
      expect((await other.claimMappingJob('runner-2', lease))?.id).toBe(b.id);
      expect(await other.claimMappingJob('runner-3', lease)).toBeUndefined();
      // a runner claiming again finds the job it holds (it resumes it after an outage)
      expect((await store.claimMappingJob('runner-1', lease))?.id).toBe(a.id);
    });

    it('a lease held by a runner that stopped renewing is taken over once it expires; the old holder cannot renew it', async () => {
      const job = await store.createMappingJob(newJob('key-a'));
      const other = await another();
      expect((await store.claimMappingJob('runner-1', Date.now() + 60_000))?.id).toBe(job.id);
      advance(30_000);
      expect(await store.renewMappingJobLease(job.id, 'runner-1', Date.now() + 60_000)).toBe(true);
      advance(59_000);
      expect(await other.claimMappingJob('runner-2', Date.now() + 60_000)).toBeUndefined();
      expect(await other.renewMappingJobLease(job.id, 'runner-2', Date.now() + 60_000)).toBe(false);
      advance(1_000);
      expect((await other.claimMappingJob('runner-2', Date.now() + 60_000))?.id).toBe(job.id);
      expect(await store.renewMappingJobLease(job.id, 'runner-1', Date.now() + 60_000)).toBe(false);
      expect(await other.renewMappingJobLease(job.id, 'runner-2', Date.now() + 60_000)).toBe(true);
    });

    it('a released lease frees the job at once; a finished or deleted job is never claimed', async () => {
      const [a, b] = [await store.createMappingJob(newJob('key-a')), await store.createMappingJob(newJob('key-a'))];
      const other = await another();
      expect((await store.claimMappingJob('runner-1', Date.now() + 60_000))?.id).toBe(a.id);
      await other.releaseMappingJobLease(a.id, 'runner-2'); // not its lease: nothing happens
      expect((await other.claimMappingJob('runner-2', Date.now() + 60_000))?.id).toBe(b.id);
      await store.releaseMappingJobLease(a.id, 'runner-1');
      expect((await other.claimMappingJob('runner-3', Date.now() + 60_000))?.id).toBe(a.id);
      await store.setMappingJobState(a.id, 'completed');
      expect(await store.deleteMappingJob(b.id, 'key-a')).toBe(true);
      advance(120_000);
      expect(await store.claimMappingJob('runner-1', Date.now() + 60_000)).toBeUndefined();
      expect(await store.renewMappingJobLease(b.id, 'runner-2', Date.now() + 60_000)).toBe(false);
    });

    it('concurrent claims from several instances never lease one job twice', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push((await store.createMappingJob(newJob('key-a', TERMS.slice(0, 1)))).id);
      const instances = [store, await another(), await another()];
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) => instances[i % instances.length]!.claimMappingJob(`runner-${i}`, Date.now() + 60_000)),
      );
      const claimed = claims.filter((j) => j !== undefined).map((j) => j.id);
      expect([...claimed].sort()).toEqual([...ids].sort());
    });

    it('deleting a job removes it and its terms', async () => {
      const job = await store.createMappingJob(newJob('key-a'));
      expect(await store.deleteMappingJob(job.id, 'key-a')).toBe(true);
      expect(await store.mappingJob(job.id, 'key-a')).toBeUndefined();
      expect((await store.mappedTerms(job.id, { offset: 0, limit: 10 })).total).toBe(0);
      expect(await store.deleteMappingJob(job.id, 'key-a')).toBe(false);
    });

    it('refuses a job over the term bound and an owner over the job bound', async () => {
      const many = Array.from({ length: MAX_TERMS_PER_MAPPING_JOB + 1 }, (_, i) => term(i, `t${i}`, 1));
      await expect(store.createMappingJob(newJob('key-a', many))).rejects.toThrow(MappingJobLimitError);
      for (let i = 0; i < MAX_MAPPING_JOBS_PER_OWNER; i++) await store.createMappingJob(newJob('key-a', TERMS.slice(0, 1)));
      await expect(store.createMappingJob(newJob('key-a', TERMS.slice(0, 1)))).rejects.toMatchObject({ limit: 'jobs' });
      await expect(store.createMappingJob(newJob('key-b', TERMS.slice(0, 1)))).resolves.toMatchObject({ state: 'queued' });
    });
  });

  it('health reports the backends as reachable', async () => {
    expect((await store.health()).state).toBe('ok');
  });
});
