/**
 * ValueSet/$expand over HTTPS (issue #14, fhir-and-omop-notes.md §3.1, §3.5, §3.12): the HL7 OMOP
 * omop-expand-explicit fixture (a tx-resource ValueSet with filter domain = Drug), implicit
 * `?fhir_vs` and `?fhir_vs=isa/{code}` ValueSets with exact totals and stable paging, R5
 * `expansion.next`, the too-costly cap, OMOP domain ValueSets, inline compose filters and
 * excludes, the text filter, activeOnly, includeDesignations, licences (Authentication 5) and
 * errors (Errors rule 2: 400 naming the parameter; unknown ValueSet 404 not-found).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  COMPLICATION_COUNT,
  CPT_VISIT,
  DIABETES_ISA_MEMBERS,
  LOINC,
  LOINC_COUNT,
  OMOP,
  RELEASE_VERSION,
  RETIRED,
  SNOMED,
  TYPE_1,
  TYPE_2,
  writeValueSetFixture,
} from './valueset-expand-fixture.js';
import { sharedVocabMissing, sharedVocabPath } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('fhir-tx-ecosystem-omop-tests');

const OMOP_TESTS = sharedVocabPath('fhir-tx-ecosystem-omop-tests', 'omop');
const readFixture = (name: string) => JSON.parse(readFileSync(`${OMOP_TESTS}/${name}`, 'utf8'));

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeValueSetFixture(), label: '2024.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Parameter = { name: string; [value: string]: any };

function expandPost(parameter: Parameter[], options: { version?: string; key?: string } = {}) {
  return t.request(`/fhir/${options.version ?? 'r4'}/ValueSet/$expand`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: { resourceType: 'Parameters', parameter },
    ...(options.key ? { key: options.key } : {}),
  });
}

function expandGet(query: Record<string, string>, options: { version?: string; key?: string } = {}) {
  return t.request(`/fhir/${options.version ?? 'r4'}/ValueSet/$expand?${new URLSearchParams(query).toString()}`, options.key ? { key: options.key } : {});
}

const DIABETES_ISA = `${SNOMED}?fhir_vs=isa/73211009`;
const codesOf = (body: Body): string[] => (body.expansion.contains ?? []).map((c: { code: string }) => c.code);

/** The SNOMED codes of DIABETES_ISA_MEMBERS, as the fixture writes them. */
const DIABETES_ISA_CODES = ['73211009', '44054006', '46635009', '99999001', ...Array.from({ length: COMPLICATION_COUNT }, (_, i) => String(700000100 + i))];

describe.skipIf(MISSING_SHARED_VOCAB)('the HL7 OMOP expand fixture (omop-expand-explicit)', () => {
  it('url + tx-resource with compose filter domain = Drug: the expected ValueSet shape, total 3, used-codesystem', async () => {
    const request = readFixture('omop-expand-explicit-request-parameters.json');
    const valueSet = readFixture('valueset-omop-filter-domain.json');
    const expected = readFixture('omop-expand-explicit-response-valueSet.json');
    const r = await expandPost([...request.parameter, { name: 'tx-resource', resource: valueSet }]);
    expect(r.status).toBe(200);
    expect(r.body.resourceType).toBe('ValueSet');
    expect(r.body.url).toBe(expected.url);
    expect(r.body.expansion.identifier).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(Number.isNaN(Date.parse(r.body.expansion.timestamp))).toBe(false);
    expect(r.body.expansion.total).toBe(expected.expansion.total);
    expect(r.body.expansion.parameter).toEqual(expected.expansion.parameter);
    expect(r.body.expansion.contains).toEqual(expected.expansion.contains);
  });

  it('the same ValueSet sent inline as valueSet expands the same way', async () => {
    const valueSet = readFixture('valueset-omop-filter-domain.json');
    const r = await expandPost([{ name: 'valueSet', resource: valueSet }]);
    expect(r.status).toBe(200);
    expect(codesOf(r.body)).toEqual(['1367571', '1383815', '36274733']);
    expect(r.body.url).toBe(valueSet.url);
    expect(r.body.status).toBeUndefined();
  });
});

