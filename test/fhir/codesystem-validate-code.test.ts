/**
 * CodeSystem/$validate-code over HTTPS, against the outputs of the HL7 OMOP conformance fixtures
 * (omop-validate-{good,bad,bad-display,bad-version}-{code,coding,codeableconcept}): result, message,
 * display, code, system, version, the echoed codeableConcept, the `issues` OperationOutcome with its
 * issue code, tx-issue-type, message and location, and x-caused-by-unknown-system; plus vocabulary
 * systems, synonyms as valid displays, licences (Authentication 3 and 5) and parameter errors
 * (Errors rule 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { CPT, ICD10CM, OMOP, RELEASE_VERSION, SNOMED, writeCodeSystemFixture } from './codesystem-fixture.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCodeSystemFixture(), label: '2024.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Parameter = { name: string; [value: string]: any };

async function validate(parameter: Parameter[], version = 'r4', key?: string) {
  const r = await t.request(`/fhir/${version}/CodeSystem/$validate-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: { resourceType: 'Parameters', parameter },
    ...(key ? { key } : {}),
  });
  return r;
}

/** The Parameters as name → the parameter without its name (one per name in these answers). */
function byName(body: { parameter: Parameter[] }): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const { name, ...rest } of body.parameter) {
    expect(out[name], `parameter ${name} appears once`).toBeUndefined();
    out[name] = rest;
  }
  return out;
}

const unknownCode = (code: string) => `Unknown code '${code}' in the CodeSystem '${OMOP}' version '${RELEASE_VERSION}'`;
const wrongDisplay = `Wrong Display Name 'Not the display' for ${OMOP}#4097430. Valid display is one of 2 choices: 'Sodium measurement' (en), 'Sodium level' (en) (for the language(s) '--')`;
const badVersion = `A definition for CodeSystem '${OMOP}' version '20250101' could not be found, so the code cannot be validated. Valid versions: ${RELEASE_VERSION}`;

function issue(code: string, txType: string, messageId: string, text: string, path: string) {
  return {
    extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/operationoutcome-message-id', valueString: messageId }],
    severity: 'error',
    code,
    details: { coding: [{ system: 'http://hl7.org/fhir/tools/CodeSystem/tx-issue-type', code: txType }], text },
    location: [path],
    expression: [path],
  };
}

describe('good codes (omop-validate-good-*)', () => {
  it('url + code: result true with code, display, system and version', async () => {
    const r = await validate([
      { name: 'url', valueUri: OMOP },
      { name: 'code', valueCode: '4097430' },
    ]);
    expect(r.status).toBe(200);
    expect(byName(r.body)).toEqual({
      result: { valueBoolean: true },
      code: { valueCode: '4097430' },
      display: { valueString: 'Sodium measurement' },
      system: { valueUri: OMOP },
      version: { valueString: RELEASE_VERSION },
    });
  });

  it('coding with the right display', async () => {
    const r = await validate([{ name: 'coding', valueCoding: { system: OMOP, code: '1029267', display: 'Pulse oximetry' } }]);
    expect(byName(r.body)).toEqual({
      result: { valueBoolean: true },
      code: { valueCode: '1029267' },
      display: { valueString: 'Pulse oximetry' },
      system: { valueUri: OMOP },
      version: { valueString: RELEASE_VERSION },
    });
  });

  it('codeableConcept: the codeableConcept is echoed', async () => {
    const cc = { coding: [{ system: OMOP, code: '4097430' }] };
    const r = await validate([{ name: 'codeableConcept', valueCodeableConcept: cc }]);
    expect(byName(r.body)).toEqual({
      result: { valueBoolean: true },
      code: { valueCode: '4097430' },
      codeableConcept: { valueCodeableConcept: cc },
      display: { valueString: 'Sodium measurement' },
      system: { valueUri: OMOP },
      version: { valueString: RELEASE_VERSION },
    });
  });

  it('GET with url and code works the same', async () => {
    const r = await t.request(`/fhir/r4/CodeSystem/$validate-code?url=${encodeURIComponent(OMOP)}&code=4097430`);
    expect(r.status).toBe(200);
    expect(byName(r.body).result).toEqual({ valueBoolean: true });
  });

  it('a synonym is a valid display, compared ignoring case and spacing', async () => {
    const r = await validate([{ name: 'coding', valueCoding: { system: OMOP, code: '4097430', display: '  sodium   LEVEL ' } }]);
    expect(byName(r.body).result).toEqual({ valueBoolean: true });
  });
});

