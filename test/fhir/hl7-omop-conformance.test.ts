/**
 * The HL7 terminology ecosystem OMOP suite (HL7/fhir-tx-ecosystem-ig tests/omop, 26 tests; read from
 * ../shared/vocab/fhir-tx-ecosystem-omop-tests beside this repository, where issue #14 names it) run
 * over HTTPS as the HL7 runner runs it: each test's request file, with the suite's setup resources added
 * as `tx-resource` parameters, is POSTed to its operation, the answer is scrubbed and compared with the
 * expected response file under the runner's matching rules (./hl7-fixture-matching.ts), and the HTTP
 * status must be in the test's `http-code` class (2xx unless it says otherwise). Each test runs on
 * /fhir/r4 (FHIR 4.0.1) and on /fhir/r5 (5.0.0): the test cases are written in R5 and mark where the
 * versions differ. The runner's per-test `parameters-default.json` profile is not in the fixture folder
 * and is not sent.
 *
 * The vocabulary is the one the expected responses describe, loaded as a release whose vocabulary
 * version is 20240716: the lookup and CodeSystem validate-code concepts of ./codesystem-fixture.ts, the
 * drugs, device and LOINC concepts of the value-set and translate tests, and the real concept ids of
 * the vocabularies, domains and classes the lookup responses list. A code a response does not show is
 * left to writeAthenaFixture's default (the concept id).
 *
 * Every operation of the suite is routed (ValueSet/$expand and $validate-code since this wave), so every
 * test is a plain `it`: a failing one is a real difference from the expected response.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FHIR_RELEASE_NUMBERS } from '../../src/http/fhir/fhir-operation.js';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';
import { HL7_OMOP_CONCEPTS, HL7_OMOP_RELATIONSHIPS } from './codesystem-fixture.js';
import { responseDifferences, scrubAnswer, type MatchContext } from './hl7-fixture-matching.js';
import { sharedVocabMissing, sharedVocabPath } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('fhir-tx-ecosystem-omop-tests');

const SUITE_DIR = sharedVocabPath('fhir-tx-ecosystem-omop-tests');

interface ConformanceTest {
  name: string;
  operation: string;
  request: string;
  response: string;
  'http-code'?: string;
}
interface ConformanceSuite {
  name: string;
  mode: string;
  setup: string[];
  tests: ConformanceTest[];
}

const readJson = (file: string) => JSON.parse(readFileSync(join(SUITE_DIR, file), 'utf8'));
const suite: ConformanceSuite = MISSING_SHARED_VOCAB
  ? { name: 'omop', mode: 'omop', setup: [], tests: [] }
  : (readJson('test-cases-omop.json') as { suites: ConformanceSuite[] }).suites.find((s) => s.name === 'omop')!;

/** Where the runner sends each operation (TxTester: ITerminologyClient lookupCode, validateCS, validateVS, expandValueset, translate). */
const OPERATION_PATHS: Record<string, string> = {
  lookup: '/CodeSystem/$lookup',
  'cs-validate-code': '/CodeSystem/$validate-code',
  'validate-code': '/ValueSet/$validate-code',
  expand: '/ValueSet/$expand',
  translate: '/ConceptMap/$translate',
};

/** The wire versions tested and the FHIR release each speaks (the runner reads it from $versions). */
const VERSIONS = (['r4', 'r5'] as const).map((version) => [version, FHIR_RELEASE_NUMBERS[version]] as const);
const MODES = new Set(['general', 'omop']);

function writeConformanceVocabulary(): string {
  return writeAthenaFixture({
    releaseVersion: 'v5.0 16-JUL-24',
    // vocabulary-concept-id, domain-concept-id and concept-class-concept-id as the lookup responses show them.
    vocabularies: [
      ['SNOMED', 'Systematic Nomenclature of Medicine - Clinical Terms (IHTSDO)', 'SNOMED test', 44819097],
      ['LOINC', 'Logical Observation Identifiers Names and Codes (Regenstrief Institute)', 'LOINC test', 44819102],
      ['RxNorm', 'RxNorm (NLM)', 'RxNorm test'],
    ],
    domains: [['Observation', 27], ['Measurement', 21], 'Drug', 'Device', 'Route'],
    conceptClasses: [['Clinical Finding', 44818997], ['Lab Test', 45754678], 'LOINC Hierarchy', 'Ingredient', 'Branded Drug Form', 'Physical Object', 'Qualifier Value'],
    concepts: [
      ...HL7_OMOP_CONCEPTS,
      // omop-expand-explicit: the Drug domain is exactly these three (total 3).
      { concept_id: 1367571, concept_name: 'heparin', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Ingredient' },
      { concept_id: 1383815, concept_name: 'isosorbide', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Ingredient' },
      { concept_id: 36274733, concept_name: 'Furosemide Injection [Lasix]', domain_id: 'Drug', vocabulary_id: 'RxNorm', concept_class_id: 'Branded Drug Form' },
      // omop-basic-validation-code-bad-vs-url: a concept outside the Drug domain.
      { concept_id: 45773555, concept_name: 'Pulse oximeter probe', domain_id: 'Device', concept_class_id: 'Physical Object' },
      // The Route domain value set of the bad-vs tests exists (one route), without 36274733.
      { concept_id: 4171047, concept_name: 'Intravenous', domain_id: 'Route', concept_class_id: 'Qualifier Value', concept_code: '47625008' },
      // translate-loinc-implicit: a LOINC classification concept, its own LOINC code its translation.
      {
        concept_id: 37073203,
        concept_name: 'Chest | X-ray | Radiology',
        domain_id: 'Measurement',
        vocabulary_id: 'LOINC',
        concept_class_id: 'LOINC Hierarchy',
        standard_concept: 'C',
        concept_code: 'LP405117-5',
      },
    ],
    relationships: HL7_OMOP_RELATIONSHIPS,
  });
}

let t: TestServer;
let setupResources: unknown[];
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeConformanceVocabulary(), label: '2024.2', makeDefault: true }] });
  setupResources = suite.setup.map(readJson);
});
afterAll(async () => {
  await t?.close();
});

