/**
 * CodeSystem/$lookup (E13) over HTTPS: the outputs of the HL7 OMOP conformance fixtures
 * (omop-lookup-code, -code2, -code3), vocabulary systems, property selection, the bound on
 * relationship properties, version differences (fhir-and-omop-notes §3.2), licences
 * (Authentication 3 and 5) and parameter errors (Errors rule 2: OperationOutcome).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELATIONSHIP_VALUES_LIMIT } from '../../src/services/terminology/code-system-lookup.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  CPT,
  HUB_SOURCE_COUNT,
  ICD10CM,
  LOINC,
  OMOP,
  RELEASE_VERSION,
  SNOMED,
  VOCABULARIES,
  classConceptId,
  domainConceptId,
  vocabularyConceptId,
  writeCodeSystemFixture,
} from './codesystem-fixture.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCodeSystemFixture(), label: '2024.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Parameter = { name: string; part?: Parameter[]; [value: string]: any };

const post = (version: string, parameter: Parameter[], key?: string) =>
  t.request(`/fhir/${version}/CodeSystem/$lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: { resourceType: 'Parameters', parameter },
    ...(key ? { key } : {}),
  });
const get = (version: string, query: string, key?: string) => t.request(`/fhir/${version}/CodeSystem/$lookup?${query}`, key ? { key } : {});

const param = (body: { parameter: Parameter[] }, name: string) => body.parameter.filter((p) => p.name === name);
/** property code → the value parts (value[x] objects without the name) of that code. */
function properties(body: { parameter: Parameter[] }): Map<string, Array<Record<string, unknown>>> {
  const out = new Map<string, Array<Record<string, unknown>>>();
  for (const p of param(body, 'property')) {
    const code = p.part!.find((x) => x.name === 'code')!.valueCode as string;
    const { name: _name, ...value } = p.part!.find((x) => x.name === 'value')!;
    out.set(code, [...(out.get(code) ?? []), value]);
  }
  return out;
}

