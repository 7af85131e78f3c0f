/**
 * What every response must be, whatever was sent (the properties of the fuzz suite):
 *   no-5xx          no status ≥ 500;
 *   shape           the REST envelope ({success: boolean, meta.request_id = X-Request-Id}) or, for a
 *                   path under /fhir, an OperationOutcome — except 2xx answers of the public routes
 *                   (/health, /openapi.json, /docs…), which have their own formats;
 *   headers         X-Request-Id and X-RateLimit-Limit/-Remaining/-Reset on every envelope/OperationOutcome;
 *   public-only     a 2xx to a request without a valid key only on a route declared public;
 *   licence         no GPI/MedDRA concept ever, and no CPT4 concept for a key without CPT4 validation.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FuzzRequest } from './fuzz-requests.js';
import { isPublicPath, OAUTH2_TOKEN_PATH } from './openapi-operations.js';

export interface FuzzResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface Violation {
  rule: 'no-5xx' | 'shape' | 'headers' | 'public-only' | 'licence';
  message: string;
}

/** The fixture's licensed concepts (test/http/fixture-vocabulary.ts), by vocabulary. */
export interface LicensedConcepts {
  cpt4: readonly number[];
  neverServed: readonly number[];
}
const NEVER_SERVED_VOCABULARIES = ['GPI', 'MedDRA'];

/** Whether a response body carries at least one concept (so the licence property had something to check). */
export function carriesConcepts(text: string): boolean {
  for (const o of objectsIn(parseJson(text))) if (typeof o.concept_id === 'number' && 'vocabulary_id' in o) return true;
  return false;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every object in a JSON value. */
function* objectsIn(value: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(value)) for (const v of value) yield* objectsIn(v);
  else if (value && typeof value === 'object') {
    yield value as Record<string, unknown>;
    for (const v of Object.values(value)) yield* objectsIn(v);
  }
}

/**
 * Whether the path as sent is on the FHIR surface: as written, percent-decoded, or with its dot
 * segments resolved (RFC 3986 §5.2.4) and empty segments collapsed, as a router that normalises
 * the path would see it (`//x/../fhir/r4/metadata` is a /fhir path).
 */
function looksFhir(url: string): boolean {
  const path = url.split('?')[0]!;
  // Each well-formed escape decoded on its own, so that one malformed escape (`%zz`) leaves the rest readable.
  const decoded = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const resolved: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') resolved.pop();
    else resolved.push(segment);
  }
  return [path, decoded, `/${resolved.join('/')}`].some((p) => /^\/+fhir(\/|$)/i.test(p));
}

function isEnvelope(body: unknown, requestId: string | undefined): string | undefined {
  const b = body as { success?: unknown; meta?: { request_id?: unknown }; error?: { code?: unknown; message?: unknown } } | undefined;
  if (!b || typeof b !== 'object') return 'body is not a JSON object';
  if (typeof b.success !== 'boolean') return 'no boolean `success`';
  if (typeof b.meta?.request_id !== 'string') return 'no meta.request_id';
  if (b.meta.request_id !== requestId) return `meta.request_id ${b.meta.request_id} ≠ X-Request-Id ${requestId}`;
  if (b.success === false && (typeof b.error?.code !== 'string' || typeof b.error?.message !== 'string')) return 'error envelope without error.code/message';
  return undefined;
}

function isOperationOutcome(body: unknown): boolean {
  const b = body as { resourceType?: unknown; issue?: unknown } | undefined;
  return !!b && b.resourceType === 'OperationOutcome' && Array.isArray(b.issue);
}

/** An RFC 6749 §5.2 error ({error, error_description}): what the token endpoint answers a refused request. */
/** The MCP endpoint answers JSON-RPC 2.0 (a result or an error), past the gate's refusals in the REST envelope. */
function isJsonRpcAnswer(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const message = body as { jsonrpc?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };
  return message.jsonrpc === '2.0' && (message.result !== undefined || (typeof message.error?.code === 'number' && typeof message.error.message === 'string'));
}

