/**
 * Runs the fuzz property against a running server: fetches /openapi.json, builds random requests
 * for every operation (./fuzz-requests.ts), sends them, and checks every response
 * (./response-properties.ts). Deterministic per seed; on a failure fast-check shrinks the request
 * to a minimal counterexample. `survey` mode never stops: it records the first (shortest) example
 * of every kind of violation instead, to list all the problems of a build at once.
 */
import fc from 'fast-check';
import https from 'node:https';
import { anyRequest, type Caller, type FuzzRequest } from './fuzz-requests.js';
import { operationsOf, type Operation } from './openapi-operations.js';
import { rawHttps } from './raw-https.js';
import { carriesConcepts, checkResponse, type FuzzResponse, type LicensedConcepts, type Violation } from './response-properties.js';

export interface FuzzTarget {
  port: number;
  keys: Record<Exclude<Caller, 'anonymous'>, string>;
  licensed: LicensedConcepts;
}

export interface FuzzOptions {
  runs: number;
  seed: number;
  survey?: boolean;
}

export interface FuzzFailure {
  request: FuzzRequest;
  status: number;
  violations: Violation[];
}

export interface FuzzSummary {
  seed: number;
  runs: number;
  requests: number;
  operations: number;
  statuses: Record<string, number>;
  /** Responses to a key that carried concepts (what the licence property was checked on). */
  withConcepts: number;
  /** Shrunk counterexample (stopping mode), or one example per kind of violation (survey mode). */
  failures: FuzzFailure[];
}

/**
 * Requests the document does not list, driven alongside it: the FHIR surface (OperationOutcome
 * answers), an unknown /v1 path, and methods the documented routes do not take.
 */
const query = (name: string) => ({ name, in: 'query' as const, required: false, schema: {} });
export const UNDOCUMENTED_OPERATIONS: Operation[] = [
  { method: 'GET', path: '/fhir/r4/metadata', parameters: [] },
  { method: 'GET', path: '/fhir/{version}/CodeSystem/$lookup', parameters: [{ name: 'version', in: 'path', required: true, schema: { enum: ['r4', 'r4b', 'r5', 'r6', 'r3'] } }, query('system'), query('code'), query('_format')] },
  { method: 'POST', path: '/fhir/r5/ValueSet/$expand', parameters: [], body: { schema: { properties: { resourceType: {}, parameter: { items: { properties: { name: {}, valueString: {} } } } } }, required: false } },
  { method: 'GET', path: '/v1/no-such-endpoint', parameters: [query('query')] },
  { method: 'DELETE', path: '/v1/concepts/{concept_id}', parameters: [{ name: 'concept_id', in: 'path', required: true, schema: { type: 'integer' } }] },
  { method: 'PUT', path: '/v1/search/bulk', parameters: [], body: { schema: {}, required: false } },
];

export async function fetchOperations(port: number): Promise<Operation[]> {
  const agent = new https.Agent({ keepAlive: false });
  const res = await rawHttps(agent, port, { method: 'GET', url: '/openapi.json', headers: {} });
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
  return operationsOf(JSON.parse(res.text));
}

function headersFor(request: FuzzRequest, keys: FuzzTarget['keys']): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.caller !== 'anonymous') headers.authorization = `Bearer ${keys[request.caller]}`;
  if (request.body !== undefined) {
    if (request.contentType) headers['content-type'] = request.contentType;
    headers['content-length'] = String(Buffer.byteLength(request.body));
  }
  return headers;
}

