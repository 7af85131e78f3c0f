/**
 * Every error leaves through here: REST paths get the error envelope, FHIR paths an
 * OperationOutcome. Validation failures are always 400 and name the parameter and the reason.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { stateUnavailableError } from '../../services/admission-errors.js';
import { ServiceError } from '../../services/errors.js';
import { StateUnavailableError } from '../../state/state-errors.js';
import { AbandonedTask } from '../../threads/worker-pool.js';
import { metaFor, type ErrorEnvelope } from './envelope.js';
import { issueTypeFor, operationOutcome, type OperationOutcome } from './operation-outcome.js';
import type { Surface } from './request-context.js';

const REST_JSON = 'application/json; charset=utf-8';
/** The content type of FHIR JSON (the FHIR surface's default format). */
export const FHIR_JSON_TYPE = 'application/fhir+json; charset=utf-8';

/** Writes a FHIR resource as the answer, in the format the request asked for. */
export type FhirResourceWriter = (request: FastifyRequest, reply: FastifyReply, resource: object) => FastifyReply;

/** FHIR JSON: what FHIR errors are written as until the FHIR surface registers its formats. */
const writeFhirJson: FhirResourceWriter = (_request, reply, resource) => reply.type(FHIR_JSON_TYPE).send(resource);
let fhirResourceWriter: FhirResourceWriter = writeFhirJson;

/**
 * The FHIR surface registers how it writes resources (JSON or XML, src/http/fhir/fhir-format.ts),
 * so that errors on /fhir paths answer in the client's format without plumbing importing the surface.
 */
export function registerFhirResourceWriter(writer: FhirResourceWriter): void {
  fhirResourceWriter = writer;
}

/** Writes an error as an HTML page (the browser's pages); registered by src/http/pages so plumbing need not import it. */
export type PageErrorWriter = (request: FastifyRequest, reply: FastifyReply, error: ServiceError) => FastifyReply;

let pageErrorWriter: PageErrorWriter = (_request, reply, error) =>
  reply.type('text/html; charset=utf-8').send(`<!doctype html><title>Error ${error.status}</title><p>${escapeText(error.message)}</p>`);

function escapeText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function registerPageErrorWriter(writer: PageErrorWriter): void {
  pageErrorWriter = writer;
}

/**
 * The body of an error answer and its content type: an OperationOutcome on the FHIR surface, the
 * REST error envelope everywhere else. Also used by the transport for errors raised before Fastify
 * has a request (src/http/raw-error-response.ts).
 */
export function errorBody(
  surface: Surface,
  error: ServiceError,
  requestId: string,
  releaseLabel: string | null,
): { contentType: string; body: OperationOutcome | ErrorEnvelope } {
  if (surface === 'fhir') {
    return { contentType: FHIR_JSON_TYPE, body: operationOutcome(issueTypeFor(error.status, error.code), error.message) };
  }
  return {
    contentType: REST_JSON,
    body: {
      success: false,
      error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
      meta: metaFor(requestId, releaseLabel),
    },
  };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ServiceError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  reply.code(error.status);
  if (error.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="omopterm"');
  const { contentType, body } = errorBody(request.surface, error, request.id, request.view?.label ?? null);
  // An OperationOutcome goes in the format the FHIR client asked for (JSON or XML).
  if (request.surface === 'fhir') return fhirResourceWriter(request, reply, body);
  if (request.surface === 'page') return pageErrorWriter(request, reply, error);
  return reply.type(contentType).send(body);
}

const LOCATION_NAMES: Record<string, string> = {
  querystring: 'query parameter',
  body: 'body field',
  params: 'path parameter',
  headers: 'header',
};

interface AjvIssue {
  instancePath?: string;
  keyword?: string;
  params?: Record<string, unknown>;
  message?: string;
}

/** Turns a schema validation failure into a message that names the parameter and says why. */
export function describeValidationFailure(context: string | undefined, issues: AjvIssue[]): ServiceError {
  const issue = issues[0] ?? {};
  const location = LOCATION_NAMES[context ?? ''] ?? 'parameter';
  let path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  if (issue.keyword === 'required' && issue.params?.missingProperty) {
    path = path ? `${path}.${String(issue.params.missingProperty)}` : String(issue.params.missingProperty);
    return new ServiceError(400, 'validation_error', `Missing required ${location} '${path}'.`, {
      parameter: path,
      location: context,
      reason: 'required',
    });
  }
  let reason = issue.message ?? 'is invalid';
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) {
    reason = `must be one of: ${(issue.params.allowedValues as unknown[]).join(', ')}`;
  }
  const subject = path ? `${location} '${path}'` : context === 'body' ? 'request body' : location;
  return new ServiceError(400, 'validation_error', `Invalid ${subject}: ${reason}.`, {
    parameter: path || undefined,
    location: context,
    reason,
  });
}

function toServiceError(error: FastifyError & { validation?: AjvIssue[]; validationContext?: string }): ServiceError {
  if (error instanceof ServiceError) return error;
  if (error instanceof StateUnavailableError) return stateUnavailableError(error);
  if (error.validation) return describeValidationFailure(error.validationContext, error.validation);
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError(400, 'validation_error', `Request body is not valid JSON: ${error.message}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError(415, 'unsupported_media_type', 'Unsupported Content-Type: send the request body as application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError(413, 'payload_too_large', 'Request body is too large.');
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new ServiceError(error.statusCode, error.statusCode === 404 ? 'not_found' : 'bad_request', error.message);
  }
  return new ServiceError(500, 'internal_server_error', 'The server failed to answer this request; it has been logged.');
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const serviceError = toServiceError(error);
    if (error instanceof AbandonedTask) {
      // the client hung up before a worker thread took its request: nothing failed and nobody reads the answer
      request.log.info({ code: 'client_closed' }, error.message);
    } else if (serviceError.status >= 500) {
      // A ServiceError is an answer the server chose (503 semantic_unavailable, no release loaded): an
      // expected condition, one warn line without a stack. Anything else is a failure: error, with the stack.
      if (error instanceof ServiceError) request.log.warn({ status: serviceError.status, code: serviceError.code }, serviceError.message);
      else if (error instanceof StateUnavailableError) request.log.warn({ status: serviceError.status, code: serviceError.code }, error.message);
      else request.log.error({ err: error }, 'request failed');
    }
    return sendError(request, reply, serviceError);
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, noSuchEndpoint(request)));
}

/** The 404 of a request no route answers (also raised by a route that only looks like a match: see fhir-operation.ts). */
export function noSuchEndpoint(request: FastifyRequest): ServiceError {
  return new ServiceError(404, 'not_found', `No such endpoint: ${request.method} ${request.url.split('?')[0]}`);
}
