/**
 * ValueSet search over HTTPS (spec E12, "FHIR ValueSet stub", Errors rule 5): `GET /ValueSet?url=`
 * with the implicit patterns `{system}?fhir_vs` and `{system}?fhir_vs=isa/{code}`; a searchset
 * Bundle with `total` 1 and one stub (no expansion) for a supported URL, `total` 0 and no entries
 * otherwise (no 404); a twice-encoded `url` is decoded; the only error is 401 `login`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { CONCEPTS, CPT, OMOP, PLACE_OF_SERVICE, SNOMED, writeValueSetClosureFixture } from './valueset-closure-fixture.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeValueSetClosureFixture(), label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

const C = CONCEPTS;
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;

function search(query: string, options: { version?: string; key?: string; anonymous?: boolean } = {}) {
  return t.request(`/fhir/${options.version ?? 'r4'}/ValueSet${query}`, { key: options.key, anonymous: options.anonymous });
}

const byUrl = (url: string, options?: { version?: string; key?: string }) => search(`?url=${encodeURIComponent(url)}`, options);

function expectEmpty(r: { status: number; body: Record<string, unknown> }) {
  expect(r.status).toBe(200);
  expect(r.body).toEqual({ resourceType: 'Bundle', type: 'searchset', total: 0 });
}

describe('E12: supported implicit ValueSet URLs (total 1, one stub)', () => {
  it('"FHIR ValueSet stub": {system}?fhir_vs gives exactly the stub fields, metadata only', async () => {
    const url = `${SNOMED}?fhir_vs`;
    const r = await byUrl(url);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(r.body.resourceType).toBe('Bundle');
    expect(r.body.type).toBe('searchset');
    expect(r.body.total).toBe(1);
    expect(r.body.entry).toHaveLength(1);
    const { fullUrl, resource } = r.body.entry[0];
    expect(Object.keys(resource).sort()).toEqual(['description', 'experimental', 'id', 'name', 'resourceType', 'status', 'url']);
    expect(resource).toMatchObject({ resourceType: 'ValueSet', id: 'http---snomed-info-sct-fhir-vs', url, status: 'active', experimental: false });
    expect(resource.name).toContain(url);
    expect(resource.description).toContain('Systematic Nomenclature of Medicine');
    expect(fullUrl).toBe(`${t.url}/fhir/r4/ValueSet/${resource.id}`);
  });

  it('{system}?fhir_vs=isa/{code}: the stub names the concept; id as clients know it', async () => {
    const url = `${SNOMED}?fhir_vs=isa/${C.diabetes.concept_code}`;
    const r = await byUrl(url);
    expect(r.body.total).toBe(1);
    const resource = r.body.entry[0].resource;
    expect(resource.id).toBe('http---snomed-info-sct-fhir-vs-isa-73211009');
    expect(resource.url).toBe(url);
    expect(resource.description).toContain(C.diabetes.concept_name);
    expect(resource).not.toHaveProperty('expansion');
    expect(resource).not.toHaveProperty('compose');
  });

  it('the OMOP concept system takes concept ids in isa/{code}', async () => {
    expect((await byUrl(`${OMOP}?fhir_vs`)).body.total).toBe(1);
    const r = await byUrl(`${OMOP}?fhir_vs=isa/${C.type2.concept_id}`);
    expect(r.body.total).toBe(1);
    expect(r.body.entry[0].resource.description).toContain(C.type2.concept_name);
  });

  it('E12: a url encoded twice is decoded; single encoding and no encoding also work', async () => {
    const url = `${SNOMED}?fhir_vs=isa/${C.type1.concept_code}`;
    const twice = await search(`?url=${encodeURIComponent(encodeURIComponent(url))}`);
    const once = await search(`?url=${encodeURIComponent(url)}`);
    const raw = await search(`?url=${url}`);
    for (const r of [twice, once, raw]) {
      expect(r.status).toBe(200);
      expect(r.body.total).toBe(1);
      expect(r.body.entry[0].resource.url).toBe(url);
    }
    expect(twice.body).toEqual(once.body);
  });

  it('a long code-system URI still gives a valid FHIR id (at most 64 characters), distinct per URL', async () => {
    const all = await byUrl(`${PLACE_OF_SERVICE}?fhir_vs`);
    const isa = await byUrl(`${PLACE_OF_SERVICE}?fhir_vs=isa/${C.office.concept_code}`);
    expect(all.body.total).toBe(1);
    expect(isa.body.total).toBe(1);
    const ids = [all.body.entry[0].resource.id, isa.body.entry[0].resource.id];
    for (const id of ids) expect(id).toMatch(FHIR_ID);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it.each(['r4b', 'r5', 'r6'])('%s answers with the same stub (fullUrl under its own base)', async (version) => {
    const url = `${SNOMED}?fhir_vs=isa/${C.diabetes.concept_code}`;
    const r4 = await byUrl(url);
    const other = await byUrl(url, { version });
    expect(other.status).toBe(200);
    expect(other.body.entry[0].resource).toEqual(r4.body.entry[0].resource);
    expect(other.body.entry[0].fullUrl).toBe(`${t.url}/fhir/${version}/ValueSet/${r4.body.entry[0].resource.id}`);
  });
});

describe('E12: anything else is total 0 with no entries, never an error', () => {
  it.each([
    ['an omitted url', ''],
    ['an empty url', '?url='],
  ])('%s', async (_what, query) => {
    expectEmpty(await search(query));
  });

  it.each([
    ['a code the system does not hold', `${SNOMED}?fhir_vs=isa/999999999`],
    ['an unknown code system', 'http://example.org/codes?fhir_vs'],
    ['a vocabulary in VOCABULARY without concepts in this release', 'http://loinc.org?fhir_vs'],
    ['an administrative code system (no OMOP codes)', 'http://hl7.org/fhir/administrative-gender?fhir_vs'],
    ['another fhir_vs form (refset)', `${SNOMED}?fhir_vs=refset/${C.diabetes.concept_code}`],
    ['a ValueSet canonical that is not implicit', 'http://hl7.org/fhir/ValueSet/administrative-gender'],
    ['an empty isa code', `${SNOMED}?fhir_vs=isa/`],
    ['a concept id that is not a number', `${OMOP}?fhir_vs=isa/abc`],
    ['text that is no URL at all', '%%% not a url %E0%A4%A'],
  ])('%s', async (_what, url) => {
    expectEmpty(await byUrl(url));
  });

  it('E12 knows only the url parameter: other parameters are ignored, never a 400', async () => {
    const url = encodeURIComponent(`${SNOMED}?fhir_vs`);
    const plain = await search(`?url=${url}`);
    const withOthers = await search(`?url=${url}&name=whatever&version=not-a-version&_count=abc&status=retired`);
    expect(withOthers.status).toBe(200);
    expect(withOthers.body).toEqual(plain.body);
    expectEmpty(await search('?name=diabetes&_count=-1'));
  });

  it('Authentication 5: licensed content the key may not read finds nothing (no 403: E12 has no such error)', async () => {
    expectEmpty(await byUrl(`${CPT}?fhir_vs`));
    expectEmpty(await byUrl(`${OMOP}?fhir_vs=isa/${C.officeVisit.concept_id}`));
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    expect((await byUrl(`${CPT}?fhir_vs`, { key: validated })).body.total).toBe(1);
    expect((await byUrl(`${OMOP}?fhir_vs=isa/${C.officeVisit.concept_id}`, { key: validated })).body.total).toBe(1);
  });
});

describe('Errors rule 5: the only error is 401 login', () => {
  it.each([
    ['a missing key', { anonymous: true }],
    ['an invalid key', { key: 'oh_definitely_not_a_real_key' }],
  ])('%s is a 401 OperationOutcome with issue code login', async (_what, options) => {
    const r = await search(`?url=${encodeURIComponent(`${SNOMED}?fhir_vs`)}`, options);
    expect(r.status).toBe(401);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0].code).toBe('login');
  });
});
