/**
 * A real FHIR client from npm, fhir-kit-client 2, against the test server on /fhir/r4 and /fhir/r5 with
 * the API key as its bearer token (Authentication 1, 2): CapabilityStatement, CodeSystem/$lookup (GET and
 * POST), ConceptMap/$translate in each version's parameter names (fhir-and-omop-notes §3.6), ConceptMap/
 * $closure (E11, reading note 11: r4 equivalence, r5 relationship) and an error read the way the client
 * reports it (an HTTP error whose data is the OperationOutcome, Errors rule 2). Expected values come from
 * ./valueset-closure-fixture.ts. ValueSet/$expand of an implicit is-a value set through the client too.
 *
 * TLS: the client sends its requests with Node's global fetch (undici). fetch ignores the https `agent`
 * the client builds, and Node 20 does not export undici's Agent, so the client's `requestOptions` (which
 * it passes into each Request, `dispatcher` included) cannot carry a trusting dispatcher without the
 * undici package. The test server's certificate is self-signed, so this file sets
 * NODE_TLS_REJECT_UNAUTHORIZED=0 for its own run only: vitest runs each test file in its own forked
 * process (vitest.config.ts pool 'forks'), the variable is set in beforeAll and restored in afterAll,
 * and the only TLS connections made meanwhile are this file's, to its own loopback server.
 */
import { Client } from 'fhir-kit-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { CONCEPTS, OMOP, SNOMED, isProperAncestor, writeValueSetClosureFixture } from './valueset-closure-fixture.js';

const C = CONCEPTS;
const VERSIONS = [
  ['r4', '4.0.1'],
  ['r5', '5.0.0'],
] as const;