function isOAuthError(body: unknown): boolean {
  const b = body as { error?: unknown; error_description?: unknown } | undefined;
  return !!b && typeof b.error === 'string' && typeof b.error_description === 'string';
}

/** A FHIR resource (any type) in JSON: what a successful FHIR interaction answers. */
function isFhirResource(body: unknown): boolean {
  return !!body && typeof (body as { resourceType?: unknown }).resourceType === 'string';
}

/** A FHIR answer in XML (`_format=xml` or Accept): a resource when successful, an OperationOutcome otherwise. */
function isFhirXml(response: FuzzResponse, ok: boolean): boolean {
  const type = String(response.headers['content-type'] ?? '');
  if (!type.startsWith('application/fhir+xml')) return false;
  return ok ? /^<\?xml[^>]*\?><[A-Z][A-Za-z]+ xmlns="http:\/\/hl7.org\/fhir">/.test(response.text) : /<OperationOutcome xmlns="http:\/\/hl7.org\/fhir">/.test(response.text);
}

export function checkResponse(request: FuzzRequest, response: FuzzResponse, licensed: LicensedConcepts): Violation[] {
  const violations: Violation[] = [];
  const { status, headers } = response;
  const ok = status >= 200 && status < 300;
  if (status < 100) return [{ rule: 'no-5xx', message: response.text }];
  if (status >= 500) violations.push({ rule: 'no-5xx', message: `status ${status}: ${response.text.slice(0, 200)}` });

  const publicRoute = isPublicPath(request.operation.path);
  const withoutValidKey = request.caller === 'anonymous' || request.caller === 'unknown_key';
  if (ok && withoutValidKey && !publicRoute) {
    violations.push({ rule: 'public-only', message: `${status} without a valid key (${request.caller}) on ${request.operation.method} ${request.operation.path}` });
  }

  const body = parseJson(response.text);
  if (!(ok && publicRoute)) {
    const requestId = typeof headers['x-request-id'] === 'string' ? headers['x-request-id'] : undefined;
    const envelopeProblem = isEnvelope(body, requestId);
    const fhirAnswer = looksFhir(request.url) && (isOperationOutcome(body) || (ok && isFhirResource(body)) || isFhirXml(response, ok));
    const oauthAnswer = request.operation.path === OAUTH2_TOKEN_PATH && isOAuthError(body);
    const mcpAnswer = request.operation.path === '/mcp' && isJsonRpcAnswer(body);
    if (envelopeProblem && !fhirAnswer && !oauthAnswer && !mcpAnswer) {
      violations.push({ rule: 'shape', message: `${status} is neither the REST envelope (${envelopeProblem}) nor a FHIR OperationOutcome: ${response.text.slice(0, 200)}` });
    } else {
      const missing = ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].filter((h) => headers[h] === undefined);
      if (missing.length) violations.push({ rule: 'headers', message: `${status} without ${missing.join(', ')}` });
    }
  }

  if (request.caller === 'key' || request.caller === 'cpt4_key') {
    const forbiddenIds = new Set([...licensed.neverServed, ...(request.caller === 'key' ? licensed.cpt4 : [])]);
    const forbiddenVocabularies = new Set([...NEVER_SERVED_VOCABULARIES, ...(request.caller === 'key' ? ['CPT4'] : [])]);
    for (const o of objectsIn(body)) {
      const id = o.concept_id;
      const isConcept = typeof id === 'number' && ('concept_name' in o || 'vocabulary_id' in o);
      if (isConcept && (forbiddenIds.has(id) || forbiddenVocabularies.has(String(o.vocabulary_id)))) {
        violations.push({ rule: 'licence', message: `${request.caller} received concept ${id} (${String(o.vocabulary_id)})` });
        break;
      }
    }
  }
  return violations;
}
