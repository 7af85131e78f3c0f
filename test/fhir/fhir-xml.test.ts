/**
 * FHIR XML answers (fhir-and-omop-notes §3.10; spec: "XML by content negotiation"): src/http/fhir/fhir-xml.ts writes
 * FHIR JSON as FHIR XML by the format's version-independent rules. Checked two ways: the module on hand-written
 * resources that use every rule (attributes, primitive extensions, contained resources, XHTML, escaping), and every
 * operation's answer over HTTPS, read back with the `fhir` library (R4 definitions) and compared with the JSON
 * answer; for R5 shapes, which that library cannot read, the R5 elements are checked in the text.
 */
import { Fhir } from 'fhir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceToXml } from '../../src/http/fhir/fhir-xml.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { ICD10CM, OMOP, SNOMED, writeCodeSystemFixture } from './codesystem-fixture.js';

const reader = new Fhir();
const readBack = (xml: string) => reader.xmlToObj(xml) as unknown;

/** A Patient that uses every rule of the JSON → XML mapping (FHIR json.html / xml.html). */
const PATIENT = {
  resourceType: 'Patient',
  id: 'p1',
  meta: { versionId: '2' },
  text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml"><p>Jane &amp; <b>Doe</b></p></div>' },
  contained: [{ resourceType: 'Organization', id: 'org', name: 'Clinic "A" <east>' }],
  extension: [{ url: 'http://example.org/fhir/StructureDefinition/eye-colour', valueString: 'blue' }],
  identifier: [{ id: 'i1', system: 'urn:oid:1.2.3', value: 'A&B' }],
  active: true,
  name: [{ family: 'Doe', given: ['Jane', 'Q'], _given: [null, { id: 'g2', extension: [{ url: 'http://example.org/initial', valueBoolean: true }] }] }],
  birthDate: '1970-03-30',
  _birthDate: { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/patient-birthTime', valueDateTime: '1970-03-30T14:35:45-05:00' }] },
  multipleBirthInteger: 2,
  managingOrganization: { reference: '#org' },
};

describe('resourceToXml: the JSON → XML rules', () => {
  const xml = resourceToXml(PATIENT);

  it('reads back (with the fhir library) as the same resource', () => {
    expect(readBack(xml)).toEqual(PATIENT);
  });

  it('root element = resourceType in the FHIR namespace, after the XML declaration; the resource id is an element', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?><Patient xmlns="http://hl7.org/fhir"><id value="p1"/><meta><versionId value="2"/></meta>')).toBe(true);
    expect(xml.endsWith('</Patient>')).toBe(true);
  });

  it('an extension url and an element id are attributes; primitives are value attributes; arrays repeat the element', () => {
    expect(xml).toContain('<extension url="http://example.org/fhir/StructureDefinition/eye-colour"><valueString value="blue"/></extension>');
    expect(xml).toContain('<identifier id="i1"><system value="urn:oid:1.2.3"/><value value="A&amp;B"/></identifier>');
    expect(xml).toContain('<active value="true"/>');
    expect(xml).toContain('<multipleBirthInteger value="2"/>');
  });

  it('_name primitive extensions merge into the element (arrays index by index)', () => {
    expect(xml).toContain('<given value="Jane"/><given id="g2" value="Q"><extension url="http://example.org/initial"><valueBoolean value="true"/></extension></given>');
    expect(xml).toContain(
      '<birthDate value="1970-03-30"><extension url="http://hl7.org/fhir/StructureDefinition/patient-birthTime"><valueDateTime value="1970-03-30T14:35:45-05:00"/></extension></birthDate>',
    );
  });

  it('a contained resource is wrapped in its property; the narrative div is XHTML as it is; values are escaped', () => {
    expect(xml).toContain('<contained><Organization><id value="org"/><name value="Clinic &quot;A&quot; &lt;east&gt;"/></Organization></contained>');
    expect(xml).toContain('<text><status value="generated"/><div xmlns="http://www.w3.org/1999/xhtml"><p>Jane &amp; <b>Doe</b></p></div></text>');
  });

  it('elements follow the JSON property order', () => {
    const reordered = { resourceType: 'Parameters', parameter: [{ valueString: 'x', name: 'b' }], id: 'last' };
    expect(resourceToXml(reordered)).toBe('<?xml version="1.0" encoding="UTF-8"?><Parameters xmlns="http://hl7.org/fhir"><parameter><valueString value="x"/><name value="b"/></parameter><id value="last"/></Parameters>');
  });

  it('newlines, tabs and quotes survive as character references; characters XML cannot carry become U+FFFD', () => {
    const resource = { resourceType: 'Parameters', parameter: [{ name: 'line\u0001', valueString: 'a\n\tb "c" \u0001 \uD800' }] };
    const text = resourceToXml(resource);
    expect(text).toContain('<valueString value="a&#10;&#9;b &quot;c&quot; \uFFFD \uFFFD"/>');
    expect(readBack(text)).toEqual({ resourceType: 'Parameters', parameter: [{ name: 'line\uFFFD', valueString: 'a\n\tb "c" \uFFFD \uFFFD' }] });
  });

  it('pretty: one element per line, indented two spaces per level, same content', () => {
    const pretty = resourceToXml(PATIENT, { pretty: true });
    const lines = pretty.split('\n');
    expect(lines[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>');
    expect(lines[1]).toBe('<Patient xmlns="http://hl7.org/fhir">');
    expect(lines[2]).toBe('  <id value="p1"/>');
    expect(lines).toContain('    <given value="Jane"/>');
    expect(readBack(pretty)).toEqual(PATIENT);
  });

  it('an ill-formed div, and a property name that is no XML name, are left out rather than break the document', () => {
    const resource = { resourceType: 'Basic', text: { status: 'generated', div: '<div xmlns="http://www.w3.org/1999/xhtml"><p>open</div><x>' }, 'bad name<': 1, code: { text: 'c' } };
    expect(resourceToXml(resource)).toBe('<?xml version="1.0" encoding="UTF-8"?><Basic xmlns="http://hl7.org/fhir"><text><status value="generated"/></text><code><text value="c"/></code></Basic>');
  });

  it('refuses what is not a resource', () => {
    expect(() => resourceToXml({ parameter: [] })).toThrow(/resourceType/);
  });
});

describe('every operation answers the same resource in XML as in JSON', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ releases: [{ dir: writeCodeSystemFixture(), label: '2024.2', makeDefault: true }] });
  });
  afterAll(async () => {
    await t?.close();
  });

  const q = encodeURIComponent;
  const post = (parameter: object[]) => ({ method: 'POST', headers: { 'content-type': 'application/fhir+json' }, body: { resourceType: 'Parameters', parameter } });
  const closureBody = post([SNOMED, SNOMED, SNOMED].map((system, i) => ({ name: 'concept', valueCoding: { system, code: ['73211009', '44054006', '126877002'][i] } })));

  /** Each operation of the suite, with answers of every shape: Parameters with parts and resources, ConceptMap, Bundle, capabilities, errors. */
  const R4_REQUESTS: Array<[string, string, { method?: string; headers?: Record<string, string>; body?: unknown }?]> = [
    ['$lookup', `/fhir/r4/CodeSystem/$lookup?system=${q(OMOP)}&code=45772705`],
    ['$validate-code good', `/fhir/r4/CodeSystem/$validate-code?url=${q(OMOP)}&code=4097430&display=Sodium%20level`],
    ['$validate-code with issues', '/fhir/r4/CodeSystem/$validate-code', post([{ name: 'codeableConcept', valueCodeableConcept: { coding: [{ system: OMOP, code: '1' }, { system: 'http://example.org/x', code: 'y' }], text: 't' } }])],
    ['$subsumes', `/fhir/r4/CodeSystem/$subsumes?system=${q(SNOMED)}&codeA=73211009&codeB=44054006`],
    ['$closure', '/fhir/r4/ConceptMap/$closure', closureBody],
    ['$translate', `/fhir/r4/ConceptMap/$translate?system=${q(ICD10CM)}&code=E11.9&targetsystem=${q(OMOP)}`],
    ['ValueSet search', `/fhir/r4/ValueSet?url=${q(`${SNOMED}?fhir_vs=isa/73211009`)}`],
    ['CapabilityStatement', '/fhir/r4/metadata'],
    ['TerminologyCapabilities', '/fhir/r4/metadata?mode=terminology'],
    ['OperationOutcome 404', `/fhir/r4/CodeSystem/$lookup?system=${q(OMOP)}&code=999`],
    ['OperationOutcome 400', '/fhir/r4/CodeSystem/$lookup?code=1'],
  ];

  async function both(path: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
    const sep = path.includes('?') ? '&' : '?';
    const json = await t.request(path, options);
    const xml = await t.request(`${path}${sep}_format=xml`, options);
    const pretty = await t.request(`${path}${sep}_format=xml&_pretty=true`, options);
    expect(xml.status).toBe(json.status);
    expect(xml.headers['content-type']).toMatch(/^application\/fhir\+xml/);
    return { json, xml, pretty };
  }

  it.each(R4_REQUESTS)('r4 %s: XML read back equals the JSON answer', async (_label, path, options) => {
    const { json, xml, pretty } = await both(path, options);
    expect(json.body.resourceType).toBeDefined();
    expect(readBack(xml.text)).toEqual(json.body);
    expect(readBack(pretty.text)).toEqual(json.body);
  });

  it.each(R4_REQUESTS)('r4 %s: top-level elements in the order of the JSON properties', async (_label, path, options) => {
    const { json, pretty } = await both(path, options);
    const topLevel = pretty.text
      .split('\n')
      .map((line) => /^ {2}<([A-Za-z]\w*)/.exec(line)?.[1])
      .filter((name): name is string => name !== undefined)
      .filter((name, i, all) => name !== all[i - 1]);
    expect(topLevel).toEqual(Object.keys(json.body).filter((k) => k !== 'resourceType'));
  });

  it('Parameters: the parameters in the JSON order, each name before its value', async () => {
    const { json, xml } = await both(`/fhir/r4/CodeSystem/$lookup?system=${q(OMOP)}&code=45772705`);
    const names = [...xml.text.matchAll(/<parameter><name value="([^"]+)"\/>/g)].map((m) => m[1]);
    expect(names).toEqual(json.body.parameter.map((p: { name: string }) => p.name));
  });

  it('r5 $translate: the match carries the R5 `relationship` part in XML', async () => {
    const { json, xml } = await both(`/fhir/r5/ConceptMap/$translate?sourceCode=E11.9&system=${q(ICD10CM)}&targetSystem=${q(OMOP)}`);
    const match = json.body.parameter.find((p: { name: string }) => p.name === 'match');
    expect(match.part[0]).toEqual({ name: 'relationship', valueCode: 'equivalent' });
    expect(xml.text).toContain(
      `<parameter><name value="match"/><part><name value="relationship"/><valueCode value="equivalent"/></part><part><name value="concept"/><valueCoding><system value="${OMOP}"/><code value="201826"/>`,
    );
    // Parameters has the same shape in R4, so the whole answer also reads back unchanged.
    expect(readBack(xml.text)).toEqual(json.body);
  });

  it('r5 $closure: every ConceptMap target keeps its R5 `relationship` (an element R4 does not define)', async () => {
    const { json, xml } = await both('/fhir/r5/ConceptMap/$closure', closureBody);
    const targets = json.body.group.flatMap((g: { element: Array<{ target: unknown[] }> }) => g.element.flatMap((e) => e.target));
    expect(targets.length).toBeGreaterThan(1);
    expect(targets.every((target: { relationship?: string }) => target.relationship === 'source-is-broader-than-target')).toBe(true);
    const written = [...xml.text.matchAll(/<target><code value="(\d+)"\/><relationship value="source-is-broader-than-target"\/><\/target>/g)].map((m) => m[1]);
    expect(written).toEqual(targets.map((target: { code: string }) => target.code));
    expect(xml.text).not.toContain('equivalence');
  });
});

