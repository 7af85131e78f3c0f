/**
 * Errors Fastify raises while routing, before any hook runs (a malformed percent-escape, an over-long path
 * parameter), answered like every other response: envelope or OperationOutcome, X-Request-Id and a rate decision.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { stateUnavailableError } from '../../services/admission-errors.js';
import { ServiceError } from '../../services/errors.js';
import { StateUnavailableError } from '../../state/state-errors.js';
import type { StateStore } from '../../state/state-store.js';
import { sendError } from './error-responses.js';
import { admissionRequest, rateLimitError } from './gatekeeper.js';
import { normalisedPath, surfaceOfPath } from './request-context.js';
import { applyResponseHeaders } from './response-headers.js';

export interface FrameworkErrorOptions {
  state: StateStore;
  anonymousRatePerSecond: number;
  /** The router's limit on one path parameter (routerOptions.maxParamLength). */
  maxParamLength: number;
}

function describeRoutingError(error: FastifyError, path: string, maxParamLength: number): ServiceError {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new ServiceError(400, 'validation_error', `Invalid request path '${path}': it holds a malformed percent-escape (write a literal % as %25).`, {
        location: 'path',
        reason: 'malformed percent-encoding',
      });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ServiceError(400, 'validation_error', `Invalid request path: a path parameter is longer than ${maxParamLength} characters.`, {
        location: 'params',
        reason: `longer than ${maxParamLength} characters`,
      });
    default:
      return new ServiceError(500, 'internal_server_error', 'The server failed to route this request; it has been logged.');
  }
}

export function frameworkErrorResponder(options: FrameworkErrorOptions) {
  return async (error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const path = request.url.split('?')[0]!;
    // Routing failed, so there is no matched route: the shape follows the normalised path.
    request.surface = surfaceOfPath(normalisedPath(path));
    let problem: ServiceError;
    try {
      const admission = await options.state.admit(admissionRequest(request, options.anonymousRatePerSecond, false));
      request.rateDecision = admission.rate;
      problem = admission.rate.allowed ? describeRoutingError(error, path, options.maxParamLength) : rateLimitError(admission.rate, admission.key !== null);
    } catch (stateError) {
      if (!(stateError instanceof StateUnavailableError)) throw stateError;
      problem = stateUnavailableError(stateError);
    }
    if (problem.status >= 500) request.log.error({ err: error }, 'routing failed');
    // Hooks do not run for routing errors, so the common headers are set here.
    applyResponseHeaders(request, reply);
    sendError(request, reply, problem);
  };
}
