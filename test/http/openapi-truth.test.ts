/**
 * The served OpenAPI document tells the truth about the routes (Errors rule: bad input is a 400
 * naming the parameter): every parameter marked required is required (omitting it → 400 naming it),
 * omitting the optional ones is no 400, the path placeholders are the path parameters and reach
 * the route, and the document is valid OpenAPI.
 */
import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { operationsOf, pathParameterNames, type JsonSchema, type Operation } from '../fuzz/openapi-operations.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

let t: TestServer;
let document: unknown;
let operations: Operation[];
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }] });
  document = (await t.request('/openapi.json', { anonymous: true })).body;
  operations = operationsOf(document);
  // Mapping jobs: one to read, review, cancel and export, another for DELETE (the operations run in document order).
  for (const name of ['job_id', 'deleted_job_id']) {
    const submitted = await t.request('/v1/mapping-jobs', { method: 'POST', body: { text: GOOD_VALUES.text } });
    if (submitted.status !== 202) throw new Error(`openapi-truth: could not submit a mapping job: ${submitted.text}`);
    GOOD_VALUES[name] = submitted.body.data.job.id;
  }
});
afterAll(async () => {
  await t?.close();
});

/** Valid values by parameter or body field name, all present in the server-core fixture. */
const GOOD_VALUES: Record<string, unknown> = {
  concept_id: 201826,
  vocabulary_id: 'ICD10CM',
  concept_code: 'E11.9',
  concept_ids: [201826],
  domain_id: 'Condition',
  query: 'diabetes',
  searches: [{ query: 'diabetes' }],
  source_vocabulary: 'ICD10CM',
  target_vocabulary: 'SNOMED',
  fhirVersion: 'r4',
  // GET /fhir/{fhirVersion}/CodeSystem/{id}: a vocabulary's code system.
  id: 'SNOMED',
  // Mapping jobs (job_id is set once a job is submitted, before the checks).
  text: 'source_code,source_name\nE11.9,Type 2 diabetes mellitus without complications\n',
  index: 0,
  format: 'usagi',
  source_name: 'diabetes',
};

function goodValue(name: string, where: string): unknown {
  if (!(name in GOOD_VALUES)) throw new Error(`openapi-truth: no known good value for required ${where} '${name}' — add one to GOOD_VALUES`);
  return GOOD_VALUES[name];
}

const requiredBodyFields = (schema: JsonSchema | undefined) => schema?.required ?? [];