export async function runFuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzSummary> {
  const operations = await fetchOperations(target.port);
  const agent = new https.Agent({ keepAlive: true, maxSockets: 4 });
  const freshConnection = new https.Agent({ keepAlive: false });
  const statuses: Record<string, number> = {};
  const surveyed = new Map<string, FuzzFailure>();
  let requests = 0;
  let withConcepts = 0;

  const send = async (request: FuzzRequest): Promise<FuzzResponse> => {
    requests++;
    const message = { method: request.method, url: request.url, headers: headersFor(request, target.keys), body: request.body };
    try {
      return await rawHttps(agent, target.port, message);
    } catch (first) {
      // A kept-alive socket the server had closed, or a reset while a huge request was still being
      // written after the server had answered and closed: retry on new connections.
      let last = first as Error;
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          return await rawHttps(freshConnection, target.port, message);
        } catch (err) {
          last = err as Error;
        }
      }
      return { status: 0, headers: {}, text: `no response: ${last.message}` };
    }
  };

  const property = fc.asyncProperty(anyRequest([...operations, ...UNDOCUMENTED_OPERATIONS]), async (request) => {
    const response = await send(request);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    if ((request.caller === 'key' || request.caller === 'cpt4_key') && carriesConcepts(response.text)) withConcepts++;
    const violations = checkResponse(request, response, target.licensed);
    if (violations.length === 0) return true;
    if (options.survey) {
      for (const v of violations) {
        const kind = `${v.rule} ${response.status} ${request.operation.method} ${request.operation.path}`;
        const known = surveyed.get(kind);
        if (!known || request.url.length + (request.body?.length ?? 0) < known.request.url.length + (known.request.body?.length ?? 0)) {
          surveyed.set(kind, { request, status: response.status, violations: [v] });
        }
      }
      return true;
    }
    throw new Error(violations.map((v) => `[${v.rule}] ${v.message}`).join('; '));
  });

  const details = await fc.check(property, { numRuns: options.runs, seed: options.seed, verbose: 0 });
  agent.destroy();
  freshConnection.destroy();
  const failures: FuzzFailure[] = [...surveyed.values()];
  if (details.failed && details.counterexample) {
    const [request] = details.counterexample;
    const response = await send(request);
    failures.push({ request, status: response.status, violations: checkResponse(request, response, target.licensed) });
  } else if (details.failed) {
    failures.push({ request: { operation: { method: '?', path: '?' }, method: '?', url: '?', caller: 'key' }, status: 0, violations: [{ rule: 'no-5xx', message: String(details.errorInstance) }] });
  }
  return { seed: options.seed, runs: options.runs, requests, operations: operations.length, statuses, withConcepts, failures };
}

/** A curl line that replays a request (the key is the fuzz server's, so only the shape matters). */
function reproduction(f: FuzzFailure): string {
  const parts = [`curl -k -X ${f.request.method}`];
  if (f.request.caller !== 'anonymous') parts.push(`-H 'Authorization: Bearer <${f.request.caller}>'`);
  if (f.request.body !== undefined) {
    if (f.request.contentType !== undefined) parts.push(`-H 'Content-Type: ${f.request.contentType}'`);
    const body = f.request.body.length > 300 ? `${f.request.body.slice(0, 300)}…(${f.request.body.length} chars)` : f.request.body;
    parts.push(`--data-raw ${JSON.stringify(body)}`);
  }
  const url = f.request.url.length > 400 ? `${f.request.url.slice(0, 400)}…(${f.request.url.length} chars)` : f.request.url;
  parts.push(`--path-as-is 'https://127.0.0.1:8443${url}'`);
  return parts.join(' ');
}

export function formatSummary(summary: FuzzSummary): string {
  const lines = [
    `fuzz: seed ${summary.seed}, ${summary.runs} runs, ${summary.requests} requests over ${summary.operations} documented operations (and ${UNDOCUMENTED_OPERATIONS.length} undocumented ones)`,
    `statuses: ${Object.entries(summary.statuses)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}; ${summary.withConcepts} responses to a key carried concepts`,
  ];
  if (summary.failures.length === 0) lines.push('failures: none');
  for (const f of summary.failures) {
    lines.push(`FAILURE ${f.request.operation.method} ${f.request.operation.path} → ${f.status}: ${f.violations.map((v) => `[${v.rule}] ${v.message}`).join('; ')}`);
    lines.push(`  ${reproduction(f)}`);
  }
  if (summary.failures.length) lines.push(`replay with OMOPTERM_FUZZ_SEED=${summary.seed} OMOPTERM_FUZZ_RUNS=${summary.runs}`);
  return lines.join('\n');
}
