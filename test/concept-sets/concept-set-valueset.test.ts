/**
 * POST /v1/concept-sets/to-valueset and ValueSet/$expand of what it writes, on the hand-built release of
 * concept-set-fixture.ts: the compose per FHIR version, fhir_version validation, circe's rules through $expand (an
 * invalid item counts, invalid descendants do not, mapped sources), licences, paging, activeOnly, $validate-code and
 * an XML round trip. Expected ids are read off the fixture's rows.
 */
import { Fhir } from 'fhir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceToXml } from '../../src/http/fhir/fhir-xml.js';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  atlas,
  CHILD,
  CONCEPT_SET_FIXTURE,
  CPT4_CHILD,
  CPT4_LEAF,
  CPT4_ROOT,
  GRANDCHILD,
  INVALID_CHILD,
  type Item,
  ROOT,
  SOURCE_OF_CHILD,
  SOURCE_OF_GRANDCHILD,
  SOURCE_OF_INVALID_CHILD,
  SOURCE_OF_ROOT,
  UPGRADED,
} from './concept-set-fixture.js';

const OMOP = 'https://fhir-terminology.ohdsi.org';
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

let t: TestServer;
let validatedKey: string;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeAthenaFixture(CONCEPT_SET_FIXTURE), label: '2025.2', makeDefault: true }] });
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
}, 120_000);
afterAll(async () => t?.close());

async function toValueSet(items: readonly Item[], version?: string, key?: string): Promise<Body> {
  const res = await t.request(`/v1/concept-sets/to-valueset${version ? `?fhir_version=${version}` : ''}`, { method: 'POST', body: { expression: atlas(items) }, key });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

async function expand(valueSet: Body, options: { version?: string; key?: string; extra?: object[] } = {}) {
  return t.request(`/fhir/${options.version ?? 'r4'}/ValueSet/$expand`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: { resourceType: 'Parameters', parameter: [{ name: 'valueSet', resource: valueSet }, ...(options.extra ?? [])] },
    key: options.key,
  });
}

const idsOf = (body: Body): number[] => (body.expansion.contains ?? []).map((c: { code: string }) => Number(c.code));

async function resolved(items: readonly Item[], key?: string): Promise<number[]> {
  const res = await t.request('/v1/concept-sets/resolve?ids_only=true', { method: 'POST', body: { expression: atlas(items) }, key });
  expect(res.status, res.text).toBe(200);
  return res.body.data.concept_ids;
}

