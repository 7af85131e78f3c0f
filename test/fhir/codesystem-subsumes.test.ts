/**
 * CodeSystem/$subsumes over HTTPS (fhir-and-omop-notes §3.4): the four outcomes from
 * CONCEPT_ANCESTOR, in the OMOP system (concept ids) and a vocabulary system (concept codes), by
 * codes or codings, GET and POST, on r4 and r5; errors when the relationship cannot be determined
 * (unknown code, system or version: 404 not-found), licences (Authentication 3 and 5) and
 * parameter errors (Errors rule 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { CPT, OMOP, RELEASE_VERSION, SNOMED, writeCodeSystemFixture } from './codesystem-fixture.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCodeSystemFixture(), label: '2024.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
});

const get = (query: string, version = 'r4', key?: string) => t.request(`/fhir/${version}/CodeSystem/$subsumes?${query}`, key ? { key } : {});
const outcomeOf = (body: { parameter: Array<{ name: string; valueCode?: string }> }) => {
  expect(body.parameter).toHaveLength(1);
  expect(body.parameter[0]!.name).toBe('outcome');
  return body.parameter[0]!.valueCode;
};
const omop = encodeURIComponent(OMOP);

describe('outcomes from CONCEPT_ANCESTOR (concept-subsumption-outcome)', () => {
  // The fixture's hierarchy: 4196413 > 201820 > {201826, 201254}; 4042860 > 45772705.
  it.each([
    ['201820', '201826', 'subsumes'],
    ['4196413', '201826', 'subsumes'],
    ['201826', '201820', 'subsumed-by'],
    ['201826', '4196413', 'subsumed-by'],
    ['201826', '201826', 'equivalent'],
    ['201826', '201254', 'not-subsumed'],
    ['45772705', '201826', 'not-subsumed'],
  ])('OMOP system: codeA %s, codeB %s → %s', async (a, b, expected) => {
    const r = await get(`system=${omop}&codeA=${a}&codeB=${b}`);
    expect(r.status).toBe(200);
    expect(r.body.resourceType).toBe('Parameters');
    expect(outcomeOf(r.body)).toBe(expected);
  });

  it('SNOMED codes: Diabetes mellitus (73211009) subsumes Type 1 diabetes mellitus (46635009)', async () => {
    const r = await get(`system=${encodeURIComponent(SNOMED)}&codeA=73211009&codeB=46635009`);
    expect(outcomeOf(r.body)).toBe('subsumes');
  });

  it('POST codingA/codingB, on r4 and r5 alike', async () => {
    for (const version of ['r4', 'r5']) {
      const r = await t.request(`/fhir/${version}/CodeSystem/$subsumes`, {
        method: 'POST',
        headers: { 'content-type': 'application/fhir+json' },
        body: {
          resourceType: 'Parameters',
          parameter: [
            { name: 'codingA', valueCoding: { system: SNOMED, code: '44054006' } },
            { name: 'codingB', valueCoding: { system: SNOMED, code: '126877002' } },
          ],
        },
      });
      expect(r.status, version).toBe(200);
      expect(outcomeOf(r.body)).toBe('subsumed-by');
    }
  });

  it('the release version is accepted', async () => {
    const r = await get(`system=${omop}&codeA=201820&codeB=201826&version=${RELEASE_VERSION}`);
    expect(outcomeOf(r.body)).toBe('subsumes');
  });
});

describe('undeterminable relationships are errors, not not-subsumed', () => {
  it('an unknown code is 404 not-found naming it', async () => {
    const r = await get(`system=${omop}&codeA=201820&codeB=999999999`);
    expect(r.status).toBe(404);
    expect(r.body.resourceType).toBe('OperationOutcome');
    expect(r.body.issue[0].code).toBe('not-found');
    expect(r.body.issue[0].details.text).toBe(`Unable to find code '999999999' in ${OMOP} version ${RELEASE_VERSION}`);
  });

  it('an unknown system or version is 404 not-found', async () => {
    const system = await get(`system=${encodeURIComponent('http://example.org/cs')}&codeA=1&codeB=2`);
    expect(system.status).toBe(404);
    expect(system.body.issue[0].code).toBe('not-found');
    const version = await get(`system=${omop}&codeA=201820&codeB=201826&version=19990101`);
    expect(version.status).toBe(404);
    expect(version.body.issue[0].details.text).toContain("version '19990101'");
  });
});

describe('licences and parameter errors', () => {
  it('a CPT4 code is 403 forbidden unless the key is validated (Authentication 5)', async () => {
    const refused = await get(`system=${omop}&codeA=2414397&codeB=201826`);
    expect(refused.status).toBe(403);
    expect(refused.body.issue[0].code).toBe('forbidden');
    const byCpt = await get(`system=${encodeURIComponent(CPT)}&codeA=99213&codeB=99213`);
    expect(byCpt.status).toBe(403);
    const validated = await t.createKey({ cpt4_validated_until: '2999-12-31' });
    const allowed = await get(`system=${encodeURIComponent(CPT)}&codeA=99213&codeB=99213`, 'r4', validated);
    expect(outcomeOf(allowed.body)).toBe('equivalent');
  });

  it('missing codeA, codeB or system is 400 invalid naming the parameter', async () => {
    for (const [query, parameter] of [
      [`system=${omop}&codeB=201826`, 'codeA'],
      [`system=${omop}&codeA=201826`, 'codeB'],
      ['codeA=201820&codeB=201826', 'system'],
    ] as const) {
      const r = await get(query);
      expect(r.status, query).toBe(400);
      expect(r.body.issue[0].code).toBe('invalid');
      expect(r.body.issue[0].details.text).toContain(`'${parameter}'`);
    }
  });

  it('codings of two different systems are 400 invalid', async () => {
    const r = await t.request('/fhir/r4/CodeSystem/$subsumes', {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: {
        resourceType: 'Parameters',
        parameter: [
          { name: 'codingA', valueCoding: { system: SNOMED, code: '73211009' } },
          { name: 'codingB', valueCoding: { system: OMOP, code: '201826' } },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.issue[0].code).toBe('invalid');
  });
});
