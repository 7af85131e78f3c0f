/**
 * The FHIR batch interaction over HTTPS (client-compatibility.md §2.1, "POST / runs a batch of GET
 * operations"): each entry answers as the same GET does on its own (status and resource), in order;
 * failed entries are OperationOutcomes (Errors rule 2) and never fail the batch; non-GET entries are
 * 405; at most 100 entries; the batch counts as one call against the key's limits (README Limits:
 * "A batch or bulk request counts as one call"); licences apply per entry (Authentication 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { LATER_RELEASE_VERSION, OMOP, RELEASE_VERSION, SNOMED, writeCodeSystemFixture, writeLaterReleaseFixture } from './codesystem-fixture.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: writeCodeSystemFixture(), label: '2024.2', makeDefault: true },
      { dir: writeLaterReleaseFixture(), label: '2025.2' },
    ],
  });
});
afterAll(async () => {
  await t?.close();
});

const q = encodeURIComponent;
const getEntry = (url: string) => ({ request: { method: 'GET', url } });

function batch(entries: unknown[], options: { key?: string; version?: string } = {}) {
  return t.request(`/fhir/${options.version ?? 'r4'}`, {
    method: 'POST',
    key: options.key,
    headers: { 'content-type': 'application/fhir+json' },
    body: { resourceType: 'Bundle', type: 'batch', entry: entries },
  });
}

describe('batch of GET entries', () => {
  it('each entry answers as the same GET does alone, in order (operations, read, search, errors)', async () => {
    const urls = [
      `CodeSystem/$lookup?system=${q(OMOP)}&code=201826`,
      `CodeSystem/$lookup?system=${q(SNOMED)}&code=99999999`,
      'CodeSystem/SNOMED',
      `CodeSystem?url=${q(SNOMED)}`,
      `CodeSystem/$validate-code?url=${q(SNOMED)}&code=44054006`,
      `ValueSet?url=${q(`${SNOMED}?fhir_vs`)}`,
      'CodeSystem/nope',
      `CodeSystem/$subsumes?system=${q(SNOMED)}&codeA=73211009`,
    ];
    const r = await batch(urls.map(getEntry));
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(r.body.resourceType).toBe('Bundle');
    expect(r.body.type).toBe('batch-response');
    expect(r.body.entry).toHaveLength(urls.length);
    for (const [i, url] of urls.entries()) {
      const alone = await t.request(`/fhir/r4/${url}`);
      const entry = r.body.entry[i];
      expect(entry.response.status.slice(0, 3), url).toBe(String(alone.status));
      expect(entry.resource, url).toEqual(alone.body);
    }
    // The statuses this mix is meant to cover: success, not-found, invalid.
    expect(r.body.entry.map((e: { response: { status: string } }) => e.response.status)).toEqual([
      '200 OK',
      '404 Not Found',
      '200 OK',
      '200 OK',
      '200 OK',
      '200 OK',
      '404 Not Found',
      '400 Bad Request',
    ]);
    expect(r.body.entry[7].response.outcome).toEqual(r.body.entry[7].resource);
    expect(r.body.entry[7].resource.issue[0].code).toBe('invalid');
  });

  it('a URL under /fhir/{version}/ runs on that version (r5 $lookup returns code and system), absolute or not', async () => {
    const lookup = `CodeSystem/$lookup?system=${q(OMOP)}&code=201826`;
    const r = await batch([getEntry(`${t.url}/fhir/r5/${lookup}`), getEntry(`/fhir/r5/${lookup}`), getEntry(lookup)]);
    const r5Alone = await t.request(`/fhir/r5/${lookup}`);
    const r4Alone = await t.request(`/fhir/r4/${lookup}`);
    expect(r.body.entry[0].resource).toEqual(r5Alone.body);
    expect(r.body.entry[1].resource).toEqual(r5Alone.body);
    expect(r.body.entry[2].resource).toEqual(r4Alone.body);
    expect(r5Alone.body).not.toEqual(r4Alone.body);
  });

  it("entries use the batch's release (header or query) unless their URL says vocab_release", async () => {
    const read = `CodeSystem/omop-v${RELEASE_VERSION}`;
    const r = await t.request('/fhir/r4?vocab_release=2025.2', {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: { resourceType: 'Bundle', type: 'batch', entry: [getEntry('CodeSystem?url=' + q(OMOP)), getEntry(`CodeSystem?url=${q(OMOP)}&vocab_release=2024.2`), getEntry(`${read}?vocab_release=2031.1`)] },
    });
    expect(r.body.entry[0].resource.entry[0].resource.version).toBe(LATER_RELEASE_VERSION);
    expect(r.body.entry[1].resource.entry[0].resource.version).toBe(RELEASE_VERSION);
    expect(r.body.entry[2].response.status).toBe('404 Not Found');
    expect(r.body.entry[2].resource.issue[0].details.text).toContain('2031.1');
  });

  it('a non-GET entry is an entry-level 405, a malformed or unknown one 400/404; the others still run', async () => {
    const r = await batch([
      { request: { method: 'POST', url: 'CodeSystem/$lookup' }, resource: { resourceType: 'Parameters' } },
      { request: { method: 'GET' } },
      'not an entry',
      getEntry('Patient/1'),
      getEntry('CodeSystem/SNOMED'),
    ]);
    expect(r.status).toBe(200);
    const statuses = r.body.entry.map((e: { response: { status: string } }) => e.response.status);
    expect(statuses).toEqual(['405 Method Not Allowed', '400 Bad Request', '400 Bad Request', '404 Not Found', '200 OK']);
    expect(r.body.entry[0].resource.resourceType).toBe('OperationOutcome');
    expect(r.body.entry[0].resource.issue[0].code).toBe('not-supported');
    expect(r.body.entry[1].resource.issue[0].details.text).toContain('entry[1].request');
    expect(r.body.entry[4].resource.id).toBe('SNOMED');
  });

  it('licences apply per entry: CPT4 is forbidden to an unvalidated key, served to a validated one (Authentication 5)', async () => {
    const entries = [getEntry('CodeSystem/CPT4'), getEntry('CodeSystem/$lookup?system=http://www.ama-assn.org/go/cpt&code=99213')];
    const refused = await batch(entries);
    expect(refused.body.entry.map((e: { response: { status: string } }) => e.response.status)).toEqual(['403 Forbidden', '403 Forbidden']);
    expect(refused.body.entry[0].resource.issue[0].code).toBe('forbidden');
    const validated = await batch(entries, { key: await t.createKey({ cpt4_validated_until: '2999-12-31' }) });
    expect(validated.body.entry.map((e: { response: { status: string } }) => e.response.status)).toEqual(['200 OK', '200 OK']);
  });

  it('an empty batch answers an empty batch-response; XML in and out works', async () => {
    const empty = await batch([]);
    expect(empty.body).toEqual({ resourceType: 'Bundle', type: 'batch-response' });
    const xml = await t.request('/fhir/r4?_format=xml', {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+xml' },
      body: '<Bundle xmlns="http://hl7.org/fhir"><type value="batch"/><entry><request><method value="GET"/><url value="CodeSystem/SNOMED"/></request></entry><entry><request><method value="GET"/><url value="CodeSystem/nope"/></request></entry></Bundle>',
    });
    expect(xml.status).toBe(200);
    expect(xml.text).toContain('<type value="batch-response"/>');
    expect(xml.text).toContain('<status value="200 OK"/>');
    expect(xml.text).toContain('<CodeSystem>');
    expect(xml.text).toContain('<status value="404 Not Found"/>');
    expect(xml.text).toContain('<OperationOutcome>');
  });
});

describe('batch limits and refusals', () => {
  it('the CapabilityStatement declares the batch interaction', async () => {
    const r = await t.request('/fhir/r4/metadata');
    expect(r.body.rest[0].interaction).toContainEqual({ code: 'batch' });
  });

  it('100 entries run; 101 are a 400 invalid for the whole batch', async () => {
    const ok = await batch(Array.from({ length: 100 }, () => getEntry('CodeSystem/SNOMED')));
    expect(ok.status).toBe(200);
    expect(ok.body.entry).toHaveLength(100);
    const tooMany = await batch(Array.from({ length: 101 }, () => getEntry('CodeSystem/SNOMED')));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.resourceType).toBe('OperationOutcome');
    expect(tooMany.body.issue[0].code).toBe('invalid');
    expect(tooMany.body.issue[0].details.text).toContain('100');
  });

  it('a body that is not a batch Bundle is 400 invalid saying what is wrong', async () => {
    const cases: Array<[unknown, string]> = [
      [{ resourceType: 'Parameters' }, 'Bundle'],
      [{ resourceType: 'Bundle', type: 'transaction', entry: [] }, 'transaction'],
      [{ resourceType: 'Bundle', type: 'batch', entry: {} }, 'Bundle.entry'],
    ];
    for (const [body, mention] of cases) {
      const r = await t.request('/fhir/r4', { method: 'POST', headers: { 'content-type': 'application/fhir+json' }, body });
      expect(r.status).toBe(400);
      expect(r.body.resourceType).toBe('OperationOutcome');
      expect(r.body.issue[0].details.text).toContain(mention);
    }
  });

  it('a batch counts as one call against the monthly quota, whatever its number of entries (README Limits)', async () => {
    const key = await t.createKey({ monthly_quota: 2 });
    const first = await batch(Array.from({ length: 10 }, () => getEntry('CodeSystem/SNOMED')), { key });
    expect(first.status).toBe(200);
    expect(first.body.entry.every((e: { response: { status: string } }) => e.response.status === '200 OK')).toBe(true);
    expect((await batch([getEntry('CodeSystem/SNOMED')], { key })).status).toBe(200);
    const third = await batch([getEntry('CodeSystem/SNOMED')], { key });
    expect(third.status).toBe(429);
    expect(third.body.resourceType).toBe('OperationOutcome');
  });

  it('needs a key like every FHIR route (401 login)', async () => {
    const r = await t.request('/fhir/r4', { method: 'POST', anonymous: true, headers: { 'content-type': 'application/fhir+json' }, body: { resourceType: 'Bundle', type: 'batch' } });
    expect(r.status).toBe(401);
    expect(r.body.issue[0].code).toBe('login');
  });
});
