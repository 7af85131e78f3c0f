/**
 * The input and output Parameters shared by CodeSystem/$validate-code and ValueSet/$validate-code: reading the
 * code to validate and writing a validation as `result`, `message`, `display`, …, and an `issues`
 * OperationOutcome.
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

/** A language code as BCP 47 writes it: a primary subtag and optional subtags (en, de-CH, zh-Hant-TW). */
const LANGUAGE_CODE = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

/** The `displayLanguage` parameter (the language a display is judged in), checked; undefined when not given. */
function displayLanguage(params: OperationParameters): string | undefined {
  const value = params.get('displayLanguage');
  if (value === undefined || value === '') return undefined;
  if (!LANGUAGE_CODE.test(value)) {
    throw validationError(`Parameter 'displayLanguage' must be a language code such as 'en' or 'de-CH', not '${value}'.`, { parameter: 'displayLanguage' });
  }
  return value;
}

/** The `codeableConcept` parameter with its codings (each with the request's displayLanguage), if given; one without a coding is a 400. */
export function codeableConceptToValidate(params: OperationParameters): { concept: object; coding: Array<FhirCoding & { displayLanguage?: string }> } | undefined {
  const concept = params.codeableConcept('codeableConcept');
  if (!concept) return undefined;
  if (!concept.coding?.length) throw validationError("Parameter 'codeableConcept' has no coding to validate.", { parameter: 'codeableConcept' });
  const language = displayLanguage(params);
  return { concept, coding: concept.coding.map((coding) => (language === undefined ? coding : { ...coding, displayLanguage: language })) };
}

/**
 * The single coding to validate: `coding` (its system and version defaulting to the named
 * parameters'), or `code` with the system, version and `display` parameters; with the request's
 * `displayLanguage`. Neither is a 400, and so is a displayLanguage that is no language code.
 */
export function codingToValidate(
  params: OperationParameters,
  names: CodeParameterNames,
): { coding: FhirCoding & { system: string; code: string; displayLanguage?: string }; paths: CodingPaths } {
  const systemName = names.system[0]!;
  const language = displayLanguage(params);
  const withLanguage = language === undefined ? {} : { displayLanguage: language };
  const system = firstOf(params, names.system);
  const version = firstOf(params, names.version);
  const coding = params.coding('coding');
  if (coding) {
    if (!coding.code) throw validationError("Parameter 'coding' needs a code.", { parameter: 'coding' });
    const codingSystem = coding.system || system;
    if (!codingSystem) throw validationError(`Parameter 'coding' needs a system (or give '${systemName}').`, { parameter: 'coding' });
    const codingVersion = coding.version ?? version;
    return {
      coding: { ...coding, system: codingSystem, code: coding.code, ...(codingVersion !== undefined ? { version: codingVersion } : {}), ...withLanguage },
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
    coding: { system, code, ...(version !== undefined ? { version } : {}), ...(display !== undefined ? { display } : {}), ...withLanguage },
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
