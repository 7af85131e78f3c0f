/**
 * Server core through the public HTTPS surface: envelope and meta (Common REST conventions 1–5),
 * headers, errors (Errors rules 1, 2), authentication (Authentication 1–3, 5), limits, releases
 * (Versioning 3), transport (plain HTTP rejected).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileErrors, validate } from '@readme/openapi-parser';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

describe('REST envelope and headers (Common REST conventions 1–5)', () => {
  it('wraps a concept in success/data/meta with request_id, timestamp and vocab_release', async () => {
    const res = await t.request('/v1/concepts/201826');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      concept_id: 201826,
      concept_name: 'Type 2 diabetes mellitus',
      vocabulary_id: 'SNOMED',
      concept_code: '44054006',
      standard_concept: 'S',
      valid_start_date: '1970-01-01',
      valid_end_date: '2099-12-31',
      invalid_reason: null,
    });
    expect(res.body.meta.vocab_release).toBe('2025.2');
    expect(typeof res.body.meta.request_id).toBe('string');
    expect(new Date(res.body.meta.timestamp).toISOString()).toBe(res.body.meta.timestamp);
  });

  it('sends X-Request-Id equal to meta.request_id, no-store, no entity tag, and the rate headers', async () => {
    const res = await t.request('/v1/concepts/201826');
    expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(Number(res.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('never answers 304 to a conditional request', async () => {
    const first = await t.request('/v1/concepts/201826');
    const res = await t.request('/v1/concepts/201826', { headers: { 'if-none-match': '*', 'if-modified-since': new Date().toUTCString() } });
    expect(first.status).toBe(200);
    expect(res.status).toBe(200);
  });

  it('optionally adds synonyms, parents/children and hierarchy to a lookup', async () => {
    const res = await t.request('/v1/concepts/201826?include_synonyms=true&include_relationships=true&include_hierarchy=true');
    expect(res.body.data.synonyms).toEqual([{ concept_synonym_name: 'Type II diabetes mellitus', language_concept_id: 4180186 }]);
    expect(res.body.data.relationships.parents.map((p: { concept_id: number }) => p.concept_id)).toEqual([201820]);
    expect(res.body.data.hierarchy.ancestors.map((p: { concept_id: number }) => p.concept_id)).toEqual([201820]);
    const plain = await t.request('/v1/concepts/201826');
    expect(plain.body.data.synonyms).toBeUndefined();
  });
});

describe('concept by code', () => {
  it('round-trips a code with a dot', async () => {
    const res = await t.request('/v1/concepts/by-code/ICD10CM/E11.9');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ concept_id: 35206882, concept_code: 'E11.9', standard_concept: null });
  });

  it('round-trips a code with a slash and a space (percent-encoded)', async () => {
    const res = await t.request(`/v1/concepts/by-code/TESTVOC/${encodeURIComponent('A/B 12')}`);
    expect(res.status).toBe(200);
    expect(res.body.data.concept_id).toBe(7000001);
  });

  it('answers 404 not_found for an unknown code', async () => {
    const res = await t.request('/v1/concepts/by-code/ICD10CM/DEFINITELY-NOT-A-CODE');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('errors (Errors rules 1, 2, 7; reading note 12)', () => {
  it('404 for an unknown concept uses the error envelope with meta and X-Request-Id', async () => {
    const res = await t.request('/v1/concepts/999999999');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    expect(res.body.error.message).toContain('999999999');
    expect(res.body.meta.request_id).toBe(res.headers['x-request-id']);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('400 validation_error names the parameter and the reason', async () => {
    const res = await t.request('/v1/concepts/abc');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_error');
    expect(res.body.error.message).toContain("'concept_id'");
    expect(res.body.error.details).toMatchObject({ parameter: 'concept_id', location: 'params' });
  });

  it('400 for a bad boolean flag names it', async () => {
    const res = await t.request('/v1/concepts/201826?include_synonyms=maybe');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('include_synonyms');
  });

  it('unknown REST path → 404 envelope', async () => {
    const res = await t.request('/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });

  it('errors on /fhir paths are OperationOutcome resources', async () => {
    const res = await t.request('/fhir/r4/NoSuchResource');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toContain('application/fhir+json');
    expect(res.body.resourceType).toBe('OperationOutcome');
    expect(res.body.issue[0].code).toBe('not-found');
  });
});

describe('authentication (Authentication 1–3)', () => {
  it('401 missing_api_key without the header', async () => {
    const res = await t.request('/v1/concepts/201826', { anonymous: true });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('missing_api_key');
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
  });

  it('401 invalid_api_key for an unknown key and for an empty bearer', async () => {
    const bad = await t.request('/v1/concepts/201826', { key: 'oh_invalid_definitely_not_a_real_key_xxx' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('invalid_api_key');
    const empty = await t.request('/v1/concepts/201826', { anonymous: true, headers: { authorization: 'Bearer   ' } });
    expect(empty.status).toBe(401);
    expect(empty.body.error.code).toBe('invalid_api_key');
  });

  it('401 invalid_api_key once a key is revoked', async () => {
    const key = await t.createKey({ name: 'to-revoke' });
    expect((await t.request('/v1/concepts/201826', { key })).status).toBe(200);
    await t.server.state.revokeKey('to-revoke');
    const res = await t.request('/v1/concepts/201826', { key });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
  });

  // FHIR paths without a key (401 login on a route, 404 not-found elsewhere): gate-route-protection.test.ts.

  it('health needs no key', async () => {
    const res = await t.request('/health', { anonymous: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', releases: ['2025.2'], default_release: '2025.2' });
  });
});

describe('licensed content (Authentication 5, reading note 9)', () => {
  it('CPT4 is 403 vocabulary_restricted for a key without validation', async () => {
    const byId = await t.request('/v1/concepts/2414397');
    expect(byId.status).toBe(403);
    expect(byId.body.error.code).toBe('vocabulary_restricted');
    const byCode = await t.request('/v1/concepts/by-code/CPT4/99213');
    expect(byCode.status).toBe(403);
  });

  it('CPT4 is served to a key whose validation has not lapsed, refused after it lapsed', async () => {
    const valid = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const res = await t.request('/v1/concepts/2414397', { key: valid });
    expect(res.status).toBe(200);
    expect(res.body.data.vocabulary_id).toBe('CPT4');
    const lapsed = await t.createKey({ cpt4_validated_until: '2020-01-01' });
    expect((await t.request('/v1/concepts/2414397', { key: lapsed })).status).toBe(403);
  });

  it('GPI and MedDRA are never served, even to a CPT4-validated key', async () => {
    const valid = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    for (const id of [7000002, 7000003]) {
      const res = await t.request(`/v1/concepts/${id}`, { key: valid });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('vocabulary_restricted');
    }
  });

  it('restricted vocabularies are left out of the vocabulary list', async () => {
    const res = await t.request('/v1/vocabularies?page_size=200');
    const ids = res.body.data.vocabularies.map((v: { vocabulary_id: string }) => v.vocabulary_id);
    expect(ids).toContain('SNOMED');
    expect(ids).not.toContain('CPT4');
    expect(ids).not.toContain('GPI');
    expect(ids).not.toContain('MedDRA');
  });
});

describe('rate limit and quota (Limits)', () => {
  it('429 rate_limit_exceeded with Retry-After once the per-second budget is spent', async () => {
    const key = await t.createKey({ rate_per_second: 2 });
    const first = await t.request('/v1/concepts/201826', { key });
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    await t.request('/v1/concepts/201826', { key });
    const third = await t.request('/v1/concepts/201826', { key });
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('rate_limit_exceeded');
    expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(third.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('the limit is shared by the REST and FHIR surfaces', async () => {
    const key = await t.createKey({ rate_per_second: 1 });
    expect((await t.request('/v1/concepts/201826', { key })).status).toBe(200);
    const fhir = await t.request('/fhir/r4/metadata', { key });
    expect(fhir.status).toBe(429);
    expect(fhir.body.resourceType).toBe('OperationOutcome');
    expect(fhir.body.issue[0].code).toBe('throttled');
  });

  it('monthly quota: calls beyond it get 429 monthly_quota_exceeded, a distinct code', async () => {
    const key = await t.createKey({ monthly_quota: 2 });
    expect((await t.request('/v1/concepts/201826', { key })).status).toBe(200);
    expect((await t.request('/v1/concepts/201820', { key })).status).toBe(200);
    const over = await t.request('/v1/concepts/201826', { key });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('monthly_quota_exceeded');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('quota usage is persisted', async () => {
    const key = await t.createKey({ name: 'metered', monthly_quota: 100 });
    await t.request('/v1/concepts/201826', { key });
    await t.request('/v1/concepts/201826', { key });
    await t.server.state.flush();
    const record = (await t.server.state.listKeys()).find((k) => k.name === 'metered')!;
    const month = new Date().toISOString().slice(0, 7);
    expect(await t.server.state.usageOf(record.id, month)).toBe(2);
  });
});

describe('pagination (Common REST conventions 3; Limits)', () => {
  it('page_size above 200 is clamped to 200', async () => {
    const res = await t.request('/v1/vocabularies?page_size=500');
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination.page_size).toBe(200);
  });

  it('meta.pagination is complete and consistent', async () => {
    const res = await t.request('/v1/vocabularies?page=2&page_size=1');
    const p = res.body.meta.pagination;
    expect(p.page).toBe(2);
    expect(p.page_size).toBe(1);
    expect(p.total_pages).toBe(Math.max(1, Math.ceil(p.total_items / 1)));
    expect(p.has_previous).toBe(true);
    expect(p.has_next).toBe(p.page < p.total_pages);
    expect(res.body.data.vocabularies).toHaveLength(1);
    const first = await t.request('/v1/vocabularies?page=1&page_size=1');
    expect(first.body.meta.pagination.has_previous).toBe(false);
  });

  it('page=0 is a 400 naming page', async () => {
    const res = await t.request('/v1/vocabularies?page=0');
    expect(res.status).toBe(400);
    expect(res.body.error.details.parameter).toBe('page');
  });
});

describe('transport: HTTPS only (reading note 7)', () => {
  it('a plain HTTP request gets no data but a clear https_required error', async () => {
    const res = await t.request('/v1/concepts/201826', { plain: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('https_required');
    expect(res.body.error.message).toMatch(/HTTPS is required/);
    expect(res.body.data).toBeUndefined();
    expect(res.text).not.toContain('Type 2 diabetes');
  });

  it('X-Forwarded-Proto is ignored from an untrusted peer', async () => {
    const res = await t.request('/v1/concepts/201826', { plain: true, headers: { 'x-forwarded-proto': 'https' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('https_required');
  });
});

describe('OpenAPI document', () => {
  it('is served at /openapi.json and is a valid OpenAPI 3 document listing the routes', async () => {
    const res = await t.request('/openapi.json', { anonymous: true });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/v1/concepts/{concept_id}', '/v1/vocabularies', '/v1/vocabularies/releases', '/health']),
    );
    const result = await validate(structuredClone(res.body));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('has a browsable reference at /docs', async () => {
    const res = await t.request('/docs/', { anonymous: true });
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/swagger/i);
  });
});
