/**
 * CodeSystem search and read over HTTPS (client-compatibility.md §2.1: `GET /CodeSystem[?url=]`,
 * `GET /CodeSystem/{id}`, "CodeSystem ids per release: omop-v<YYYYMMDD> … Handlers also accept
 * 2025.2"): metadata-only CodeSystem resources for the OMOP system and every vocabulary with a
 * code-system URI; the licence rule (Authentication 5: CPT4 only for validated keys); 404 not-found
 * for unknown ids (Errors rule 2: an OperationOutcome on /fhir).
 * Two releases: 2024.2 (the HL7 OMOP fixture, vocabulary date 20240716, default) and 2025.2 (one
 * SNOMED concept, 20250827).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { CPT, HUB_SOURCE_COUNT, ICD10CM, LOINC, OMOP, RELEASE_VERSION, SNOMED, VOCABULARIES, LATER_RELEASE_VERSION, writeCodeSystemFixture, writeLaterReleaseFixture } from './codesystem-fixture.js';

/** Concepts per vocabulary in writeCodeSystemFixture: 5 HL7 SNOMED concepts + 4 diabetes ones; E11.9 + the hub's sources; one each. */
const FIXTURE_COUNTS: Record<string, number> = { SNOMED: 9, LOINC: 1, ICD10CM: 1 + HUB_SOURCE_COUNT, CPT4: 1 };
const FIXTURE_TOTAL = Object.values(FIXTURE_COUNTS).reduce((a, b) => a + b, 0);

let t: TestServer;
let validatedKey: string;
beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: writeCodeSystemFixture(), label: '2024.2', makeDefault: true },
      { dir: writeLaterReleaseFixture(), label: '2025.2' },
    ],
  });
  validatedKey = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string, options: { key?: string; version?: string } = {}) => t.request(`/fhir/${options.version ?? 'r4'}${path}`, { key: options.key });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const resources = (bundle: any) => (bundle.entry ?? []).map((e: { resource: unknown }) => e.resource);
const ids = (bundle: unknown) => resources(bundle).map((r: { id: string }) => r.id);
const vocabularyVersion = (id: string) => `${id} test`;

