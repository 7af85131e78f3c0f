/**
 * POST /oauth2/token over HTTPS (Authentication 4: "The FHIR surface also accepts an OAuth 2.0
 * client_credentials grant (RFC 6749) through POST /oauth2/token"): success with HTTP Basic and with
 * form credentials (RFC 6749 §2.3.1, §4.4.3, §5.1), every §5.2 error, and the token on the FHIR
 * surface as its key — same rate limit, quota and key lifetime — but not on /v1 (Authentication 2
 * "One API key works on both surfaces" is about API keys; rule 4 grants the token to the FHIR
 * surface only). Expired or revoked tokens are 401 OperationOutcome `login` with WWW-Authenticate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';
import type { NewApiKey } from '../../src/state/state-store.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

interface Client {
  keySecret: string;
  clientId: string;
  clientSecret: string;
}

let clientsCreated = 0;
/** A new API key and an OAuth client bound to it (through the server's state store, as the CLI does). */
async function newClient(key: Partial<NewApiKey> = {}, tokenLifetimeSeconds = 3600): Promise<Client> {
  const name = `oauth-${++clientsCreated}`;
  const keySecret = await t.createKey({ name, ...key });
  const { record, secret } = await t.server.state.createClient({ key: name, token_lifetime_seconds: tokenLifetimeSeconds });
  return { keySecret, clientId: record.client_id, clientSecret: secret };
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';

function tokenRequest(form: string, headers: Record<string, string> = {}, server: TestServer = t): Promise<TestResponse> {
  return server.request('/oauth2/token', { method: 'POST', anonymous: true, body: form, headers: { 'content-type': FORM, ...headers } });
}

async function tokenFor(client: Client): Promise<string> {
  const res = await tokenRequest('grant_type=client_credentials', { authorization: basic(client.clientId, client.clientSecret) });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token;
}

function expectOAuthError(res: TestResponse, status: number, error: string, descriptionPart: string | RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'error_description']);
  expect(res.body.error).toBe(error);
  expect(res.body.error_description).toMatch(descriptionPart);
  expect(res.headers['cache-control']).toBe('no-store');
}

const fhir = (path: string, secret: string) => t.request(path, { key: secret, headers: { accept: 'application/fhir+json' } });

