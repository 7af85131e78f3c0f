/**
 * The concept-set builder pages (issue 23, "Concept-set builder") on a release pair built here: items added through
 * the same "Add to set" form search results and concept pages carry, each flag; the page's resolution, the exports
 * (ATLAS JSON, CSV, FHIR ValueSet), optimise, compare and the release diff against the REST routes for the same
 * expression; import; CSRF; licences (a CPT4 concept, a CPT4 descendant and a CPT4 mapped source); one set per session;
 * hostile names; 400s, 404, 403, 409 and 413.
 */
import { renderToString } from 'preact-render-to-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddToConceptSet } from '../../src/http/pages/concept-set-controls.js';
import type { PageContext } from '../../src/http/pages/page-context.js';
import { readAtlasCsv } from '../../src/services/concept-sets/expression-formats.js';
import { MAX_SESSION_DATA_BYTES } from '../../src/state/state-store.js';
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship } from '../helpers/athena-fixture.js';
import { pageClient, signIn, type PageClient } from '../helpers/page-client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ROOT = 100;
const CHILD = 101;
const GRANDCHILD = 102;
const DEPRECATED_CHILD = 103;
const HOSTILE = 300;
const HOSTILE_NAME = '<b>x</b> & "y"';
const CPT4_CHILD = 400;
const CPT4_NAME = 'Secret CPT4 procedure';
const CPT4_SOURCE = 401;
const CPT4_SOURCE_NAME = 'Secret CPT4 source code';
const ICD_TO_CHILD = 200;
const ICD_TO_ROOT = 201;
const ELSEWHERE = 500;
const NEW_IN_TO = 104;
/** Sixty more children of ROOT, so that the resolved list has two pages of 50. */
const MANY = Array.from({ length: 60 }, (_, i) => 1000 + i);

const c = (concept_id: number, extra: Partial<FixtureConcept> = {}): FixtureConcept => ({ concept_id, concept_name: `concept ${concept_id}`, concept_code: `C${concept_id}`, ...extra });
const mapsTo = (a: number, b: number): FixtureRelationship => ({ concept_id_1: a, concept_id_2: b, relationship_id: 'Maps to' });
const self = (id: number): [number, number, number, number] => [id, id, 0, 0];
const under = (a: number, d: number, level = 1): [number, number, number, number] => [a, d, level, level];

const base = {
  concepts: [
    c(ROOT, { concept_name: 'Root condition' }),
    c(CHILD, { concept_name: 'Child condition' }),
    c(GRANDCHILD, { concept_name: 'Grandchild condition' }),
    c(DEPRECATED_CHILD, { concept_name: 'Deprecated child', standard_concept: null, invalid_reason: 'D', valid_end_date: '20200101' }),
    c(HOSTILE, { concept_name: HOSTILE_NAME }),
    c(CPT4_CHILD, { concept_name: CPT4_NAME, domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4' }),
    c(CPT4_SOURCE, { concept_name: CPT4_SOURCE_NAME, domain_id: 'Procedure', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', standard_concept: null }),
    c(ICD_TO_CHILD, { concept_name: 'ICD code for the child', vocabulary_id: 'ICD10CM', standard_concept: null, concept_class_id: '3-char billing code' }),
    c(ICD_TO_ROOT, { concept_name: 'ICD code for the root', vocabulary_id: 'ICD10CM', standard_concept: null, concept_class_id: '3-char billing code' }),
    c(ELSEWHERE, { concept_name: 'Unrelated condition' }),
    ...MANY.map((id) => c(id)),
  ],
  relationships: [mapsTo(ICD_TO_CHILD, CHILD), mapsTo(ICD_TO_ROOT, ROOT), mapsTo(CPT4_SOURCE, ROOT)],
  ancestors: [
    ...[ROOT, CHILD, GRANDCHILD, DEPRECATED_CHILD, HOSTILE, CPT4_CHILD, ELSEWHERE, ...MANY].map(self),
    ...[CHILD, DEPRECATED_CHILD, HOSTILE, CPT4_CHILD, ...MANY].map((d) => under(ROOT, d)),
    under(ROOT, GRANDCHILD, 2),
    under(CHILD, GRANDCHILD),
  ],
};
/** 2025.2: the grandchild is gone and a new child of the root arrives. */
const next = {
  ...base,
  concepts: [...base.concepts.filter((x) => x.concept_id !== GRANDCHILD), c(NEW_IN_TO, { concept_name: 'New child' })],
  ancestors: [...base.ancestors.filter((a) => a[1] !== GRANDCHILD), self(NEW_IN_TO), under(ROOT, NEW_IN_TO)],
};

let t: TestServer;
let cpt4Key: string;
beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: writeAthenaFixture(base), label: '2025.1', makeDefault: true },
      { dir: writeAthenaFixture(next), label: '2025.2' },
    ],
  });
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
}, 120_000);
afterAll(async () => t?.close());

