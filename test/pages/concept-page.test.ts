/**
 * The concept page (issue 23, "Concept page"): every field with copy buttons, synonyms with their language, the paths
 * to the root and the children as an expandable tree (htmx fragments, whole pages without JavaScript), relationships
 * grouped by type and paged, mappings out and in, the FHIR $lookup view and its raw JSON/XML, the FHIR metadata page,
 * the releases holding the concept with what changed, escaping, licences and bad parameters. Two fixture releases
 * that differ; every expected value is read from the fixture written here.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship } from '../helpers/athena-fixture.js';
import { signIn, type PageClient } from '../helpers/page-client.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const OMOP = 'https://fhir-terminology.ohdsi.org';
const HOSTILE = '<b>x</b> & "y"';
const ENGLISH = 4180186;
const FRENCH = 4180190;
const HUB = 900;
const HUB_CHILDREN = Array.from({ length: 60 }, (_, i) => 1100 + i);
const HUB_SITES = Array.from({ length: 25 }, (_, i) => 1000 + i);

/** Direct 'Is a' links, child → parents. */
const IS_A: Array<[child: number, parent: number]> = [
  [200, 100],
  [210, 100],
  [300, 200],
  [300, 210],
  [400, 300],
  [500, 400],
  [510, 400],
  [520, 400],
  [HUB, 100],
  ...HUB_CHILDREN.map((c): [number, number] => [c, HUB]),
];

/** CONCEPT_ANCESTOR from the direct links: every pair with its shortest and longest path, and the self rows. */
function closure(ids: number[], links: Array<[number, number]>): Array<[number, number, number, number]> {
  const parents = new Map<number, number[]>();
  for (const [c, p] of links) parents.set(c, [...(parents.get(c) ?? []), p]);
  const rows: Array<[number, number, number, number]> = [];
  for (const id of ids) {
    const levels = new Map<number, { min: number; max: number }>([[id, { min: 0, max: 0 }]]);
    const walk = (node: number, depth: number) => {
      for (const p of parents.get(node) ?? []) {
        const l = levels.get(p);
        levels.set(p, { min: Math.min(l?.min ?? Infinity, depth + 1), max: Math.max(l?.max ?? 0, depth + 1) });
        walk(p, depth + 1);
      }
    };
    walk(id, 0);
    for (const [a, l] of levels) rows.push([a, id, l.min, l.max]);
  }
  return rows;
}

