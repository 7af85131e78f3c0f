/**
 * Errors the service layer raises. The HTTP adapters turn them into the REST error envelope or a
 * FHIR OperationOutcome; nothing below the adapters knows about HTTP formats.
 */

export type ErrorCode =
  | 'validation_error'
  | 'not_found'
  | 'concept_not_found'
  | 'vocabulary_not_found'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'vocabulary_restricted'
  | 'rate_limit_exceeded'
  | 'monthly_quota_exceeded'
  | 'https_required'
  | 'release_not_found'
  | 'service_unavailable'
  | 'method_not_allowed'
  | 'internal_server_error'
  | (string & {});

export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export function validationError(message: string, details?: Record<string, unknown>): ServiceError {
  return new ServiceError(400, 'validation_error', message, details);
}

export function notFound(message: string, code: ErrorCode = 'not_found', details?: Record<string, unknown>): ServiceError {
  return new ServiceError(404, code, message, details);
}