describe('GET /CodeSystem: searchset Bundle of metadata-only CodeSystems', () => {
  it('the OMOP system first (omop-v<YYYYMMDD>), then each vocabulary with a URI by vocabulary_id; CPT4 left out for an unvalidated key', async () => {
    const r = await get('/CodeSystem');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(r.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 4 });
    expect(ids(r.body)).toEqual([`omop-v${RELEASE_VERSION}`, 'ICD10CM', 'LOINC', 'SNOMED']);
    const [omop, , , snomed] = resources(r.body);
    expect(omop).toMatchObject({
      resourceType: 'CodeSystem',
      url: OMOP,
      version: RELEASE_VERSION,
      name: 'OMOP Concepts',
      status: 'active',
      content: 'not-present',
      count: FIXTURE_TOTAL - FIXTURE_COUNTS.CPT4!,
    });
    expect(omop).not.toHaveProperty('concept');
    expect(snomed).toMatchObject({ url: SNOMED, version: vocabularyVersion('SNOMED'), name: VOCABULARIES[0]![1], content: 'not-present', count: FIXTURE_COUNTS.SNOMED });
    expect(r.body.entry[3].fullUrl).toBe(`${t.url}/fhir/r4/CodeSystem/SNOMED`);
  });

  it('a CPT4-validated key sees the CPT4 code system and the OMOP count includes it (Authentication 5)', async () => {
    const r = await get('/CodeSystem', { key: validatedKey });
    expect(ids(r.body)).toEqual([`omop-v${RELEASE_VERSION}`, 'CPT4', 'ICD10CM', 'LOINC', 'SNOMED']);
    expect(resources(r.body)[0].count).toBe(FIXTURE_TOTAL);
    expect(resources(r.body)[1]).toMatchObject({ url: CPT, count: FIXTURE_COUNTS.CPT4 });
  });

  it('url= matches the canonical URI and its aliases; an unknown URI gives total 0 and no entries', async () => {
    expect(ids((await get(`/CodeSystem?url=${encodeURIComponent(SNOMED)}`)).body)).toEqual(['SNOMED']);
    expect(ids((await get(`/CodeSystem?url=${encodeURIComponent('urn:oid:2.16.840.1.113883.6.90')}`)).body)).toEqual(['ICD10CM']);
    expect(ids((await get(`/CodeSystem?url=${encodeURIComponent(OMOP)}`)).body)).toEqual([`omop-v${RELEASE_VERSION}`]);
    const none = await get(`/CodeSystem?url=${encodeURIComponent('http://example.org/none')}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ resourceType: 'Bundle', type: 'searchset', total: 0 });
    // CPT4 is not found by an unvalidated key, even by its URI.
    expect((await get(`/CodeSystem?url=${encodeURIComponent(CPT)}`)).body.total).toBe(0);
  });

  it('version= is exact, name= is a case-insensitive start, and they combine with url=', async () => {
    expect(ids((await get(`/CodeSystem?version=${RELEASE_VERSION}`)).body)).toEqual([`omop-v${RELEASE_VERSION}`]);
    expect(ids((await get(`/CodeSystem?version=${encodeURIComponent(vocabularyVersion('LOINC'))}`)).body)).toEqual(['LOINC']);
    expect(ids((await get('/CodeSystem?name=omop%20con')).body)).toEqual([`omop-v${RELEASE_VERSION}`]);
    expect(ids((await get('/CodeSystem?name=LOGICAL')).body)).toEqual(['LOINC']);
    expect((await get(`/CodeSystem?url=${encodeURIComponent(LOINC)}&version=${RELEASE_VERSION}`)).body.total).toBe(0);
  });

  it('_summary=count answers the total alone; an unknown _summary is 400 invalid naming it', async () => {
    const count = await get(`/CodeSystem?_summary=count&url=${encodeURIComponent(ICD10CM)}`);
    expect(count.body).toEqual({ resourceType: 'Bundle', type: 'searchset', total: 1 });
    const bad = await get('/CodeSystem?_summary=everything');
    expect(bad.status).toBe(400);
    expect(bad.body.resourceType).toBe('OperationOutcome');
    expect(bad.body.issue[0].code).toBe('invalid');
    expect(bad.body.issue[0].details.text).toContain('_summary');
  });

  it('the selected release decides the ids and versions (vocab_release)', async () => {
    const r = await get('/CodeSystem?vocab_release=2025.2');
    expect(ids(r.body)).toEqual([`omop-v${LATER_RELEASE_VERSION}`, 'SNOMED']);
    expect(resources(r.body)[0]).toMatchObject({ version: LATER_RELEASE_VERSION, count: 1 });
  });
});

describe('GET /CodeSystem/{id}', () => {
  it('omop-v<YYYYMMDD> of the selected release is the resource its search lists, on r4 and r5', async () => {
    const listed = resources((await get('/CodeSystem')).body)[0];
    for (const version of ['r4', 'r5']) {
      const r = await get(`/CodeSystem/omop-v${RELEASE_VERSION}`, { version });
      expect(r.status).toBe(200);
      expect(r.body).toEqual(listed);
    }
  });

  it('omop-v… of another loaded release, and release labels (2025.2, 2025v2) name that release\'s OMOP system', async () => {
    const other = await get(`/CodeSystem/omop-v${LATER_RELEASE_VERSION}`);
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ id: `omop-v${LATER_RELEASE_VERSION}`, url: OMOP, version: LATER_RELEASE_VERSION, count: 1 });
    expect((await get('/CodeSystem/2025.2')).body).toEqual(other.body);
    expect((await get('/CodeSystem/2025v2')).body).toEqual(other.body);
    expect((await get('/CodeSystem/2024.2')).body.id).toBe(`omop-v${RELEASE_VERSION}`);
  });

  it('a vocabulary id is that vocabulary in the selected release', async () => {
    const r = await get('/CodeSystem/ICD10CM');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ resourceType: 'CodeSystem', id: 'ICD10CM', url: ICD10CM, version: vocabularyVersion('ICD10CM'), count: FIXTURE_COUNTS.ICD10CM });
    expect((await get('/CodeSystem/ICD10CM?vocab_release=2025.2')).status).toBe(404);
  });

  it('CPT4 is 403 forbidden without a validated licence and served with one (Authentication 5)', async () => {
    const refused = await get('/CodeSystem/CPT4');
    expect(refused.status).toBe(403);
    expect(refused.body.resourceType).toBe('OperationOutcome');
    expect(refused.body.issue[0].code).toBe('forbidden');
    const served = await get('/CodeSystem/CPT4', { key: validatedKey });
    expect(served.status).toBe(200);
    expect(served.body).toMatchObject({ id: 'CPT4', url: CPT });
  });

  it('an unknown id, or a release not loaded, is 404 not-found (Errors rule 2)', async () => {
    for (const id of ['nope', 'omop-v19990101', '2023.1']) {
      const r = await get(`/CodeSystem/${id}`);
      expect(r.status).toBe(404);
      expect(r.body.resourceType).toBe('OperationOutcome');
      expect(r.body.issue[0].code).toBe('not-found');
      expect(r.body.issue[0].details.text).toContain(`CodeSystem/${id}`);
    }
  });

  it('operations on CodeSystem are not taken for ids ($lookup still answers)', async () => {
    const r = await get(`/CodeSystem/$lookup?system=${encodeURIComponent(OMOP)}&code=201826`);
    expect(r.status).toBe(200);
    expect(r.body.resourceType).toBe('Parameters');
  });

  it('the CapabilityStatement lists the CodeSystem read and search-type interactions', async () => {
    const r = await get('/metadata');
    const codeSystem = r.body.rest[0].resource.find((res: { type: string }) => res.type === 'CodeSystem');
    expect(codeSystem.interaction).toEqual([{ code: 'read' }, { code: 'search-type' }]);
  });

  it('answers FHIR XML with _format=xml', async () => {
    const r = await get('/CodeSystem/SNOMED?_format=xml');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+xml/);
    expect(r.text).toContain('<CodeSystem xmlns="http://hl7.org/fhir">');
    expect(r.text).toContain('<content value="not-present"/>');
  });
});