describe('implicit ValueSets (§3.1)', () => {
  it('isa/{code}: the concept and all its descendants (CONCEPT_ANCESTOR), root first, exact total', async () => {
    const r = await expandGet({ url: DIABETES_ISA });
    expect(r.status).toBe(200);
    expect(r.body.url).toBe(DIABETES_ISA);
    expect(r.body.version).toBe(RELEASE_VERSION);
    expect(r.body.expansion.total).toBe(DIABETES_ISA_MEMBERS.length);
    const codes = codesOf(r.body);
    expect(codes[0]).toBe('73211009');
    expect([...codes].sort()).toEqual([...DIABETES_ISA_CODES].sort());
    expect(r.body.expansion.contains.every((c: { system: string }) => c.system === SNOMED)).toBe(true);
    expect(r.body.expansion.parameter).toContainEqual({ name: 'used-codesystem', valueUri: `${SNOMED}|${RELEASE_VERSION}` });
    const retired = r.body.expansion.contains.find((c: { code: string }) => c.code === '99999001');
    expect(retired).toEqual({ system: SNOMED, code: '99999001', display: 'Diabetes retired code', inactive: true });
  });

  it('offset/count pages are stable and partition the expansion; offset and count are echoed', async () => {
    const pages: string[] = [];
    for (let offset = 0; offset < DIABETES_ISA_MEMBERS.length; offset += 10) {
      const r = await expandGet({ url: DIABETES_ISA, offset: String(offset), count: '10' });
      expect(r.status).toBe(200);
      expect(r.body.expansion.total).toBe(DIABETES_ISA_MEMBERS.length);
      expect(r.body.expansion.offset).toBe(offset);
      expect(r.body.expansion.parameter).toEqual(expect.arrayContaining([{ name: 'offset', valueInteger: offset }, { name: 'count', valueInteger: 10 }]));
      pages.push(...codesOf(r.body));
    }
    const whole = await expandGet({ url: DIABETES_ISA });
    expect(pages).toEqual(codesOf(whole.body));
    const again = await expandGet({ url: DIABETES_ISA, offset: '10', count: '10' });
    expect(codesOf(again.body)).toEqual(pages.slice(10, 20));
  });

  it('_format=xml answers the expansion as FHIR XML', async () => {
    const r = await t.request(`/fhir/r4/ValueSet/$expand?url=${encodeURIComponent(DIABETES_ISA)}&count=2&_format=xml`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+xml/);
    expect(r.text).toMatch(/<ValueSet xmlns="http:\/\/hl7.org\/fhir">/);
    expect(r.text).toContain(`<total value="${DIABETES_ISA_MEMBERS.length}"/>`);
  });

  it('count=0 answers the size only', async () => {
    const r = await expandGet({ url: DIABETES_ISA, count: '0' });
    expect(r.status).toBe(200);
    expect(r.body.expansion.total).toBe(DIABETES_ISA_MEMBERS.length);
    expect(r.body.expansion.contains).toBeUndefined();
  });

  it('§3.12: r5 gives expansion.next for the following page, r4 does not; following next reads the next page', async () => {
    const r5 = await expandGet({ url: DIABETES_ISA, count: '10' }, { version: 'r5' });
    expect(r5.status).toBe(200);
    const next = new URL(r5.body.expansion.next);
    expect(next.pathname).toBe('/fhir/r5/ValueSet/$expand');
    expect(next.searchParams.get('offset')).toBe('10');
    const followed = await t.request(`${next.pathname}${next.search}`);
    const direct = await expandGet({ url: DIABETES_ISA, offset: '10', count: '10' });
    expect(codesOf(followed.body)).toEqual(codesOf(direct.body));
    const last = await expandGet({ url: DIABETES_ISA, offset: '20', count: '10' }, { version: 'r5' });
    expect(last.body.expansion.next).toBeUndefined();
    const r4 = await expandGet({ url: DIABETES_ISA, count: '10' });
    expect(r4.body.expansion.next).toBeUndefined();
  });

  it('activeOnly=true leaves out inactive concepts, and the total follows', async () => {
    const r = await expandGet({ url: DIABETES_ISA, activeOnly: 'true' });
    expect(r.body.expansion.total).toBe(DIABETES_ISA_MEMBERS.length - 1);
    expect(codesOf(r.body)).not.toContain('99999001');
    expect(r.body.expansion.parameter).toContainEqual({ name: 'activeOnly', valueBoolean: true });
  });

  it('includeDesignations=true lists synonyms as designations', async () => {
    const r = await expandGet({ url: DIABETES_ISA, includeDesignations: 'true' });
    const type2 = r.body.expansion.contains.find((c: { code: string }) => c.code === '44054006');
    expect(type2.designation).toContainEqual({ language: 'en', value: 'Type II diabetes mellitus' });
    const plain = await expandGet({ url: DIABETES_ISA });
    expect(plain.body.expansion.contains.find((c: { code: string }) => c.code === '44054006').designation).toBeUndefined();
  });

  it('?fhir_vs on the OMOP system with an isa: codes are concept_ids', async () => {
    const r = await expandGet({ url: `${OMOP}?fhir_vs=isa/${TYPE_2}` });
    expect(r.status).toBe(200);
    expect(r.body.expansion.contains).toEqual([{ system: OMOP, code: String(TYPE_2), display: 'Type 2 diabetes mellitus' }]);
  });

  it('too-costly: a whole code system larger than one answer, unpaged, is 422 too-costly; a page of it is fine', async () => {
    const refused = await expandGet({ url: `${LOINC}?fhir_vs` });
    expect(refused.status).toBe(422);
    expect(refused.body.resourceType).toBe('OperationOutcome');
    expect(refused.body.issue[0].code).toBe('too-costly');
    expect(refused.body.issue[0].details.text).toMatch(/count/);
    const page = await expandGet({ url: `${LOINC}?fhir_vs`, count: '5', offset: '1000' });
    expect(page.status).toBe(200);
    expect(page.body.expansion.total).toBe(LOINC_COUNT);
    expect(codesOf(page.body)).toHaveLength(1);
  });

  it('Authentication 5: a CPT4 descendant is listed only for a key that may read CPT4', async () => {
    const plain = await expandGet({ url: `${OMOP}?fhir_vs=isa/201820` });
    expect(plain.body.expansion.total).toBe(DIABETES_ISA_MEMBERS.length);
    expect(codesOf(plain.body).map(Number).sort()).toEqual([...DIABETES_ISA_MEMBERS].sort());
    expect(codesOf(plain.body)).not.toContain(String(CPT_VISIT));
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const allowed = await expandGet({ url: `${OMOP}?fhir_vs=isa/201820` }, { key: validated });
    expect(allowed.body.expansion.total).toBe(DIABETES_ISA_MEMBERS.length + 1);
    expect(codesOf(allowed.body)).toContain(String(CPT_VISIT));
  });
});