describe('token requests that succeed (RFC 6749 §4.4.3, §5.1)', () => {
  it('HTTP Basic credentials: a Bearer token with expires_in and the default scope, never cached', async () => {
    const client = await newClient();
    const res = await tokenRequest('grant_type=client_credentials', { authorization: basic(client.clientId, client.clientSecret) });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ access_token: expect.stringMatching(/^ohat_[A-Za-z0-9_-]{40,}$/), token_type: 'Bearer', expires_in: 3600, scope: 'system/*.read' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    expect(res.body.access_token).not.toBe(client.keySecret);
  });

  it('client_id and client_secret form fields; an accepted scope is echoed; the client\'s token lifetime is expires_in', async () => {
    const client = await newClient({}, 600);
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'system/*.rs' });
    const res = await tokenRequest(form.toString(), { 'content-type': `${FORM}; charset=UTF-8` });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'system/*.rs' });
    expect(res.headers.pragma).toBe('no-cache');
  });

  it('Basic credentials are form-encoded before base64 (RFC 6749 §2.3.1), and a matching client_id field is allowed', async () => {
    const client = await newClient();
    const encoded = basic(encodeURIComponent(client.clientId), encodeURIComponent(client.clientSecret));
    const res = await tokenRequest(`grant_type=client_credentials&client_id=${client.clientId}`, { authorization: encoded });
    expect(res.status, res.text).toBe(200);
  });

  it('is refused over plain HTTP (400 https_required), valid credentials or not: no token leaves unencrypted', async () => {
    const client = await newClient();
    const res = await t.request('/oauth2/token', {
      method: 'POST',
      anonymous: true,
      plain: true,
      body: 'grant_type=client_credentials',
      headers: { 'content-type': FORM, authorization: basic(client.clientId, client.clientSecret) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('https_required');
    expect(res.text).not.toContain('ohat_');
  });

  it('needs no API key (public route) and is not counted against the key', async () => {
    const client = await newClient({ monthly_quota: 1 });
    await tokenFor(client);
    await tokenFor(client);
    expect((await t.request('/v1/concepts/201826', { key: client.keySecret })).status).toBe(200);
  });
});

describe('token request errors (RFC 6749 §5.2)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await newClient();
  });
  const auth = () => ({ authorization: basic(client.clientId, client.clientSecret) });

  it('invalid_request: grant_type missing', async () => {
    expectOAuthError(await tokenRequest('', auth()), 400, 'invalid_request', "Missing required parameter 'grant_type'");
    expectOAuthError(await tokenRequest('grant_type=', auth()), 400, 'invalid_request', "'grant_type'");
  });

  it('invalid_request: a parameter sent twice (§3.2)', async () => {
    expectOAuthError(await tokenRequest('grant_type=client_credentials&grant_type=client_credentials', auth()), 400, 'invalid_request', "Parameter 'grant_type' is sent more than once");
  });

  it('invalid_request: a body that is not application/x-www-form-urlencoded', async () => {
    const res = await t.request('/oauth2/token', { method: 'POST', anonymous: true, body: { grant_type: 'client_credentials' }, headers: auth() });
    expectOAuthError(res, 400, 'invalid_request', "must be sent as application/x-www-form-urlencoded (RFC 6749 §4.4.2), not 'application/json'");
  });

  it('invalid_request: credentials by HTTP Basic and by client_secret at once (§2.3)', async () => {
    const form = `grant_type=client_credentials&client_secret=${client.clientSecret}`;
    expectOAuthError(await tokenRequest(form, auth()), 400, 'invalid_request', 'use one method');
  });

  it('unsupported_grant_type', async () => {
    expectOAuthError(await tokenRequest('grant_type=password&username=a&password=b', auth()), 400, 'unsupported_grant_type', "grant_type 'password' is not supported");
  });

  it('invalid_scope names the unknown scope', async () => {
    expectOAuthError(await tokenRequest('grant_type=client_credentials&scope=system/*.read%20patient/*.write', auth()), 400, 'invalid_scope', "Unknown scope 'patient/*.write'");
  });

  it('invalid_client with HTTP Basic: 401 with WWW-Authenticate: Basic', async () => {
    const res = await tokenRequest('grant_type=client_credentials', { authorization: basic(client.clientId, `${client.clientSecret}x`) });
    expectOAuthError(res, 401, 'invalid_client', 'Client authentication failed');
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
  });

  it('invalid_client with form credentials: unknown client, or no client authentication at all', async () => {
    const unknown = await tokenRequest(`grant_type=client_credentials&client_id=ohc_nobody&client_secret=${client.clientSecret}`);
    expectOAuthError(unknown, 401, 'invalid_client', 'Client authentication failed');
    expectOAuthError(await tokenRequest('grant_type=client_credentials'), 401, 'invalid_client', 'Client authentication is required');
    expectOAuthError(await tokenRequest(`grant_type=client_credentials&client_id=${client.clientId}`), 401, 'invalid_client', 'client_secret is missing');
    expectOAuthError(
      await tokenRequest('grant_type=client_credentials', { authorization: `Bearer ${client.keySecret}` }),
      401,
      'invalid_client',
      'Unsupported client authentication',
    );
  });

  it('invalid_client for a revoked client and for a client whose key is revoked', async () => {
    const revokedClient = await newClient();
    await t.server.state.revokeClient(revokedClient.clientId);
    expectOAuthError(await tokenRequest('grant_type=client_credentials', { authorization: basic(revokedClient.clientId, revokedClient.clientSecret) }), 401, 'invalid_client', 'revoked');
    const revokedKey = await newClient();
    const keyId = (await t.server.state.authenticate(revokedKey.keySecret))!.id;
    await t.server.state.revokeKey(keyId);
    expectOAuthError(await tokenRequest('grant_type=client_credentials', { authorization: basic(revokedKey.clientId, revokedKey.clientSecret) }), 401, 'invalid_client', 'revoked');
  });
});

