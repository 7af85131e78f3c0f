/**
 * The browser's front door (issue 23, "Sign-in" and "Release switcher"): a key is given once, a server-side session
 * (HttpOnly, Secure, SameSite=Strict cookie with an expiry, stored in the state store) stands for it, every page obeys
 * that key's rate limit and metering, sign-out ends the session, state-changing forms need the CSRF token, and the
 * landing page lists the loaded releases with their counts. `--browse-without-key` opens the pages anonymously.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formBody, pageClient, signIn } from '../helpers/page-client.js';
import { rawRequest, rawTlsRequest, startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from '../http/fixture-vocabulary.js';

let t: TestServer;
let fixture: string;
beforeAll(async () => {
  fixture = writeCoreFixture();
  t = await startTestServer({
    releases: [
      { dir: fixture, label: '2025.1' },
      { dir: fixture, label: '2025.2', makeDefault: true },
    ],
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const cookieLine = (res: { headers: Record<string, unknown> }, name: string) =>
  ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? []).find((l) => l.startsWith(`${name}=`));

/** Data rows of a CSV file of the fixture (header and blank lines left out). */
const csvRows = (file: string) => readFileSync(join(fixture, file), 'utf8').split('\n').slice(1).filter((l) => l.trim() !== '').length;

describe('sign-in', () => {
  it('sends a browser without a session to sign in, keeping where it was going', async () => {
    const res = await rawRequest(`${t.url}/?vocab_release=2025.1`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent('/?vocab_release=2025.1')}`);
  });

  it('shows a form with its own token (a strict, HttpOnly cookie), the releases loaded, and nothing from another origin', async () => {
    const res = await rawRequest(`${t.url}/sign-in`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(res.text).toContain('<input id="api-key" name="api_key" type="password"');
    const token = cookieLine(res, 'omopterm_sign_in')!;
    expect(token).toMatch(/HttpOnly/i);
    expect(token).toMatch(/Secure/i);
    expect(token).toMatch(/SameSite=Strict/i);
    expect(res.text).toContain('<code>2025.1</code>');
    expect(res.text).toContain('<code>2025.2</code> (default)');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|\*|'unsafe-inline'|'unsafe-eval'/);
    // No inline script: every <script> loads a file of this origin.
    for (const tag of res.text.match(/<script[^>]*>/g) ?? []) expect(tag).toMatch(/ src="\/assets\//);
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('refuses a form without its token (403), a wrong key (401, no session) and an empty key (400)', async () => {
    const noToken = await rawRequest(`${t.url}/sign-in`, {
      method: 'POST',
      body: formBody({ api_key: t.key, next: '/' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    });
    expect(noToken.status).toBe(403);
    expect(cookieLine(noToken, 'omopterm_session')).toBeUndefined();

    const form = await rawRequest(`${t.url}/sign-in`, {});
    const token = /omopterm_sign_in=([^;]+)/.exec(cookieLine(form, 'omopterm_sign_in')!)![1]!;
    const post = (apiKey: string) =>
      rawRequest(`${t.url}/sign-in`, {
        method: 'POST',
        body: formBody({ api_key: apiKey, next: '/', _csrf: token }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `omopterm_sign_in=${token}`, accept: 'text/html' },
      });
    const wrong = await post('oh_not-a-key-at-all-0000000000');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('That API key is not valid or has been revoked.');
    expect(wrong.text).not.toContain('oh_not-a-key-at-all');
    expect(cookieLine(wrong, 'omopterm_session')).toBeUndefined();
    expect((await post('   ')).status).toBe(400);
  });

  it('starts a session: a strict, Secure, HttpOnly cookie that expires with the session (8 hours)', async () => {
    const form = await rawRequest(`${t.url}/sign-in`, {});
    const token = /omopterm_sign_in=([^;]+)/.exec(cookieLine(form, 'omopterm_sign_in')!)![1]!;
    const res = await rawRequest(`${t.url}/sign-in`, {
      method: 'POST',
      body: formBody({ api_key: t.key, next: '//evil.example/steal', _csrf: token }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `omopterm_sign_in=${token}` },
    });
    expect(res.status).toBe(303);
    // A return path that would leave this server is replaced by the home page.
    expect(res.headers.location).toBe('/');
    const session = cookieLine(res, 'omopterm_session')!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/Secure/i);
    expect(session).toMatch(/SameSite=Strict/i);
    expect(session).toMatch(/Max-Age=28800/i);
    expect(session).not.toContain(t.key);
  });
});

describe('the return path after sign-in', () => {
  it('stays on this server whatever the next parameter says', async () => {
    const form = await rawRequest(`${t.url}/sign-in`, {});
    const token = /omopterm_sign_in=([^;]+)/.exec(cookieLine(form, 'omopterm_sign_in')!)![1]!;
    const after = async (next: string) =>
      (
        await rawRequest(`${t.url}/sign-in`, {
          method: 'POST',
          body: formBody({ api_key: t.key, next, _csrf: token }),
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `omopterm_sign_in=${token}` },
        })
      ).headers.location;
    // Browsers drop tabs and newlines and read "\\" as "/": each of these would be another origin.
    for (const next of ['//evil.example/x', '/\\evil.example', '/\t/evil.example', '/\n/evil.example', 'https://evil.example/', 'javascript:alert(1)']) {
      expect(await after(next), JSON.stringify(next)).toBe('/');
    }
    expect(await after('/search?q=type%202&vocab_release=2025.1')).toBe('/search?q=type%202&vocab_release=2025.1');
  });
});

describe('the landing page', () => {
  it('lists the loaded releases with their counts and marks the default', async () => {
    const browser = await signIn(t);
    const res = await browser.get('/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Releases loaded');
    const row = (label: string) => new RegExp(`<th scope="row"><a href="/\\?vocab_release=${label.replace('.', '\\.')}">${label.replace('.', '\\.')}</a>([^<]*)</th>(.*?)</tr>`).exec(res.text);
    expect(row('2025.2')![1]).toBe(' (default)');
    expect(row('2025.1')![1]).toBe('');
    const cells = [...row('2025.1')![2]!.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((m) => Number(m[1]!.replace(/,/g, '')));
    expect(cells).toEqual([csvRows('CONCEPT.csv'), csvRows('CONCEPT_RELATIONSHIP.csv'), csvRows('CONCEPT_ANCESTOR.csv'), csvRows('CONCEPT_SYNONYM.csv')]);
    expect(res.text).toContain('href="/docs"');
    expect(res.text).toContain('href="/fhir-metadata"');
  });

  it('has a release switcher naming every release, with the URL choice selected', async () => {
    const browser = await signIn(t);
    const res = await browser.get('/?vocab_release=2025.1');
    expect(res.text).toMatch(/<select id="release-switcher" name="vocab_release"[^>]*><option value="2025.1" selected>2025.1<\/option><option value="2025.2">2025.2 \(default\)<\/option><\/select>/);
    expect(res.text).toContain('release <strong>2025.1</strong>');
    const unknown = await browser.get('/?vocab_release=1999.1');
    expect(unknown.status).toBe(400); // as on the API: an unknown release is a bad parameter
    expect(unknown.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(unknown.text).toContain('1999.1');
  });
});

describe('the session', () => {
  it('is metered against the key and limited by its rate, like its API calls', async () => {
    const key = await t.createKey({ name: 'metered-browser', rate_per_second: 1000, monthly_quota: 3 });
    const browser = await signIn(t, key);
    const record = (await t.server.state.listKeys()).find((k) => k.name === 'metered-browser')!;
    const month = new Date().toISOString().slice(0, 7);
    const before = await t.server.state.usageOf(record.id, month);
    expect((await browser.get('/')).status).toBe(200);
    expect(await t.server.state.usageOf(record.id, month)).toBe(before + 1);
    let last = 200;
    for (let i = 0; i < 4 && last === 200; i++) last = (await browser.get('/')).status;
    expect(last).toBe(429);
  });

  it('ends with sign-out, which needs the CSRF token', async () => {
    const browser = await signIn(t);
    expect((await browser.post('/sign-out', { _csrf: 'forged' })).status).toBe(403);
    expect((await browser.get('/')).status).toBe(200);
    const out = await browser.post('/sign-out', {});
    expect(out.status).toBe(303);
    expect(cookieLine(out, 'omopterm_session')).toMatch(/Max-Age=0/);
    expect((await browser.get('/')).status).toBe(303);
  });

  it('ends when its key is revoked', async () => {
    const key = await t.createKey({ name: 'revoked-browser' });
    const browser = await signIn(t, key);
    expect((await browser.get('/')).status).toBe(200);
    await t.server.state.revokeKey('revoked-browser');
    expect((await browser.get('/')).status).toBe(303);
  });

  it('refuses a state-changing form posted from another origin even with the token', async () => {
    const browser = await signIn(t);
    const token = await browser.csrfToken();
    expect((await browser.post('/sign-out', { _csrf: token }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await browser.post('/sign-out', { _csrf: token }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await browser.get('/')).status).toBe(200);
  });

  it('is not an API key: a session cookie opens no /v1 or /fhir route', async () => {
    const browser = await signIn(t);
    const res = await rawRequest(`${t.url}/v1/concepts/201826`, { headers: { cookie: browser.cookie } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('missing_api_key');
  });

  it('answers plain HTTP with 400 and a browser at an unknown path with an HTML 404', async () => {
    expect((await rawRequest(`${t.url.replace('https', 'http')}/`, { plain: true, headers: { accept: 'text/html' } })).status).toBe(400);
    const missing = await pageClient(t).get('/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    const api = await rawRequest(`${t.url}/v1/no-such-route`, { headers: { accept: 'text/html' } });
    expect(api.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('browsing without a key (serve --browse-without-key)', () => {
  let open: TestServer;
  beforeAll(async () => {
    open = await startTestServer({ releases: [{ dir: fixture, label: '2025.1' }], browseWithoutKey: true });
  }, 120_000);
  afterAll(async () => {
    await open?.close();
  });

  it('opens the pages without signing in, under an anonymous session; the API still needs a key', async () => {
    const res = await pageClient(open).get('/');
    expect(res.status).toBe(200);
    expect(cookieLine(res, 'omopterm_session')).toMatch(/HttpOnly/);
    expect(res.text).toContain('Sign in');
    expect((await open.request('/v1/concepts/201826', { anonymous: true })).status).toBe(401);
  });

  it('is off by default', async () => {
    expect((await pageClient(t).get('/')).status).toBe(303);
  });
});

describe('HEAD and the OpenAPI document', () => {
  it('answers HEAD on the sign-in page like GET, without a body', async () => {
    const res = await rawTlsRequest(t.port, '/sign-in', { method: 'HEAD', headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toBe('');
  });

  it('leaves the pages out of the OpenAPI document', async () => {
    const doc = (await t.request('/openapi.json', { anonymous: true })).body;
    expect(Object.keys(doc.paths)).not.toContain('/');
    expect(Object.keys(doc.paths)).not.toContain('/sign-in');
    expect(Object.keys(doc.paths)).toContain('/health');
  });
});
