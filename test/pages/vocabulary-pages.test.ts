/**
 * The vocabulary pages (issue 23, "Vocabularies and statistics"): the vocabulary list, one vocabulary's E5 statistics
 * with server-drawn SVG charts (accessible title and description, one bar per domain, the numbers in tables) and the
 * E10 mapping quality of a pair. Expected figures are counted from the fixture written here, and equal the REST
 * answers for the same key; a key without CPT4 validation never sees CPT4; bad parameters are 400s naming them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type PageClient } from '../helpers/page-client.js';
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const HOSTILE = '<b>x</b> & "y"';
const HOSTILE_VOCABULARY = '<i>Evil</i> & "Co"';
/** As preact writes it: `<`, `&` and `"` escaped (a `>` in text is harmless). */
const ESCAPED_VOCABULARY = '&lt;i>Evil&lt;/i> &amp; &quot;Co&quot;';

const concepts: FixtureConcept[] = [
  // SNOMED: three domains, a hierarchy four levels deep, one classification and one invalid concept.
  { concept_id: 100, concept_name: 'Clinical finding', concept_class_id: 'Clinical Finding' },
  { concept_id: 101, concept_name: 'Disease', concept_class_id: 'Clinical Finding' },
  { concept_id: 102, concept_name: 'Diabetes mellitus', concept_class_id: 'Clinical Finding' },
  { concept_id: 103, concept_name: 'Type 2 diabetes mellitus', concept_class_id: 'Clinical Finding' },
  { concept_id: 104, concept_name: 'Type 1 diabetes mellitus', concept_class_id: 'Clinical Finding' },
  { concept_id: 110, concept_name: 'Procedure', domain_id: 'Procedure', concept_class_id: 'Procedure', standard_concept: 'C' },
  { concept_id: 111, concept_name: 'Appendectomy', domain_id: 'Procedure', concept_class_id: 'Procedure' },
  { concept_id: 120, concept_name: 'Smoker', domain_id: 'Observation', concept_class_id: 'Observable Entity' },
  { concept_id: 121, concept_name: 'Old finding', concept_class_id: 'Clinical Finding', standard_concept: null, invalid_reason: 'D', valid_end_date: '20200101' },
  // ICD10CM: three mapped into SNOMED (one to a procedure: crosses domains), one unmapped with a hostile name.
  { concept_id: 200, concept_name: 'Type 2 diabetes mellitus', vocabulary_id: 'ICD10CM', concept_class_id: '3-char nonbill code', standard_concept: null, concept_code: 'E11' },
  { concept_id: 201, concept_name: 'Type 1 diabetes mellitus without complications', vocabulary_id: 'ICD10CM', concept_class_id: '4-char billing code', standard_concept: null, concept_code: 'E10.9' },
  { concept_id: 202, concept_name: 'Appendicitis needing surgery', vocabulary_id: 'ICD10CM', concept_class_id: '4-char billing code', standard_concept: null, concept_code: 'K35.8', valid_start_date: '20150101' },
  { concept_id: 203, concept_name: HOSTILE, vocabulary_id: 'ICD10CM', concept_class_id: '4-char billing code', standard_concept: null, concept_code: 'Z99.9' },
  // CPT4: licensed (mapped into SNOMED too).
  { concept_id: 300, concept_name: 'Appendectomy (CPT4)', domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', concept_code: '44950' },
  // A vocabulary whose name is markup.
  { concept_id: 400, concept_name: 'Evil concept', domain_id: 'Observation', vocabulary_id: 'EVIL', concept_class_id: 'Evil class', concept_code: 'E1' },
  // GPI: never served.
  { concept_id: 500, concept_name: 'A GPI drug group', domain_id: 'Drug', vocabulary_id: 'GPI', concept_class_id: 'GPI', standard_concept: null, concept_code: '2725' },
  // A vocabulary with 55 concept classes: its class table has two pages of 50.
  ...Array.from({ length: 55 }, (_, i): FixtureConcept => ({
    concept_id: 600 + i,
    concept_name: `Many-class concept ${i}`,
    domain_id: 'Observation',
    vocabulary_id: 'MANYCLS',
    concept_class_id: `Class ${String(i).padStart(2, '0')}`,
    concept_code: `M${i}`,
  })),
];

const maps = (from: number, to: number, valid_start_date?: string): FixtureRelationship[] => [
  { concept_id_1: from, concept_id_2: to, relationship_id: 'Maps to', valid_start_date },
  { concept_id_1: to, concept_id_2: from, relationship_id: 'Mapped from', valid_start_date },
];
const isA = (child: number, parent: number): FixtureRelationship[] => [
  { concept_id_1: child, concept_id_2: parent, relationship_id: 'Is a' },
  { concept_id_1: parent, concept_id_2: child, relationship_id: 'Subsumes' },
];
const relationships: FixtureRelationship[] = [
  ...maps(200, 103),
  ...maps(201, 104),
  ...maps(202, 111, '20150101'),
  ...maps(300, 111),
  ...isA(101, 100),
  ...isA(102, 101),
  ...isA(103, 102),
  ...isA(104, 102),
  ...isA(111, 110),
];
// [ancestor, descendant, min, max]: 100 > 101 > 102 > {103, 104}; 110 > 111.
const ancestors: Array<[number, number, number, number]> = [
  ...[100, 101, 102, 103, 104, 110, 111].map((id): [number, number, number, number] => [id, id, 0, 0]),
  [100, 101, 1, 1],
  [100, 102, 2, 2],
  [100, 103, 3, 3],
  [100, 104, 3, 3],
  [101, 102, 1, 1],
  [101, 103, 2, 2],
  [101, 104, 2, 2],
  [102, 103, 1, 1],
  [102, 104, 1, 1],
  [110, 111, 1, 1],
];
const vocabularyIds = [...new Set(concepts.map((c) => c.vocabulary_id ?? 'SNOMED'))];
const vocabularyName = (id: string) => (id === 'EVIL' ? HOSTILE_VOCABULARY : `${id} vocabulary`);

let t: TestServer;
let browser: PageClient;
let cpt4Browser: PageClient;
let cpt4Key: string;
beforeAll(async () => {
  const dir = writeAthenaFixture({
    concepts,
    relationships,
    ancestors,
    vocabularies: vocabularyIds.map((id) => [id, vocabularyName(id), `${id} v1`]),
    domains: ['Condition', 'Procedure', 'Observation', 'Drug'],
  });
  t = await startTestServer({
    releases: [
      { dir, label: '2025.1' },
      { dir, label: '2025.2', makeDefault: true },
    ],
  });
  browser = await signIn(t);
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
  cpt4Browser = await signIn(t, cpt4Key);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

// --- counting the fixture --------------------------------------------------------------------------------------
const of = (vocabulary: string) => concepts.filter((c) => (c.vocabulary_id ?? 'SNOMED') === vocabulary);
const domainOf = (c: FixtureConcept) => c.domain_id ?? 'Condition';
function domainCounts(vocabulary: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of of(vocabulary)) out.set(domainOf(c), (out.get(domainOf(c)) ?? 0) + 1);
  return out;
}
/** depth = the largest min_levels_of_separation of a member's ancestor rows. */
function depthCounts(vocabulary: string): Map<number, number> {
  const ids = new Set(of(vocabulary).map((c) => c.concept_id));
  const depth = new Map<number, number>();
  for (const [, descendant, min] of ancestors) if (ids.has(descendant)) depth.set(descendant, Math.max(depth.get(descendant) ?? 0, min));
  const out = new Map<number, number>();
  for (const d of depth.values()) out.set(d, (out.get(d) ?? 0) + 1);
  return out;
}
const mappedConcepts = (vocabulary: string) =>
  of(vocabulary).filter((c) => relationships.some((r) => r.relationship_id === 'Maps to' && r.concept_id_1 === c.concept_id && r.concept_id_2 !== c.concept_id)).length;

// --- reading the HTML ------------------------------------------------------------------------------------------
const decode = (html: string) =>
  html.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').trim();
const num = (text: string) => Number(decode(text).replace(/,/g, '').replace(/\s*%$/, ''));
/** The element with this id (first match; tables and SVGs here do not nest themselves). */
function element(html: string, tag: string, id: string): string {
  const at = html.indexOf(` id="${id}"`);
  expect(at, `#${id}`).toBeGreaterThan(-1);
  const open = html.lastIndexOf(`<${tag}`, at);
  const end = html.indexOf(`</${tag}>`, at);
  return html.slice(open, end + tag.length + 3);
}
/** Rows of a table's body: each row's cells (th and td) as inner HTML. */
function rows(table: string): string[][] {
  const body = table.slice(table.indexOf('<tbody>'));
  return [...body.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1]!));
}
const rest = async (path: string, key = t.key) => {
  const res = await t.request(path, { key });
  expect(res.status, path).toBe(200);
  return res.body.data;
};