/** The test's request as the runner sends it: the request Parameters plus one tx-resource per setup resource. */
function requestBody(test: ConformanceTest): { resourceType: 'Parameters'; parameter: unknown[] } {
  const request = readJson(test.request) as { parameter: unknown[] };
  return { resourceType: 'Parameters', parameter: [...request.parameter, ...setupResources.map((resource) => ({ name: 'tx-resource', resource }))] };
}

const send = (test: ConformanceTest, version: string) =>
  t.request(`/fhir/${version}${OPERATION_PATHS[test.operation]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/fhir+json', accept: 'application/fhir+json' },
    body: requestBody(test),
  });

const statusInClass = (status: number, httpClass: string) => Math.floor(status / 100) === Number(httpClass[0]);

/** What differs from the test's expectation on one version: the status class and the scrubbed answer. */
function differencesOf(test: ConformanceTest, r: TestResponse, ctx: MatchContext): string[] {
  const httpClass = test['http-code'] ?? '2xx';
  const status = statusInClass(r.status, httpClass) ? [] : [`HTTP ${r.status}, expected ${httpClass}`];
  if (r.body === undefined) return [...status, `answer is not JSON: ${r.text.slice(0, 200)}`];
  return [...status, ...responseDifferences(readJson(test.response), scrubAnswer(test.operation, r.body), ctx)];
}

describe.skipIf(MISSING_SHARED_VOCAB)(`HL7 tx-ecosystem suite "${suite.name}" (${suite.tests.length} tests, mode ${suite.mode})`, () => {
  it('the suite has the 26 tests this file was written for', () => {
    expect(suite.tests).toHaveLength(26);
    for (const test of suite.tests) expect(Object.keys(OPERATION_PATHS), test.name).toContain(test.operation);
  });

  for (const test of suite.tests) {
    it(`${test.name} (${test.operation}, r4 and r5)`, async () => {
      const found: string[] = [];
      for (const [version, fhirVersion] of VERSIONS) {
        const differences = differencesOf(test, await send(test, version), { fhirVersion, modes: MODES });
        found.push(...differences.map((d) => `${version}: ${d}`));
      }
      expect(found).toEqual([]);
    });
  }
});

describe.skipIf(MISSING_SHARED_VOCAB)('the matching rules tell a wrong answer from a right one (omop-lookup-code as the sample)', () => {
  const lookup = suite.tests.find((x) => x.name === 'omop-lookup-code')!;
  const ctx: MatchContext = { fhirVersion: FHIR_RELEASE_NUMBERS.r4, modes: MODES };
  let answer: { resourceType: string; parameter: Array<{ name: string; [key: string]: unknown }> };
  beforeAll(async () => {
    answer = scrubAnswer(lookup.operation, (await send(lookup, 'r4')).body) as typeof answer;
  });
  const differences = (changed: typeof answer) => responseDifferences(readJson(lookup.response), changed, ctx);

  it('the answer matches, in any parameter order, and without the parameters marked $optional$', () => {
    expect(differences(answer)).toEqual([]);
    expect(differences({ ...answer, parameter: [...answer.parameter].reverse() })).toEqual([]);
    expect(differences({ ...answer, parameter: answer.parameter.filter((p) => !['abstract', 'code', 'system'].includes(p.name)) })).toEqual([]);
  });

  it('a changed value, a missing required parameter, an extra parameter and an extra property are each a difference', () => {
    const display = (p: { name: string }) => p.name === 'display';
    expect(differences({ ...answer, parameter: answer.parameter.map((p) => (display(p) ? { ...p, valueString: 'Denies alcohol' } : p)) })).not.toEqual([]);
    expect(differences({ ...answer, parameter: answer.parameter.filter((p) => p.name !== 'version') })).not.toEqual([]);
    expect(differences({ ...answer, parameter: [...answer.parameter, { name: 'property', part: [{ name: 'code', valueCode: 'extra' }] }] })).not.toEqual([]);
    expect(differences({ ...answer, parameter: answer.parameter.map((p) => (display(p) ? { ...p, id: 'x' } : p)) })).not.toEqual([]);
  });
});
