/**
 * Page weight (issue 23, "How": HTML + CSS + JS of a page ≤ 150 kB), measured on a fixture built to make pages heavy:
 * a hub concept with hundreds of children, mapped sources and attribute relationships, hundreds of search hits with
 * long names, and a concept set that holds them. Each page's HTML is summed with every stylesheet and script it loads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAthenaFixture, type FixtureConcept, type FixtureRelationship } from '../helpers/athena-fixture.js';
import { mappedJob } from '../helpers/mapping-upload.js';
import { signIn, type PageClient } from '../helpers/page-client.js';
import { rawRequest, startTestServer, type TestServer } from '../helpers/test-server.js';

const BUDGET_BYTES = 150_000;
const HUB = 1;
const CHILDREN = 400;
const SOURCES = 300;
const ATTRIBUTES = 250;

const longName = (kind: string, i: number) => `${kind} ${i} of the hub finding with a long, realistic clinical description & <qualifiers> "as printed"`;

function heavyFixture(): string {
  const concepts: FixtureConcept[] = [{ concept_id: HUB, concept_name: 'Hub finding', concept_code: 'HUB-1' }];
  const relationships: FixtureRelationship[] = [];
  const ancestors: Array<[number, number, number, number]> = [[HUB, HUB, 0, 0]];
  for (let i = 0; i < CHILDREN; i++) {
    const id = 1000 + i;
    concepts.push({ concept_id: id, concept_name: longName('Child finding', i), concept_code: `C${i}` });
    relationships.push({ concept_id_1: id, concept_id_2: HUB, relationship_id: 'Is a' }, { concept_id_1: HUB, concept_id_2: id, relationship_id: 'Subsumes' });
    ancestors.push([HUB, id, 1, 1], [id, id, 0, 0]);
  }
  for (let i = 0; i < SOURCES; i++) {
    const id = 5000 + i;
    concepts.push({ concept_id: id, concept_name: longName('Source finding', i), vocabulary_id: 'ICD10CM', concept_class_id: '4-char billing code', standard_concept: null, concept_code: `S${i}.9` });
    relationships.push({ concept_id_1: id, concept_id_2: HUB, relationship_id: 'Maps to' }, { concept_id_1: HUB, concept_id_2: id, relationship_id: 'Mapped from' });
  }
  for (let i = 0; i < ATTRIBUTES; i++) {
    const id = 8000 + i;
    concepts.push({ concept_id: id, concept_name: longName('Attribute finding', i), concept_code: `A${i}` });
    relationships.push({ concept_id_1: HUB, concept_id_2: id, relationship_id: 'Has finding site' }, { concept_id_1: id, concept_id_2: HUB, relationship_id: 'Finding site of' });
    ancestors.push([id, id, 0, 0]);
  }
  return writeAthenaFixture({ concepts, relationships, ancestors });
}

let t: TestServer;
let browser: PageClient;
/** A mapping job of long source names, each with k = 25 candidates among the long-named children. */
let mappingJob: string;
beforeAll(async () => {
  const dir = heavyFixture();
  t = await startTestServer({ releases: [{ dir, label: '2025.1' }, { dir, label: '2025.2', makeDefault: true }] });
  browser = await signIn(t);
  // A concept set of every child and source, each with descendants: its page lists items and resolved concepts.
  const expression = { items: [...Array(CHILDREN).keys()].map((i) => ({ concept: { CONCEPT_ID: 1000 + i }, includeDescendants: true })) };
  const imported = await browser.post('/concept-set/import', { expression: JSON.stringify(expression), mode: 'replace' });
  expect(imported.status).toBe(303);
  const terms = Array.from({ length: 40 }, (_, i) => `S${i},"${longName('Child finding', i).replace(/"/g, '""')} <seen in clinic ${i}>",${1000 - i},"ward ${i} & annex"`);
  mappingJob = await mappedJob(t, browser, ['code,name,frequency,ward', ...terms].join('\n'), { k: '25' });
}, 180_000);
afterAll(async () => {
  await t?.close();
});

/** The page's HTML plus every stylesheet and script it references, in bytes. */
async function weigh(path: string): Promise<{ status: number; html: number; total: number; assets: string[] }> {
  const page = await browser.get(path);
  const assets = [
    ...page.text.matchAll(/<link rel="stylesheet" href="([^"]+)"/g),
    ...page.text.matchAll(/<script src="([^"]+)"/g),
  ].map((m) => m[1]!.replace(/&amp;/g, '&'));
  let total = Buffer.byteLength(page.text);
  for (const asset of assets) {
    const res = await rawRequest(`${t.url}${asset}`, { headers: { accept: '*/*' } });
    expect(res.status, asset).toBe(200);
    total += Buffer.byteLength(res.text);
  }
  return { status: page.status, html: Buffer.byteLength(page.text), total, assets };
}

describe('page weight: HTML + CSS + JS of each page at most 150 kB', () => {
  const pages = [
    '/',
    '/search?q=finding',
    '/search?q=finding&page_size=50&page=2',
    `/concepts/${HUB}`,
    `/concepts/${HUB}?vocab_release=2025.1`,
    `/concepts/${HUB}?rel=Has+finding+site&mapped_from_page=2&children_page=3`,
    '/vocabularies',
    '/vocabularies/SNOMED',
    '/mapping-quality?source=ICD10CM&target=SNOMED',
    '/concept-set',
  ];
  const mapping = ['/mapping', '{job}', '{job}?page=2', '{job}/terms/0', '{job}/terms/0?q=child+finding'];
  for (const named of [...pages, ...mapping]) {
    it(named, async () => {
      const path = named.replace('{job}', mappingJob);
      const weight = await weigh(path);
      expect(weight.status).toBe(200);
      expect(weight.assets.length).toBeGreaterThanOrEqual(3); // stylesheet, htmx, app.js
      expect(weight.total, `${path}: ${weight.html} B of HTML, ${weight.total} B in all`).toBeLessThanOrEqual(BUDGET_BYTES);
    });
  }
});