describe('$lookup of the OMOP system (E13; HL7 OMOP fixture omop-lookup-code)', () => {
  it('POST system + code gives name, version, display, the preferred designation and every property of the fixture', async () => {
    const r = await post('r4', [
      { name: 'system', valueUri: OMOP },
      { name: 'code', valueCode: '45772705' },
    ]);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(r.body.resourceType).toBe('Parameters');
    expect(param(r.body, 'name')).toEqual([{ name: 'name', valueString: 'OMOP Concepts' }]);
    expect(param(r.body, 'version')).toEqual([{ name: 'version', valueString: RELEASE_VERSION }]);
    expect(param(r.body, 'display')).toEqual([{ name: 'display', valueString: 'Denies alcohol use' }]);
    expect(param(r.body, 'designation')).toEqual([
      {
        name: 'designation',
        part: [
          { name: 'language', valueCode: 'en' },
          { name: 'use', valueCoding: { system: 'http://terminology.hl7.org/CodeSystem/hl7TermMaintInfra', code: 'preferredForLanguage', display: 'Preferred For Language' } },
          { name: 'value', valueString: 'Denies alcohol use' },
        ],
      },
    ]);
    const props = properties(r.body);
    expect(Object.fromEntries(props)).toEqual({
      'concept-class-concept-id': [{ valueCode: String(classConceptId('Clinical Finding')) }],
      'concept-class-id': [{ valueCode: 'Clinical Finding' }],
      'domain-concept-id': [{ valueCode: String(domainConceptId('Observation')) }],
      'domain-id': [{ valueCode: 'Observation' }],
      inactive: [{ valueBoolean: false }],
      'Is a': [{ valueCoding: { system: OMOP, code: '4042860', display: 'Finding relating to alcohol drinking behavior' } }],
      'Mapped from': [{ valueCoding: { system: OMOP, code: '45772705', display: 'Denies alcohol use' } }],
      'Maps to': [{ valueCoding: { system: OMOP, code: '45772705', display: 'Denies alcohol use' } }],
      'source-concept-code': [{ valueCoding: { system: SNOMED, code: '704198001' } }],
      'standard-concept': [{ valueCode: 'S' }],
      'valid-end-date': [{ valueDate: '2099-12-31' }],
      'valid-start-date': [{ valueDate: '2015-01-31' }],
      'vocabulary-concept-id': [{ valueCode: String(vocabularyConceptId('SNOMED')) }],
      'vocabulary-id': [{ valueString: 'SNOMED' }],
    });
  });

  it('a deprecated LOINC concept has invalid-reason D, standard-concept NS and its Maps to target (omop-lookup-code3)', async () => {
    const r = await get('r4', `system=${encodeURIComponent(OMOP)}&code=3033733`);
    expect(r.status).toBe(200);
    const props = properties(r.body);
    expect(props.get('invalid-reason')).toEqual([{ valueString: 'D' }]);
    expect(props.get('standard-concept')).toEqual([{ valueCode: 'NS' }]);
    expect(props.get('inactive')).toEqual([{ valueBoolean: false }]);
    expect(props.get('Maps to')).toEqual([{ valueCoding: { system: OMOP, code: '4208938', display: 'Sodium measurement, blood' } }]);
    expect(props.get('source-concept-code')).toEqual([{ valueCoding: { system: LOINC, code: '42570-2' } }]);
    expect(props.get('valid-end-date')).toEqual([{ valueDate: '2015-06-29' }]);
    expect(props.get('vocabulary-id')).toEqual([{ valueString: 'LOINC' }]);
    expect(props.get('domain-id')).toEqual([{ valueCode: 'Measurement' }]);
    expect(props.get('concept-class-id')).toEqual([{ valueCode: 'Lab Test' }]);
  });

  it('a valid concept has no invalid-reason property', async () => {
    const r = await get('r4', `system=${encodeURIComponent(OMOP)}&code=45772705`);
    expect(properties(r.body).has('invalid-reason')).toBe(false);
  });

  it('an unknown code is 404 OperationOutcome not-found with the fixture message (omop-lookup-code2)', async () => {
    const r = await post('r4', [
      { name: 'system', valueUri: OMOP },
      { name: 'code', valueCode: '500000801' },
    ]);
    expect(r.status).toBe(404);
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0]).toMatchObject({
      severity: 'error',
      code: 'not-found',
      details: { text: `Unable to find code '500000801' in ${OMOP} version ${RELEASE_VERSION}` },
    });
    expect(r.headers['x-request-id']).toBeTruthy();
  });

  it('a concept id not in canonical decimal form is not a code of the OMOP system', async () => {
    for (const code of ['04097430', '4097430.0', '+4097430']) {
      const r = await get('r4', `system=${encodeURIComponent(OMOP)}&code=${encodeURIComponent(code)}`);
      expect(r.status, code).toBe(404);
    }
  });

  it('synonyms are further designations after the preferred one', async () => {
    const r = await get('r4', `system=${encodeURIComponent(OMOP)}&code=201826`);
    const values = param(r.body, 'designation').map((d) => d.part!.find((p) => p.name === 'value')!.valueString);
    expect(values).toEqual(['Type 2 diabetes mellitus', 'Type II diabetes mellitus']);
    const synonym = param(r.body, 'designation')[1]!;
    expect(synonym.part!.find((p) => p.name === 'use')).toBeUndefined();
    expect(synonym.part!.find((p) => p.name === 'language')).toEqual({ name: 'language', valueCode: 'en' });
  });
});