/** Required body fields (or path parameters: the name of their good value) whose good value depends on the route. */
const ROUTE_GOOD_VALUES: Record<string, Record<string, unknown>> = {
  'POST /v1/concepts/hierarchy/batch': { queries: [{ query_id: 'q1', concept_id: 201826, operation: 'ancestors' }] },
  'POST /v1/concepts/relationships/batch': { queries: [{ query_id: 'q1', concept_id: 201826, operation: 'related' }] },
  'POST /v1/fhir/resolve/batch': { codings: [{ vocabulary_id: 'ICD10CM', code: 'E11.9' }] },
  'POST /v1/fhir/resolve/codeable-concept': { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11.9' }] },
  'POST /v1/concept-sets/resolve': { expression: { items: [{ concept: { CONCEPT_ID: 201826 }, includeDescendants: true }] } },
  'POST /v1/concept-sets/included-source-codes': { expression: { items: [{ concept: { CONCEPT_ID: 201826 }, includeDescendants: true }] } },
  'POST /v1/concept-sets/optimize': { expression: { items: [{ concept: { CONCEPT_ID: 201826 }, includeDescendants: true }] } },
  'POST /v1/concept-sets/compare': { a: { items: [{ concept: { CONCEPT_ID: 201826 } }] }, b: { items: [] } },
  'POST /v1/concept-sets/to-valueset': { expression: { items: [{ concept: { CONCEPT_ID: 201826 }, includeDescendants: true, includeMapped: true }] } },
  'POST /v1/mapping-jobs/import': {
    text:
      'sourceCode,sourceName,sourceFrequency,sourceAutoAssignedConceptIds,matchScore,mappingStatus,equivalence,statusSetBy,statusSetOn,conceptId,' +
      'conceptName,domainId,mappingType,comment,createdBy,createdOn,assignedReviewer\nE11.9,Type 2 diabetes,5,,0.9,UNCHECKED,UNREVIEWED,,0,201826,,,MAPS_TO,,,0,\n',
  },
  'DELETE /v1/mapping-jobs/{job_id}': { job_id: 'deleted_job_id' },
  'POST /v1/concept-sets/diff': { expression: { items: [{ concept: { CONCEPT_ID: 201826 } }] }, from_release: '2025.2', to_release: 'latest' },
};

/** Bodies that need exactly one of a group of optional fields (said in the route's description): the member sent. */
const ONE_OF_GROUP_MEMBER: Record<string, Record<string, unknown>> = {
  'POST /v1/concepts/map': { source_concepts: [201826] },
  'POST /v1/search/similar': { query: 'diabetes' },
  'POST /v1/fhir/resolve': { vocabulary_id: 'ICD10CM', code: 'E11.9' },
};

/**
 * FHIR operations take their parameters as the FHIR operation defines them (query or a Parameters body), not as
 * OpenAPI parameters: the least input each needs, from the server-core fixture (SNOMED 44054006 / 73211009).
 */
const SNOMED = 'http://snomed.info/sct';
const snomedCoding = (code: string) => ({ valueCoding: { system: SNOMED, code } });
const FHIR_MINIMAL: Record<string, { query?: string; body?: unknown }> = {
  'GET /fhir/{fhirVersion}/CodeSystem/$lookup': { query: `system=${SNOMED}&code=44054006` },
  'POST /fhir/{fhirVersion}/CodeSystem/$lookup': { body: { resourceType: 'Parameters', parameter: [{ name: 'coding', ...snomedCoding('44054006') }] } },
  'GET /fhir/{fhirVersion}/CodeSystem/$validate-code': { query: `url=${SNOMED}&code=44054006` },
  'POST /fhir/{fhirVersion}/CodeSystem/$validate-code': { body: { resourceType: 'Parameters', parameter: [{ name: 'coding', ...snomedCoding('44054006') }] } },
  'GET /fhir/{fhirVersion}/CodeSystem/$subsumes': { query: `system=${SNOMED}&codeA=73211009&codeB=44054006` },
  'POST /fhir/{fhirVersion}/CodeSystem/$subsumes': {
    body: { resourceType: 'Parameters', parameter: [{ name: 'system', valueUri: SNOMED }, { name: 'codeA', valueCode: '73211009' }, { name: 'codeB', valueCode: '44054006' }] },
  },
  'POST /fhir/{fhirVersion}/CodeSystem/$find-matches': {
    body: {
      resourceType: 'Parameters',
      parameter: [
        { name: 'system', valueUri: SNOMED },
        { name: 'exact', valueBoolean: true },
        { name: 'property', part: [{ name: 'code', valueCode: 'Is a' }, { name: 'value', ...snomedCoding('73211009') }] },
      ],
    },
  },
  'GET /fhir/{fhirVersion}/CodeSystem/$diff': { query: `system=${SNOMED}&code=44054006&fromVersion=2025.2` },
  'POST /fhir/{fhirVersion}/CodeSystem/$diff': {
    body: { resourceType: 'Parameters', parameter: [{ name: 'system', valueUri: SNOMED }, { name: 'code', valueCode: '44054006' }, { name: 'fromVersion', valueString: '2025.2' }] },
  },
  'GET /fhir/{fhirVersion}/ConceptMap/$translate': { query: `system=${SNOMED}&code=44054006` },
  'POST /fhir/{fhirVersion}/ConceptMap/$translate': { body: { resourceType: 'Parameters', parameter: [{ name: 'coding', ...snomedCoding('44054006') }] } },
  'GET /fhir/{fhirVersion}/ValueSet/$expand': { query: `url=${encodeURIComponent(`${SNOMED}?fhir_vs=isa/73211009`)}` },
  'POST /fhir/{fhirVersion}/ValueSet/$expand': { body: { resourceType: 'Parameters', parameter: [{ name: 'url', valueUri: `${SNOMED}?fhir_vs=isa/73211009` }] } },
  'GET /fhir/{fhirVersion}/ValueSet/$validate-code': { query: `url=${encodeURIComponent(`${SNOMED}?fhir_vs`)}&system=${SNOMED}&code=44054006` },
  'POST /fhir/{fhirVersion}/ValueSet/$validate-code': {
    body: { resourceType: 'Parameters', parameter: [{ name: 'url', valueUri: `${SNOMED}?fhir_vs` }, { name: 'coding', ...snomedCoding('44054006') }] },
  },
  'POST /fhir/{fhirVersion}/ConceptMap/$closure': { body: { resourceType: 'Parameters', parameter: [{ name: 'concept', ...snomedCoding('44054006') }] } },
  'POST /fhir/{fhirVersion}': { body: { resourceType: 'Bundle', type: 'batch', entry: [{ request: { method: 'GET', url: 'CodeSystem/SNOMED' } }] } },
};

/** A request with only the required parameters and body fields, optionally leaving one out. */
function minimalRequest(op: Operation, omit?: string): { path: string; body?: unknown } {
  const fhir = FHIR_MINIMAL[`${op.method} ${op.path}`];
  if (fhir) {
    const path = op.path.replace('{fhirVersion}', 'r4');
    return { path: fhir.query ? `${path}?${fhir.query}` : path, ...(fhir.body ? { body: fhir.body } : {}) };
  }
  let path = op.path;
  for (const name of pathParameterNames(op.path)) {
    // a route may name another good value for its path parameter (a job to delete)
    const alias = ROUTE_GOOD_VALUES[`${op.method} ${op.path}`]?.[name];
    path = path.replace(`{${name}}`, encodeURIComponent(String(goodValue(typeof alias === 'string' ? alias : name, 'path parameter'))));
  }
  const query = op.parameters
    .filter((p) => p.in === 'query' && p.required && p.name !== omit)
    .map((p) => `${p.name}=${encodeURIComponent(String(goodValue(p.name, 'query parameter')))}`);
  const body = op.body
    ? {
        ...ONE_OF_GROUP_MEMBER[`${op.method} ${op.path}`],
        ...Object.fromEntries(
          requiredBodyFields(op.body.schema)
            .filter((f) => f !== omit)
            .map((f) => [f, ROUTE_GOOD_VALUES[`${op.method} ${op.path}`]?.[f] ?? goodValue(f, 'body field')]),
        ),
      }
    : undefined;
  return { path: query.length ? `${path}?${query.join('&')}` : path, ...(body ? { body } : {}) };
}

/**
 * Routes whose request is not a plain JSON call, checked by their own tests: the OAuth token endpoint (RFC 6749 form
 * body; test/http/oauth2-token.test.ts) and the MCP endpoint (JSON-RPC sessions; test/mcp/).
 */
const NON_JSON_ROUTES = new Set(['POST /oauth2/token', 'POST /mcp', 'GET /mcp', 'DELETE /mcp']);

const send = (op: Operation, request: { path: string; body?: unknown }) => t.request(request.path, { method: op.method, body: request.body });

describe('the served OpenAPI document', () => {
  it('is valid OpenAPI (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('names every path placeholder as a required path parameter, and nothing else', () => {
    expect(operations.length).toBeGreaterThan(10);
    for (const op of operations) {
      const declared = op.parameters.filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), `${op.method} ${op.path}`).toEqual(pathParameterNames(op.path).sort());
      for (const p of declared) expect(p.required, `${op.method} ${op.path} {${p.name}}`).toBe(true);
    }
  });

  it('documents the by-code route with {concept_code}, as README says', () => {
    const byCode = operations.find((op) => op.path.startsWith('/v1/concepts/by-code/'));
    expect(byCode?.path).toBe('/v1/concepts/by-code/{vocabulary_id}/{concept_code}');
  });

  it('marks query required on the keyword search, suggest and facets routes', () => {
    const searchLike = operations.filter((op) => /^\/v1\/(search\/(concepts|suggest|facets)|concepts\/(suggest|search\/facets))$/.test(op.path));
    expect(searchLike.map((op) => op.path).sort()).toEqual(
      ['/v1/concepts/search/facets', '/v1/concepts/suggest', '/v1/search/concepts', '/v1/search/facets', '/v1/search/suggest'].sort(),
    );
    for (const op of searchLike) expect(op.parameters.find((p) => p.name === 'query')?.required, op.path).toBe(true);
  });

  it('every documented path template reaches its route, and omitting every optional parameter is no 400', async () => {
    for (const op of operations) {
      if (NON_JSON_ROUTES.has(`${op.method} ${op.path}`)) continue;
      const res = await send(op, minimalRequest(op));
      expect(res.status, `${op.method} ${op.path}: ${res.text.slice(0, 300)}`).toBeLessThan(400);
    }
  });

  it('omitting any required query parameter or body field is a 400 that names it', async () => {
    let checked = 0;
    for (const op of operations) {
      const required = [...op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name), ...requiredBodyFields(op.body?.schema)];
      for (const name of required) {
        const res = await send(op, minimalRequest(op, name));
        expect(res.status, `${op.method} ${op.path} without ${name}`).toBe(400);
        expect(res.body.success).toBe(false);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.message, `${op.method} ${op.path} without ${name}`).toContain(`'${name}'`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });
});

describe('GET /v1/concepts/by-code/{vocabulary_id}/{concept_code}', () => {
  it.each([
    ['ICD10CM', 'E11.9', 35206882],
    ['TESTVOC', 'A/B 12', 7000001],
  ])('round-trips the %s code %s (percent-encoded)', async (vocabulary, code, conceptId) => {
    const res = await t.request(`/v1/concepts/by-code/${vocabulary}/${encodeURIComponent(code)}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ concept_id: conceptId, concept_code: code, vocabulary_id: vocabulary });
  });
});