describe('unknown codes (omop-validate-bad-code, -coding, -codeableconcept)', () => {
  it('code 04097430: result false, issue code-invalid / invalid-code at code', async () => {
    const r = await validate([
      { name: 'url', valueUri: OMOP },
      { name: 'code', valueCode: '04097430' },
    ]);
    expect(r.status).toBe(200);
    expect(byName(r.body)).toEqual({
      result: { valueBoolean: false },
      code: { valueCode: '04097430' },
      message: { valueString: unknownCode('04097430') },
      system: { valueUri: OMOP },
      version: { valueString: RELEASE_VERSION },
      issues: { resource: { resourceType: 'OperationOutcome', issue: [issue('code-invalid', 'invalid-code', 'Unknown_Code_in_Version', unknownCode('04097430'), 'code')] } },
    });
  });

  it('coding 1029267C: the issue is at Coding.code', async () => {
    const r = await validate([{ name: 'coding', valueCoding: { system: OMOP, code: '1029267C', display: 'Pulse oximetry' } }]);
    const p = byName(r.body);
    expect(p.result).toEqual({ valueBoolean: false });
    expect(p.message).toEqual({ valueString: unknownCode('1029267C') });
    expect((p.issues!.resource as { issue: unknown[] }).issue).toEqual([issue('code-invalid', 'invalid-code', 'Unknown_Code_in_Version', unknownCode('1029267C'), 'Coding.code')]);
  });

  it('codeableConcept 4097430.0: no code, system or version; the issue is at CodeableConcept.coding[0].code', async () => {
    const cc = { coding: [{ system: OMOP, code: '4097430.0' }] };
    const r = await validate([{ name: 'codeableConcept', valueCodeableConcept: cc }]);
    expect(byName(r.body)).toEqual({
      result: { valueBoolean: false },
      codeableConcept: { valueCodeableConcept: cc },
      message: { valueString: unknownCode('4097430.0') },
      issues: {
        resource: {
          resourceType: 'OperationOutcome',
          issue: [issue('code-invalid', 'invalid-code', 'Unknown_Code_in_Version', unknownCode('4097430.0'), 'CodeableConcept.coding[0].code')],
        },
      },
    });
  });
});