describe('$lookup of a vocabulary system (code = concept_code)', () => {
  it('SNOMED code 44054006 is concept 201826, named by the vocabulary, with concept-id', async () => {
    const r = await get('r4', `system=${encodeURIComponent(SNOMED)}&code=44054006`);
    expect(r.status).toBe(200);
    expect(param(r.body, 'name')[0]!.valueString).toBe(VOCABULARIES.find(([id]) => id === 'SNOMED')![1]);
    expect(param(r.body, 'display')[0]!.valueString).toBe('Type 2 diabetes mellitus');
    expect(param(r.body, 'version')[0]!.valueString).toBe(RELEASE_VERSION);
    expect(properties(r.body).get('concept-id')).toEqual([{ valueCode: '201826' }]);
  });

  it('an ICD10CM code with a dot; a lower-case spelling is not the code (FHIR codes are case-sensitive)', async () => {
    const r = await get('r4', `system=${encodeURIComponent(ICD10CM)}&code=E11.9`);
    expect(r.status).toBe(200);
    expect(properties(r.body).get('Maps to')).toEqual([{ valueCoding: { system: OMOP, code: '201826', display: 'Type 2 diabetes mellitus' } }]);
    const lower = await get('r4', `system=${encodeURIComponent(ICD10CM)}&code=e11.9`);
    expect(lower.status).toBe(404);
  });

  it('the coding parameter (POST) names system and code', async () => {
    const r = await post('r5', [{ name: 'coding', valueCoding: { system: SNOMED, code: '73211009' } }]);
    expect(r.status).toBe(200);
    expect(param(r.body, 'display')[0]!.valueString).toBe('Diabetes mellitus');
  });
});

describe('$lookup property selection and bounds', () => {
  it('property selects properties by code, relationship ids included', async () => {
    const r = await get('r4', `system=${encodeURIComponent(OMOP)}&code=45772705&property=domain-id&property=standard-concept&property=${encodeURIComponent('Is a')}`);
    expect([...properties(r.body).keys()].sort()).toEqual(['Is a', 'domain-id', 'standard-concept']);
  });

  it('a selection of column properties only lists no relationship', async () => {
    const r = await get('r4', `system=${encodeURIComponent(OMOP)}&code=45772705&property=vocabulary-id`);
    expect([...properties(r.body).keys()]).toEqual(['vocabulary-id']);
  });

  it(`a relationship id lists at most ${RELATIONSHIP_VALUES_LIMIT} values, ordered by concept id; invalid rows are not listed`, async () => {
    expect(HUB_SOURCE_COUNT + 1).toBeGreaterThan(RELATIONSHIP_VALUES_LIMIT);
    const r = await get('r4', `system=${encodeURIComponent(OMOP)}&code=201826&property=${encodeURIComponent('Mapped from')}`);
    const codes = (properties(r.body).get('Mapped from') ?? []).map((v) => Number((v.valueCoding as { code: string }).code));
    expect(codes).toHaveLength(RELATIONSHIP_VALUES_LIMIT);
    expect(codes).toEqual([...codes].sort((a, b) => a - b));
    const icd = await get('r4', `system=${encodeURIComponent(OMOP)}&code=45576876&property=${encodeURIComponent('Maps to')}`);
    expect(properties(icd.body).get('Maps to')).toEqual([{ valueCoding: { system: OMOP, code: '201826', display: 'Type 2 diabetes mellitus' } }]);
  });
});

describe('$lookup across FHIR versions (fhir-and-omop-notes §3.2)', () => {
  it('r5 and r6 also return code and system; r4 and r4b do not; the rest is the same', async () => {
    const query = `system=${encodeURIComponent(OMOP)}&code=3033733`;
    const [r4, r4b, r5, r6] = await Promise.all(['r4', 'r4b', 'r5', 'r6'].map((v) => get(v, query)));
    for (const r of [r4, r4b]) {
      expect(param(r!.body, 'code')).toEqual([]);
      expect(param(r!.body, 'system')).toEqual([]);
    }
    for (const r of [r5, r6]) {
      expect(param(r!.body, 'code')).toEqual([{ name: 'code', valueCode: '3033733' }]);
      expect(param(r!.body, 'system')).toEqual([{ name: 'system', valueUri: OMOP }]);
    }
    const withoutCodeAndSystem = (body: { parameter: Parameter[] }) => body.parameter.filter((p) => p.name !== 'code' && p.name !== 'system');
    expect(withoutCodeAndSystem(r5!.body)).toEqual(withoutCodeAndSystem(r4!.body));
  });
});