describe('to-valueset: the compose states the expression', () => {
  const items: Item[] = [
    { id: ROOT, desc: true, mapped: true },
    { id: UPGRADED },
    { id: GRANDCHILD, ex: true, mapped: true },
  ];

  it('one include per included item (plus one for its mapped sources), is-a for descendants, maps-to for mapped, exclude for excluded, at the release version', async () => {
    const codeSystem = await t.request(`/fhir/r4/CodeSystem?url=${encodeURIComponent(OMOP)}`);
    const version = codeSystem.body.entry[0].resource.version;
    expect(typeof version).toBe('string');
    const vs = await toValueSet(items);
    expect(vs.resourceType).toBe('ValueSet');
    expect(vs.status).toBe('active');
    expect(vs.url).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(vs.compose.inactive).toBe(true);
    expect(vs.compose.include).toEqual([
      { system: OMOP, version, filter: [{ property: 'concept', op: 'is-a', value: String(ROOT) }] },
      { system: OMOP, version, filter: [{ property: 'maps-to', op: 'is-a', value: String(ROOT) }] },
      { system: OMOP, version, concept: [{ code: String(UPGRADED) }] },
    ]);
    expect(vs.compose.exclude).toEqual([
      { system: OMOP, version, concept: [{ code: String(GRANDCHILD) }] },
      { system: OMOP, version, filter: [{ property: 'maps-to', op: '=', value: String(GRANDCHILD) }] },
    ]);
  });

  it('r4, r4b, r5 and r6 give the same compose (ValueSet.compose did not change); the default is r4', async () => {
    const r4 = await toValueSet(items, 'r4');
    expect(await toValueSet(items)).toEqual(r4);
    for (const version of ['r4b', 'r5', 'r6', 'R5']) {
      const other = await toValueSet(items, version);
      expect(other.compose).toEqual(r4.compose);
      expect(other.url).toBe(r4.url);
    }
  });

  it('fhir_version other than r4, r4b, r5, r6 is a 400 naming fhir_version', async () => {
    for (const bad of ['r3', 'stu3', '4.0.1']) {
      const res = await t.request(`/v1/concept-sets/to-valueset?fhir_version=${bad}`, { method: 'POST', body: { expression: atlas(items) } });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/fhir_version/);
      expect(res.body.error.details.parameter).toBe('fhir_version');
    }
  });

  it('an invalid expression is the resolver\'s 400 naming item and field', async () => {
    const res = await t.request('/v1/concept-sets/to-valueset', {
      method: 'POST',
      body: { expression: { items: [{ concept: { CONCEPT_ID: ROOT }, includeDescendants: 'yes' }] } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/expression\.items\[0\]\.includeDescendants/);
  });
});

describe('$expand of the ValueSet follows circe\'s rules, as resolve does', () => {
  it('descendants only valid ones, the item itself even if invalid, mapped sources into the item and its valid descendants, minus the exclusion', async () => {
    const items: Item[] = [
      { id: ROOT, desc: true, mapped: true },
      { id: UPGRADED },
      { id: GRANDCHILD, ex: true, mapped: true },
    ];
    // ROOT's valid visible descendants are CHILD and GRANDCHILD (INVALID_CHILD is deprecated, CPT4_CHILD hidden);
    // the sources mapped into them are ROOT, CHILD, GRANDCHILD themselves and SOURCE_OF_ROOT/CHILD/GRANDCHILD;
    // the exclusion removes GRANDCHILD and SOURCE_OF_GRANDCHILD; UPGRADED counts though invalid.
    const expected = [ROOT, CHILD, SOURCE_OF_CHILD, SOURCE_OF_ROOT, UPGRADED].sort((a, b) => a - b);
    for (const version of ['r4', 'r5']) {
      const res = await expand(await toValueSet(items, version), { version });
      expect(res.status, res.text).toBe(200);
      expect(idsOf(res.body)).toEqual(expected);
      expect(res.body.expansion.total).toBe(expected.length);
      const inactive = res.body.expansion.contains.filter((c: { inactive?: boolean }) => c.inactive).map((c: { code: string }) => Number(c.code));
      expect(inactive).toEqual([UPGRADED]);
    }
    expect(await resolved(items)).toEqual(expected);
    expect(INVALID_CHILD).not.toBe(undefined);
  });

  it('pages with offset and count, the total exact on every page', async () => {
    const vs = await toValueSet([{ id: ROOT, desc: true, mapped: true }]);
    const all = await resolved([{ id: ROOT, desc: true, mapped: true }]);
    expect(all).toEqual([ROOT, CHILD, GRANDCHILD, SOURCE_OF_CHILD, SOURCE_OF_ROOT, SOURCE_OF_GRANDCHILD]);
    const seen: number[] = [];
    for (let offset = 0; offset < all.length; offset += 4) {
      const res = await expand(vs, { extra: [{ name: 'offset', valueInteger: offset }, { name: 'count', valueInteger: 4 }] });
      expect(res.status).toBe(200);
      expect(res.body.expansion.total).toBe(all.length);
      expect(res.body.expansion.offset).toBe(offset);
      seen.push(...idsOf(res.body));
    }
    expect(seen).toEqual(all);
  });

  it('activeOnly leaves the invalid item out', async () => {
    const res = await expand(await toValueSet([{ id: UPGRADED }, { id: CHILD, desc: true }]), { extra: [{ name: 'activeOnly', valueBoolean: true }] });
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([CHILD, GRANDCHILD]);
  });

  it('the same ValueSet sent as tx-resource and named by url', async () => {
    const vs = await toValueSet([{ id: CHILD, desc: true, mapped: true }], 'r5');
    const res = await t.request('/fhir/r5/ValueSet/$expand', {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: { resourceType: 'Parameters', parameter: [{ name: 'url', valueUri: vs.url }, { name: 'tx-resource', resource: vs }] },
    });
    expect(res.status, res.text).toBe(200);
    expect(idsOf(res.body)).toEqual([CHILD, GRANDCHILD, SOURCE_OF_CHILD, SOURCE_OF_GRANDCHILD]);
  });

  it('$validate-code answers membership by the same rules', async () => {
    const vs = await toValueSet([{ id: ROOT, desc: true }]);
    const check = async (code: number) => {
      const res = await t.request('/fhir/r4/ValueSet/$validate-code', {
        method: 'POST',
        headers: { 'content-type': 'application/fhir+json' },
        body: { resourceType: 'Parameters', parameter: [{ name: 'valueSet', resource: vs }, { name: 'system', valueUri: OMOP }, { name: 'code', valueCode: String(code) }] },
      });
      expect(res.status, res.text).toBe(200);
      return res.body.parameter.find((p: { name: string }) => p.name === 'result').valueBoolean;
    };
    expect(await check(GRANDCHILD)).toBe(true);
    expect(await check(INVALID_CHILD)).toBe(false);
    expect(await check(SOURCE_OF_ROOT)).toBe(false);
  });

  it('maps-to on its own: the sources of valid Maps to rows into the value (not the value itself), is-a into its valid descendants too', async () => {
    const mapsTo = (op: string, value: number) => ({ system: OMOP, filter: [{ property: 'maps-to', op, value: String(value) }] });
    const only = async (include: object[], exclude?: object[]) => {
      const res = await expand({ resourceType: 'ValueSet', compose: { include, ...(exclude ? { exclude } : {}) } });
      expect(res.status, res.text).toBe(200);
      return idsOf(res.body);
    };
    // INVALID_CHILD has no 'Maps to' row of its own: only SOURCE_OF_INVALID_CHILD maps into it.
    expect(await only([mapsTo('=', INVALID_CHILD)])).toEqual([SOURCE_OF_INVALID_CHILD]);
    // Into ROOT, CHILD, GRANDCHILD (their own rows too), not into INVALID_CHILD, not through the invalid row of INVALID_ROW_SOURCE.
    expect(await only([mapsTo('is-a', ROOT)])).toEqual([ROOT, CHILD, GRANDCHILD, SOURCE_OF_CHILD, SOURCE_OF_ROOT, SOURCE_OF_GRANDCHILD]);
    expect(await only([{ system: OMOP, filter: [{ property: 'concept', op: 'is-a', value: String(ROOT) }] }], [mapsTo('=', CHILD)])).toEqual([ROOT, GRANDCHILD]);
  });

  it('maps-to alongside another filter is a 400 naming the element', async () => {
    const vs = { resourceType: 'ValueSet', compose: { include: [{ system: OMOP, filter: [{ property: 'maps-to', op: '=', value: String(ROOT) }, { property: 'domain-id', op: '=', value: 'Condition' }] }] } };
    const res = await expand(vs);
    expect(res.status).toBe(400);
    expect(res.body.issue[0].details.text).toMatch(/include\[0\]\.filter\[0\].*maps-to/);
  });
});

describe('licences', () => {
  const items: Item[] = [{ id: CPT4_ROOT, desc: true }, { id: ROOT, desc: true }];

  it('a restricted item is listed in the compose and never expanded; a validated key gets it', async () => {
    const vs = await toValueSet(items);
    expect(vs.compose.include[0].filter[0].value).toBe(String(CPT4_ROOT));
    const hidden = await expand(vs);
    expect(hidden.status, hidden.text).toBe(200);
    expect(idsOf(hidden.body)).toEqual([ROOT, CHILD, GRANDCHILD]);
    expect(await resolved(items)).toEqual([ROOT, CHILD, GRANDCHILD]);
    const shown = await expand(vs, { key: validatedKey });
    expect(idsOf(shown.body)).toEqual([ROOT, CHILD, GRANDCHILD, CPT4_CHILD, CPT4_ROOT, CPT4_LEAF]);
    expect(await resolved(items, validatedKey)).toEqual([ROOT, CHILD, GRANDCHILD, CPT4_CHILD, CPT4_ROOT, CPT4_LEAF]);
  });

  it('only a ValueSet marked as a concept set (tag or maps-to) is read by circe: the same is-a compose untagged names a restricted root, a 403 (docs/licences.md)', async () => {
    const vs = await toValueSet([{ id: CPT4_ROOT, desc: true }, { id: ROOT, desc: true }]);
    expect(vs.meta.tag).toEqual([{ system: 'urn:omopterm:value-set-kind', code: 'concept-set-expression', display: expect.any(String) }]);
    const { meta: _meta, ...untagged } = vs;
    const refused = await expand(untagged);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.issue[0].code).toBe('forbidden');
    // Untagged, the general rules: CPT4_ROOT names nothing the key may see; ROOT's is-a alone is answered nearest first.
    const general = await expand({ resourceType: 'ValueSet', compose: { include: [{ system: OMOP, filter: [{ property: 'concept', op: 'is-a', value: String(ROOT) }] }] } });
    expect(general.status, general.text).toBe(200);
    expect(idsOf(general.body)[0]).toBe(ROOT);
  });

  it('an explicit vocabulary-id filter for a restricted vocabulary is 403 forbidden', async () => {
    const vs = { resourceType: 'ValueSet', compose: { include: [{ system: OMOP, filter: [{ property: 'vocabulary-id', op: '=', value: 'CPT4' }] }] } };
    const res = await expand(vs);
    expect(res.status).toBe(403);
    expect(res.body.issue[0].code).toBe('forbidden');
  });
});

describe('XML', () => {
  it('the ValueSet sent as XML and the expansion answered as XML give the ids of resolve', async () => {
    const items: Item[] = [{ id: ROOT, desc: true, mapped: true }, { id: UPGRADED }, { id: CHILD, ex: true }];
    const expected = await resolved(items);
    expect(expected).toEqual([ROOT, GRANDCHILD, SOURCE_OF_CHILD, SOURCE_OF_ROOT, SOURCE_OF_GRANDCHILD, UPGRADED].sort((a, b) => a - b));
    for (const version of ['r4', 'r5']) {
      const vs = await toValueSet(items, version);
      const xml = resourceToXml({ resourceType: 'Parameters', parameter: [{ name: 'valueSet', resource: vs }, { name: 'count', valueInteger: 1000 }] });
      const res = await t.request(`/fhir/${version}/ValueSet/$expand?_format=xml`, { method: 'POST', headers: { 'content-type': 'application/fhir+xml' }, body: xml });
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/fhir\+xml/);
      const back = new Fhir().xmlToObj(res.text) as Body;
      expect(back.expansion.total).toBe(expected.length);
      expect(idsOf(back)).toEqual(expected);
    }
  });
});