let t: TestServer;
let previousTlsSetting: string | undefined;
beforeAll(async () => {
  previousTlsSetting = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  t = await startTestServer({ releases: [{ dir: writeValueSetClosureFixture(), label: '2025.2', makeDefault: true }] });
});
afterAll(async () => {
  await t?.close();
  if (previousTlsSetting === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previousTlsSetting;
});

const clientFor = (version: string, bearerToken = t.key) => new Client({ baseUrl: `${t.url}/fhir/${version}`, bearerToken });

type Parameter = { name: string; part?: Parameter[]; [value: string]: unknown };
type Parameters = { resourceType: 'Parameters'; parameter: Parameter[] };
const parameters = (parameter: Parameter[]): Parameters => ({ resourceType: 'Parameters', parameter });
const valuesOf = (body: Parameters, name: string) => body.parameter.filter((p) => p.name === name);
const partOf = (p: Parameter, name: string) => p.part?.find((x) => x.name === name);

/** What fhir-kit-client throws for a non-2xx answer. */
interface ClientHttpError {
  response: { status: number; data: { resourceType: string; issue: Array<{ severity: string; code: string }> } };
}
async function clientError(call: Promise<unknown>): Promise<ClientHttpError['response']> {
  try {
    await call;
  } catch (err) {
    return (err as ClientHttpError).response;
  }
  throw new Error('the client call succeeded; an HTTP error was expected');
}

describe.each(VERSIONS)('fhir-kit-client on /fhir/%s', (version, fhirVersion) => {
  it(`reads the CapabilityStatement (fhirVersion ${fhirVersion})`, async () => {
    const statement = (await clientFor(version).capabilityStatement()) as { resourceType: string; fhirVersion: string };
    expect(statement.resourceType).toBe('CapabilityStatement');
    expect(statement.fhirVersion).toBe(fhirVersion);
  });

  it('CodeSystem/$lookup by GET (system, code) and by POST (Parameters): the same display for a SNOMED code and its OMOP concept', async () => {
    const client = clientFor(version);
    const byGet = (await client.operation({
      resourceType: 'CodeSystem',
      name: '$lookup',
      method: 'GET',
      input: { system: SNOMED, code: C.type2.concept_code },
    })) as Parameters;
    expect(byGet.resourceType).toBe('Parameters');
    expect(valuesOf(byGet, 'display')).toEqual([{ name: 'display', valueString: C.type2.concept_name }]);
    const byPost = (await client.operation({
      resourceType: 'CodeSystem',
      name: '$lookup',
      input: parameters([
        { name: 'system', valueUri: OMOP },
        { name: 'code', valueCode: String(C.type2.concept_id) },
      ]),
    })) as Parameters;
    expect(valuesOf(byPost, 'display')).toEqual([{ name: 'display', valueString: C.type2.concept_name }]);
  });

  it('an unknown code is an HTTP 404 error carrying the OperationOutcome not-found (Errors rule 2)', async () => {
    const response = await clientError(
      clientFor(version).operation({ resourceType: 'CodeSystem', name: '$lookup', method: 'GET', input: { system: SNOMED, code: '1' } }),
    );
    expect(response.status).toBe(404);
    expect(response.data.resourceType).toBe('OperationOutcome');
    expect(response.data.issue[0]).toMatchObject({ severity: 'error', code: 'not-found' });
  });

  it('a wrong bearer token is an HTTP 401 error carrying an OperationOutcome (Authentication 1)', async () => {
    const response = await clientError(clientFor(version, 'oh_not-a-key').capabilityStatement());
    expect(response.status).toBe(401);
    expect(response.data.resourceType).toBe('OperationOutcome');
  });

  it(`ConceptMap/$translate in ${version} parameter names: SNOMED ${C.type2.concept_code} → OMOP ${C.type2.concept_id}`, async () => {
    // §3.6: R4 names the source code+system and targetsystem; R5 sourceCode+system and targetSystem.
    const input =
      version === 'r4'
        ? [
            { name: 'code', valueCode: C.type2.concept_code },
            { name: 'system', valueUri: SNOMED },
            { name: 'targetsystem', valueUri: OMOP },
          ]
        : [
            { name: 'sourceCode', valueCode: C.type2.concept_code },
            { name: 'system', valueUri: SNOMED },
            { name: 'targetSystem', valueUri: OMOP },
          ];
    const result = (await clientFor(version).operation({ resourceType: 'ConceptMap', name: '$translate', input: parameters(input) })) as Parameters;
    expect(valuesOf(result, 'result')).toEqual([{ name: 'result', valueBoolean: true }]);
    const matches = valuesOf(result, 'match');
    expect(matches.map((m) => partOf(m, 'concept')?.valueCoding)).toEqual([{ system: OMOP, code: String(C.type2.concept_id), display: C.type2.concept_name }]);
    // Reading note 11: the R4 name is equivalence, the R5 name relationship.
    expect(partOf(matches[0]!, version === 'r4' ? 'equivalence' : 'relationship')?.valueCode).toBe('equivalent');
  });

  it('ValueSet/$expand of the implicit is-a value set of Diabetes mellitus: the concept and its SNOMED descendants, with the total', async () => {
    const ofDiabetes = Object.values(C).filter(
      (c) => (!('vocabulary_id' in c) || c.vocabulary_id === 'SNOMED') && (c.concept_id === C.diabetes.concept_id || isProperAncestor(C.diabetes.concept_id, c.concept_id)),
    );
    const expansion = (await clientFor(version).operation({
      resourceType: 'ValueSet',
      name: '$expand',
      method: 'GET',
      input: { url: `${SNOMED}?fhir_vs=isa/${C.diabetes.concept_code}`, count: 50 },
    })) as { resourceType: string; expansion: { total: number; contains: Array<{ system: string; code: string; display: string }> } };
    expect(expansion.resourceType).toBe('ValueSet');
    expect(ofDiabetes.length).toBeGreaterThan(1);
    expect(expansion.expansion.total).toBe(ofDiabetes.length);
    expect(expansion.expansion.contains.map((c) => `${c.system}|${c.code}|${c.display}`).sort()).toEqual(
      ofDiabetes.map((c) => `${SNOMED}|${c.concept_code}|${c.concept_name}`).sort(),
    );
  });

  it('ConceptMap/$closure of three SNOMED codes: the pairs the fixture ancestry implies, in the version’s vocabulary (E11)', async () => {
    const inputs = [C.diabetes, C.type2, C.type1];
    const closure = (await clientFor(version).operation({
      resourceType: 'ConceptMap',
      name: '$closure',
      input: parameters([{ name: 'name', valueString: 'kit-closure' }, ...inputs.map((c) => ({ name: 'concept', valueCoding: { system: SNOMED, code: c.concept_code } }))]),
    })) as {
      resourceType: string;
      name: string;
      group: Array<{ source: string; target: string; element: Array<{ code: string; target: Array<{ code: string; equivalence?: string; relationship?: string }> }> }>;
    };
    expect(closure.resourceType).toBe('ConceptMap');
    expect(closure.name).toBe('kit-closure');
    const pairs = closure.group.flatMap((g) => g.element.flatMap((e) => e.target.map((x) => `${e.code} > ${x.code}`))).sort();
    const expected = inputs.flatMap((a) => inputs.filter((d) => isProperAncestor(a.concept_id, d.concept_id)).map((d) => `${a.concept_code} > ${d.concept_code}`)).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(pairs).toEqual(expected);
    const targets = closure.group.flatMap((g) => g.element.flatMap((e) => e.target));
    for (const target of targets) {
      if (version === 'r4') expect(target).toMatchObject({ equivalence: 'subsumes' });
      else expect(target).toMatchObject({ relationship: 'source-is-broader-than-target' });
    }
  });
});