interface Item {
  concept: { CONCEPT_ID: number };
  isExcluded: boolean;
  includeDescendants: boolean;
  includeMapped: boolean;
}
const item = (id: number, flags: Partial<Omit<Item, 'concept'>> = {}): Item => ({
  concept: { CONCEPT_ID: id },
  isExcluded: flags.isExcluded ?? false,
  includeDescendants: flags.includeDescendants ?? false,
  includeMapped: flags.includeMapped ?? false,
});

/** The fields of the shared "Add to set" form, rendered by the component search results and concept pages use. */
function addFormFields(conceptId: number): { action: string; hidden: Record<string, string>; checkboxes: string[] } {
  const ctx = {
    path: '/search',
    query: { q: 'x' },
    csrfToken: 'token',
    link: (path: string) => path,
  } as unknown as PageContext;
  const html = renderToString(AddToConceptSet({ ctx, conceptId, label: 'x' }));
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  const hidden: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) hidden[m[1]!] = m[2]!.replace(/&amp;/g, '&');
  const checkboxes = [...html.matchAll(/<input type="checkbox"[^>]* name="([^"]+)" value="true"/g)].map((m) => m[1]!);
  return { action, hidden, checkboxes };
}

/** Adds a concept through the shared form, with the named checkboxes ticked; resolves to the response. */
async function addViaForm(browser: PageClient, conceptId: number, ticked: string[], returnTo = '/search?q=x') {
  const form = addFormFields(conceptId);
  expect(form.checkboxes.sort()).toEqual(['include_descendants', 'include_mapped', 'is_excluded']);
  const fields: Record<string, string> = { concept_id: form.hidden.concept_id!, return_to: returnTo };
  for (const name of ticked) fields[name] = 'true';
  return browser.post(form.action, fields);
}