describe('$lookup licences (Authentication 3 and 5)', () => {
  it('a CPT4 concept, by concept id or by CPT code, is 403 forbidden for a key without validation', async () => {
    const byId = await get('r4', `system=${encodeURIComponent(OMOP)}&code=2414397`);
    expect(byId.status).toBe(403);
    expect(byId.body.resourceType).toBe('OperationOutcome');
    expect(byId.body.issue[0].code).toBe('forbidden');
    const byCode = await get('r4', `system=${encodeURIComponent(CPT)}&code=99213`);
    expect(byCode.status).toBe(403);
    expect(byCode.body.issue[0].code).toBe('forbidden');
  });

  it('a validated key sees the CPT4 concept, and relationship properties list it', async () => {
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const byCode = await get('r4', `system=${encodeURIComponent(CPT)}&code=99213`, validated);
    expect(byCode.status).toBe(200);
    expect(param(byCode.body, 'display')[0]!.valueString).toBe('Office or other outpatient visit');
    const isA = `system=${encodeURIComponent(OMOP)}&code=201826&property=${encodeURIComponent('Is a')}`;
    const seen = (await get('r4', isA, validated)).body;
    expect((properties(seen).get('Is a') ?? []).map((v) => (v.valueCoding as { code: string }).code)).toEqual(['201820', '2414397']);
    const hidden = (await get('r4', isA)).body;
    expect((properties(hidden).get('Is a') ?? []).map((v) => (v.valueCoding as { code: string }).code)).toEqual(['201820']);
  });
});

describe('$lookup errors (Errors rule 2)', () => {
  it('a missing code or system is 400 invalid naming the parameter', async () => {
    const noCode = await get('r4', `system=${encodeURIComponent(OMOP)}`);
    expect(noCode.status).toBe(400);
    expect(noCode.body.resourceType).toBe('OperationOutcome');
    expect(noCode.body.issue[0].code).toBe('invalid');
    expect(noCode.body.issue[0].details.text).toMatch(/'code'/);
    const noSystem = await get('r4', 'code=201826');
    expect(noSystem.status).toBe(400);
    expect(noSystem.body.issue[0].details.text).toMatch(/'system'/);
  });

  it('an unknown system is 404 not-found naming it', async () => {
    const r = await get('r4', `system=${encodeURIComponent('http://example.org/no-such-system')}&code=1`);
    expect(r.status).toBe(404);
    expect(r.body.issue[0].code).toBe('not-found');
    expect(r.body.issue[0].details.text).toContain('http://example.org/no-such-system');
  });

  it('an unknown version is 404 not-found listing the valid version; the release version is accepted', async () => {
    const bad = await get('r4', `system=${encodeURIComponent(OMOP)}&code=201826&version=20250101`);
    expect(bad.status).toBe(404);
    expect(bad.body.issue[0].details.text).toBe(`A definition for CodeSystem '${OMOP}' version '20250101' could not be found. Valid versions: ${RELEASE_VERSION}`);
    const good = await get('r4', `system=${encodeURIComponent(OMOP)}&code=201826&version=${RELEASE_VERSION}`);
    expect(good.status).toBe(200);
  });

  it("a vocabulary system also accepts the vocabulary's own VOCABULARY.vocabulary_version, the OMOP system does not", async () => {
    // writeCodeSystemFixture gives each vocabulary the version '<id> test'.
    const snomed = await get('r4', `system=${encodeURIComponent(SNOMED)}&code=44054006&version=${encodeURIComponent('SNOMED test')}`);
    expect(snomed.status).toBe(200);
    expect(param(snomed.body, 'version')[0]!.valueString).toBe(RELEASE_VERSION);
    const omop = await get('r4', `system=${encodeURIComponent(OMOP)}&code=201826&version=${encodeURIComponent('SNOMED test')}`);
    expect(omop.status).toBe(404);
  });

  it('a POST body that is not a Parameters resource is 400 invalid', async () => {
    const r = await t.request('/fhir/r4/CodeSystem/$lookup', {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: { resourceType: 'Patient' },
    });
    expect(r.status).toBe(400);
    expect(r.body.issue[0].code).toBe('invalid');
  });
});