describe('OMOP domain ValueSets', () => {
  it('https://fhir-terminology.ohdsi.org/ValueSet/{domain}: the valid standard concepts of the domain', async () => {
    const r = await expandGet({ url: `${OMOP}/ValueSet/Condition` });
    expect(r.status).toBe(200);
    const codes = codesOf(r.body);
    expect(r.body.expansion.total).toBe(codes.length);
    // Standard, valid Condition concepts: the glucose disorder, diabetes, types 1 and 2 and the complications.
    expect(codes).toHaveLength(4 + COMPLICATION_COUNT);
    expect(codes).not.toContain(String(RETIRED));
    expect(codes).not.toContain('45576876');
    expect(codes).toContain(String(TYPE_1));
  });
});

describe('inline compose filters', () => {
  const inline = (include: object[], exclude?: object[]) => ({ resourceType: 'ValueSet', compose: { include, ...(exclude ? { exclude } : {}) } });

  it('is-a with a regex on the code, and an exclude of an explicit concept', async () => {
    const valueSet = inline(
      [{ system: SNOMED, filter: [{ property: 'concept', op: 'is-a', value: '73211009' }, { property: 'concept', op: 'regex', value: '4.*' }] }],
      [{ system: SNOMED, concept: [{ code: '46635009' }] }],
    );
    const r = await expandPost([{ name: 'valueSet', resource: valueSet }]);
    expect(r.status).toBe(200);
    expect(codesOf(r.body)).toEqual(['44054006']);
    expect(r.body.expansion.total).toBe(1);
  });

  it('descendent-of leaves the concept itself out; `in` on standard-concept', async () => {
    const valueSet = inline([{ system: OMOP, filter: [{ property: 'concept', op: 'descendent-of', value: '201820' }, { property: 'standard-concept', op: 'in', value: 'C,S' }] }]);
    const r = await expandPost([{ name: 'valueSet', resource: valueSet }]);
    expect(r.status).toBe(200);
    const codes = codesOf(r.body);
    expect(codes).not.toContain('201820');
    expect(codes).not.toContain(String(RETIRED));
    expect(codes).toContain(String(TYPE_2));
    expect(r.body.expansion.total).toBe(2 + COMPLICATION_COUNT);
  });

  it('an explicit concept list in the order given; vocabulary-id = on the OMOP system', async () => {
    const list = await expandPost([{ name: 'valueSet', resource: inline([{ system: SNOMED, concept: [{ code: '46635009' }, { code: '44054006' }, { code: 'no-such-code' }] }]) }]);
    expect(codesOf(list.body)).toEqual(['46635009', '44054006']);
    const byVocabulary = await expandPost([{ name: 'valueSet', resource: inline([{ system: OMOP, filter: [{ property: 'vocabulary-id', op: '=', value: 'RxNorm' }] }]) }]);
    expect(codesOf(byVocabulary.body)).toEqual(['1367571', '1383815', '36274733']);
  });

  it('Authentication 5: a vocabulary-id filter naming CPT4 is 403 forbidden without a validated key (never an empty expansion)', async () => {
    const valueSet = inline([{ system: OMOP, filter: [{ property: 'vocabulary-id', op: '=', value: 'CPT4' }] }]);
    const refused = await expandPost([{ name: 'valueSet', resource: valueSet }]);
    expect(refused.status).toBe(403);
    expect(refused.body.resourceType).toBe('OperationOutcome');
    expect(refused.body.issue[0].code).toBe('forbidden');
    expect(refused.body.issue[0].details.text).toContain('CPT4');
    const inList = await expandPost([{ name: 'valueSet', resource: inline([{ system: OMOP, filter: [{ property: 'vocabulary-id', op: 'in', value: 'RxNorm,CPT4' }] }]) }]);
    expect(inList.status).toBe(403);
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const allowed = await expandPost([{ name: 'valueSet', resource: valueSet }], { key: validated });
    expect(allowed.status).toBe(200);
    expect(codesOf(allowed.body)).toEqual([String(CPT_VISIT)]);
  });

  it('an unsupported op or property, or a ValueSet without compose, is 400 naming the element', async () => {
    const op = await expandPost([{ name: 'valueSet', resource: inline([{ system: SNOMED, filter: [{ property: 'concept', op: 'generalizes', value: '44054006' }] }]) }]);
    expect(op.status).toBe(400);
    expect(op.body.issue[0].code).toBe('invalid');
    expect(op.body.issue[0].details.text).toMatch(/filter\[0\]\.op 'generalizes'/);
    const property = await expandPost([{ name: 'valueSet', resource: inline([{ system: SNOMED, filter: [{ property: 'colour', op: '=', value: 'red' }] }]) }]);
    expect(property.status).toBe(400);
    expect(property.body.issue[0].details.text).toMatch(/property 'colour'/);
    // A name of an Object.prototype member is no property either (it once passed and matched nothing).
    for (const name of ['constructor', 'toString', '__proto__']) {
      const inherited = await expandPost([{ name: 'valueSet', resource: inline([{ system: SNOMED, filter: [{ property: name, op: '=', value: 'x' }] }]) }]);
      expect(inherited.status, name).toBe(400);
      expect(inherited.body.issue[0].details.text).toContain(`property '${name}'`);
    }
    const noCompose = await expandPost([{ name: 'valueSet', resource: { resourceType: 'ValueSet' } }]);
    expect(noCompose.status).toBe(400);
    expect(noCompose.body.issue[0].details.text).toMatch(/ValueSet\.compose/);
  });

  it('a regex that could backtrack without bound is 400 naming the element; a plain one on a column property still filters (Errors rule 2)', async () => {
    const regexOn = (property: string, value: string) => inline([{ system: SNOMED, filter: [{ property: 'concept', op: 'is-a', value: '73211009' }, { property, op: 'regex', value }] }]);
    for (const [value, reason] of [
      ['(\\d|\\d)*x', /quantified group/],
      ['(4)\\1', /backreference/],
      ['.*.*.*.*x', /more than 3 repetitions/],
    ] as const) {
      const r = await expandPost([{ name: 'valueSet', resource: regexOn('concept', value) }]);
      expect(r.status).toBe(400);
      expect(r.body.issue[0].code).toBe('invalid');
      expect(r.body.issue[0].details.text).toMatch(/filter\[1\]\.value/);
      expect(r.body.issue[0].details.text).toMatch(reason);
    }
    const escaped = await expandPost([{ name: 'valueSet', resource: regexOn('concept', '\\)*[(]*4.*') }]);
    expect(escaped.status).toBe(200);
    expect(codesOf(escaped.body)).toContain('44054006');
    const byDomain = await expandPost([{ name: 'valueSet', resource: regexOn('domain-id', 'Cond.*') }]);
    expect(byDomain.status).toBe(200);
    expect(codesOf(byDomain.body)).toContain('44054006');
  });
});

