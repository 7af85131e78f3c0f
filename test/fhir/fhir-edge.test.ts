/**
 * The FHIR edge (/fhir/{r4,r4b,r5,r6}): version by path (Versioning 2), JSON or XML by `_format` or Accept and
 * `_pretty` (fhir-and-omop-notes §3.10), OperationOutcome errors in the same format (Errors rule 2), the
 * CapabilityStatement, TerminologyCapabilities and $versions (§3.11).
 */
import { Fhir } from 'fhir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { DEMO_VOCABULARY_DIR } from '../metadata/concept-file.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

const fhirVersions: Array<[string, string]> = [
  ['r4', '4.0.1'],
  ['r4b', '4.3.0'],
  ['r5', '5.0.0'],
  ['r6', '6.0.0-ballot3'],
];

describe('FHIR versions by path (Versioning 2)', () => {
  it.each(fhirVersions)('/fhir/%s/metadata is a CapabilityStatement of FHIR %s, instantiating the terminology-server statement', async (v, number) => {
    const r = await t.request(`/fhir/${v}/metadata`);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(r.body).toMatchObject({
      resourceType: 'CapabilityStatement',
      fhirVersion: number,
      kind: 'instance',
      instantiates: ['http://hl7.org/fhir/CapabilityStatement/terminology-server'],
      format: expect.arrayContaining(['application/fhir+json', 'application/fhir+xml']),
    });
    expect(r.body.rest[0].mode).toBe('server');
  });

  it('an unknown version is a 404 OperationOutcome not-found naming the versions served', async () => {
    const r = await t.request('/fhir/r3/metadata');
    expect(r.status).toBe(404);
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0].code).toBe('not-found');
    expect(r.body.issue[0].diagnostics).toMatch(/r4, r4b, r5, r6/);
  });

  it('$versions lists the versions and the default', async () => {
    const r = await t.request('/fhir/r4/$versions');
    expect(r.status).toBe(200);
    expect(r.body.resourceType).toBe('Parameters');
    const versions = r.body.parameter.filter((p: { name: string }) => p.name === 'version').map((p: { valueCode: string }) => p.valueCode);
    expect(versions).toEqual(['4.0', '4.3', '5.0', '6.0']);
    expect(r.body.parameter.find((p: { name: string }) => p.name === 'default').valueCode).toBe('4.0');
  });
});

describe('TerminologyCapabilities (mode=terminology)', () => {
  it('lists the OMOP code system with the release version, and the THO URI of each vocabulary the key may see', async () => {
    const r = await t.request('/fhir/r4/metadata?mode=terminology');
    expect(r.status).toBe(200);
    expect(r.body.resourceType).toBe('TerminologyCapabilities');
    const uris = r.body.codeSystem.map((c: { uri: string }) => c.uri);
    expect(uris[0]).toBe('https://fhir-terminology.ohdsi.org');
    expect(r.body.codeSystem[0].version[0].code).toMatch(/^\d{8}$|^\d{4}\.\d+$/);
    expect(uris).toEqual(expect.arrayContaining(['http://snomed.info/sct', 'http://loinc.org', 'http://hl7.org/fhir/sid/icd-10-cm']));
    // Authentication 5: CPT4 only for a validated key
    expect(uris).not.toContain('http://www.ama-assn.org/go/cpt');
  });

  it('an unknown mode is a 400 invalid naming the parameter', async () => {
    const r = await t.request('/fhir/r4/metadata?mode=everything');
    expect(r.status).toBe(400);
    expect(r.body.issue[0].code).toBe('invalid');
    expect(r.body.issue[0].diagnostics).toMatch(/mode/);
  });
});

describe('formats (JSON default, XML by _format or Accept, _pretty)', () => {
  const converter = new Fhir();

  it('_format=xml answers application/fhir+xml that reads back as the same resource as the JSON answer', async () => {
    const json = await t.request('/fhir/r4/$versions');
    const xml = await t.request('/fhir/r4/$versions?_format=xml');
    expect(xml.status).toBe(200);
    expect(xml.headers['content-type']).toMatch(/^application\/fhir\+xml/);
    expect(converter.xmlToObj(xml.text)).toEqual(json.body);
  });

  it('Accept: application/fhir+xml chooses XML; _format wins over Accept', async () => {
    const byAccept = await t.request('/fhir/r5/metadata', { headers: { accept: 'application/fhir+xml' } });
    expect(byAccept.headers['content-type']).toMatch(/^application\/fhir\+xml/);
    expect(byAccept.text).toMatch(/^<\?xml[^>]*\?><CapabilityStatement xmlns="http:\/\/hl7.org\/fhir">/);
    const formatWins = await t.request('/fhir/r5/metadata?_format=json', { headers: { accept: 'application/fhir+xml' } });
    expect(formatWins.headers['content-type']).toMatch(/^application\/fhir\+json/);
  });

  it('errors follow the format: an XML OperationOutcome', async () => {
    const r = await t.request('/fhir/r4/metadata?mode=bad&_format=xml');
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+xml/);
    const outcome = converter.xmlToObj(r.text) as unknown as { resourceType: string; issue: Array<{ code: string }> };
    expect(outcome.resourceType).toBe('OperationOutcome');
    expect(outcome.issue[0]!.code).toBe('invalid');
  });

  it('_pretty=true indents JSON and XML; the content is unchanged', async () => {
    const plain = await t.request('/fhir/r4/$versions');
    const pretty = await t.request('/fhir/r4/$versions?_pretty=true');
    expect(pretty.text).toContain('\n  "resourceType"');
    expect(JSON.parse(pretty.text)).toEqual(plain.body);
    const prettyXml = await t.request('/fhir/r4/$versions?_format=xml&_pretty=true');
    expect(prettyXml.text.split('\n').length).toBeGreaterThan(5);
    expect(converter.xmlToObj(prettyXml.text)).toEqual(plain.body);
  });

  it('a missing key is 401 login with WWW-Authenticate, in the requested format (Errors rule 2, Authentication 3)', async () => {
    const r = await t.request('/fhir/r4/metadata?_format=xml', { anonymous: true });
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((converter.xmlToObj(r.text) as unknown as { issue: Array<{ code: string }> }).issue[0]!.code).toBe('login');
  });
});