function fixture(release: 'old' | 'new'): string {
  const old = release === 'old';
  const concepts: FixtureConcept[] = [
    { concept_id: 100, concept_name: 'Clinical finding', concept_code: 'CF100' },
    { concept_id: 200, concept_name: 'Disorder of body system', concept_code: 'D200' },
    { concept_id: 210, concept_name: 'Disorder by cause', concept_code: 'D210' },
    { concept_id: 300, concept_name: 'Metabolic disease', concept_code: 'M300' },
    { concept_id: 400, concept_name: old ? 'Diabetes mellitus (old name)' : 'Diabetes mellitus', concept_code: '73211009', valid_start_date: '20020131' },
    ...(old ? [] : [{ concept_id: 500, concept_name: 'Type 2 diabetes mellitus', concept_code: '44054006' }]),
    { concept_id: 510, concept_name: HOSTILE, concept_code: 'H&510' },
    { concept_id: 520, concept_name: 'Office visit CPT', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', domain_id: 'Procedure', concept_code: '99213' },
    { concept_id: 600, concept_name: 'Diabetes mellitus ICD', vocabulary_id: 'ICD10CM', concept_class_id: '3-char nonbill code', standard_concept: null, concept_code: 'E11' },
    { concept_id: 610, concept_name: 'Diabetes ICD9', vocabulary_id: 'ICD9CM', concept_class_id: '3-dig nonbill code', standard_concept: null, concept_code: '250' },
    { concept_id: 620, concept_name: 'Diabetes CPT code', vocabulary_id: 'CPT4', concept_class_id: 'CPT4', standard_concept: null, concept_code: '99999' },
    { concept_id: 700, concept_name: 'Pancreas', domain_id: 'Spec Anatomic Site', concept_class_id: 'Body Structure', concept_code: 'P700' },
    {
      concept_id: 800,
      concept_name: 'Retired finding',
      concept_code: 'R800',
      ...(old ? {} : { invalid_reason: 'D' as const, standard_concept: null, valid_end_date: '20250101' }),
    },
    { concept_id: HUB, concept_name: 'Hub concept', concept_code: 'HUB' },
    ...HUB_CHILDREN.map((id) => ({ concept_id: id, concept_name: `Hub child ${id}`, concept_code: `HC${id}` })),
    ...HUB_SITES.map((id) => ({ concept_id: id, concept_name: `Hub site ${id}`, domain_id: 'Spec Anatomic Site', concept_class_id: 'Body Structure', concept_code: `HS${id}` })),
    { concept_id: ENGLISH, concept_name: 'English language', domain_id: 'Meas Value', concept_class_id: 'Qualifier Value', concept_code: '297496009' },
    { concept_id: FRENCH, concept_name: 'French language', domain_id: 'Meas Value', concept_class_id: 'Qualifier Value', concept_code: '297500006' },
  ];
  const pair = (a: number, b: number, forward: string, reverse: string): FixtureRelationship[] => [
    { concept_id_1: a, concept_id_2: b, relationship_id: forward },
    { concept_id_1: b, concept_id_2: a, relationship_id: reverse },
  ];
  const present = new Set(concepts.map((c) => c.concept_id));
  const links = IS_A.filter(([c, p]) => present.has(c) && present.has(p));
  const relationships: FixtureRelationship[] = [
    ...links.flatMap(([c, p]) => pair(c, p, 'Is a', 'Subsumes')),
    ...pair(600, old ? 300 : 400, 'Maps to', 'Mapped from'),
    ...pair(610, 400, 'Maps to', 'Mapped from'),
    ...pair(620, 400, 'Maps to', 'Mapped from'),
    ...pair(400, 400, 'Maps to', 'Mapped from').slice(0, 1),
    ...pair(400, 700, 'Has finding site', 'Finding site of'),
    ...pair(400, 520, 'Has finding site', 'Finding site of'),
    ...HUB_SITES.flatMap((s) => pair(HUB, s, 'Has finding site', 'Finding site of')),
  ];
  relationships.push({ concept_id_1: 400, concept_id_2: 400, relationship_id: 'Mapped from' });
  const dir = writeAthenaFixture({
    releaseVersion: old ? 'v5.0 01-FEB-25' : 'v5.0 01-AUG-25',
    concepts,
    relationships,
    ancestors: closure(
      concepts.filter((c) => c.vocabulary_id === undefined || c.vocabulary_id === 'SNOMED' || c.vocabulary_id === 'CPT4').map((c) => c.concept_id),
      links,
    ),
    relationshipTypes: [
      ['Maps to', 'Non-standard to Standard map (OMOP)', '0', '0', 'Mapped from'],
      ['Mapped from', 'Standard to Non-standard map (OMOP)', '0', '0', 'Maps to'],
      ['Is a', 'Is a', '1', '1', 'Subsumes'],
      ['Subsumes', 'Subsumes', '1', '1', 'Is a'],
      ['Has finding site', 'Has finding site (SNOMED)', '0', '0', 'Finding site of'],
      ['Finding site of', 'Finding site of (SNOMED)', '0', '0', 'Has finding site'],
    ],
  });
  // Synonyms with their languages (the fixture writer gives every synonym English).
  writeFileSync(
    join(dir, 'CONCEPT_SYNONYM.csv'),
    ['concept_id\tconcept_synonym_name\tlanguage_concept_id', `400\tDM - Diabetes mellitus\t${ENGLISH}`, `400\tDiabète sucré\t${FRENCH}`, `510\t${HOSTILE} synonym\t${ENGLISH}`, ''].join('\n'),
  );
  return dir;
}

let t: TestServer;
let browser: PageClient;
let validated: PageClient;
let validatedKey: string;

beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: fixture('old'), label: '2025.1' },
      { dir: fixture('new'), label: '2025.2', makeDefault: true },
    ],
  });
  browser = await signIn(t);
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
  validated = await signIn(t, validatedKey);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

/** As the renderer escapes text and attributes (`>` needs no escape). */
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
/** The text of a page's section, from its heading id to the next section. */
const section = (html: string, id: string) => {
  const at = html.indexOf(`id="${id}"`);
  expect(at, `section ${id}`).toBeGreaterThan(-1);
  const end = html.indexOf('</section>', at);
  return html.slice(at, end);
};
/** Concept ids linked from some HTML (…/concepts/{id}), in order. */
const linkedIds = (html: string) => [...html.matchAll(/href="\/concepts\/(\d+)(?:[?#"])/g)].map((m) => Number(m[1]));