describe('the text filter: keyword search within the set', () => {
  it('only members matching the text, in ranking order, with their total', async () => {
    const r = await expandGet({ url: DIABETES_ISA, filter: 'type' });
    expect(r.status).toBe(200);
    // 'Blood type measurement' matches the text but is not in the ValueSet.
    expect([...codesOf(r.body)].sort()).toEqual(['44054006', '46635009']);
    expect(r.body.expansion.total).toBe(2);
    expect(r.body.expansion.parameter).toContainEqual({ name: 'filter', valueString: 'type' });
    const none = await expandGet({ url: DIABETES_ISA, filter: 'heparin' });
    expect(none.body.expansion.total).toBe(0);
  });
});

describe('errors (Errors rule 2)', () => {
  it('no url nor valueSet: 400 naming url; a bad count: 400 naming count', async () => {
    const none = await expandGet({});
    expect(none.status).toBe(400);
    expect(none.body.issue[0].details.text).toMatch(/'url'/);
    const count = await expandGet({ url: DIABETES_ISA, count: 'ten' });
    expect(count.status).toBe(400);
    expect(count.body.issue[0].details.text).toMatch(/'count'/);
    const negative = await expandGet({ url: DIABETES_ISA, offset: '-1' });
    expect(negative.status).toBe(400);
    expect(negative.body.issue[0].details.text).toMatch(/'offset'/);
  });

  it('an unknown ValueSet url, domain or code: 404 not-found', async () => {
    for (const url of ['http://example.org/ValueSet/nothing', `${OMOP}/ValueSet/NoSuchDomain`, `${SNOMED}?fhir_vs=isa/1`]) {
      const r = await expandGet({ url });
      expect(r.status, url).toBe(404);
      expect(r.body.issue[0].code).toBe('not-found');
    }
  });

  it('Authentication 5: an isa on a CPT4 code is 404 for a key that may not read CPT4 (as if unknown)', async () => {
    const r = await expandGet({ url: `${OMOP}?fhir_vs=isa/${CPT_VISIT}` });
    expect(r.status).toBe(404);
  });
});
