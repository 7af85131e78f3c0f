/**
 * Fuzz of every browser page route (every route whose config has `page`, found while the app registers its routes, so
 * pages added later are fuzzed without touching this file): signed in, each route gets hostile values (huge, unicode,
 * malformed, numbers, markup) in its path parameters, query parameters and form fields (POSTs with a valid CSRF
 * token). Properties: never a 5xx; an HTML answer (text/html, with the page CSP), a 303 to a path of this server, or
 * a download that is not HTML (nosniff); markup sent in never comes back unescaped; the fixture's CPT4 concept never
 * shows (the key has no CPT4 validation).
 * OMOPTERM_PAGE_FUZZ_RUNS (default 300) and OMOPTERM_FUZZ_SEED set the run.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { ADD_TO_SET_PATH } from '../../src/http/pages/concept-set-controls.js';
import { PAGE_CSP } from '../../src/http/pages/layout.js';
import { parameterText } from '../fuzz/hostile-values.js';
import type { JsonSchema } from '../fuzz/openapi-operations.js';
import { mappedJob } from '../helpers/mapping-upload.js';
import { formBody, signIn, type PageClient } from '../helpers/page-client.js';
import { rawRequest, startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from '../http/fixture-vocabulary.js';

interface PageRoute {
  method: string;
  url: string;
  page: string;
  /** Properties of the route's querystring / body / params schemas, when it declares them. */
  schemaFields: Record<string, JsonSchema>;
}

// Every route the app registers passes through this onRoute hook, added to each Fastify instance the moment it is
// created (the app's own code is untouched): the page routes are those whose config names a page access.
const pageRoutes = vi.hoisted(() => [] as PageRoute[]);
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const create = actual.default as unknown as (options?: unknown) => import('fastify').FastifyInstance;
  const wrapped = (options?: unknown) => {
    const app = create(options);
    app.addHook('onRoute', (route) => {
      const page = (route.config as { page?: string } | undefined)?.page;
      if (!page) return;
      const schema = (route.schema ?? {}) as Record<string, { properties?: Record<string, JsonSchema> } | undefined>;
      const schemaFields = { ...schema.querystring?.properties, ...schema.body?.properties, ...schema.params?.properties };
      for (const method of [route.method].flat()) if (method !== 'HEAD') pageRoutes.push({ method, url: route.url, page, schemaFields });
    });
    return app;
  };
  return { ...actual, default: Object.assign(wrapped, actual.default) };
});

const DEFAULT_RUNS = 300;
const RUNS = Number(process.env.OMOPTERM_PAGE_FUZZ_RUNS ?? DEFAULT_RUNS);
const SEED = process.env.OMOPTERM_FUZZ_SEED !== undefined ? Number(process.env.OMOPTERM_FUZZ_SEED) : Date.now() % 2 ** 31;

/** Markup that must never come back as markup. */
const MARKERS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>", '<b>bold</b> & "q"'];

