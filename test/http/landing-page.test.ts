/**
 * `GET /` is a small open HTML page (issue 21, "The first hour"): what the server is, links that answer, the loaded
 * releases, every printed value escaped, nothing loaded from another origin (CSP), HEAD like GET.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml, landingPageHtml } from '../../src/http/pages/landing.js';
import { rawTlsRequest, startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

let t: TestServer;
beforeAll(async () => {
  const fixture = writeCoreFixture();
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

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);

describe('GET /', () => {
  it('answers an HTML page without a key, naming the server and the loaded releases', async () => {
    const res = await t.request('/', { anonymous: true, headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(res.text).toContain('<title>omopterm</title>');
    expect(res.text).toContain('OMOP standardized vocabularies');
    expect(res.text).toContain('<li><code>2025.1</code></li>');
    expect(res.text).toContain('<li><code>2025.2</code> (default)</li>');
    expect(res.text).toContain('A browser for people');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('links to the API reference, the FHIR CapabilityStatement and the release list, and each link answers', async () => {
    const links = hrefs((await t.request('/', { anonymous: true })).text);
    expect(links).toEqual(expect.arrayContaining(['/docs', '/fhir/r4/metadata', '/v1/vocabularies/releases']));
    expect(links.every((href) => href.startsWith('/') && !href.startsWith('//')), links.join(' ')).toBe(true);
    expect([200, 302]).toContain((await t.request('/docs', { anonymous: true })).status);
    const metadata = await t.request('/fhir/r4/metadata');
    expect(metadata.status).toBe(200);
    expect(metadata.body.resourceType).toBe('CapabilityStatement');
    const releases = await t.request('/v1/vocabularies/releases');
    expect(releases.status).toBe(200);
    expect(releases.body.data.releases.map((r: { label: string }) => r.label)).toEqual(['2025.2', '2025.1']);
  });

  it('forbids loading anything from another origin: a CSP with default-src none and the inline style allowed by its hash only', async () => {
    const res = await t.request('/', { anonymous: true });
    const csp = String(res.headers['content-security-policy']);
    const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values] as const));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.text)![1]!;
    expect(directives.get('style-src')).toEqual([`'sha256-${createHash('sha256').update(style).digest('base64')}'`]);
    expect(csp).not.toMatch(/https?:|\*|'unsafe-inline'|'unsafe-eval'/);
    expect(res.text).not.toMatch(/<script|<link|<img|\bsrc=|@import|url\(/i);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await rawTlsRequest(t.port, '/', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toBe('');
  });

  it('is not an API operation: the OpenAPI document leaves it out, like /docs', async () => {
    const doc = (await t.request('/openapi.json', { anonymous: true })).body;
    expect(Object.keys(doc.paths)).not.toContain('/');
    expect(Object.keys(doc.paths)).toContain('/health');
  });
});

describe('escaping', () => {
  it('escapes the characters that end text or an attribute value', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
    expect(escapeHtml('2025.2')).toBe('2025.2');
  });

  // Release labels come from directory names on disk; the registry admits only YYYY.Q and `demo`, but the page does not rely on it.
  it('prints a hostile release label and version as text, never as markup', () => {
    const html = landingPageHtml({ version: '1.0"><script>x</script>', releases: ['<script>alert(1)</script>', 'a&b'], defaultRelease: 'a&b' });
    expect(html).not.toContain('<script');
    expect(html).toContain('<li><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></li>');
    expect(html).toContain('<li><code>a&amp;b</code> (default)</li>');
    expect(html).toContain('omopterm 1.0&quot;&gt;&lt;script&gt;x&lt;/script&gt;');
  });
});
