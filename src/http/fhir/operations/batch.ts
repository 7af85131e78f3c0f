/**
 * The FHIR batch interaction: POST /fhir/{v} with a `batch` Bundle answers a `batch-response` Bundle, one entry
 * per request entry in order, each run by its interaction's handler after the batch passed the gate once.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ServiceError, validationError } from '../../../services/errors.js';
import type { ReleaseView } from '../../../services/release-view.js';
import type { ReleaseRegistry } from '../../../store/release-registry.js';
import { resolveRelease } from '../../plumbing/release-resolution.js';
import { issueTypeFor, operationOutcome } from '../../plumbing/operation-outcome.js';
import { sendResource } from '../fhir-format.js';
import {
  FHIR_VERSIONS,
  FhirQuery,
  fhirVersionOf,
  registeredFhirOperations,
  type FhirOperationSpec,
  type FhirVersion,
} from '../fhir-operation.js';
import { OperationParameters } from '../operation-parameters.js';

/** Entries one batch may hold (the same bound as the REST batch endpoints). */
export const MAX_BATCH_ENTRIES = 100;

interface BatchResponseEntry {
  resource: object;
  response: { status: string; outcome?: object };
}

/** An entry's URL, taken apart: relative to the batch's base (`CodeSystem/$lookup?…`), or under `/fhir/{v}/`. */
interface EntryTarget {
  version: FhirVersion;
  segments: string[];
  query: Record<string, string | string[]>;
}

/** A failure of one entry: its status and the OperationOutcome, never thrown out of the batch. */
function failedEntry(error: ServiceError): BatchResponseEntry {
  const outcome = operationOutcome(issueTypeFor(error.status, error.code), error.message);
  return { resource: outcome, response: { status: statusLine(error.status), outcome } };
}