describe('XML request bodies must be well-formed (Errors rule 2: a 400 OperationOutcome naming the parse error)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ releases: [{ dir: writeCodeSystemFixture(), label: '2024.2', makeDefault: true }] });
  });
  afterAll(async () => {
    await t?.close();
  });

  const postXml = (body: string) =>
    t.request('/fhir/r4/CodeSystem/$lookup', { method: 'POST', headers: { 'content-type': 'application/fhir+xml' }, body });
  const LOOKUP = `<Parameters xmlns="http://hl7.org/fhir"><parameter><name value="system"/><valueUri value="${OMOP}"/></parameter><parameter><name value="code"/><valueCode value="45772705"/></parameter>`;

  it('a well-formed Parameters body is read (the baseline the malformed ones differ from)', async () => {
    const r = await postXml(`<?xml version="1.0" encoding="UTF-8"?>\n${LOOKUP}</Parameters>\n`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.resourceType).toBe('Parameters');
  });

  it.each([
    ['a document cut inside a tag', '<Parameters><oops', 'Unclosed root tag at line 1'],
    ['a root element never closed', LOOKUP, 'Unclosed root tag at line 1'],
    ['a closing tag that closes nothing open', `${LOOKUP.replace('<parameter><name value="code"/>', '<parameter>\n<name value="code"/></parameter>')}</Parameters>`, 'Unexpected close tag at line 2'],
    ['an unquoted attribute', '<Parameters xmlns="http://hl7.org/fhir"><parameter><name value=code/></parameter></Parameters>', 'Unquoted attribute value at line 1'],
    ['two root elements', `${LOOKUP}</Parameters><Parameters/>`, 'More than one root element at line 1'],
    ['no element at all', 'just text', 'Non-whitespace before first tag at line 1'],
  ])('%s is a 400 naming the parse error, not a missing parameter', async (_label, body, reason) => {
    const r = await postXml(body);
    expect(r.status).toBe(400);
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0].code).toBe('invalid');
    const text: string = r.body.issue[0].details.text;
    expect(text).toContain('The request body is not well-formed XML');
    expect(text).toContain(reason);
    expect(text).not.toMatch(/required/);
  });
});
