/**
 * The input and output Parameters of $validate-code, shared by CodeSystem/$validate-code and
 * ValueSet/$validate-code: reading the code to validate (`code` with its system, `coding`, or
 * `codeableConcept`) and writing a validation as `result`, `message`, `display`, `code`, `system`,
 * `version`, `codeableConcept` and an `issues` OperationOutcome.
 */
import { validationError } from '../../services/errors.js';
import { CODE_PATHS, CODING_PATHS, type CodeValidation, type CodingPaths, type ValidationIssue } from '../../services/terminology/code-validation.js';
import type { FhirCoding, FhirParameter } from './fhir-resources.js';
import type { OperationParameters } from './operation-parameters.js';

const TX_ISSUE_TYPE_SYSTEM = 'http://hl7.org/fhir/tools/CodeSystem/tx-issue-type';
const MESSAGE_ID_EXTENSION = 'http://hl7.org/fhir/StructureDefinition/operationoutcome-message-id';

/** The parameter names that carry the code system and its version with `code` (the first given wins). */
export interface CodeParameterNames {
  system: readonly string[];
  version: readonly string[];
}

function firstOf(params: OperationParameters, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = params.get(name);
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** The `codeableConcept` parameter with its codings, if given; one without a coding is a 400. */
export function codeableConceptToValidate(params: OperationParameters): { concept: object; coding: FhirCoding[] } | undefined {
  const concept = params.codeableConcept('codeableConcept');
  if (!concept) return undefined;
  if (!concept.coding?.length) throw validationError("Parameter 'codeableConcept' has no coding to validate.", { parameter: 'codeableConcept' });
  return { concept, coding: concept.coding };
}

/**
 * The single coding to validate: `coding` (its system and version defaulting to the named
 * parameters'), or `code` with the system, version and `display` parameters. Neither is a 400.
 */
export function codingToValidate(params: OperationParameters, names: CodeParameterNames): { coding: FhirCoding & { system: string; code: string }; paths: CodingPaths } {
  const systemName = names.system[0]!;
  const system = firstOf(params, names.system);
  const version = firstOf(params, names.version);
  const coding = params.coding('coding');
  if (coding) {
    if (!coding.code) throw validationError("Parameter 'coding' needs a code.", { parameter: 'coding' });
    const codingSystem = coding.system || system;
    if (!codingSystem) throw validationError(`Parameter 'coding' needs a system (or give '${systemName}').`, { parameter: 'coding' });
    const codingVersion = coding.version ?? version;
    return {
      coding: { ...coding, system: codingSystem, code: coding.code, ...(codingVersion !== undefined ? { version: codingVersion } : {}) },
      paths: CODING_PATHS,
    };
  }
  const code = params.get('code');
  if (code === undefined) {
    throw validationError(`One of the parameters 'code' (with '${systemName}'), 'coding' or 'codeableConcept' is required.`, { parameter: 'code' });
  }
  if (!system) throw validationError(`Parameter '${systemName}' (the code system) is required with 'code'.`, { parameter: systemName });
  const display = params.get('display');
  return {
    coding: { system, code, ...(version !== undefined ? { version } : {}), ...(display !== undefined ? { display } : {}) },
    paths: CODE_PATHS,
  };
}

function issuesResource(issues: readonly ValidationIssue[]): object {
  return {
    resourceType: 'OperationOutcome',
    issue: issues.map((issue) => ({
      extension: [{ url: MESSAGE_ID_EXTENSION, valueString: issue.messageId }],
      severity: issue.severity,
      code: issue.type,
      details: { coding: [{ system: TX_ISSUE_TYPE_SYSTEM, code: issue.txIssueType }], text: issue.text },
      ...(issue.path !== undefined ? { location: [issue.path], expression: [issue.path] } : {}),
    })),
  };
}

/** The Parameters of a $validate-code answer (CodeSystem and ValueSet). */
export function validationParameters(validation: CodeValidation, codeableConcept: object | undefined): FhirParameter[] {
  const out: FhirParameter[] = [{ name: 'result', valueBoolean: validation.result }];
  const message = validation.message ?? (validation.issues.length ? validation.issues.map((i) => i.text).join('; ') : undefined);
  if (message !== undefined) out.push({ name: 'message', valueString: message });
  if (validation.display !== undefined) out.push({ name: 'display', valueString: validation.display });
  if (validation.code !== undefined) out.push({ name: 'code', valueCode: validation.code });
  if (validation.system !== undefined) out.push({ name: 'system', valueUri: validation.system });
  if (validation.version !== undefined) out.push({ name: 'version', valueString: validation.version });
  if (codeableConcept) out.push({ name: 'codeableConcept', valueCodeableConcept: codeableConcept });
  if (validation.issues.length) out.push({ name: 'issues', resource: issuesResource(validation.issues) });
  if (validation.unknownSystem !== undefined) out.push({ name: 'x-caused-by-unknown-system', valueCanonical: validation.unknownSystem });
  return out;
}