describe('the concept page', () => {
  it('shows every field, with copy buttons for the id and the code', async () => {
    const res = await browser.get('/concepts/400');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const fields = section(res.text, 'fields-heading');
    const pairs = Object.fromEntries([...fields.matchAll(/<dt>([^<]+)<\/dt><dd>(.*?)<\/dd>/g)].map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim()]));
    expect(pairs).toMatchObject({
      'Concept id': '400 Copy',
      Name: 'Diabetes mellitus',
      Domain: 'Condition',
      Vocabulary: 'SNOMED (SNOMED vocabulary)',
      'Concept class': 'Clinical Finding',
      'Standard concept': 'Standard S',
      'Concept code': '73211009 Copy',
      'Valid start date': '2002-01-31',
      'Valid end date': '2099-12-31',
      'Invalid reason': 'none (valid)',
    });
    expect(fields).toContain('<button type="button" class="small copy" data-copy="400"');
    expect(fields).toContain('data-copy="73211009"');
    expect(res.text.match(/<h1[ >]/g)).toHaveLength(1);
    // The add-to-set control of the builder.
    expect(res.text).toContain('<input type="hidden" name="concept_id" value="400"/>');
  });

  it('shows an invalid concept as invalid', async () => {
    const res = await browser.get('/concepts/800');
    const fields = section(res.text, 'fields-heading');
    expect(fields).toContain('Invalid: deleted (D)');
    expect(fields).toContain('2025-01-01');
    expect(fields).toContain('Non-standard');
  });

  it('lists synonyms with the name of their language', async () => {
    const synonyms = section((await browser.get('/concepts/400')).text, 'synonyms-heading');
    expect(synonyms).toContain('Synonyms (2)');
    const rows = [...synonyms.matchAll(/<tr><td>([^<]+)<\/td><td>([^<]+?) <span/g)].map((m) => [m[1], m[2]]);
    expect(rows.sort()).toEqual([
      ['DM - Diabetes mellitus', 'English language'],
      ['Diabète sucré', 'French language'],
    ]);
  });

  it('shows each path to the root and the ancestors by level, from CONCEPT_ANCESTOR', async () => {
    const res = await browser.get('/concepts/500');
    const hierarchy = section(res.text, 'hierarchy-heading');
    const paths = [...hierarchy.matchAll(/<ol class="path"[^>]*>(.*?)<\/ol>/g)].map((m) => linkedIds(m[1]!));
    expect(paths).toEqual([
      [100, 200, 300, 400],
      [100, 210, 300, 400],
    ]);
    const levels = [...hierarchy.matchAll(/<tr><td class="num">(\d+)(?:–(\d+))?<\/td><td><a href="\/concepts\/(\d+)"/g)].map((m) => [Number(m[3]), Number(m[1]), Number(m[2] ?? m[1])]);
    const expected = closure([500], IS_A).filter(([, , min]) => min > 0).map(([a, , min, max]) => [a, min, max]);
    expect(levels.sort((a, b) => a[0]! - b[0]!)).toEqual(expected.sort((a, b) => a[0]! - b[0]!));
    // A root says so.
    expect(section((await browser.get('/concepts/100')).text, 'hierarchy-heading')).toContain('it is a root of its hierarchy');
  });

  it('shows the children as a tree whose nodes load their own children through htmx', async () => {
    const res = await validated.get('/concepts/400');
    const tree = /<ul class="tree" id="children"[^>]*>(.*?)<\/ul><\/section>/s.exec(res.text)![1]!;
    const children = IS_A.filter(([, p]) => p === 400).map(([c]) => c);
    expect([...tree.matchAll(/<li class="node"><a href="\/concepts\/(\d+)"/g)].map((m) => Number(m[1])).sort()).toEqual(children.sort());
    expect(section(res.text, 'hierarchy-heading')).toContain(`Children (${children.length})`);
    expect(tree).toContain('<details class="node-children" hx-get="/concepts/500/children" hx-trigger="toggle once" hx-target="find .children" hx-swap="innerHTML">');
    // Without JavaScript the node still leads to the child's page.
    expect(tree).toContain('<a href="/concepts/500#children">');

    const fragment = await browser.get('/concepts/400/children', { 'hx-request': 'true' });
    expect(fragment.status).toBe(200);
    expect(fragment.text).not.toContain('<html');
    expect(fragment.text).toMatch(/^<li class="node">/);
    const leaf = await browser.get('/concepts/500/children', { 'hx-request': 'true' });
    expect(leaf.text).toBe('<li class="hint">No narrower concepts.</li>');
  });

  it('pages the children: 50 per page, a "more" item for htmx, a whole page without it', async () => {
    const first = await browser.get(`/concepts/${HUB}`);
    const tree = /<ul class="tree" id="children"[^>]*>(.*?)<\/ul><\/section>/s.exec(first.text)![1]!;
    expect([...tree.matchAll(/<li class="node"><a href="\/concepts\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual(HUB_CHILDREN.slice(0, 50));
    expect(tree).toContain(`<a href="/concepts/${HUB}?children_page=2#children" hx-get="/concepts/${HUB}/children?page=2" hx-target="closest li" hx-swap="outerHTML">Next 10 children</a>`);
    const second = await browser.get(`/concepts/${HUB}?children_page=2`);
    const tree2 = /<ul class="tree" id="children"[^>]*>(.*?)<\/ul><\/section>/s.exec(second.text)![1]!;
    expect([...tree2.matchAll(/<li class="node"><a href="\/concepts\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual(HUB_CHILDREN.slice(50));
    expect(second.text).toContain(`href="/concepts/${HUB}?children_page=1#children"`);
    const fragment = await browser.get(`/concepts/${HUB}/children?page=2`, { 'hx-request': 'true' });
    expect([...fragment.text.matchAll(/<li class="node"><a href="\/concepts\/(\d+)"/g)].map((m) => Number(m[1]))).toEqual(HUB_CHILDREN.slice(50));
    expect(fragment.text).not.toContain('class="more"');
    const noJs = await browser.get(`/concepts/${HUB}/children?page=2&vocab_release=2025.2`);
    expect(noJs.status).toBe(303);
    expect(noJs.headers.location).toBe(`/concepts/${HUB}?children_page=2&vocab_release=2025.2#children`);
    // Past the last page: an empty page, not an error.
    const past = await browser.get(`/concepts/${HUB}?children_page=9`);
    expect(past.status).toBe(200);
    expect(past.text).toContain('No children on this page.');
  });

  it('groups relationships by type with their counts, and pages one group at a time', async () => {
    const page = await browser.get(`/concepts/${HUB}`);
    const rels = section(page.text, 'relationships');
    const groups = [...rels.matchAll(/<summary>([^<]+?)(?: <code>([^<]+)<\/code>)? <span class="count">\((\d+)\)<\/span>/g)].map((m) => [m[2] ?? m[1], Number(m[3])]);
    expect(groups).toEqual([
      ['Has finding site', HUB_SITES.length],
      ['Is a', 1],
      ['Subsumes', HUB_CHILDREN.length],
    ]);
    // No group's rows are read until one is asked for.
    expect(rels).not.toContain('<table');

    const one = await browser.get(`/concepts/${HUB}?rel=${encodeURIComponent('Has finding site')}`);
    const open = section(one.text, 'relationships');
    expect(open).toContain("<details open>");
    expect(linkedIds(/<table class="data">(.*?)<\/table>/s.exec(open)![1]!)).toEqual(HUB_SITES.slice(0, 20));
    expect(open).toContain('Page 1 of 2 (25 in all)');
    const two = await browser.get(`/concepts/${HUB}?rel=${encodeURIComponent('Has finding site')}&rel_page=2`);
    expect(linkedIds(/<table class="data">(.*?)<\/table>/s.exec(section(two.text, 'relationships'))![1]!)).toEqual(HUB_SITES.slice(20));

    const fragment = await browser.get(`/concepts/${HUB}/relationships?relationship_id=${encodeURIComponent('Has finding site')}&page=2`, { 'hx-request': 'true' });
    expect(fragment.text).toMatch(/^<div>/);
    expect(linkedIds(fragment.text).filter((id) => id !== HUB)).toEqual(HUB_SITES.slice(20));
    const noJs = await browser.get(`/concepts/${HUB}/relationships?relationship_id=Is+a`);
    expect(noJs.status).toBe(303);
    expect(noJs.headers.location).toBe(`/concepts/${HUB}?rel=Is+a#relationships`);

    const unknown = await browser.get(`/concepts/${HUB}?rel=Nothing+like+this`);
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain('This concept has no valid <code>Nothing like this</code> relationships');
  });

  it('shows mappings out and in, each linked', async () => {
    const source = await browser.get('/concepts/600');
    const out = section(source.text, 'mappings');
    expect(out).toContain('Maps to (1)');
    expect(linkedIds(/<table class="data" aria-labelledby="maps-to-heading">(.*?)<\/table>/s.exec(out)![1]!)).toEqual([400]);
    const target = await browser.get('/concepts/400');
    const into = section(target.text, 'mappings');
    // 600 and 610 map to it (620 is CPT4: hidden from this key); 400 maps to itself.
    expect(into).toContain('Mapped from (3)');
    expect(linkedIds(/<table class="data" aria-labelledby="mapped-from-heading">(.*?)<\/table>/s.exec(into)![1]!)).toEqual([400, 600, 610]);
    expect(linkedIds(/<table class="data" aria-labelledby="maps-to-heading">(.*?)<\/table>/s.exec(into)![1]!)).toEqual([400]);
  });

  it('shows the $lookup of the concept, and its raw JSON is what /fhir/r4/CodeSystem/$lookup answers', async () => {
    const page = await browser.get('/concepts/400');
    const fhir = section(page.text, 'fhir');
    expect(fhir).toContain('<th scope="row">display</th><td></td><td>Diabetes mellitus</td>');
    expect(fhir).toContain('href="/concepts/400/fhir-lookup?format=json&amp;fhir_version=r4"');
    const raw = await browser.get('/concepts/400/fhir-lookup?format=json&fhir_version=r4');
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const api = await t.request(`/fhir/r4/CodeSystem/$lookup?system=${encodeURIComponent(OMOP)}&code=400`);
    expect(api.status).toBe(200);
    expect(JSON.parse(raw.text)).toEqual(api.body);
    const r5 = await browser.get('/concepts/400/fhir-lookup?fhir_version=r5');
    const apiR5 = await t.request(`/fhir/r5/CodeSystem/$lookup?system=${encodeURIComponent(OMOP)}&code=400`);
    expect(JSON.parse(r5.text)).toEqual(apiR5.body);
    const xml = await browser.get('/concepts/400/fhir-lookup?format=xml');
    expect(xml.headers['content-type']).toMatch(/^application\/fhir\+xml/);
    const apiXml = await t.request(`/fhir/r4/CodeSystem/$lookup?system=${encodeURIComponent(OMOP)}&code=400&_format=xml`);
    expect(xml.text).toBe(apiXml.text);
    // Through the session only.
    expect((await t.request('/concepts/400/fhir-lookup', { headers: { accept: 'application/json' } })).status).toBe(303);
  });

  it('serves the FHIR CapabilityStatement as a page and as a download, the same as /fhir/{v}/metadata', async () => {
    const page = await browser.get('/fhir-metadata?fhir_version=r4');
    expect(page.status).toBe(200);
    const api = await t.request('/fhir/r4/metadata');
    const pre = /<pre class="resource"[^>]*>(.*?)<\/pre>/s.exec(page.text)![1]!;
    const unescaped = pre.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
    expect(JSON.parse(unescaped)).toEqual(api.body);
    expect((api.body.rest[0].resource as Array<{ type: string }>).map((r) => r.type)).toContain('CodeSystem');
    const download = await browser.get('/fhir-metadata?fhir_version=r5&format=json');
    expect(download.headers['content-disposition']).toBe('attachment; filename="capability-statement-r5.json"');
    expect(JSON.parse(download.text)).toEqual((await t.request('/fhir/r5/metadata')).body);
    expect((await browser.get('/fhir-metadata?fhir_version=r9')).status).toBe(400);
  });

  it('lists the releases holding the concept, with what changed between them', async () => {
    const renamed = section((await browser.get('/concepts/400')).text, 'releases');
    const row = (html: string, label: string) => new RegExp(`<tr[^>]*><th scope="row">(?:<a [^>]*>)?${label.replace('.', '\\.')}(.*?)</tr>`, 's').exec(html)![0];
    expect(row(renamed, '2025.1')).toContain('href="/concepts/400?vocab_release=2025.1"');
    expect(row(renamed, '2025.1')).toContain('<strong>renamed</strong>: <span class="removed">Diabetes mellitus (old name)</span> → <span class="added">Diabetes mellitus</span>');
    expect(row(renamed, '2025.2')).toContain('the release shown');
    const added = section((await browser.get('/concepts/500')).text, 'releases');
    expect(row(added, '2025.1')).toContain('not in this release');
    expect(row(added, '2025.1')).toContain('<strong>added</strong>');
    const remapped = section((await browser.get('/concepts/600')).text, 'releases');
    expect(row(remapped, '2025.1')).toContain('<strong>remapped</strong>: <span class="removed">300</span> → <span class="added">400</span>');
    // Seen from the older release, the newer one is the later side.
    const fromOld = section((await browser.get('/concepts/800?vocab_release=2025.1')).text, 'releases');
    expect(row(fromOld, '2025.2')).toContain('<strong>deprecated</strong>');
    expect(row(fromOld, '2025.1')).toContain('the release shown');
    // And a concept missing from the release asked for is a 404.
    expect((await browser.get('/concepts/500?vocab_release=2025.1')).status).toBe(404);
  });

  it('shows a concept name with markup as text everywhere', async () => {
    const page = await browser.get('/concepts/510');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<b>x</b>');
    expect(page.text).toContain(`<h1>${escapeHtml(HOSTILE)}</h1>`);
    expect(page.text).toContain(`<title>${escapeHtml(HOSTILE)} (510) · omopterm</title>`);
    expect(page.text).toContain(`${escapeHtml(HOSTILE)} synonym`);
    expect(page.text).toContain(`data-copy="${escapeHtml('H&510')}"`);
    const parent = await browser.get('/concepts/400');
    expect(parent.text).not.toContain('<b>x</b>');
    expect(parent.text).toContain(`<a href="/concepts/510">${escapeHtml(HOSTILE)}</a>`);
  });
});

describe('licences on the concept page', () => {
  it('answers a CPT4 concept with 403 to a key without CPT4 validation, as the API does', async () => {
    const page = await browser.get('/concepts/520');
    expect(page.status).toBe(403);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await t.request('/v1/concepts/520')).status).toBe(403);
    expect((await browser.get('/concepts/520/children', { 'hx-request': 'true' })).status).toBe(403);
    expect((await browser.get('/concepts/520/fhir-lookup')).status).toBe(403);
    expect((await validated.get('/concepts/520')).status).toBe(200);
  });

  it('hides CPT4 relatives from the tree, the relationships and the mappings', async () => {
    for (const path of ['/concepts/400', '/concepts/400?rel=Has+finding+site', '/concepts/400?rel=Subsumes', '/concepts/100']) {
      const page = await browser.get(path);
      expect(page.status).toBe(200);
      for (const hidden of ['Office visit CPT', 'Diabetes CPT code', '99213', '99999', '/concepts/520', '/concepts/620']) expect(page.text, `${path}: ${hidden}`).not.toContain(hidden);
    }
    const fragment = await browser.get('/concepts/400/relationships?relationship_id=Mapped+from', { 'hx-request': 'true' });
    expect(linkedIds(fragment.text)).toEqual([400, 600, 610]);
    const tree = await browser.get('/concepts/400/children', { 'hx-request': 'true' });
    expect(linkedIds(tree.text).filter((_, i) => i % 2 === 0)).toEqual([500, 510]);
    const groups = section((await browser.get('/concepts/400')).text, 'relationships');
    expect(groups).toContain('Has finding site</code> <span class="count">(1)</span>');

    // The validated key sees them.
    const seen = await validated.get('/concepts/400?rel=Has+finding+site');
    expect(seen.text).toContain('Office visit CPT');
    expect(section(seen.text, 'mappings')).toContain('Diabetes CPT code');
    expect(section(seen.text, 'hierarchy-heading')).toContain('/concepts/520');
  });
});

describe('bad requests', () => {
  it('answers 400 for a bad id or parameter, naming it, and 404 for an unknown concept', async () => {
    for (const path of [
      '/concepts/abc',
      '/concepts/-1',
      '/concepts/1.5',
      '/concepts/400?children_page=0',
      '/concepts/400?children_page=abc',
      '/concepts/400?rel_page=10001',
      '/concepts/400?mapped_from_page=-2',
      '/concepts/400?rel=',
      '/concepts/400/children?page=0',
      '/concepts/400/relationships',
      '/concepts/400/fhir-lookup?format=pdf',
      '/concepts/400/fhir-lookup?fhir_version=r3',
    ]) {
      const res = await browser.get(path);
      expect(res.status, path).toBe(400);
      expect(res.headers['content-type'], path).toBe('text/html; charset=utf-8');
    }
    expect((await browser.get('/concepts/400?children_page=0')).text).toContain('children_page');
    expect((await browser.get('/concepts/abc')).text).toContain('id');
    const missing = await browser.get('/concepts/999999');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('999999');
    expect((await browser.get('/concepts/999999/children', { 'hx-request': 'true' })).status).toBe(404);
  });

  it('sends a browser without a session to sign in', async () => {
    const res = await t.request('/concepts/400', { anonymous: true, headers: { accept: 'text/html' } });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/sign-in?next=${encodeURIComponent('/concepts/400')}`);
  });
});
