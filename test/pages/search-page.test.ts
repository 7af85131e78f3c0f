/**
 * The search page (issue 23, "Search"): keyword results identical to GET /v1/search/concepts, facet counts equal to
 * the fixture's, the matched words in <mark>, a hostile name shown as text, licences in rows and facets, paging, 400s
 * naming the parameter, the autocomplete fragment, and semantic mode identical to GET /v1/search/semantic.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { signIn, type PageClient } from '../helpers/page-client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeAthenaFixture, type FixtureConcept } from '../helpers/athena-fixture.js';

const HOSTILE = '<b>x</b> & "y" diabetes marker';

/** 45 probes for paging: three vocabularies, two domains. */
const PROBES: FixtureConcept[] = Array.from({ length: 45 }, (_, i) => ({
  concept_id: 8000001 + i,
  concept_name: `Paging probe item ${String(i + 1).padStart(2, '0')}`,
  vocabulary_id: ['SNOMED', 'LOINC', 'ICD10CM'][i % 3]!,
  domain_id: i % 2 === 0 ? 'Observation' : 'Measurement',
  concept_class_id: 'Probe',
  standard_concept: i % 3 === 2 ? null : 'S',
}));

const CONCEPTS: FixtureConcept[] = [
  { concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', concept_code: '44054006' },
  { concept_id: 201820, concept_name: 'Diabetes mellitus', concept_code: '73211009' },
  { concept_id: 201254, concept_name: 'Type 1 diabetes mellitus', concept_code: '46635009' },
  {
    concept_id: 35206882,
    concept_name: 'Type 2 diabetes mellitus without complications',
    vocabulary_id: 'ICD10CM',
    concept_class_id: '4-char billing code',
    standard_concept: null,
    concept_code: 'E11.9',
  },
  { concept_id: 21600712, concept_name: 'Drugs used in diabetes', domain_id: 'Drug', vocabulary_id: 'ATC', concept_class_id: 'ATC 2nd', standard_concept: 'C', concept_code: 'A10' },
  { concept_id: 7100001, concept_name: HOSTILE, domain_id: 'Measurement', vocabulary_id: 'LOINC', concept_class_id: 'Lab Test', concept_code: '9999-9' },
  { concept_id: 2414397, concept_name: 'Diabetes outpatient training visit', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: '99213' },
  { concept_id: 7000002, concept_name: 'A GPI diabetes drug group', domain_id: 'Drug', vocabulary_id: 'GPI', standard_concept: null, concept_code: '27250050' },
  { concept_id: 7000004, concept_name: 'Old deprecated diabetes finding', concept_code: '999001', invalid_reason: 'D', standard_concept: null, valid_end_date: '20200101' },
  { concept_id: 7000005, concept_name: 'Replaced diabetes code', concept_code: '999002', invalid_reason: 'U', standard_concept: null, valid_end_date: '20200101' },
  { concept_id: 4329847, concept_name: 'Myocardial infarction', concept_code: '22298006' },
  ...PROBES,
];

let t: TestServer;
let browser: PageClient;
beforeAll(async () => {
  const fixture = writeAthenaFixture({ concepts: CONCEPTS, synonyms: [[4329847, 'Heart attack']] });
  t = await startTestServer({ releases: [{ dir: fixture, label: '2025.2', makeDefault: true }] });
  // the same vocabulary without vectors (`omopterm load --skip-embeddings`)
  await loadRelease({ sourceDir: fixture, dataDir: t.dataDir, label: '2025.1', quiet: true, embeddings: false });
  t.server.registry.rescan();
  browser = await signIn(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const HIDDEN_FOR_DEFAULT_KEY = new Set(['CPT4', 'GPI', 'MedDRA']);
const enc = encodeURIComponent;

/** The concept ids of the result rows, in order. */
const rowIds = (html: string) => [...resultsOf(html).matchAll(/<th scope="row" class="name"><a href="\/concepts\/(\d+)/g)].map((m) => Number(m[1]));
/** The #search-results region of a page. */
const resultsOf = (html: string) => html.slice(html.indexOf('<div id="search-results"'));
/** A facet's counts: value (link text without the hidden "Remove filter: ") → count. */
function facetCounts(html: string, id: string): Record<string, number> {
  const start = html.indexOf(`<section class="facet" aria-labelledby="facet-${id}">`);
  if (start < 0) return {};
  const section = html.slice(start, html.indexOf('</section>', start));
  const out: Record<string, number> = {};
  for (const m of section.matchAll(/<a [^>]*>(?:<span class="visually-hidden">Remove filter: <\/span>)?([^<]*)<\/a><span class="count">([\d,]+)<\/span>/g)) {
    out[m[1]!.replace(/&amp;/g, '&')] = Number(m[2]!.replace(/,/g, ''));
  }
  return out;
}
/** Counts of the fixture's concepts passing `keep`, by `key`. */
function countBy(concepts: FixtureConcept[], key: (c: FixtureConcept) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of concepts) out[key(c)] = (out[key(c)] ?? 0) + 1;
  return out;
}
const vocabularyOf = (c: FixtureConcept) => c.vocabulary_id ?? 'SNOMED';
const diabetesConcepts = (visible: (c: FixtureConcept) => boolean) => CONCEPTS.filter((c) => /diabetes/i.test(c.concept_name) && visible(c));
const visibleToDefaultKey = (c: FixtureConcept) => !HIDDEN_FOR_DEFAULT_KEY.has(vocabularyOf(c));

describe('GET /search', () => {
  it('with no query shows the empty form: a GET form, the mode switch, the suggestion list', async () => {
    const res = await browser.get('/search');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<form id="search-form" class="search-form" method="get" action="/search" role="search"');
    expect(res.text).toMatch(/<input id="search-q" name="q" type="search" value maxlength="500"/);
    expect(res.text).toContain('hx-trigger="input changed delay:250ms"');
    expect(res.text).toContain('<ul id="search-suggestions" class="suggestions" aria-label="Suggestions"></ul>');
    expect(res.text).toContain('<input type="radio" id="mode-keyword" name="mode" value="keyword" checked/>');
    expect(res.text).toContain('<input type="radio" id="mode-semantic" name="mode" value="semantic"/>');
    expect(rowIds(res.text)).toEqual([]);
    expect(res.text.match(/<h1>/g)).toHaveLength(1);
  });

  it('shows the results of GET /v1/search/concepts for the same query: same ids, same order', async () => {
    for (const q of ['diabetes', 'type 2 diabetes', 'E11.9', '201820', 'probe']) {
      const api = await t.request(`/v1/search/concepts?query=${enc(q)}&page_size=50`);
      expect(api.status).toBe(200);
      const page = await browser.get(`/search?q=${enc(q)}&page_size=50`);
      expect(page.status).toBe(200);
      expect(rowIds(page.text)).toEqual(api.body.data.map((c: { concept_id: number }) => c.concept_id));
      expect(rowIds(page.text).length).toBeGreaterThan(0);
    }
    // with filters too
    const api = await t.request('/v1/search/concepts?query=diabetes&vocabulary_ids=SNOMED,ICD10CM&include_invalid=true');
    const page = await browser.get('/search?q=diabetes&vocabulary=SNOMED&vocabulary=ICD10CM&validity=all');
    expect(rowIds(page.text)).toEqual(api.body.data.map((c: { concept_id: number }) => c.concept_id));
  });

  it('shows each row with its id, code, vocabulary, domain, class, badges, a concept link and the add-to-set control', async () => {
    const res = await browser.get('/search?q=E11.9');
    const row = /<tr><th scope="row" class="name"><a href="\/concepts\/35206882">(.*?)<\/tr>/.exec(res.text)![1]!;
    expect(row).toContain('<td class="num">35206882</td>');
    expect(row).toContain('<code><mark>E11.9</mark></code>');
    expect(row).toContain('<td>ICD10CM</td><td>Condition</td><td>4-char billing code</td>');
    expect(row).toContain('<span class="badge">Non-standard</span>');
    expect(row).toContain('<form method="post" action="/concept-set/items" class="add-to-set compact">');
    expect(row).toContain('name="concept_id" value="35206882"');
    const invalid = await browser.get('/search?q=diabetes&validity=invalid');
    expect(invalid.text).toContain('Invalid: deprecated');
    expect(invalid.text).toContain('Invalid: replaced');
  });

  it('marks the matched words, never letting markup through (a hostile name is text)', async () => {
    const res = await browser.get('/search?q=type+2+diabetes');
    expect(res.text).toContain('<a href="/concepts/201826"><mark>Type</mark> <mark>2</mark> <mark>Diabetes</mark> mellitus</a>'.replace('Diabetes', 'diabetes'));
    const hostile = await browser.get('/search?q=diabetes+marker');
    expect(rowIds(hostile.text)).toContain(7100001);
    expect(hostile.text).toContain('&lt;b>x&lt;/b> &amp; &quot;y&quot; <mark>diabetes</mark> <mark>marker</mark>');
    expect(hostile.text).not.toContain('<b>x</b>');
    // a query with markup is text too, in the field and in the summary
    const q = await browser.get(`/search?q=${enc('<script>alert(1)</script>')}`);
    expect(q.text).not.toContain('<script>alert');
    expect(q.text).toContain('value="&lt;script>alert(1)&lt;/script>"');
  });

  it('counts facets as the fixture says, for the caller’s licence, and filters by them', async () => {
    const res = await browser.get('/search?q=diabetes');
    const expected = diabetesConcepts((c) => visibleToDefaultKey(c) && !c.invalid_reason);
    expect(facetCounts(res.text, 'vocabulary')).toEqual(countBy(expected, vocabularyOf));
    expect(facetCounts(res.text, 'domain')).toEqual(countBy(expected, (c) => c.domain_id ?? 'Condition'));
    expect(facetCounts(res.text, 'concept-class')).toEqual(countBy(expected, (c) => c.concept_class_id ?? 'Clinical Finding'));
    const flagLabels: Record<string, string> = { S: 'Standard', C: 'Classification', N: 'Non-standard' };
    const flag = (c: FixtureConcept) => flagLabels[(c.standard_concept === undefined ? 'S' : c.standard_concept) ?? 'N']!;
    expect(facetCounts(res.text, 'standard')).toEqual(countBy(expected, flag));
    const invalid = diabetesConcepts((c) => visibleToDefaultKey(c) && !!c.invalid_reason).length;
    expect(facetCounts(res.text, 'validity')).toEqual({ Valid: expected.length, Invalid: invalid, 'Valid and invalid': expected.length + invalid });
    expect(rowIds(res.text)).toHaveLength(expected.length);
    // the same counts as GET /v1/search/facets
    const api = await t.request('/v1/search/facets?query=diabetes');
    expect(facetCounts(res.text, 'vocabulary')).toEqual(Object.fromEntries(api.body.data.facets.vocabularies.map((v: { value: string; count: number }) => [v.value, v.count])));

    // a facet link adds its filter (a full URL), and the selected value links to its removal
    const link = /<a href="([^"]+)" hx-get="[^"]+">SNOMED<\/a>/.exec(resultsOf(res.text))![1]!.replace(/&amp;/g, '&');
    expect(link).toBe('/search?q=diabetes&vocabulary=SNOMED');
    const filtered = await browser.get(link);
    const snomed = expected.filter((c) => vocabularyOf(c) === 'SNOMED');
    expect(rowIds(filtered.text).sort()).toEqual(snomed.map((c) => c.concept_id).sort());
    expect(facetCounts(filtered.text, 'vocabulary')).toEqual({ SNOMED: snomed.length });
    expect(filtered.text).toMatch(/<a href="\/search\?q=diabetes" hx-get="\/search\?q=diabetes" aria-current="true"><span class="visually-hidden">Remove filter: <\/span>SNOMED<\/a>/);
    // the filter travels with the form
    expect(filtered.text).toContain('<input type="hidden" name="vocabulary" value="SNOMED"/>');

    // valid and invalid together: the sum, in the order of GET /v1/search/concepts?include_invalid=true
    const both = await browser.get('/search?q=diabetes&validity=all');
    expect(rowIds(both.text)).toHaveLength(expected.length + invalid);
    // invalid only
    const onlyInvalid = await browser.get('/search?q=diabetes&validity=invalid');
    expect(rowIds(onlyInvalid.text).sort()).toEqual([7000004, 7000005]);
    // in the order GET /v1/search/concepts?include_invalid=true ranks them
    const withInvalid = await t.request('/v1/search/concepts?query=diabetes&include_invalid=true&page_size=50');
    const invalidIds = new Set(CONCEPTS.filter((c) => c.invalid_reason).map((c) => c.concept_id));
    expect(rowIds(onlyInvalid.text)).toEqual(withInvalid.body.data.map((c: { concept_id: number }) => c.concept_id).filter((id: number) => invalidIds.has(id)));
  });

  it('never shows CPT4 to a key without CPT4 validation, in rows or facets; shows it to a validated key', async () => {
    const res = await browser.get('/search?q=diabetes');
    expect(rowIds(res.text)).not.toContain(2414397);
    expect(rowIds(res.text)).not.toContain(7000002);
    expect(facetCounts(res.text, 'vocabulary').CPT4).toBeUndefined();
    expect(res.text).not.toContain('Diabetes outpatient training visit');
    const byCode = await browser.get('/search?q=99213');
    expect(rowIds(byCode.text)).toEqual([]);
    expect((await browser.get('/search?q=diabetes&vocabulary=CPT4')).status).toBe(403);

    const validated = await signIn(t, await t.createKey({ cpt4_validated_until: '2999-12-31' }));
    const seen = await validated.get('/search?q=diabetes');
    expect(rowIds(seen.text)).toContain(2414397);
    expect(rowIds(seen.text)).not.toContain(7000002); // GPI: never
    expect(facetCounts(seen.text, 'vocabulary').CPT4).toBe(1);
    expect(seen.text).toContain('Diabetes outpatient training visit');
  });

  it('pages: "Results 21–40 of 45", previous and next links as full URLs, a bounded page size', async () => {
    const all = CONCEPTS.filter((c) => /probe/i.test(c.concept_name)).length;
    const first = await browser.get('/search?q=probe');
    expect(rowIds(first.text)).toHaveLength(20);
    expect(first.text).toContain(`Results 1–20 of ${all}`);
    const next = /<a href="([^"]+)" hx-get="[^"]+" rel="next">/.exec(first.text)![1]!.replace(/&amp;/g, '&');
    expect(next).toBe('/search?q=probe&page=2');
    const second = await browser.get(next);
    expect(second.text).toContain(`Results 21–40 of ${all}`);
    expect(second.text).toMatch(/<a href="\/search\?q=probe" hx-get="\/search\?q=probe" rel="prev">/);
    const api = await t.request('/v1/search/concepts?query=probe&page=2');
    expect(rowIds(second.text)).toEqual(api.body.data.map((c: { concept_id: number }) => c.concept_id));
    const third = await browser.get('/search?q=probe&page=3');
    expect(third.text).toContain(`Results 41–${all} of ${all}`);
    expect(third.text).not.toContain('rel="next"');
    // every row on exactly one page
    expect(new Set([...rowIds(first.text), ...rowIds(second.text), ...rowIds(third.text)]).size).toBe(all);
    // a page past the end (within the served depth) says so and links back to the first page
    const past = await browser.get('/search?q=probe&page=9');
    expect(past.status).toBe(200);
    expect(rowIds(past.text)).toEqual([]);
    expect(past.text).toContain(`No results on page 9: there are ${all} results for “probe”.`);
    expect(past.text).toContain('href="/search?q=probe"');
    const big = await browser.get('/search?q=probe&page_size=50');
    expect(rowIds(big.text)).toHaveLength(all);
    expect(big.text.length).toBeLessThan(80_000);
    // the release choice stays in every link
    const kept = await browser.get('/search?q=probe&vocab_release=2025.2');
    expect(kept.text).toContain('href="/search?q=probe&amp;page=2&amp;vocab_release=2025.2"');
    expect(kept.text).toContain('href="/concepts/');
    expect(kept.text).toMatch(/href="\/concepts\/\d+\?vocab_release=2025\.2"/);
  });

  it('answers a bad parameter with a 400 page naming it', async () => {
    const cases: Array<[string, RegExp]> = [
      ['q=probe&page=0', /page/],
      ['q=probe&page=abc', /page/],
      ['q=probe&page_size=51', /page_size/],
      ['q=probe&page_size=0', /page_size/],
      ['q=probe&mode=fuzzy', /mode/],
      ['q=probe&standard=X', /standard/],
      ['q=probe&validity=maybe', /validity/],
      ['q=probe&page=201&page_size=50', /'page'/], // beyond the 10,000th result
      ['q=probe&page=21&mode=semantic&page_size=50', /'page'/], // beyond the 1,000th semantic result
      [`q=${'a'.repeat(501)}`, /'q'/],
      ['q=ab', /'q'/], // too broad
    ];
    for (const [params, named] of cases) {
      const res = await browser.get(`/search?${params}`);
      expect(res.status, params).toBe(400);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text, params).toMatch(named);
    }
    // a too-broad query keeps the form, so it can be corrected there
    expect((await browser.get('/search?q=ab')).text).toContain('<input id="search-q" name="q" type="search" value="ab"');
  });

  it('needs a session', async () => {
    const res = await browser.get('/search?q=diabetes', { cookie: '' });
    expect(res.status).toBe(303);
  });
});

describe('GET /search/suggest', () => {
  it('lists up to 10 suggestions as links to concept pages, as GET /v1/search/suggest ranks them', async () => {
    const res = await browser.get('/search/suggest?q=paging+pro');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).not.toContain('<html');
    const ids = [...res.text.matchAll(/<li><a href="\/concepts\/(\d+)">/g)].map((m) => Number(m[1]));
    expect(ids).toHaveLength(10);
    const api = await t.request('/v1/search/suggest?query=paging+pro&page_size=10');
    expect(ids).toEqual(api.body.data.suggestions.map((s: { suggestion: { concept_id: number } }) => s.suggestion.concept_id));
  });

  it('escapes names, obeys licences and says nothing for a too-short text', async () => {
    const hostile = await browser.get('/search/suggest?q=diabetes+mark');
    expect(hostile.text).toContain('&lt;b>x&lt;/b> &amp; &quot;y&quot; <mark>diabetes</mark> <mark>mark</mark>er');
    expect(hostile.text).not.toContain('<b>x</b>');
    expect((await browser.get('/search/suggest?q=diabetes+outpatient')).text).not.toContain('2414397');
    expect((await browser.get('/search/suggest?q=d')).text).toBe('');
    expect((await browser.get('/search/suggest?q=')).text).toBe('');
  });
});

describe('semantic mode', () => {
  it('finds concepts by meaning, as GET /v1/search/semantic does', async () => {
    const res = await browser.get('/search?q=heart+attack&mode=semantic');
    expect(res.status).toBe(200);
    const ids = rowIds(res.text);
    expect(ids).toContain(4329847);
    const api = await t.request('/v1/search/semantic?query=heart+attack&page_size=20');
    expect(ids).toEqual(api.body.data.results.map((r: { concept_id: number }) => r.concept_id));
    expect(res.text).toContain('<input type="radio" id="mode-semantic" name="mode" value="semantic" checked/>');
    // the synonym that matched is shown
    expect(res.text).toContain('matched: <mark>Heart</mark> <mark>attack</mark>');
    // facets count the results found (the results above the threshold)
    expect(Object.values(facetCounts(res.text, 'vocabulary')).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(ids.length);
  });

  it('says so, with a way back to keyword search, when the release has no vectors (503)', async () => {
    const res = await browser.get('/search?q=heart+attack&mode=semantic&vocab_release=2025.1');
    expect(res.status).toBe(503);
    expect(res.text).toMatch(/<p role="alert" class="error">[^<]*omopterm embed --release 2025\.1/);
    expect(res.text).toContain('href="/search?q=heart+attack&amp;vocab_release=2025.1"');
    expect(res.text).toContain('<input id="search-q" name="q" type="search" value="heart attack"');
  });
});

describe('htmx enhancement', () => {
  it('swaps #search-results in place from the same full URLs the links and the form load without script', async () => {
    const res = await browser.get('/search?q=probe');
    expect(res.text).toContain(
      '<div id="search-results" hx-target="#search-results" hx-select="#search-results" hx-swap="outerHTML" hx-select-oob="#search-state" hx-push-url="true">',
    );
    expect(res.text).toMatch(/<form id="search-form" class="search-form" method="get" action="\/search" role="search" hx-get="\/search" hx-target="#search-results" hx-select="#search-results"/);
    for (const m of resultsOf(res.text).matchAll(/<a href="(\/search\?[^"]*)"( hx-get="([^"]*)")?/g)) expect(m[3], m[1]).toBe(m[1]);
    // the suggestions field asks the fragment route, keeping the filters and the release
    const filtered = await browser.get('/search?q=probe&vocabulary=LOINC&vocab_release=2025.2');
    expect(filtered.text).toContain('hx-get="/search/suggest?vocabulary=LOINC&amp;vocab_release=2025.2"');
  });
});