describe('wrong displays (omop-validate-bad-display-*)', () => {
  it('code + display: result false, the right display, issue invalid / invalid-display at display', async () => {
    const r = await validate([
      { name: 'url', valueUri: OMOP },
      { name: 'code', valueCode: '4097430' },
      { name: 'display', valueString: 'Not the display' },
    ]);
    expect(byName(r.body)).toEqual({
      result: { valueBoolean: false },
      code: { valueCode: '4097430' },
      display: { valueString: 'Sodium measurement' },
      message: { valueString: wrongDisplay },
      system: { valueUri: OMOP },
      version: { valueString: RELEASE_VERSION },
      issues: {
        resource: { resourceType: 'OperationOutcome', issue: [issue('invalid', 'invalid-display', 'Display_Name_for__should_be_one_of__instead_of', wrongDisplay, 'display')] },
      },
    });
  });

  it('a concept without synonyms names its one valid display, as the fixture words it', async () => {
    const r = await validate([{ name: 'coding', valueCoding: { system: OMOP, code: '1029267', display: 'Not the display' } }]);
    expect(byName(r.body).message).toEqual({
      valueString: `Wrong Display Name 'Not the display' for ${OMOP}#1029267. Valid display is 'Pulse oximetry' (en) (for the language(s) '--')`,
    });
  });

  it("displayLanguage given: the message names that language, not '--' (code, coding, codeableConcept; ValueSet too)", async () => {
    const inGerman = wrongDisplay.replace("(for the language(s) '--')", "(for the language(s) 'de-CH')");
    const code = await validate([
      { name: 'url', valueUri: OMOP },
      { name: 'code', valueCode: '4097430' },
      { name: 'display', valueString: 'Not the display' },
      { name: 'displayLanguage', valueCode: 'de-CH' },
    ]);
    expect(byName(code.body).message).toEqual({ valueString: inGerman });
    expect(byName(code.body).issues!.resource).toMatchObject({ issue: [{ details: { text: inGerman } }] });
    const coding = await validate([
      { name: 'coding', valueCoding: { system: OMOP, code: '4097430', display: 'Not the display' } },
      { name: 'displayLanguage', valueCode: 'de-CH' },
    ]);
    expect(byName(coding.body).message).toEqual({ valueString: inGerman });
    const concept = await validate([
      { name: 'codeableConcept', valueCodeableConcept: { coding: [{ system: OMOP, code: '4097430', display: 'Not the display' }] } },
      { name: 'displayLanguage', valueCode: 'de-CH' },
    ]);
    expect(byName(concept.body).message).toEqual({ valueString: inGerman });
    const get = await t.request(`/fhir/r4/CodeSystem/$validate-code?url=${encodeURIComponent(OMOP)}&code=4097430&display=Not%20the%20display&displayLanguage=fr`);
    expect(get.body.parameter.find((p: Parameter) => p.name === 'message').valueString).toBe(wrongDisplay.replace("'--'", "'fr'"));
    const valueSet = await t.request(
      `/fhir/r4/ValueSet/$validate-code?url=${encodeURIComponent(`${OMOP}?fhir_vs`)}&system=${encodeURIComponent(OMOP)}&code=4097430&display=Not%20the%20display&displayLanguage=fr`,
    );
    expect(valueSet.status, valueSet.text).toBe(200);
    expect(valueSet.body.parameter.find((p: Parameter) => p.name === 'message').valueString).toContain("(for the language(s) 'fr')");
  });

  it("a displayLanguage that is no language code is a 400 naming it", async () => {
    const r = await validate([
      { name: 'url', valueUri: OMOP },
      { name: 'code', valueCode: '4097430' },
      { name: 'display', valueString: 'Not the display' },
      { name: 'displayLanguage', valueCode: 'de CH' },
    ]);
    expect(r.status).toBe(400);
    expect(r.body.issue[0].code).toBe('invalid');
    expect(r.body.issue[0].details.text).toMatch(/'displayLanguage'.*'de CH'/);
  });

  it('coding and codeableConcept point at Coding.display and CodeableConcept.coding[0].display', async () => {
    const coding = await validate([{ name: 'coding', valueCoding: { system: OMOP, code: '4097430', display: 'Not the display' } }]);
    expect(byName(coding.body).issues!.resource).toMatchObject({ issue: [{ location: ['Coding.display'], expression: ['Coding.display'] }] });
    const cc = { coding: [{ system: OMOP, code: '4097430', display: 'Not the display' }] };
    const concept = await validate([{ name: 'codeableConcept', valueCodeableConcept: cc }]);
    const p = byName(concept.body);
    expect(p.result).toEqual({ valueBoolean: false });
    expect(p.code).toEqual({ valueCode: '4097430' });
    expect(p.display).toEqual({ valueString: 'Sodium measurement' });
    expect(p.issues!.resource).toMatchObject({ issue: [{ code: 'invalid', location: ['CodeableConcept.coding[0].display'] }] });
  });
});

describe('unknown versions and systems (omop-validate-bad-version-*)', () => {
  it('code + version 20250101: not-found at system, the requested version, x-caused-by-unknown-system', async () => {
    const r = await validate([
      { name: 'url', valueUri: OMOP },
      { name: 'code', valueCode: '4097430' },
      { name: 'version', valueCode: '20250101' },
    ]);
    expect(byName(r.body)).toEqual({
      result: { valueBoolean: false },
      code: { valueCode: '4097430' },
      message: { valueString: badVersion },
      system: { valueUri: OMOP },
      version: { valueString: '20250101' },
      issues: { resource: { resourceType: 'OperationOutcome', issue: [issue('not-found', 'not-found', 'UNKNOWN_CODESYSTEM_VERSION', badVersion, 'system')] } },
      'x-caused-by-unknown-system': { valueCanonical: `${OMOP}|20250101` },
    });
  });

  it('coding with version: the issue is at Coding.system', async () => {
    const r = await validate([{ name: 'coding', valueCoding: { system: OMOP, code: '4097430', version: '20250101' } }]);
    const p = byName(r.body);
    expect(p.result).toEqual({ valueBoolean: false });
    expect(p.issues!.resource).toMatchObject({ issue: [{ code: 'not-found', location: ['Coding.system'] }] });
    expect(p['x-caused-by-unknown-system']).toEqual({ valueCanonical: `${OMOP}|20250101` });
  });

  it('codeableConcept with version: no system or version in the answer, the issue at CodeableConcept.coding[0].system', async () => {
    const cc = { coding: [{ system: OMOP, code: '4097430', version: '20250101' }] };
    const r = await validate([{ name: 'codeableConcept', valueCodeableConcept: cc }]);
    expect(Object.keys(byName(r.body)).sort()).toEqual(['codeableConcept', 'issues', 'message', 'result', 'x-caused-by-unknown-system']);
    expect(byName(r.body).issues!.resource).toMatchObject({ issue: [{ location: ['CodeableConcept.coding[0].system'] }] });
  });

  it('an unknown system: result false, not-found, x-caused-by-unknown-system names it', async () => {
    const r = await validate([
      { name: 'url', valueUri: 'http://example.org/unknown' },
      { name: 'code', valueCode: 'x' },
    ]);
    const p = byName(r.body);
    expect(p.result).toEqual({ valueBoolean: false });
    expect(p.message).toEqual({ valueString: "A definition for CodeSystem 'http://example.org/unknown' could not be found, so the code cannot be validated" });
    expect(p['x-caused-by-unknown-system']).toEqual({ valueCanonical: 'http://example.org/unknown' });
  });
});