describe('GET /vocabularies', () => {
  it('lists every vocabulary with concepts that the key may see, with the counts of the fixture and of GET /v1/vocabularies', async () => {
    const res = await browser.get('/vocabularies');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const table = rows(element(res.text, 'table', 'vocabulary-table'));
    const listed = table.map((r) => decode(r[0]!));
    const visible = vocabularyIds.filter((id) => id !== 'CPT4' && id !== 'GPI');
    expect([...listed].sort()).toEqual([...visible].sort());
    const api = (await rest('/v1/vocabularies?include_stats=true&page_size=100')).vocabularies as Array<Record<string, unknown>>;
    expect(listed).toEqual(api.map((v) => v.vocabulary_id));
    for (const row of table) {
      const id = decode(row[0]!);
      const vocabulary = of(id);
      expect(decode(row[1]!)).toBe(vocabularyName(id));
      expect(decode(row[2]!)).toBe(`${id} v1`);
      expect(num(row[3]!)).toBe(vocabulary.length);
      expect(num(row[4]!)).toBe(vocabulary.filter((c) => (c.standard_concept === undefined ? 'S' : c.standard_concept) === 'S').length);
      expect(num(row[5]!)).toBe(vocabulary.filter((c) => c.standard_concept === 'C').length);
      expect(num(row[6]!)).toBe(vocabulary.filter((c) => c.invalid_reason).length);
      expect(row[0]).toContain(`href="/vocabularies/${encodeURIComponent(id)}"`);
      expect(row[7]).toContain(`href="/search?vocabulary=${encodeURIComponent(id)}"`);
    }
    expect(decode(element(res.text, 'p', 'vocabulary-count'))).toBe(`${visible.length} vocabularies.`);
  });

  it('filters by id or name (q) like GET /v1/vocabularies/search, and keeps the chosen release in its links', async () => {
    const res = await browser.get('/vocabularies?q=icd&vocab_release=2025.1');
    expect(res.status).toBe(200);
    const listed = rows(element(res.text, 'table', 'vocabulary-table')).map((r) => decode(r[0]!));
    expect(listed).toEqual(['ICD10CM']);
    expect(res.text).toContain('href="/vocabularies/ICD10CM?vocab_release=2025.1"');
    expect(res.text).toContain('<input type="hidden" name="vocab_release" value="2025.1"/>');
    const none = await browser.get('/vocabularies?q=nothing-like-this');
    expect(none.status).toBe(200);
    expect(decode(element(none.text, 'p', 'vocabulary-count'))).toBe('No vocabulary matches “nothing-like-this”.');
  });

  it('orders the largest vocabularies first on request (sort=concepts)', async () => {
    const res = await browser.get('/vocabularies?sort=concepts');
    expect(res.status).toBe(200);
    const listed = rows(element(res.text, 'table', 'vocabulary-table')).map((r) => decode(r[0]!));
    const bySize = vocabularyIds.filter((id) => id !== 'CPT4' && id !== 'GPI').sort((x, y) => of(y).length - of(x).length || x.localeCompare(y));
    expect(listed).toEqual(bySize);
    expect(element(res.text, 'select', 'vocabulary-sort')).toContain('<option value="concepts" selected>');
  });

  it('shows a vocabulary name with markup as text', async () => {
    const res = await browser.get('/vocabularies');
    expect(res.text).not.toContain(HOSTILE_VOCABULARY);
    expect(res.text).toContain(ESCAPED_VOCABULARY);
    expect(decode(res.text)).toContain(HOSTILE_VOCABULARY);
  });

  it('never lists CPT4 for a key without CPT4 validation, and lists it for a validated key', async () => {
    const plain = await browser.get('/vocabularies');
    expect(plain.text).not.toContain('CPT4');
    expect(plain.text).not.toContain('GPI');
    const validated = await cpt4Browser.get('/vocabularies');
    const listed = rows(element(validated.text, 'table', 'vocabulary-table')).map((r) => decode(r[0]!));
    expect(listed).toContain('CPT4');
    expect(listed).not.toContain('GPI');
  });

  it('answers bad parameters with a 400 page naming them, and a page past the last with 400', async () => {
    for (const [query, parameter] of [
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=2', 'page'],
      ['sort=bogus', 'sort'],
      [`q=${'a'.repeat(201)}`, 'q'],
    ] as const) {
      const res = await browser.get(`/vocabularies?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(decode(res.text), query).toContain(`'${parameter}'`);
    }
  });
});

describe('GET /vocabularies/:id', () => {
  it('shows the concept counts of the fixture, equal to GET /v1/vocabularies/{id}/statistics', async () => {
    const res = await browser.get('/vocabularies/SNOMED');
    expect(res.status).toBe(200);
    const snomed = of('SNOMED');
    const kinds = Object.fromEntries(rows(element(res.text, 'table', 'kinds-table')).map((r) => [decode(r[0]!), num(r[1]!)]));
    const standard = snomed.filter((c) => (c.standard_concept === undefined ? 'S' : c.standard_concept) === 'S').length;
    const classification = snomed.filter((c) => c.standard_concept === 'C').length;
    expect(kinds).toEqual({
      Standard: standard,
      Classification: classification,
      'Non-standard': snomed.length - standard - classification,
      'Invalid (any kind)': snomed.filter((c) => c.invalid_reason).length,
      Total: snomed.length,
    });
    const api = await rest('/v1/vocabularies/SNOMED/statistics?include_domain_breakdown=true&include_hierarchy_stats=true&include_mapping_stats=true');
    expect(kinds.Total).toBe(api.concept_statistics.total_concepts);
    expect(kinds.Standard).toBe(api.concept_statistics.standard_concepts);
    expect(kinds['Invalid (any kind)']).toBe(api.concept_statistics.invalid_concepts);
    expect(decode(element(res.text, 'h1', 'vocabulary-heading'))).toBe('SNOMED vocabulary (SNOMED)');
  });

  it('draws the domain distribution: one bar per domain of the fixture, an accessible title and description, and the numbers in a table linking to the search', async () => {
    const res = await browser.get('/vocabularies/SNOMED');
    const expected = domainCounts('SNOMED');
    const svg = element(res.text, 'svg', 'chart-domains');
    expect(svg).toContain('role="img"');
    expect(svg).toContain('aria-labelledby="chart-domains-title chart-domains-desc"');
    expect(svg).toMatch(/<title id="chart-domains-title">Concepts of SNOMED per domain<\/title>/);
    expect(svg).toMatch(/<desc id="chart-domains-desc">[^<]+<\/desc>/);
    expect(svg).not.toMatch(/style=/);
    expect(svg.match(/<rect class="bar"/g)?.length).toBe(expected.size);
    const table = rows(element(res.text, 'table', 'domain-table'));
    expect(new Map(table.map((r) => [decode(r[0]!), num(r[1]!)]))).toEqual(expected);
    for (const [domain] of expected) expect(res.text).toContain(`href="/search?vocabulary=SNOMED&amp;domain=${domain}"`);
    // The bars are as long as the counts: the largest domain has the longest bar.
    const widths = [...svg.matchAll(/<rect class="bar" x="[^"]+" y="[^"]+" width="([^"]+)"/g)].map((m) => Number(m[1]));
    const counts = table.map((r) => num(r[1]!));
    expect(widths.indexOf(Math.max(...widths))).toBe(counts.indexOf(Math.max(...counts)));
    const api = await rest('/v1/vocabularies/SNOMED/statistics?include_domain_breakdown=true');
    expect(table.map((r) => num(r[1]!))).toEqual(api.domain_statistics.domain_distribution.map((d: { concept_count: number }) => d.concept_count));
  });

  it('draws the depth histogram and the mapping coverage from the fixture', async () => {
    const res = await browser.get('/vocabularies/SNOMED');
    const depths = depthCounts('SNOMED');
    const depthSvg = element(res.text, 'svg', 'chart-depths');
    expect(depthSvg).toContain('aria-labelledby="chart-depths-title chart-depths-desc"');
    expect(depthSvg.match(/<rect class="bar"/g)?.length).toBe(depths.size);
    const depthTable = rows(element(res.text, 'table', 'depth-table'));
    expect(new Map(depthTable.map((r) => [num(r[0]!), num(r[1]!)]))).toEqual(depths);

    const icd = await browser.get('/vocabularies/ICD10CM');
    const coverage = Object.fromEntries(rows(element(icd.text, 'table', 'coverage-table')).map((r) => [decode(r[0]!), num(r[1]!)]));
    const mapped = mappedConcepts('ICD10CM');
    expect(coverage).toEqual({ Mapped: mapped, 'Not mapped': of('ICD10CM').length - mapped });
    expect(element(icd.text, 'svg', 'chart-coverage')).toContain('<title id="chart-coverage-title">Mapping coverage of ICD10CM</title>');
    const api = await rest('/v1/vocabularies/ICD10CM/statistics?include_mapping_stats=true');
    expect(coverage.Mapped).toBe(api.mapping_statistics.mapped_concepts);
    const targets = rows(element(icd.text, 'table', 'target-table'));
    expect(targets.map((r) => decode(r[0]!))).toEqual(['SNOMED']);
    expect(num(targets[0]![2]!)).toBe(api.mapping_statistics.target_vocabularies[0].mapped_concepts);
    expect(targets[0]![0]).toContain('href="/mapping-quality?source=ICD10CM&amp;target=SNOMED"');
  });

  it('pages a long concept-class table (50 a page) and refuses a page past the last', async () => {
    const first = await browser.get('/vocabularies/MANYCLS');
    expect(rows(element(first.text, 'table', 'class-table'))).toHaveLength(50);
    expect(first.text).toContain('href="/vocabularies/MANYCLS?classes_page=2#classes"');
    // htmx swaps only the section when script runs; the link works without it.
    expect(first.text).toContain('hx-get="/vocabularies/MANYCLS?classes_page=2" hx-select="#classes" hx-target="#classes" hx-swap="outerHTML"');
    const second = await browser.get('/vocabularies/MANYCLS?classes_page=2');
    expect(rows(element(second.text, 'table', 'class-table'))).toHaveLength(55 - 50);
    const past = await browser.get('/vocabularies/MANYCLS?classes_page=3');
    expect(past.status).toBe(400);
    expect(decode(past.text)).toContain("'classes_page'");
  });

  it('shows a vocabulary name with markup as text, in the heading and the chart titles', async () => {
    const res = await browser.get('/vocabularies/EVIL');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(HOSTILE_VOCABULARY);
    expect(res.text).toContain(ESCAPED_VOCABULARY);
    expect(element(res.text, 'svg', 'chart-domains')).toContain(`<title id="chart-domains-title">Concepts of EVIL per domain</title>`);
    expect(decode(element(res.text, 'h1', 'vocabulary-heading'))).toBe(`${HOSTILE_VOCABULARY} (EVIL)`);
  });

  it('answers 403 for CPT4 without validation, as GET /v1/vocabularies/CPT4/statistics does, and shows it with validation', async () => {
    const page = await browser.get('/vocabularies/CPT4');
    expect(page.status).toBe(403);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const api = await t.request('/v1/vocabularies/CPT4/statistics');
    expect(api.status).toBe(403);
    expect(decode(page.text)).toContain(api.body.error.message);
    expect((await browser.get('/vocabularies/GPI')).status).toBe(403);
    const validated = await cpt4Browser.get('/vocabularies/CPT4');
    expect(validated.status).toBe(200);
    expect(num(rows(element(validated.text, 'table', 'kinds-table')).at(-1)![1]!)).toBe(of('CPT4').length);
  });

  it('answers 404 for an unknown vocabulary and 400 for a bad id or parameter', async () => {
    expect((await browser.get('/vocabularies/NOPE')).status).toBe(404);
    const long = await browser.get(`/vocabularies/${'A'.repeat(21)}`);
    expect(long.status).toBe(400);
    expect((await browser.get('/vocabularies/SNOMED%01')).status).toBe(400);
    for (const query of ['classes_page=0', 'relationships_page=x', 'relationships_page=2']) {
      const res = await browser.get(`/vocabularies/SNOMED?${query}`);
      expect(res.status, query).toBe(400);
      expect(decode(res.text)).toContain(`'${query.split('=')[0]}'`);
    }
  });
});

describe('GET /vocabularies/:id/domains/:domain', () => {
  it('shows the concept classes of one domain of a vocabulary, counted from the fixture and equal to GET /v1/vocabularies/{id}/stats/domains/{domain}', async () => {
    const statistics = await browser.get('/vocabularies/SNOMED');
    expect(statistics.text).toContain('href="/vocabularies/SNOMED/domains/Condition"');
    const res = await browser.get('/vocabularies/SNOMED/domains/Condition');
    expect(res.status).toBe(200);
    const conditions = of('SNOMED').filter((c) => domainOf(c) === 'Condition');
    const expected = new Map<string, number>();
    for (const c of conditions) expected.set(c.concept_class_id!, (expected.get(c.concept_class_id!) ?? 0) + 1);
    const table = rows(element(res.text, 'table', 'domain-class-table'));
    expect(new Map(table.map((r) => [decode(r[0]!), num(r[1]!)]))).toEqual(expected);
    const svg = element(res.text, 'svg', 'chart-domain-classes');
    expect(svg).toContain('aria-labelledby="chart-domain-classes-title chart-domain-classes-desc"');
    expect(svg.match(/<rect class="bar"/g)?.length).toBe(expected.size);
    const kinds = Object.fromEntries(rows(element(res.text, 'table', 'domain-kinds-table')).map((r) => [decode(r[0]!), num(r[1]!)]));
    expect(kinds.Total).toBe(conditions.length);
    expect(kinds['Invalid (any kind)']).toBe(conditions.filter((c) => c.invalid_reason).length);
    const api = await rest('/v1/vocabularies/SNOMED/stats/domains/Condition');
    expect(kinds.Total).toBe(api.statistics.total_concepts);
    expect(table.map((r) => num(r[1]!))).toEqual(api.concept_class_breakdown.map((k: { concept_count: number }) => k.concept_count));
    expect(res.text).toContain('href="/search?vocabulary=SNOMED&amp;domain=Condition&amp;concept_class=Clinical+Finding"');
  });

  it('answers 403 for CPT4 without validation, 404 for an unknown domain and 400 for a bad one', async () => {
    expect((await browser.get('/vocabularies/CPT4/domains/Procedure')).status).toBe(403);
    expect((await cpt4Browser.get('/vocabularies/CPT4/domains/Procedure')).status).toBe(200);
    expect((await browser.get('/vocabularies/SNOMED/domains/Nowhere')).status).toBe(404);
    expect((await browser.get(`/vocabularies/SNOMED/domains/${'D'.repeat(21)}`)).status).toBe(400);
    // A known domain without concepts of the vocabulary: zero counts.
    const empty = await browser.get('/vocabularies/SNOMED/domains/Drug');
    expect(empty.status).toBe(200);
    expect(decode(empty.text)).toContain('No concept of SNOMED is in this domain.');
  });
});

describe('GET /mapping-quality', () => {
  it('without a pair, shows a form of two selects of the vocabularies the key may see', async () => {
    const res = await browser.get('/mapping-quality');
    expect(res.status).toBe(200);
    const source = element(res.text, 'select', 'mq-source');
    const options = [...source.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]).filter(Boolean);
    expect(options.sort()).toEqual(vocabularyIds.filter((id) => id !== 'CPT4' && id !== 'GPI').sort());
    expect(res.text).toContain('<label for="mq-source">');
    expect(res.text).toContain('<label for="mq-target">');
    expect(res.text).not.toContain('CPT4');
    const preselected = await browser.get('/mapping-quality?source=ICD10CM');
    expect(preselected.status).toBe(200);
    expect(element(preselected.text, 'select', 'mq-source')).toContain('<option value="ICD10CM" selected>');
  });

  it('shows the figures of GET /v1/mappings/quality and /v1/mappings/coverage for the same pair', async () => {
    const res = await browser.get('/mapping-quality?source=ICD10CM&target=SNOMED');
    expect(res.status).toBe(200);
    const api = await rest('/v1/mappings/quality/ICD10CM/SNOMED?include_outliers=true&include_trends=true&include_recommendations=true');
    const overview = Object.fromEntries(rows(element(res.text, 'table', 'overview-table')).map((r) => [decode(r[0]!), decode(r[1]!)]));
    const rowsIntoSnomed = relationships.filter(
      (r) => r.relationship_id === 'Maps to' && of('ICD10CM').some((c) => c.concept_id === r.concept_id_1),
    ).length;
    expect(Number(overview['Mapping rows analysed'])).toBe(rowsIntoSnomed);
    expect(api.quality_overview.total_mappings_analyzed).toBe(rowsIntoSnomed);
    expect(Number(overview['Average confidence'])).toBe(api.quality_overview.overall_average_confidence);
    expect(overview['Rows crossing domains']).toBe(String(api.quality_metrics.signal_summary.domain_mismatches));
    expect(overview['Quality rating']).toBe(api.quality_overview.overall_quality_rating);

    const histogram = rows(element(res.text, 'table', 'confidence-table')).map((r) => num(r[1]!));
    expect(histogram).toEqual(api.quality_metrics.confidence_score_distribution.histogram_bins.map((b: { count: number }) => b.count));
    const svg = element(res.text, 'svg', 'chart-confidence');
    expect(svg).toContain('aria-labelledby="chart-confidence-title chart-confidence-desc"');
    expect(svg.match(/<rect class="bar"/g)?.length).toBe(histogram.length);

    const byDomain = rows(element(res.text, 'table', 'domain-quality-table'));
    expect(byDomain.map((r) => num(r[1]!))).toEqual(Object.values(api.quality_by_domain).map((d) => (d as { total_mappings: number }).total_mappings));

    const coverageApi = await rest('/v1/mappings/coverage?source_vocabulary=ICD10CM&target_vocabulary=SNOMED');
    const coverage = rows(element(res.text, 'table', 'domain-coverage-table'));
    expect(coverage.map((r) => [decode(r[0]!), num(r[1]!), num(r[2]!)])).toEqual(
      coverageApi.domain_coverage.map((d: { domain_name: string; source_concepts: number; mapped_concepts: number }) => [d.domain_name, d.source_concepts, d.mapped_concepts]),
    );
    // Counted from the fixture: every valid ICD10CM concept is a Condition; three of four are mapped into SNOMED.
    expect(coverage.map((r) => [decode(r[0]!), num(r[1]!), num(r[2]!)])).toEqual([['Condition', of('ICD10CM').length, mappedConcepts('ICD10CM')]]);
  });

  it('shows a concept name with markup (an unmapped source concept) as text', async () => {
    const res = await browser.get('/mapping-quality?source=ICD10CM&target=SNOMED');
    expect(res.text).not.toContain(HOSTILE);
    expect(res.text).toContain('&lt;b>x&lt;/b> &amp; &quot;y&quot;');
    expect(element(res.text, 'ul', 'unmapped-list')).toContain('href="/concepts/203"');
  });

  it('answers 403 for a pair with CPT4 without validation (as the REST route), and 200 with it', async () => {
    const page = await browser.get('/mapping-quality?source=CPT4&target=SNOMED');
    expect(page.status).toBe(403);
    expect((await t.request('/v1/mappings/quality/CPT4/SNOMED')).status).toBe(403);
    const validated = await cpt4Browser.get('/mapping-quality?source=CPT4&target=SNOMED');
    expect(validated.status).toBe(200);
    const api = await rest('/v1/mappings/quality/CPT4/SNOMED', cpt4Key);
    const overview = Object.fromEntries(rows(element(validated.text, 'table', 'overview-table')).map((r) => [decode(r[0]!), decode(r[1]!)]));
    expect(Number(overview['Mapping rows analysed'])).toBe(api.quality_overview.total_mappings_analyzed);
    // The SNOMED page of an unvalidated key does not name CPT4 either (its mapping targets are left out).
    expect((await browser.get('/mapping-quality?source=SNOMED&target=ICD10CM')).text).not.toContain('CPT4');
  });

  it('answers 400 for a bad or half-given pair and 404 for an unknown vocabulary', async () => {
    for (const [query, parameter] of [
      ['source=ICD10CM&target=', 'target'],
      ['target=SNOMED', 'source'],
      [`source=${'A'.repeat(21)}&target=SNOMED`, 'source'],
      ['source=ICD10CM&source=SNOMED&target=SNOMED', 'source'],
    ] as const) {
      const res = await browser.get(`/mapping-quality?${query}`);
      expect(res.status, query).toBe(400);
      expect(decode(res.text), query).toContain(`'${parameter}'`);
    }
    expect((await browser.get('/mapping-quality?source=NOPE&target=SNOMED')).status).toBe(404);
  });
});

describe('every page of this area', () => {
  it('has one h1, no inline style or script, no duplicate ids, and stays small', async () => {
    for (const path of ['/vocabularies', '/vocabularies/SNOMED', '/vocabularies/ICD10CM', '/vocabularies/MANYCLS', '/vocabularies/SNOMED/domains/Condition', '/mapping-quality', '/mapping-quality?source=ICD10CM&target=SNOMED']) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(200);
      expect(res.text.match(/<h1[ >]/g)?.length, path).toBe(1);
      expect(res.text, path).not.toMatch(/ style=| on[a-z]+=/);
      for (const tag of res.text.match(/<script[^>]*>/g) ?? []) expect(tag).toMatch(/ src="\/assets\//);
      const ids = [...res.text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
      expect(ids.length, path).toBe(new Set(ids).size);
      for (const [, forId] of res.text.matchAll(/<label for="([^"]+)"/g)) expect(ids, `${path} label ${forId}`).toContain(forId);
      expect(Buffer.byteLength(res.text), path).toBeLessThan(80_000);
    }
  });
});
