/**
 * ValueSet/$validate-code over HTTPS against the HL7 OMOP conformance fixtures
 * (omop-validate-{good,bad}-vs-{code,coding,codeableconcept}, omop-validate-{good,bad}-vs-url-code):
 * membership in OMOP domain ValueSets, tx-resource ValueSets and implicit isa ValueSets; result,
 * message, display, code, system, version and the `issues` OperationOutcome (not-in-vs,
 * this-code-not-in-vs, the CodeableConcept's general error); a code unknown to its code system is
 * result false without not-in-vs; an unknown ValueSet is 404 (fhir-and-omop-notes.md §3.3);
 * parameter errors are 400 naming the parameter (Errors rule 2).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { OMOP, SNOMED, writeValueSetFixture } from './valueset-expand-fixture.js';
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
type Parameter = { name: string; [value: string]: any };

function validate(parameter: Parameter[], version = 'r4') {
  return t.request(`/fhir/${version}/ValueSet/$validate-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json' },
    body: { resourceType: 'Parameters', parameter },
  });
}

/** A fixture's expected value with the harness markers ($optional$, $optional-properties$) removed. */
function withoutMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMarkers);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!k.startsWith('$')) out[k] = withoutMarkers(v);
  return out;
}

const sortedByName = (parameter: Parameter[]) => [...parameter].sort((a, b) => a.name.localeCompare(b.name));

/** Runs a fixture's request (with the tx-resource ValueSet when its url is the test one) and returns the answer with the fixture's. */
async function runFixture(name: string) {
  const request = readFixture(`${name}-request-parameters.json`);
  const usesTestValueSet = request.parameter.some((p: Parameter) => p.name === 'url' && p.valueUri.startsWith('http://hl7.org/fhir/test/'));
  const extra = usesTestValueSet ? [{ name: 'tx-resource', resource: readFixture('valueset-omop-filter-domain.json') }] : [];
  const r = await validate([...request.parameter, ...extra]);
  expect(r.status).toBe(200);
  const expected = withoutMarkers(readFixture(`${name}-response-parameters.json`)) as { parameter: Parameter[] };
  return { actual: sortedByName(r.body.parameter), expected: sortedByName(expected.parameter) };
}

describe.skipIf(MISSING_SHARED_VOCAB)('the HL7 OMOP ValueSet fixtures', () => {
  for (const name of ['omop-validate-good-vs-code', 'omop-validate-good-vs-coding', 'omop-validate-good-vs-codeableconcept', 'omop-validate-good-vs-url-code']) {
    it(`${name}: result true, as expected`, async () => {
      const { actual, expected } = await runFixture(name);
      expect(actual).toEqual(expected);
    });
  }

  for (const name of ['omop-validate-bad-vs-code', 'omop-validate-bad-vs-coding', 'omop-validate-bad-vs-url-code']) {
    it(`${name}: result false with the not-in-vs issue and message, as expected`, async () => {
      const { actual, expected } = await runFixture(name);
      expect(actual).toEqual(expected);
    });
  }

  it('omop-validate-bad-vs-codeableconcept: the general not-in-vs error, the coding\'s this-code-not-in-vs, the message', async () => {
    const { actual, expected } = await runFixture('omop-validate-bad-vs-codeableconcept');
    const byName = (list: Parameter[]) => Object.fromEntries(list.map(({ name, ...rest }) => [name, rest]));
    const got = byName(actual);
    const want = byName(expected);
    expect(got.result).toEqual(want.result);
    expect(got.message).toEqual(want.message);
    expect(got.issues).toEqual(want.issues);
    expect(got.display).toEqual(want.display);
  });
});

describe('membership in other ValueSets', () => {
  it('implicit isa: a descendant is in, the parent is not', async () => {
    const url = `${SNOMED}?fhir_vs=isa/73211009`;
    const inside = await validate([{ name: 'url', valueUri: url }, { name: 'system', valueUri: SNOMED }, { name: 'code', valueCode: '44054006' }]);
    expect(inside.body.parameter).toContainEqual({ name: 'result', valueBoolean: true });
    const parent = await validate([{ name: 'url', valueUri: url }, { name: 'system', valueUri: SNOMED }, { name: 'code', valueCode: '126877002' }]);
    expect(parent.body.parameter).toContainEqual({ name: 'result', valueBoolean: false });
    const issues = parent.body.parameter.find((p: Parameter) => p.name === 'issues').resource.issue;
    expect(issues[0].details.coding[0].code).toBe('not-in-vs');
  });

  it('a member given in another code system than the ValueSet\'s is not in it', async () => {
    const r = await validate([{ name: 'url', valueUri: `${SNOMED}?fhir_vs=isa/73211009` }, { name: 'system', valueUri: OMOP }, { name: 'code', valueCode: '201826' }]);
    expect(r.body.parameter).toContainEqual({ name: 'result', valueBoolean: false });
  });

  it('a code unknown to its code system: result false with the unknown-code issue, not not-in-vs', async () => {
    const r = await validate([{ name: 'url', valueUri: `${OMOP}/ValueSet/Drug` }, { name: 'system', valueUri: OMOP }, { name: 'code', valueCode: '999999999' }]);
    expect(r.status).toBe(200);
    expect(r.body.parameter).toContainEqual({ name: 'result', valueBoolean: false });
    const issues = r.body.parameter.find((p: Parameter) => p.name === 'issues').resource.issue;
    expect(issues.map((i: { details: { coding: Array<{ code: string }> } }) => i.details.coding[0]?.code)).toEqual(['invalid-code']);
  });

  it('GET works as POST', async () => {
    const query = new URLSearchParams({ url: `${OMOP}/ValueSet/Drug`, system: OMOP, code: '36274733' });
    const r = await t.request(`/fhir/r4/ValueSet/$validate-code?${query.toString()}`);
    expect(r.status).toBe(200);
    expect(r.body.parameter).toContainEqual({ name: 'result', valueBoolean: true });
  });
});

describe('errors', () => {
  it('an unknown ValueSet url: 404 not-found (§3.3: unresolvable ValueSet is 4xx)', async () => {
    const r = await validate([{ name: 'url', valueUri: 'http://hl7.org/fhir/test/ValueSet/omop-filter-domain' }, { name: 'system', valueUri: OMOP }, { name: 'code', valueCode: '36274733' }]);
    expect(r.status).toBe(404);
    expect(r.body.issue[0].code).toBe('not-found');
  });

  it('no code, or code without system: 400 naming the parameter (Errors rule 2)', async () => {
    const none = await validate([{ name: 'url', valueUri: `${OMOP}/ValueSet/Drug` }]);
    expect(none.status).toBe(400);
    expect(none.body.issue[0].details.text).toMatch(/'code'/);
    const noSystem = await validate([{ name: 'url', valueUri: `${OMOP}/ValueSet/Drug` }, { name: 'code', valueCode: '36274733' }]);
    expect(noSystem.status).toBe(400);
    expect(noSystem.body.issue[0].details.text).toMatch(/'system'/);
    const noUrl = await validate([{ name: 'system', valueUri: OMOP }, { name: 'code', valueCode: '36274733' }]);
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.issue[0].details.text).toMatch(/'url'/);
  });
});