describe('vocabulary systems and CodeableConcepts of several codings', () => {
  it('a SNOMED code and an ICD10CM code validate by concept_code', async () => {
    const snomed = await validate([{ name: 'coding', valueCoding: { system: SNOMED, code: '44054006', display: 'Type II diabetes mellitus' } }]);
    expect(byName(snomed.body)).toMatchObject({ result: { valueBoolean: true }, code: { valueCode: '44054006' }, system: { valueUri: SNOMED } });
    const icd = await validate([{ name: 'coding', valueCoding: { system: ICD10CM, code: 'E11.9' } }]);
    expect(byName(icd.body).result).toEqual({ valueBoolean: true });
    const conceptId = await validate([{ name: 'coding', valueCoding: { system: SNOMED, code: '201826' } }]);
    expect(byName(conceptId.body).result).toEqual({ valueBoolean: false });
  });

  it('one valid coding makes the CodeableConcept valid; the other coding’s issue becomes a warning', async () => {
    const cc = { coding: [{ system: OMOP, code: '999999999' }, { system: SNOMED, code: '44054006' }] };
    const r = await validate([{ name: 'codeableConcept', valueCodeableConcept: cc }]);
    const p = byName(r.body);
    expect(p.result).toEqual({ valueBoolean: true });
    expect(p.code).toEqual({ valueCode: '44054006' });
    expect(p.issues!.resource).toMatchObject({ issue: [{ severity: 'warning', code: 'code-invalid', location: ['CodeableConcept.coding[0].code'] }] });
  });

  it('r5 answers as r4 does (the ecosystem outputs on every version)', async () => {
    const parameter = [{ name: 'coding', valueCoding: { system: OMOP, code: '4097430', display: 'Not the display' } }];
    const [r4, r5] = await Promise.all([validate(parameter, 'r4'), validate(parameter, 'r5')]);
    expect(r5.body).toEqual(r4.body);
  });
});

describe('licences and parameter errors', () => {
  it('a CPT4 code is 403 forbidden for a key without validation, valid for a validated key (Authentication 5)', async () => {
    const parameter = [{ name: 'coding', valueCoding: { system: CPT, code: '99213' } }];
    const refused = await validate(parameter);
    expect(refused.status).toBe(403);
    expect(refused.body.issue[0].code).toBe('forbidden');
    const byId = await validate([{ name: 'coding', valueCoding: { system: OMOP, code: '2414397' } }]);
    expect(byId.status).toBe(403);
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const allowed = await validate(parameter, 'r4', validated);
    expect(allowed.status).toBe(200);
    expect(byName(allowed.body).result).toEqual({ valueBoolean: true });
  });

  it('no code, coding or codeableConcept; code without url; a coding without code: 400 invalid naming the parameter', async () => {
    const none = await validate([{ name: 'url', valueUri: OMOP }]);
    expect(none.status).toBe(400);
    expect(none.body.issue[0].code).toBe('invalid');
    expect(none.body.issue[0].details.text).toMatch(/'code'/);
    const noUrl = await validate([{ name: 'code', valueCode: '4097430' }]);
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.issue[0].details.text).toMatch(/'url'/);
    const noCode = await validate([{ name: 'coding', valueCoding: { system: OMOP } }]);
    expect(noCode.status).toBe(400);
    expect(noCode.body.issue[0].details.text).toMatch(/'coding'/);
    const empty = await validate([{ name: 'codeableConcept', valueCodeableConcept: { text: 'no codings' } }]);
    expect(empty.status).toBe(400);
    expect(empty.body.issue[0].details.text).toMatch(/'codeableConcept'/);
  });
});