/** Plausible values for the page parameters the pages share (their contracts), so that requests reach real data. */
const PLAUSIBLE: Record<string, readonly string[]> = {
  id: ['201826', '201820', '35206882', '2414397', '7000001', '7000004', '999999999'],
  concept_id: ['201826', '201820', '35206882', '2414397', '7000004'],
  q: ['diabetes', 'E11.9', 'type 2', '99213', 'office visit', '201826'],
  mode: ['keyword', 'semantic', 'replace', 'append'],
  index: ['0', '1', '-1', '999'],
  page: ['1', '2', '0', '-1', '100000'],
  page_size: ['1', '10', '100', '101', '0'],
  rel_page: ['1', '2', '0'],
  domain: ['Condition', 'Observation', 'Drug'],
  vocabulary: ['SNOMED', 'ICD10CM', 'CPT4', 'MedDRA'],
  concept_class: ['Clinical Finding', 'CPT4', '4-char billing code'],
  standard: ['S', 'C', 'N'],
  validity: ['valid', 'invalid'],
  vocab_release: ['2025.1', '2025.2', 'latest'],
  format: ['json', 'xml', 'atlas', 'csv', 'valueset'],
  fhir_version: ['r4', 'r4b', 'r5', 'r6'],
  relationship_id: ['Is a', 'Maps to', 'Subsumes', 'Mapped from'],
  rel: ['Is a', 'Maps to', 'Subsumes', 'Mapped from'],
  source: ['ICD10CM', 'SNOMED', 'CPT4'],
  target: ['SNOMED', 'ICD10CM', 'CPT4'],
  name: ['app.css', 'app.js', 'htmx.min.js'],
  include_descendants: ['true', 'false', 'on'],
  include_mapped: ['true', 'false', 'on'],
  is_excluded: ['true', 'false', 'on'],
  return_to: ['/', '/search?q=diabetes', '//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'],
  next: ['/', '//evil.example/', 'https://evil.example/', '/search?q=x'],
  action: ['approve', 'flag', 'ignore', 'reset', 'destroy'],
  equivalence: ['EQUAL', 'WIDER', 'UNREVIEWED', 'equal'],
  status: ['unchecked', 'approved', 'flagged', 'ignored', 'all'],
  comment: ['checked', ''],
  expression: ['{"items":[{"concept":{"CONCEPT_ID":201826},"includeDescendants":true}]}', '{"items":[{"concept":{"CONCEPT_ID":2414397}},{"concept":{"CONCEPT_ID":201826},"includeMapped":true}]}', 'concept_id\n201826\n', '{', '[]'],
};
/** Names tried on every route beside its own, as a browser (or an attacker) may send any. */
const COMMON_NAMES = ['q', 'page', 'page_size', 'vocab_release', 'id', 'concept_id', 'format', 'return_to'];

const valueOf = (name: string, schema: JsonSchema = {}): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...MARKERS) },
    { weight: 4, arbitrary: PLAUSIBLE[name] ? fc.constantFrom(...PLAUSIBLE[name]!) : fc.constantFrom(...MARKERS) },
    { weight: 8, arbitrary: parameterText(schema, name) },
  );

