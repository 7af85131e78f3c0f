/** FHIR OperationOutcome bodies for errors on /fhir/* paths (spec Errors rule 2). */

export type IssueType =
  | 'invalid'
  | 'required'
  | 'value'
  | 'login'
  | 'security'
  | 'forbidden'
  | 'not-found'
  | 'not-supported'
  | 'too-costly'
  | 'too-long'
  | 'timeout'
  | 'throttled'
  | 'exception'
  | 'transient'
  | 'code-invalid'
  | 'processing';

export interface OperationOutcome {
  resourceType: 'OperationOutcome';
  issue: Array<{ severity: 'fatal' | 'error' | 'warning' | 'information'; code: IssueType; details: { text: string } }>;
}

/**
 * The message goes in `issue.details.text` only, as tx.fhir.org writes it and the HL7 terminology-ecosystem OMOP
 * tests expect (an extra `diagnostics` is a difference there).
 */
export function operationOutcome(code: IssueType, message: string, severity: 'fatal' | 'error' | 'warning' = 'error'): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: [{ severity, code, details: { text: message } }] };
}

/** The FHIR issue type for a REST error code / HTTP status. */
export function issueTypeFor(status: number, code: string): IssueType {
  if (code === 'missing_api_key' || code === 'invalid_api_key') return 'login';
  if (code === 'vocabulary_restricted' || status === 403) return 'forbidden';
  if (code === 'https_required') return 'security';
  if (code === 'too-costly') return 'too-costly';
  if (code === 'not-supported') return 'not-supported';
  if (status === 429) return 'throttled';
  if (status === 404 || code === 'release_not_found') return 'not-found';
  if (status === 405 || status === 501) return 'not-supported';
  if (status === 400) return 'invalid';
  if (status === 503) return 'transient';
  if (status === 413 || status === 414 || status === 431) return 'too-long';
  if (status === 408) return 'timeout';
  return 'exception';
}
