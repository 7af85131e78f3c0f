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
    expect(r.body.issue[0].details.text).toMatch(/r4, r4b, r5, r6/);
  });

  it.each([
    ['r4', '4.0'],
    ['r4b', '4.3'],
    ['r5', '5.0'],
    ['r6', '6.0'],
  ])('/fhir/%s/$versions lists the version of that base, %s, which is also the default', async (v, code) => {
    const r = await t.request(`/fhir/${v}/$versions`);
    expect(r.status).toBe(200);
    expect(r.body.resourceType).toBe('Parameters');
    const versions = r.body.parameter.filter((p: { name: string }) => p.name === 'version').map((p: { valueCode: string }) => p.valueCode);
    expect(versions).toEqual([code]);
    expect(r.body.parameter.filter((p: { name: string }) => p.name === 'default').map((p: { valueCode: string }) => p.valueCode)).toEqual([code]);
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
    expect(r.body.issue[0].details.text).toMatch(/mode/);
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

  it.each([
    ['GET', '/CodeSystem/$find-matches', 'POST'],
    ['PUT', '/CodeSystem/$lookup', 'GET, POST'],
    ['DELETE', '/CodeSystem/SNOMED', 'GET'],
    ['POST', '/CodeSystem', 'GET'],
    ['PATCH', '/metadata', 'GET'],
  ])('%s %s (a method the path does not take) is a 405 not-supported OperationOutcome with Allow: %s', async (method, path, allow) => {
    const r = await t.request(`/fhir/r4${path}`, { method, ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }) });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe(allow);
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0].code).toBe('not-supported');
    expect(r.body.issue[0].details.text).toContain(`not ${method}`);
    const anonymous = await t.request(`/fhir/r4${path}`, { method, anonymous: true });
    expect(anonymous.status).toBe(401);
  });

  it('the 405 names an instance path as FHIR writes it; an unknown $operation on that path is a 404, as by GET', async () => {
    const instance = await t.request('/fhir/r4/CodeSystem/SNOMED', { method: 'POST', body: {} });
    expect(instance.body.issue[0].details.text).toBe('CodeSystem/{id} takes GET only, not POST.');
    for (const method of ['GET', 'POST']) {
      const unknown = await t.request('/fhir/r4/CodeSystem/$no-such-operation', { method, ...(method === 'POST' ? { body: {} } : {}) });
      expect(unknown.status, method).toBe(404);
      expect(unknown.body.issue[0].code).toBe('not-found');
    }
  });

  it('a missing key is 401 login with WWW-Authenticate, in the requested format (Errors rule 2, Authentication 3)', async () => {
    const r = await t.request('/fhir/r4/metadata?_format=xml', { anonymous: true });
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((converter.xmlToObj(r.text) as unknown as { issue: Array<{ code: string }> }).issue[0]!.code).toBe('login');
  });
});