/** Percent-encodes a path segment byte by byte (lone surrogates become U+FFFD instead of throwing). */
const encodeSegment = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => (/[A-Za-z0-9._~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`)).join('');

const pathRegex = (url: string) => new RegExp(`^${url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]+/g, '[^/]+').replace(/\*/g, '.*')}$`);

interface FuzzRequest {
  route: PageRoute;
  path: string;
  query: Array<[string, string]>;
  form: Array<[string, string]>;
}

let t: TestServer;
let browser: PageClient;
/** Field names the pages' own forms and links send to each path (collected from the HTML of the pages). */
const namesByPath = new Map<string, Set<string>>();

function collectNames(html: string): void {
  const add = (action: string, name: string) => {
    const path = action.replace(/&amp;/g, '&').split('?')[0]!;
    if (!path.startsWith('/')) return;
    if (!namesByPath.has(path)) namesByPath.set(path, new Set());
    namesByPath.get(path)!.add(name);
  };
  for (const form of html.matchAll(/<form\b[^>]*\baction="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    const fields = [...form[2]!.matchAll(/<(?:input|select|textarea|button)\b[^>]*\bname="([^"]+)"/g)].map((m) => m[1]!);
    // A button's formaction sends the same form elsewhere.
    const actions = [form[1]!, ...[...form[2]!.matchAll(/\bformaction="([^"]+)"/g)].map((m) => m[1]!)];
    for (const action of actions) for (const field of fields) add(action, field);
  }
  for (const link of html.matchAll(/\bhref="(\/[^"]*\?[^"]*)"/g)) {
    const [path, query] = link[1]!.replace(/&amp;/g, '&').split('?');
    for (const [name] of new URLSearchParams(query)) add(path!, name);
  }
}

const pathParamNames = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);

beforeAll(async () => {
  const fixture = writeCoreFixture();
  t = await startTestServer({
    releases: [
      { dir: fixture, label: '2025.1' },
      { dir: fixture, label: '2025.2', makeDefault: true },
    ],
  });
  browser = await signIn(t);
  // Crawl the pages once with plausible values, to learn the fields their forms and links send: the sign-in form as
  // a visitor sees it, and the pages signed in, with one concept in the set (so that the set's item forms show).
  collectNames((await rawRequest(`${t.url}/sign-in`, { headers: { accept: 'text/html' } })).text);
  await browser.post(ADD_TO_SET_PATH, { concept_id: '201826', return_to: '/' });
  // A mapping job (hostile names in its file), so that the mapping pages' id values reach a real job and their forms show.
  const job = await mappedJob(t, browser, `code,name,frequency\nT2,Type 2 diabetes mellitus,5\nX1,"${MARKERS[1]!.replace(/"/g, '""')}",3\n99213,Clinic visit,2\n`);
  (PLAUSIBLE.id as string[]).push(decodeURIComponent(job.split('/')[2]!));
  collectNames((await browser.get(job)).text);
  collectNames((await browser.get(`${job}/terms/0?q=diabetes`)).text);
  for (const route of pageRoutes.filter((r) => r.method === 'GET')) {
    let path = route.url;
    for (const name of pathParamNames(route.url)) path = path.replace(`:${name}`, encodeSegment(PLAUSIBLE[name]?.[0] ?? '1'));
    if (path.includes('*')) continue;
    for (const query of ['', '?q=diabetes']) {
      const res = await browser.get(`${path}${query}`);
      if (String(res.headers['content-type']).startsWith('text/html')) collectNames(res.text);
    }
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

function requestsFor(route: PageRoute, runs: number, seed: number): FuzzRequest[] {
  const pattern = pathRegex(route.url);
  const discovered = [...namesByPath.entries()].filter(([path]) => pattern.test(path)).flatMap(([, names]) => [...names]);
  const params = pathParamNames(route.url);
  const names = [...new Set([...Object.keys(route.schemaFields), ...discovered, ...COMMON_NAMES])].filter((n) => n !== '_csrf' && !params.includes(n));
  const fields = fc.uniqueArray(fc.constantFrom(...names), { minLength: 0, maxLength: Math.min(names.length, 5) }).chain((chosen) =>
    fc.tuple(...chosen.map((name) => valueOf(name, route.schemaFields[name]).map((v): [string, string] => [name, v]))),
  );
  const pathValues = fc.tuple(...params.map((name) => valueOf(name, route.schemaFields[name])));
  const arbitrary = fc.record({ pathValues, query: fields, form: route.method === 'GET' ? fc.constant([] as Array<[string, string]>) : fields });
  return fc.sample(arbitrary, { numRuns: runs, seed }).map(({ pathValues: values, query, form }) => {
    let path = route.url;
    params.forEach((name, i) => {
      path = path.replace(`:${name}`, encodeSegment(values[i]!));
    });
    path = path.replace('*', encodeSegment(values[params.length] ?? 'x'));
    return { route, path, query: route.method === 'GET' ? query : query.slice(0, 1), form };
  });
}

async function send(request: FuzzRequest): Promise<TestResponse> {
  const search = new URLSearchParams(request.query).toString();
  const url = `${request.path}${search ? `?${search}` : ''}`;
  if (request.route.method === 'GET') return browser.get(url);
  const form: Record<string, string | string[]> = {};
  for (const [name, value] of request.form) form[name] = [...((form[name] as string[] | undefined) ?? []), value];
  if (request.route.url === '/sign-in') {
    // The sign-in form has its own pre-session token (a cookie and the same value in the form).
    const page = await rawRequest(`${t.url}/sign-in`, { headers: { accept: 'text/html' } });
    const token = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    return rawRequest(`${t.url}${url}`, {
      method: 'POST',
      body: formBody({ ...form, _csrf: token }),
      headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', origin: t.url, cookie: `omopterm_sign_in=${token}; ${browser.cookie}` },
    });
  }
  return browser.post(url, form);
}

/** The fixture's CPT4 concept (test/http/fixture-vocabulary.ts): the fuzzing key has no CPT4 validation. */
const CPT4_NAME = 'Office or other outpatient visit';

/** What is wrong with an answer (empty when the properties hold). */
function problemsOf(request: FuzzRequest, res: TestResponse): string[] {
  const problems: string[] = [];
  if (res.text.includes(CPT4_NAME)) problems.push('the CPT4 concept shown to a key without CPT4 validation');
  const type = String(res.headers['content-type'] ?? '');
  if (res.status >= 500) problems.push(`status ${res.status}`);
  if (res.status === 303 || res.status === 302) {
    const location = String(res.headers.location ?? '');
    if (!location.startsWith('/') || location.startsWith('//') || location.startsWith('/\\')) problems.push(`redirect to ${location}`);
    return problems;
  }
  // The transport refuses a request line or headers too long for it before any route runs (src/http/transport.ts), in
  // the API's JSON: not a page, but never HTML either.
  if (res.status === 414 || res.status === 431) {
    if (/html/i.test(type)) problems.push(`transport refusal ${res.status} as ${type}`);
    return problems;
  }
  const html = type.startsWith('text/html');
  if (!html) {
    // Downloads (asset files, exports, raw FHIR views): never HTML, never sniffed as HTML.
    if (res.status !== 200) problems.push(`status ${res.status} answered as ${type || 'no content type'}`);
    if (res.headers['x-content-type-options'] !== 'nosniff') problems.push(`${type} without nosniff`);
    if (/html/i.test(type)) problems.push(`content type ${type}`);
    return problems;
  }
  if (type !== 'text/html; charset=utf-8') problems.push(`content type ${type}`);
  if (res.headers['content-security-policy'] !== PAGE_CSP) problems.push(`CSP ${String(res.headers['content-security-policy'])}`);
  for (const marker of MARKERS) if (res.text.includes(marker)) problems.push(`unescaped ${JSON.stringify(marker)} in the body`);
  if (/<script(?![^>]*\bsrc="\/assets\/)[^>]*>/i.test(res.text)) problems.push('a <script> that is not one of this server’s asset files');
  return problems;
}

it('finds the page routes as the app registers them', () => {
  const keys = pageRoutes.map((r) => `${r.method} ${r.url}`);
  expect(keys).toEqual(expect.arrayContaining(['GET /', 'GET /sign-in', 'POST /sign-in', 'POST /sign-out']));
  // No API route is taken for a page.
  expect(keys.filter((k) => / \/(v1|fhir)(\/|$)/.test(k))).toEqual([]);
});

it('no hostile value in any page parameter or form field breaks a page property', { timeout: 600_000 }, async () => {
  // Sign-out last: it ends the session the other requests use.
  const routes = [...pageRoutes].sort((a, b) => Number(a.url === '/sign-out') - Number(b.url === '/sign-out'));
  const perRoute = Math.max(6, Math.floor(RUNS / routes.length));
  const failures: string[] = [];
  let sent = 0;
  const statuses = new Map<number, number>();
  /** Answers that echoed a marker, escaped: the escaping property was put to work, not vacuously true. */
  let echoedEscaped = 0;
  for (const [index, route] of routes.entries()) {
    for (const request of requestsFor(route, perRoute, SEED + index)) {
      const res = await send(request);
      sent++;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const problems = problemsOf(request, res);
      if (problems.length === 0 && String(res.headers['content-type']).startsWith('text/html') && res.text.includes('alert(1)')) echoedEscaped++;
      if (problems.length) {
        const detail = `${route.method} ${request.path.slice(0, 200)} query=${JSON.stringify(request.query).slice(0, 300)} form=${JSON.stringify(request.form).slice(0, 300)}`;
        failures.push(`${detail}: ${problems.join('; ')}`);
      }
      // A request that ended the session (sign-out) or lost it: sign in again, so the next ones are fuzzed signed in.
      if (res.status === 303 && String(res.headers.location).startsWith('/sign-in')) browser = await signIn(t);
    }
  }
  const summary = `seed ${SEED}: ${sent} requests over ${routes.length} page routes; statuses ${JSON.stringify(Object.fromEntries(statuses))}; ${echoedEscaped} echoed a marker escaped`;
  if (failures.length) console.error(`${summary}\n${failures.slice(0, 30).join('\n')}`);
  else console.log(summary);
  expect(sent).toBeGreaterThanOrEqual(Math.min(RUNS, routes.length * perRoute));
  // Not only refusals: some requests reached a page.
  expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
  expect(echoedEscaped, summary).toBeGreaterThan(0);
  expect(failures, summary).toEqual([]);
});
