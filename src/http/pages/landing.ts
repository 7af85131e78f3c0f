/**
 * `GET /` (and HEAD): a small open HTML page saying what this server is, linking to the API reference, the FHIR
 * CapabilityStatement and the release list, and naming the loaded releases. Every value printed is HTML-escaped, the
 * only style is inline and allowed by its hash, and the Content-Security-Policy forbids loading anything else.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ReleaseRegistry } from '../../store/release-registry.js';

/** Escapes the five characters that matter in HTML text and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1d2433}' +
  'code{background:#f1f3f6;padding:0 .25rem;border-radius:3px}a{color:#0b57d0}li{margin:.2rem 0}.note{color:#5b6475}';

/** The response's Content-Security-Policy: nothing from any origin, except the page's own inline style (by hash). */
export const LANDING_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export interface LandingPageContent {
  version: string;
  releases: readonly string[];
  defaultRelease: string | null;
}

export function landingPageHtml(content: LandingPageContent): string {
  const releases = content.releases.length
    ? content.releases
        .map((label) => `<li><code>${escapeHtml(label)}</code>${label === content.defaultRelease ? ' (default)' : ''}</li>`)
        .join('')
    : '<li>none yet: load one with <code>omopterm load &lt;athena-dir&gt; --release YYYY.Q</code></li>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>omopterm</title>
<style>${STYLE}</style>
</head>
<body>
<h1>omopterm</h1>
<p>A self-hosted terminology server for the OMOP standardized vocabularies (SNOMED, LOINC, RxNorm, ICD10CM, … as
published by OHDSI Athena). It serves an OMOPHub-compatible REST API under <code>/v1</code> and a FHIR terminology
server under <code>/fhir/r4</code>, <code>/fhir/r4b</code>, <code>/fhir/r5</code> and <code>/fhir/r6</code>.
Every API request needs an API key: <code>Authorization: Bearer &lt;key&gt;</code>.</p>
<ul>
<li><a href="/docs">API reference</a> (open; the OpenAPI document is <a href="/openapi.json">/openapi.json</a>)</li>
<li><a href="/fhir/r4/metadata">FHIR CapabilityStatement</a> (<code>/fhir/r4/metadata</code>, needs a key)</li>
<li><a href="/v1/vocabularies/releases">Release list</a> (<code>/v1/vocabularies/releases</code>, needs a key; <a href="/health">/health</a> is open)</li>
</ul>
<h2>Releases loaded</h2>
<ul>${releases}</ul>
<p>Choose one with <code>?vocab_release=&lt;label&gt;</code> or the header <code>X-Vocab-Release</code>; a request that names none gets the default.</p>
<p class="note">A browser for people (concept search and navigation pages) is coming; for now this server answers programs.</p>
<p class="note">omopterm ${escapeHtml(content.version)}</p>
</body>
</html>
`;
}

export function registerLandingPage(app: FastifyInstance, registry: ReleaseRegistry, version: string): void {
  // Open like /health; hidden from the OpenAPI document like /docs (an HTML page, not an API operation).
  app.get('/', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Content-Security-Policy', LANDING_PAGE_CSP)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Referrer-Policy', 'no-referrer');
    return landingPageHtml({ version, releases: registry.labels(), defaultRelease: registry.getDefaultLabel() });
  });
}