function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? ''}`.trim();
}

function entryTarget(url: string, batchVersion: FhirVersion, index: number): EntryTarget {
  let parsed: URL;
  try {
    parsed = new URL(url, 'https://batch.invalid/');
  } catch {
    throw validationError(`Bundle.entry[${index}].request.url '${url}' is not a URL.`);
  }
  let path = parsed.pathname;
  let version = batchVersion;
  const underFhir = /^\/fhir\/([^/]*)(\/.*)?$/.exec(path);
  if (underFhir) {
    if (!(FHIR_VERSIONS as readonly string[]).includes(underFhir[1]!)) {
      throw new ServiceError(404, 'not_found', `FHIR version '${underFhir[1]}' is not served here; use one of ${FHIR_VERSIONS.join(', ')}.`);
    }
    version = underFhir[1] as FhirVersion;
    path = underFhir[2] ?? '/';
  }
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of parsed.searchParams) {
    const previous = query[name];
    query[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  const segments = path
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw validationError(`Bundle.entry[${index}].request.url has a malformed percent-escape.`);
      }
    });
  return { version, segments, query };
}

/** The GET interaction a path names, with its path parameters; a literal segment wins over a `:name` one. */
function matchOperation(operations: readonly FhirOperationSpec[], segments: readonly string[]): { spec: FhirOperationSpec; params: Record<string, string> } | undefined {
  let best: { spec: FhirOperationSpec; params: Record<string, string> } | undefined;
  for (const spec of operations) {
    if (!spec.methods.includes('GET')) continue;
    const pattern = spec.path.split('/').filter((s) => s !== '');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    if (!pattern.every((p, i) => (p.startsWith(':') ? ((params[p.slice(1)] = segments[i]!), true) : p === segments[i]))) continue;
    if (!best || Object.keys(params).length < Object.keys(best.params).length) best = { spec, params };
  }
  return best;
}

/** The entry's release (its own `vocab_release`, else the batch's) seen with the caller's licence rules. */
function entryView(request: FastifyRequest, registry: ReleaseRegistry, query: Record<string, string | string[]>): ReleaseView {
  const selector = query.vocab_release;
  const wanted = Array.isArray(selector) ? selector[0] : selector;
  if (wanted === undefined || wanted.trim() === '') return request.view;
  return request.view.onRelease(resolveRelease(registry, wanted, { surface: 'fhir' }));
}

async function runEntry(app: FastifyInstance, registry: ReleaseRegistry, request: FastifyRequest, batchVersion: FhirVersion, entry: unknown, index: number): Promise<BatchResponseEntry> {
  try {
    const entryRequest = (entry as { request?: unknown } | null)?.request as { method?: unknown; url?: unknown } | undefined;
    if (!entryRequest || typeof entryRequest !== 'object' || typeof entryRequest.url !== 'string' || typeof entryRequest.method !== 'string') {
      throw validationError(`Bundle.entry[${index}].request must have a method and a url.`);
    }
    if (entryRequest.method.toUpperCase() !== 'GET') {
      throw new ServiceError(405, 'method_not_allowed', `Bundle.entry[${index}]: a batch runs GET entries only, not ${entryRequest.method}.`);
    }
    const target = entryTarget(entryRequest.url, batchVersion, index);
    const match = matchOperation(registeredFhirOperations(app), target.segments);
    if (!match) throw new ServiceError(404, 'not_found', `Bundle.entry[${index}]: no such FHIR interaction: GET ${target.segments.join('/')}`);
    const view = entryView(request, registry, target.query);
    // The entry sees the batch's request (caller, host, format) with its own path parameters, query and release.
    const entryHttpRequest = Object.create(request, {
      params: { value: { fhirVersion: target.version, ...match.params } },
      query: { value: target.query },
      view: { value: view },
    }) as FastifyRequest;
    const resource = await match.spec.handler({
      request: entryHttpRequest,
      version: target.version,
      params: OperationParameters.fromQuery(target.query),
      view,
    });
    return { resource, response: { status: statusLine(200) } };
  } catch (error) {
    if (error instanceof ServiceError) return failedEntry(error);
    request.log.error({ err: error, entry: index }, 'batch entry failed');
    return failedEntry(new ServiceError(500, 'internal_server_error', `Bundle.entry[${index}]: the server failed to answer this entry; it has been logged.`));
  }
}

/** The batch Bundle's entries, or a 400 naming what is wrong with the body. */
function batchEntries(body: unknown): unknown[] {
  const bundle = body as { resourceType?: unknown; type?: unknown; entry?: unknown } | null | undefined;
  if (!bundle || typeof bundle !== 'object' || bundle.resourceType !== 'Bundle') {
    throw validationError('The request body must be a FHIR Bundle resource (resourceType "Bundle") of type batch.');
  }
  if (bundle.type !== 'batch') throw validationError(`Bundle.type must be 'batch', not '${String(bundle.type)}': only batches of GET entries are run.`);
  const entries = bundle.entry ?? [];
  if (!Array.isArray(entries)) throw validationError('Bundle.entry must be an array.');
  if (entries.length > MAX_BATCH_ENTRIES) {
    throw validationError(`A batch holds at most ${MAX_BATCH_ENTRIES} entries; this one has ${entries.length}.`, { limit: MAX_BATCH_ENTRIES });
  }
  return entries;
}

export function registerBatchBundle(app: FastifyInstance, registry: ReleaseRegistry): void {
  app.route({
    method: 'POST',
    url: '/fhir/:fhirVersion',
    schema: {
      tags: ['FHIR'],
      summary: 'Batch of GET interactions (Bundle type batch)',
      description:
        `Body: a Bundle of type \`batch\` with up to ${MAX_BATCH_ENTRIES} entries, each \`request: {method: GET, url}\` with the url relative to ` +
        'the FHIR base (`CodeSystem/$lookup?system=…&code=…`, `CodeSystem/omop-v20250827`) or under `/fhir/{version}/`. Answers a Bundle of ' +
        'type `batch-response`: per entry, in order, `response.status` and the `resource` (an OperationOutcome, also as `response.outcome`, for a ' +
        'failed entry; a non-GET entry is 405). A failed entry never fails the batch. The batch counts as one call against the rate limit and ' +
        'the monthly quota; licences apply per entry. Entries use the batch\'s release unless their url has `vocab_release`. 400 `invalid` ' +
        `for a body that is not a batch Bundle or holds more than ${MAX_BATCH_ENTRIES} entries. FHIR version by path: ${FHIR_VERSIONS.join(', ')}.`,
      params: Type.Object({ fhirVersion: Type.String({ description: FHIR_VERSIONS.join(', ') }) }),
      querystring: FhirQuery,
    },
    handler: async (request, reply) => {
      const version = fhirVersionOf(request);
      const entries = batchEntries(request.body);
      const entry: BatchResponseEntry[] = [];
      for (const [index, item] of entries.entries()) entry.push(await runEntry(app, registry, request, version, item, index));
      return sendResource(request, reply, { resourceType: 'Bundle', type: 'batch-response', ...(entry.length > 0 ? { entry } : {}) });
    },
  });
}