describe('Coding parameters in a URL: FHIR token system|code (operations: "Coding → token")', () => {
  const SNOMED = 'http://snomed.info/sct';
  const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
  const OMOP = 'https://fhir-terminology.ohdsi.org';
  const q = (value: string) => encodeURIComponent(value);
  const parameter = (body: { parameter: Array<{ name: string; [value: string]: unknown }> }, name: string) => body.parameter.find((p) => p.name === name);

  it('$lookup: GET coding=system|code answers as system + code do', async () => {
    const byCoding = await t.request(`/fhir/r4/CodeSystem/$lookup?coding=${q(`${SNOMED}|44054006`)}`);
    const byCode = await t.request(`/fhir/r4/CodeSystem/$lookup?system=${q(SNOMED)}&code=44054006`);
    expect(byCoding.status).toBe(200);
    expect(parameter(byCoding.body, 'display')?.valueString).toBe('Type 2 diabetes mellitus');
    expect(byCoding.body).toEqual(byCode.body);
  });

  it('$subsumes: GET codingA and codingB', async () => {
    const r = await t.request(`/fhir/r4/CodeSystem/$subsumes?codingA=${q(`${SNOMED}|73211009`)}&codingB=${q(`${SNOMED}|44054006`)}`);
    expect(r.status).toBe(200);
    expect(parameter(r.body, 'outcome')?.valueCode).toBe('subsumes');
  });

  it('$validate-code: GET coding is validated as a Coding (its issues point at Coding.code)', async () => {
    const good = await t.request(`/fhir/r4/CodeSystem/$validate-code?coding=${q(`${SNOMED}|44054006`)}`);
    expect(parameter(good.body, 'result')?.valueBoolean).toBe(true);
    const bad = await t.request(`/fhir/r4/CodeSystem/$validate-code?coding=${q(`${SNOMED}|99999999999`)}`);
    expect(parameter(bad.body, 'result')?.valueBoolean).toBe(false);
    const issues = parameter(bad.body, 'issues')?.resource as { issue: Array<{ location: string[] }> };
    expect(issues.issue[0]!.location).toEqual(['Coding.code']);
  });

  it('$translate: GET sourceCoding (R5 name) reads the token too', async () => {
    const r = await t.request(`/fhir/r5/ConceptMap/$translate?sourceCoding=${q(`${ICD10CM}|E11.9`)}&targetSystem=${q(OMOP)}`);
    expect(r.status).toBe(200);
    const match = parameter(r.body, 'match') as unknown as { part: Array<{ name: string; valueCoding?: { code: string } }> };
    expect(match.part.find((p) => p.name === 'concept')?.valueCoding?.code).toBe('201826');
  });

  it('the first unescaped | separates system and code; \\| is a bar inside the code', async () => {
    const r = await t.request(`/fhir/r4/CodeSystem/$validate-code?coding=${q(`${SNOMED}|4405\\|4006`)}`);
    expect(parameter(r.body, 'result')?.valueBoolean).toBe(false);
    expect(parameter(r.body, 'code')?.valueCode).toBe('4405|4006');
    expect(parameter(r.body, 'system')?.valueUri).toBe(SNOMED);
  });

  it('|code has no system, and a value without | is a code alone: 400 naming the missing system (Errors rule 2)', async () => {
    for (const value of ['|44054006', '44054006']) {
      const r = await t.request(`/fhir/r4/CodeSystem/$lookup?coding=${q(value)}`);
      expect(r.status, value).toBe(400);
      expect(r.body.issue[0].code).toBe('invalid');
      expect(r.body.issue[0].details.text).toMatch(/'system'/);
    }
  });

  it('in a POST body a Coding parameter must be a valueCoding: a valueString is a 400 naming the parameter', async () => {
    const r = await t.request('/fhir/r4/CodeSystem/$lookup', {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: { resourceType: 'Parameters', parameter: [{ name: 'coding', valueString: `${SNOMED}|44054006` }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.issue[0].code).toBe('invalid');
    expect(r.body.issue[0].details.text).toMatch(/Parameter 'coding' must be a Coding/);
  });

  it("$validate-code reads a coding alike on CodeSystem and ValueSet: its system defaults to the code-system parameter, no code is a 400 naming 'coding' (Errors rule 2)", async () => {
    const vs = `url=${q(`${SNOMED}?fhir_vs`)}`;
    const bySystem = await t.request(`/fhir/r4/ValueSet/$validate-code?${vs}&system=${q(SNOMED)}&coding=${q('|44054006')}`);
    expect(bySystem.status).toBe(200);
    expect(parameter(bySystem.body, 'result')?.valueBoolean).toBe(true);
    const byUrl = await t.request(`/fhir/r4/CodeSystem/$validate-code?url=${q(SNOMED)}&coding=${q('|44054006')}`);
    expect(parameter(byUrl.body, 'result')?.valueBoolean).toBe(true);
    for (const path of [`ValueSet/$validate-code?${vs}&code=44054006`, `CodeSystem/$validate-code?url=${q(SNOMED)}&code=44054006`]) {
      const noCode = await t.request(`/fhir/r4/${path}&coding=${q(`${SNOMED}|`)}`);
      expect(noCode.status, path).toBe(400);
      expect(noCode.body.issue[0].details.text, path).toBe("Parameter 'coding' needs a code.");
    }
  });
});

describe('one reading of codes, two matchings: exact for the CodeSystem operations, normalised spellings for codes sent as data', () => {
  const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
  const OMOP = 'https://fhir-terminology.ohdsi.org';
  const q = (value: string) => encodeURIComponent(value);
  const SPELLINGS = ['E119', 'e11.9', ' E11.9 '];

  it.each(SPELLINGS)('$lookup and $validate-code: %j is not the ICD10CM code E11.9 (FHIR codes are case-sensitive and exact)', async (code) => {
    const lookup = await t.request(`/fhir/r4/CodeSystem/$lookup?system=${q(ICD10CM)}&code=${q(code)}`);
    expect(lookup.status).toBe(404);
    const validation = await t.request(`/fhir/r4/CodeSystem/$validate-code?url=${q(ICD10CM)}&code=${q(code)}`);
    expect(validation.body.parameter.find((p: { name: string }) => p.name === 'result').valueBoolean).toBe(false);
  });

  it.each(SPELLINGS)('$translate: %j reads as E11.9 (OMOP spellings of a code sent as data)', async (code) => {
    const r = await t.request(`/fhir/r4/ConceptMap/$translate?system=${q(ICD10CM)}&code=${q(code)}&targetsystem=${q(OMOP)}`);
    const match = r.body.parameter.find((p: { name: string }) => p.name === 'match');
    expect(match.part.find((p: { name: string }) => p.name === 'concept').valueCoding.code).toBe('201826');
  });
});

describe('the CapabilityStatement lists what is served', () => {
  it('every resource interaction and operation of the OpenAPI document, and nothing else', async () => {
    const openapi = (await t.request('/openapi.json', { anonymous: true })).body as { paths: Record<string, unknown> };
    const expected: Record<string, Set<string>> = {};
    for (const path of Object.keys(openapi.paths)) {
      const m = /^\/fhir\/\{fhirVersion\}\/([A-Z][A-Za-z]+)(?:\/(.+))?$/.exec(path);
      if (!m || m[2]?.includes('/')) continue;
      const what = m[2] === undefined ? 'search-type' : m[2].startsWith('{') ? 'read' : m[2].replace(/^\$/, '$');
      (expected[m[1]!] ??= new Set()).add(what);
    }
    const statement = (await t.request('/fhir/r4/metadata')).body as {
      rest: Array<{ resource: Array<{ type: string; interaction?: Array<{ code: string }>; operation?: Array<{ name: string; definition: string }> }> }>;
    };
    const listed = Object.fromEntries(
      statement.rest[0]!.resource.map((r) => [r.type, new Set([...(r.interaction ?? []).map((i) => i.code), ...(r.operation ?? []).map((o) => `$${o.name}`)])]),
    );
    expect(listed).toEqual(expected);
    expect([...listed.CodeSystem!]).toEqual(expect.arrayContaining(['$lookup', '$validate-code', '$subsumes', 'read', 'search-type']));
    for (const r of statement.rest[0]!.resource) for (const o of r.operation ?? []) expect(o.definition).toBe(`http://hl7.org/fhir/OperationDefinition/${r.type}-${o.name}`);
  });
});