async function rest(path: string, body: unknown, key = t.key) {
  const res = await t.request(path, { method: 'POST', body, key });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function exportOf(browser: PageClient, query: string) {
  const res = await browser.get(`/concept-set/export?${query}`);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res;
}

/** The concept ids of the page's resolved list (first column of #resolved-concepts). */
function listedIds(html: string): number[] {
  const table = /<table class="data" id="resolved-concepts">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  return [...table.matchAll(/<tr><td><a href="\/concepts\/(\d+)[^"]*">/g)].map((m) => Number(m[1]));
}

const resolvedCount = (html: string) => Number(/<strong id="resolved-count">([\d,]+)<\/strong>/.exec(html)![1]!.replace(/,/g, ''));

describe('adding items with the shared form', () => {
  it('adds an item with each flag (and updates the flags of one added again), then goes back where the form was', async () => {
    const browser = await signIn(t);
    const plain = await addViaForm(browser, ELSEWHERE, []);
    expect(plain.status).toBe(303);
    expect(plain.headers.location).toBe('/search?q=x');
    expect((await addViaForm(browser, ROOT, ['include_descendants'])).status).toBe(303);
    expect((await addViaForm(browser, CHILD, ['include_mapped'])).status).toBe(303);
    expect((await addViaForm(browser, GRANDCHILD, ['is_excluded'])).status).toBe(303);
    // Adding ROOT again updates its flags in place.
    expect((await addViaForm(browser, ROOT, ['include_descendants', 'include_mapped'])).status).toBe(303);

    const page = await browser.get('/concept-set');
    expect(page.status).toBe(200);
    const expression = {
      items: [item(ELSEWHERE), item(ROOT, { includeDescendants: true, includeMapped: true }), item(CHILD, { includeMapped: true }), item(GRANDCHILD, { isExcluded: true })],
    };
    const exported = JSON.parse((await exportOf(browser, 'format=atlas')).text);
    expect(exported).toEqual(expression);

    // The count and the first page equal the REST resolution of the same expression.
    const resolved = await rest('/v1/concept-sets/resolve', { expression, page_size: 50 });
    // ROOT, its valid descendants but the excluded grandchild (CHILD, HOSTILE, 60 more; CPT4 hidden, DEPRECATED invalid),
    // its mapped ICD source, CHILD's mapped ICD source, ELSEWHERE: the fixture says 1 + 2 + 60 + 2 + 1 = 66.
    expect(resolved.summary.total).toBe(66);
    expect(resolvedCount(page.text)).toBe(66);
    expect(listedIds(page.text)).toEqual(resolved.concepts.map((x: { concept_id: number }) => x.concept_id));
    const second = await browser.get('/concept-set?page=2');
    const restSecond = await rest('/v1/concept-sets/resolve', { expression, page: 2, page_size: 50 });
    expect(listedIds(second.text)).toEqual(restSecond.concepts.map((x: { concept_id: number }) => x.concept_id));
    expect(listedIds(second.text)).toHaveLength(16);
    // The flags of each item are shown as ticked checkboxes.
    expect(page.text).toMatch(/id="item-1-desc" name="include_descendants" value="true" checked/);
    expect(page.text).toMatch(/id="item-2-mapped" name="include_mapped" value="true" checked/);
    expect(page.text).toMatch(/id="item-3-excl" name="is_excluded" value="true" checked/);
    expect(page.text).not.toMatch(/id="item-0-(desc|mapped|excl)"[^>]* checked/);
    expect(page.text).toContain('<a href="/concepts/100">100</a>');
    expect(page.text).toContain('formaction="/concept-set/items/remove"');
  });

  it('refuses an unknown concept (404), a CPT4 concept for a key without validation (403), bad fields (400); nothing is stored', async () => {
    const browser = await signIn(t);
    expect((await addViaForm(browser, 999_999, [])).status).toBe(404);
    const cpt4 = await addViaForm(browser, CPT4_CHILD, []);
    expect(cpt4.status).toBe(403);
    expect(cpt4.text).not.toContain(CPT4_NAME);
    const bad = await browser.post('/concept-set/items', { concept_id: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('concept_id');
    const badFlag = await browser.post('/concept-set/items', { concept_id: String(ROOT), is_excluded: 'maybe' });
    expect(badFlag.status).toBe(400);
    expect(badFlag.text).toContain('is_excluded');
    expect(JSON.parse((await exportOf(browser, 'format=atlas')).text)).toEqual({ items: [] });
    expect((await browser.get('/concept-set')).text).toContain('id="empty-set"');

    const validated = await signIn(t, cpt4Key);
    expect((await addViaForm(validated, CPT4_CHILD, [])).status).toBe(303);
    expect((await validated.get('/concept-set')).text).toContain(CPT4_NAME);
  });

  it('sends the browser back only to a path of this server', async () => {
    const browser = await signIn(t);
    expect((await addViaForm(browser, ROOT, [], '//evil.example/x')).headers.location).toBe('/');
    expect((await addViaForm(browser, ROOT, [], 'https://evil.example/')).headers.location).toBe('/');
    expect((await addViaForm(browser, ROOT, [], '/concepts/100?vocab_release=2025.1')).headers.location).toBe('/concepts/100?vocab_release=2025.1');
    expect((await addViaForm(browser, ROOT, [], '/search?q=caf\u00e9')).status).toBe(400);
    expect((await addViaForm(browser, ROOT, [], '/x\r\nSet-Cookie: a=b')).status).toBe(400);
  });
});

describe('the set in the session', () => {
  it('is per session: another session (same key) sees an empty set', async () => {
    const one = await signIn(t);
    const two = await signIn(t);
    await addViaForm(one, ROOT, []);
    expect((await one.get('/concept-set')).text).toContain('id="set-items"');
    const other = await two.get('/concept-set');
    expect(other.text).toContain('id="empty-set"');
    expect(resolvedCount(other.text)).toBe(0);
  });

  it('refuses a state change without the CSRF token (403) and keeps the set', async () => {
    const browser = await signIn(t);
    await addViaForm(browser, ROOT, []);
    for (const path of ['/concept-set/items', '/concept-set/clear', '/concept-set/import', '/concept-set/optimize', '/concept-set/compare']) {
      const res = await browser.post(path, { _csrf: 'forged', concept_id: String(CHILD), expression: JSON.stringify({ items: [] }) });
      expect(res.status, path).toBe(403);
    }
    expect(JSON.parse((await exportOf(browser, 'format=atlas')).text)).toEqual({ items: [item(ROOT)] });
  });

  it('removes an item, changes its flags and clears the set, each time back to the builder keeping the release', async () => {
    const browser = await signIn(t);
    await addViaForm(browser, ROOT, []);
    await addViaForm(browser, CHILD, []);
    await addViaForm(browser, ELSEWHERE, []);
    const flags = await browser.post('/concept-set/items/flags?vocab_release=2025.2', { index: '1', concept_id: String(CHILD), include_descendants: 'true', is_excluded: 'true' });
    expect(flags.status).toBe(303);
    expect(flags.headers.location).toBe('/concept-set?vocab_release=2025.2');
    const removed = await browser.post('/concept-set/items/remove', { index: '0', concept_id: String(ROOT) });
    expect(removed.headers.location).toBe('/concept-set');
    expect(JSON.parse((await exportOf(browser, 'format=atlas')).text)).toEqual({ items: [item(CHILD, { isExcluded: true, includeDescendants: true }), item(ELSEWHERE)] });
    // A stale index (the set changed) is a 409, not a change to another item.
    expect((await browser.post('/concept-set/items/remove', { index: '0', concept_id: String(ROOT) })).status).toBe(409);
    expect((await browser.post('/concept-set/items/remove', { index: 'x', concept_id: String(ROOT) })).status).toBe(400);
    expect((await browser.post('/concept-set/clear', {})).status).toBe(303);
    expect(JSON.parse((await exportOf(browser, 'format=atlas')).text)).toEqual({ items: [] });
  });
});

describe('import and export', () => {
  const atlasConceptSet = {
    id: 7,
    name: 'Imported set',
    expression: {
      items: [
        { concept: { CONCEPT_ID: ROOT, CONCEPT_NAME: 'Root condition' }, isExcluded: false, includeDescendants: true, includeMapped: true },
        { concept: { CONCEPT_ID: CHILD }, isExcluded: true, includeDescendants: true, includeMapped: false },
        { concept: { CONCEPT_ID: 424242 }, isExcluded: false, includeDescendants: false, includeMapped: false },
      ],
    },
  };
  const imported = [item(ROOT, { includeDescendants: true, includeMapped: true }), item(CHILD, { isExcluded: true, includeDescendants: true }), item(424242)];

  it('imports a whole ATLAS concept set (JSON), and exports ATLAS JSON, CSV and ValueSets equal to the REST converters', async () => {
    const browser = await signIn(t);
    const res = await browser.post('/concept-set/import', { expression: JSON.stringify(atlasConceptSet), mode: 'replace' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/concept-set');
    const page = await browser.get('/concept-set');
    expect(page.text).toContain('not in release 2025.1');

    const atlas = await exportOf(browser, 'format=atlas');
    expect(atlas.headers['content-disposition']).toBe('attachment; filename="concept-set.json"');
    expect(atlas.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(atlas.text)).toEqual({ items: imported });
    // The REST optimiser's ATLAS writer gives the same items; the export resolves to the same ids as the original.
    const ids = await rest('/v1/concept-sets/resolve?ids_only=true', { expression: JSON.parse(atlas.text) });
    const original = await rest('/v1/concept-sets/resolve?ids_only=true', { expression: atlasConceptSet });
    expect(ids.concept_ids).toEqual(original.concept_ids);
    expect(resolvedCount(page.text)).toBe(original.total);

    const csv = await exportOf(browser, 'format=csv');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="concept-set.csv"');
    expect(csv.text.split('\r\n')[0]).toBe('"Concept Set ID","Name","Concept ID","Concept Code","Concept Name","Domain","Vocabulary","Standard Concept","Exclude","Descendants","Mapped"');
    expect(csv.text.split('\r\n')[1]).toBe('"","","100","C100","Root condition","Condition","SNOMED","Standard","false","true","true"');
    expect(csv.text.split('\r\n')[3]).toBe('"","","424242","","","","","","false","false","false"');
    expect(readAtlasCsv(csv.text).items).toEqual(imported.map((i) => ({ conceptId: i.concept.CONCEPT_ID, isExcluded: i.isExcluded, includeDescendants: i.includeDescendants, includeMapped: i.includeMapped })));
    const fromCsv = await rest('/v1/concept-sets/resolve?ids_only=true', { expression: csv.text });
    expect(fromCsv.concept_ids).toEqual(original.concept_ids);

    for (const version of ['r4', 'r5']) {
      const vs = await exportOf(browser, `format=valueset&fhir_version=${version}`);
      expect(vs.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
      const restVs = await rest(`/v1/concept-sets/to-valueset?fhir_version=${version}`, { expression: JSON.parse(atlas.text) });
      expect(vs.text).toBe(JSON.stringify(restVs));
    }
  });

  it('imports the ATLAS CSV export, appending to the set, and says which line is wrong', async () => {
    const browser = await signIn(t);
    await addViaForm(browser, ELSEWHERE, []);
    const csv = '"Concept ID","Exclude","Descendants","Mapped"\n"101","false","true","false"\n';
    expect((await browser.post('/concept-set/import', { expression: csv, mode: 'append' })).status).toBe(303);
    expect(JSON.parse((await exportOf(browser, 'format=atlas')).text)).toEqual({ items: [item(ELSEWHERE), item(CHILD, { includeDescendants: true })] });
    const bad = await browser.post('/concept-set/import', { expression: '"Concept ID","Exclude"\n"101","perhaps"\n' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('line 2');
    const badJson = await browser.post('/concept-set/import', { expression: JSON.stringify({ items: [{ concept: { CONCEPT_ID: 1 }, isExcluded: 'yes' }] }) });
    expect(badJson.status).toBe(400);
    expect(badJson.text).toContain('expression.items[0].isExcluded');
    expect((await browser.post('/concept-set/import', { expression: '' })).status).toBe(400);
    expect((await browser.post('/concept-set/import', { expression: csv, mode: 'merge' })).status).toBe(400);
  });

  it('refuses a set over the item limit with a 413 page, keeping the set; the items table is paged', async () => {
    const browser = await signIn(t);
    const rows = Array.from({ length: 10_000 }, (_, i) => String(ROOT + (i % 3))).join('\n');
    expect((await browser.post('/concept-set/import', { expression: `Concept ID\n${rows}\n` })).status).toBe(303);
    const page = await browser.get('/concept-set');
    expect(page.status).toBe(200);
    expect(Buffer.byteLength(page.text)).toBeLessThan(80_000);
    expect(page.text.match(/<tr id="item-\d+">/g)).toHaveLength(50);
    expect(page.text).toContain('Items page 1 of 200');
    const last = await browser.get('/concept-set?items_page=200');
    expect([...last.text.matchAll(/<tr id="item-(\d+)">/g)].map((m) => Number(m[1]))).toEqual(Array.from({ length: 50 }, (_, i) => 9950 + i));
    expect(last.text).toContain('<a href="/concept-set?items_page=199" rel="prev" hx-get="/concept-set?items_page=199" hx-select="#items-section"');
    expect((await browser.get('/concept-set?items_page=201')).status).toBe(400);
    // The optimise preview lists 50 of the 9,997 redundant items (10,000 items naming three concepts) and counts the rest.
    const preview = await browser.get('/concept-set?optimize=1');
    expect(Buffer.byteLength(preview.text)).toBeLessThan(80_000);
    expect(preview.text).toContain('Optimising removes 9,997 of 10,000 items');
    expect(preview.text).toContain('…and 9,947 more items.');
    const over = await browser.post('/concept-set/import', { expression: 'Concept ID\n500\n', mode: 'append' });
    expect(over.status).toBe(413);
    expect(over.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(over.text).toContain('at most 10,000');
    expect(JSON.parse((await exportOf(browser, 'format=atlas')).text).items).toHaveLength(10_000);
  });
});

describe('the session limit', () => {
  it('refuses (413 page) a change that would take the session data over MAX_SESSION_DATA_BYTES, keeping what was there', async () => {
    const browser = await signIn(t);
    await addViaForm(browser, ROOT, []);
    const sessionId = /omopterm_session=([^;]+)/.exec(browser.cookie)![1]!;
    // Another page's state fills the session up to a few bytes below the limit.
    const data = JSON.parse((await t.server.state.readSessionData(sessionId))!);
    data.otherPage = '';
    data.otherPage = 'x'.repeat(MAX_SESSION_DATA_BYTES - Buffer.byteLength(JSON.stringify(data)) - 5);
    expect(await t.server.state.writeSessionData(sessionId, JSON.stringify(data))).toBe(true);
    const res = await addViaForm(browser, CHILD, []);
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain(`at most ${MAX_SESSION_DATA_BYTES}`);
    expect(JSON.parse((await exportOf(browser, 'format=atlas')).text)).toEqual({ items: [item(ROOT)] });
    expect(JSON.parse((await t.server.state.readSessionData(sessionId))!).otherPage).toBe(data.otherPage);
  });
});

describe('licences', () => {
  const withCpt4 = { items: [item(ROOT, { includeDescendants: true, includeMapped: true }), item(CPT4_CHILD)] };

  it('a set holding a CPT4 item (imported) never shows a CPT4 name to a key without validation, on the page or in the exports', async () => {
    const browser = await signIn(t);
    expect((await browser.post('/concept-set/import', { expression: JSON.stringify(withCpt4) })).status).toBe(303);
    const page = await browser.get('/concept-set');
    expect(page.status).toBe(200);
    for (const text of [page.text, (await exportOf(browser, 'format=csv')).text, (await exportOf(browser, 'format=valueset')).text]) {
      expect(text).not.toContain(CPT4_NAME);
      expect(text).not.toContain(CPT4_SOURCE_NAME);
    }
    expect(page.text).toContain('your key may not see');
    const resolved = await rest('/v1/concept-sets/resolve', { expression: withCpt4 });
    expect(resolvedCount(page.text)).toBe(resolved.summary.total);
    expect(listedIds(page.text)).not.toContain(CPT4_CHILD);

    const validated = await signIn(t, cpt4Key);
    await validated.post('/concept-set/import', { expression: JSON.stringify(withCpt4) });
    const seen = await validated.get('/concept-set');
    expect(seen.text).toContain(CPT4_NAME);
    expect(seen.text).toContain(CPT4_SOURCE_NAME);
    const resolvedCpt4 = await rest('/v1/concept-sets/resolve', { expression: withCpt4 }, cpt4Key);
    expect(resolvedCount(seen.text)).toBe(resolvedCpt4.summary.total);
    expect(resolvedCpt4.summary.total).toBe(resolved.summary.total + 2);
  });
});

describe('optimise, compare and the release diff', () => {
  const redundant = {
    items: [
      item(ROOT, { includeDescendants: true }),
      item(CHILD),
      item(GRANDCHILD, { includeDescendants: true }),
      item(ELSEWHERE, { isExcluded: true }),
      item(424242),
    ],
  };

  it('shows what optimising removes (as the REST optimiser does) and applies it', async () => {
    const browser = await signIn(t);
    await browser.post('/concept-set/import', { expression: JSON.stringify(redundant) });
    const preview = await browser.get('/concept-set?optimize=1');
    expect(preview.status).toBe(200);
    const restOpt = await rest('/v1/concept-sets/optimize', { expression: redundant });
    const section = /<div id="optimize-result">([\s\S]*?)<\/form>/.exec(preview.text)![1]!;
    const shown = [...section.matchAll(/<tr><td class="num">(\d+)<\/td><td><a href="\/concepts\/(\d+)"/g)].map((m) => [Number(m[1]) - 1, Number(m[2])]);
    expect(shown).toEqual(restOpt.removed_items.map((r: { index: number; concept_id: number }) => [r.index, r.concept_id]));
    expect(shown.length).toBe(4);
    expect((await browser.post('/concept-set/optimize', {})).status).toBe(303);
    expect(JSON.parse((await exportOf(browser, 'format=atlas')).text)).toEqual(restOpt.expression);
  });

  it('compares with a pasted set: the three parts counted as the REST comparison', async () => {
    const browser = await signIn(t);
    const a = { items: [item(CHILD, { includeDescendants: true, includeMapped: true })] };
    const b = '"Concept ID","Descendants"\n"100","false"\n"101","false"\n"500","false"\n';
    await browser.post('/concept-set/import', { expression: JSON.stringify(a) });
    const res = await browser.post('/concept-set/compare', { expression: b });
    expect(res.status).toBe(303);
    const page = await browser.get('/concept-set');
    const restCmp = await rest('/v1/concept-sets/compare', { a, b });
    for (const [id, part] of [['only-in-a', restCmp.only_in_a], ['only-in-b', restCmp.only_in_b], ['in-both', restCmp.in_both]] as const) {
      const row = new RegExp(`<tr id="${id}">[\\s\\S]*?<td class="num">(\\d+)</td>([\\s\\S]*?)</tr>`).exec(page.text)!;
      expect(Number(row[1]), id).toBe(part.count);
      expect([...row[2]!.matchAll(/href="\/concepts\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual(part.concept_ids.slice(0, 10));
    }
    // a: CHILD, GRANDCHILD, ICD_TO_CHILD; b: ROOT, CHILD, ELSEWHERE.
    expect([restCmp.only_in_a.count, restCmp.only_in_b.count, restCmp.in_both.count]).toEqual([2, 2, 1]);
    expect((await browser.post('/concept-set/compare/clear', {})).status).toBe(303);
    expect((await browser.get('/concept-set')).text).not.toContain('id="compare-result"');
  });

  it('shows what changes in another release as the REST diff does', async () => {
    const browser = await signIn(t);
    const expression = { items: [item(ROOT, { includeDescendants: true })] };
    await browser.post('/concept-set/import', { expression: JSON.stringify(expression) });
    const page = await browser.get('/concept-set?diff_to=2025.2');
    expect(page.status).toBe(200);
    const restDiff = await rest('/v1/concept-sets/diff', { expression, from_release: '2025.1', to_release: '2025.2' });
    expect(Number(/<span id="diff-from-total">(\d+)/.exec(page.text)![1])).toBe(restDiff.summary.from_total);
    expect(Number(/<span id="diff-to-total">(\d+)/.exec(page.text)![1])).toBe(restDiff.summary.to_total);
    const gained = /<table class="data" id="diff-gained">([\s\S]*?)<\/table>/.exec(page.text)![1]!;
    const lost = /<table class="data" id="diff-lost">([\s\S]*?)<\/table>/.exec(page.text)![1]!;
    expect([...gained.matchAll(/href="\/concepts\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual([NEW_IN_TO]);
    expect([...lost.matchAll(/href="\/concepts\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual([GRANDCHILD]);
    expect(restDiff.gained.map((g: { concept: { concept_id: number } }) => g.concept.concept_id)).toEqual([NEW_IN_TO]);
    expect(restDiff.lost.map((g: { concept: { concept_id: number } }) => g.concept.concept_id)).toEqual([GRANDCHILD]);
    expect(gained).toContain('new concept');
    expect(lost).toContain('removed from release');
    const unknown = await browser.get('/concept-set?diff_to=1999.9');
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('diff_to');
  });
});

describe('output and parameters', () => {
  it('shows a hostile concept name as text', async () => {
    const browser = await signIn(t);
    await addViaForm(browser, HOSTILE, []);
    const page = await browser.get('/concept-set');
    expect(page.text).not.toContain(HOSTILE_NAME);
    expect(page.text).not.toContain('<b>x</b>');
    // Preact escapes <, & and " in text (a > alone cannot open markup).
    expect(page.text).toContain('<td>&lt;b>x&lt;/b> &amp; &quot;y&quot;</td>');
  });

  it('answers 400 naming the parameter for a bad page, format or FHIR version; paging is bounded', async () => {
    const browser = await signIn(t);
    for (const [path, parameter] of [
      ['/concept-set?page=0', 'page'],
      ['/concept-set?page=abc', 'page'],
      ['/concept-set?page=10001', 'page'],
      ['/concept-set?page=1&page=2', 'page'],
      ['/concept-set?optimize=maybe', 'optimize'],
      ['/concept-set/export?format=xml', 'format'],
      ['/concept-set/export', 'format'],
      ['/concept-set/export?format=valueset&fhir_version=r3', 'fhir_version'],
    ] as const) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(400);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text, path).toContain(`'${parameter}'`);
    }
    await addViaForm(browser, ROOT, []);
    const beyond = await browser.get('/concept-set?page=10000');
    expect(beyond.status).toBe(200);
    expect(beyond.text).toContain('No concepts on page 10000');
  });

  it('renders one h1, labelled controls and unique ids', async () => {
    const browser = await signIn(t);
    await browser.post('/concept-set/import', { expression: JSON.stringify({ items: [item(ROOT, { includeDescendants: true }), item(CHILD), item(ROOT)] }) });
    await browser.post('/concept-set/compare', { expression: JSON.stringify({ items: [item(CHILD)] }) });
    const page = await browser.get('/concept-set?optimize=1&diff_to=2025.2');
    expect(page.status).toBe(200);
    expect(page.text.match(/<h1[ >]/g)).toHaveLength(1);
    const ids = [...page.text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of page.text.matchAll(/<(input|textarea|select)\b([^>]*)>/g)) {
      const attrs = m[2]!;
      if (/type="(hidden|submit)"/.test(attrs)) continue;
      const id = / id="([^"]+)"/.exec(attrs)?.[1];
      expect(id, attrs).toBeDefined();
      expect(page.text, attrs).toContain(`for="${id}"`);
    }
    expect(page.text).not.toMatch(/ style=| on[a-z]+=/);
    expect(Buffer.byteLength(page.text)).toBeLessThan(80_000);
  });
});

describe('browsing without a key (--browse-without-key)', () => {
  let open: TestServer;
  beforeAll(async () => {
    open = await startTestServer({ releases: [{ dir: writeAthenaFixture(base), label: '2025.1', makeDefault: true }], browseWithoutKey: true });
  }, 120_000);
  afterAll(async () => open?.close());

  it('keeps a set in the anonymous session, under the anonymous licence rules', async () => {
    const first = await pageClient(open).get('/concept-set');
    expect(first.status).toBe(200);
    const session = /omopterm_session=([^;]+)/.exec(([] as string[]).concat(first.headers['set-cookie'] ?? []).join('\n'))![1]!;
    const browser = pageClient(open, `omopterm_session=${session}`);
    const form = addFormFields(ROOT);
    expect((await browser.post(form.action, { concept_id: String(ROOT), include_descendants: 'true' })).status).toBe(303);
    expect((await browser.post(form.action, { concept_id: String(CPT4_CHILD) })).status).toBe(403);
    const page = await browser.get('/concept-set');
    expect(page.text).toContain('id="set-items"');
    expect(page.text).not.toContain(CPT4_NAME);
    const resolved = await open.request('/v1/concept-sets/resolve', { method: 'POST', body: { expression: { items: [item(ROOT, { includeDescendants: true })] } } });
    expect(resolvedCount(page.text)).toBe(resolved.body.data.summary.total);
  });
});