describe('the token on the FHIR surface (Authentication 4)', () => {
  it.each(['r4', 'r5'])('is accepted as Authorization: Bearer on /fhir/%s/metadata', async (version) => {
    const token = await tokenFor(await newClient());
    const res = await fhir(`/fhir/${version}/metadata`, token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.resourceType).toBe('CapabilityStatement');
    const anonymous = await t.request(`/fhir/${version}/metadata`, { anonymous: true });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(anonymous.body.issue[0].details.text).toContain('OAuth 2.0 access token (POST /oauth2/token)');
  });

  it('is not an API key on /v1: 401 invalid_api_key saying tokens are for /fhir (Authentication 2 and 4)', async () => {
    const client = await newClient();
    const token = await tokenFor(client);
    const res = await t.request('/v1/concepts/201826', { key: token });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
    expect(res.body.error.message).toContain('/fhir');
    expect((await t.request('/v1/concepts/201826', { key: client.keySecret })).status).toBe(200);
  });

  it('shares its key\'s rate limit bucket, in both directions', async () => {
    // 0.01 requests/second: a bucket of one request that takes 100 s to refill.
    for (const first of ['key', 'token'] as const) {
      const client = await newClient({ rate_per_second: 0.01 });
      const token = await tokenFor(client);
      const [a, b] = first === 'key' ? [client.keySecret, token] : [token, client.keySecret];
      const allowed = await fhir('/fhir/r4/metadata', a);
      expect(allowed.status).toBe(200);
      expect(allowed.headers['x-ratelimit-limit']).toBe('0.01');
      const refused = await fhir('/fhir/r4/metadata', b);
      expect(refused.status, first).toBe(429);
      expect(refused.body.issue[0].code).toBe('throttled');
      expect(refused.headers['x-ratelimit-limit']).toBe('0.01');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(1);
    }
  });

  it('is metered against its key\'s monthly quota', async () => {
    const client = await newClient({ monthly_quota: 2 });
    const token = await tokenFor(client);
    expect((await fhir('/fhir/r4/metadata', token)).status).toBe(200);
    expect((await t.request('/v1/concepts/201826', { key: client.keySecret })).status).toBe(200);
    const refused = await fhir('/fhir/r4/metadata', token);
    expect(refused.status).toBe(429);
    expect(refused.body.issue[0].details.text).toMatch(/Monthly quota exhausted/);
  });

  it('carries its key\'s licence: CPT4 only for a key with a current CPT4 validation (Authentication 5)', async () => {
    // The fixture's CPT4 concept 2414397 (99213), looked up by OMOP concept id.
    const lookup = '/fhir/r4/CodeSystem/$lookup?system=https://fhir-terminology.ohdsi.org&code=2414397';
    const unvalidated = await fhir(lookup, await tokenFor(await newClient()));
    expect(unvalidated.status).toBe(403);
    expect(unvalidated.body.issue[0].code).toBe('forbidden');
    const validated = await fhir(lookup, await tokenFor(await newClient({ cpt4_validated_until: '2999-12-31' })));
    expect(validated.status, validated.text).toBe(200);
    expect(validated.body.resourceType).toBe('Parameters');
  });

  it('an expired token is 401 OperationOutcome login with WWW-Authenticate', async () => {
    const token = await tokenFor(await newClient({}, 1));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const res = await fhir('/fhir/r4/metadata', token);
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body.resourceType).toBe('OperationOutcome');
    expect(res.body.issue[0].code).toBe('login');
    expect(res.body.issue[0].details.text).toMatch(/access token is not valid, has expired or has been revoked/);
  });

  it('a token of a revoked client, or of a revoked key, is 401 login with WWW-Authenticate', async () => {
    const byClient = await newClient();
    const clientToken = await tokenFor(byClient);
    const byKey = await newClient();
    const keyToken = await tokenFor(byKey);
    expect((await fhir('/fhir/r4/metadata', clientToken)).status).toBe(200);
    expect((await fhir('/fhir/r4/metadata', keyToken)).status).toBe(200);
    await t.server.state.revokeClient(byClient.clientId);
    await t.server.state.revokeKey((await t.server.state.authenticate(byKey.keySecret))!.id);
    for (const token of [clientToken, keyToken]) {
      const res = await fhir('/fhir/r4/metadata', token);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body.issue[0].code).toBe('login');
    }
  });
});

describe('the token endpoint is limited per client address', () => {
  let limited: TestServer;
  beforeAll(async () => {
    // 0.01 requests/second per address: one request, then a 100-second refill.
    limited = await startTestServer({ anonymousRatePerSecond: 0.01 });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('a second request from the address is 429 rate_limit_exceeded with Retry-After', async () => {
    expectOAuthError(await tokenRequest('grant_type=client_credentials', {}, limited), 401, 'invalid_client', 'Client authentication is required');
    const refused = await tokenRequest('grant_type=client_credentials', {}, limited);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limit_exceeded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(1);
  });
});
