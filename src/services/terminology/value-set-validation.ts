/**
 * ValueSet/$validate-code as domain logic: the code is validated as CodeSystem/$validate-code does, then checked
 * for membership of the ValueSet, a known code outside it being result false with a `not-in-vs` issue.
 */
import type { ReleaseView } from '../release-view.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { conceptCodeSystem, conceptOfCode } from './code-system-concept.js';
import { validateCodeableConcept, validateCoding, type CodeValidation, type CodingInput, type CodingPaths, type ValidationIssue } from './code-validation.js';
import type { ValueSetDefinition } from './value-set-compose.js';
import { memberRule } from './value-set-expansion.js';

/** How the ValueSet is named in messages: `url|version` (the release's version for the ones this server defines). */
function valueSetReference(definition: ValueSetDefinition, releaseVersion: string): string {
  const url = definition.url ?? 'the inline ValueSet';
  const version = definition.version ?? (definition.named ? releaseVersion : undefined);
  return version === undefined ? url : `${url}|${version}`;
}

const NOT_IN_VALUE_SET_ID = 'None_of_the_provided_codes_are_in_the_value_set_one';

/**
 * A validation of a known code, checked for membership: outside the ValueSet it becomes result
 * false with a not-in-vs issue (a coding within a CodeableConcept: an information issue
 * this-code-not-in-vs, the whole answer's error comes from codeableConceptOutcome). The issue
 * names the coding as sent, with its display when one was sent (omop-validate-bad-vs-coding).
 */
function membershipCheck(store: ReleaseStore, definition: ValueSetDefinition, reference: string, within: 'coding' | 'codeableConcept', sentDisplay?: string) {
  /** The codes found outside the ValueSet, in the order checked. */
  const outside: string[] = [];
  const check = (validation: CodeValidation, paths: CodingPaths): CodeValidation => {
    if (validation.display === undefined || validation.system === undefined || validation.code === undefined) return validation;
    const system = conceptCodeSystem(validation.system);
    const concept = system && conceptOfCode(store, system, validation.code, 'exact');
    const rule = concept ? memberRule(definition, concept) : undefined;
    if (rule && rule.system.canonical === system?.canonical) return validation;
    const coding = `${validation.system}#${validation.code}${sentDisplay !== undefined ? ` ('${sentDisplay}')` : ''}`;
    const text = `The provided code '${coding}' was not found in the value set '${reference}'`;
    const issue: ValidationIssue =
      within === 'coding'
        ? { severity: 'error', type: 'code-invalid', txIssueType: 'not-in-vs', messageId: NOT_IN_VALUE_SET_ID, text, path: paths.code }
        : { severity: 'information', type: 'code-invalid', txIssueType: 'this-code-not-in-vs', messageId: NOT_IN_VALUE_SET_ID, text, path: paths.code };
    outside.push(validation.code);
    const issues = [...validation.issues, issue];
    return { ...validation, result: false, issues, message: [`Code '${validation.code}' is not in the value set`, ...issues.map((i) => i.text)].join('; ') };
  };
  return { check, outside };
}

/** A CodeableConcept none of whose codings is in the ValueSet: the general error first, and no single code named (omop-validate-bad-vs-codeableconcept). */
function codeableConceptOutcome(validation: CodeValidation, reference: string, outside: readonly string[]): CodeValidation {
  if (validation.result || outside.length === 0) return validation;
  const text = `No valid coding was found for the value set '${reference}'`;
  const general: ValidationIssue = { severity: 'error', type: 'code-invalid', txIssueType: 'not-in-vs', messageId: 'TX_GENERAL_CC_ERROR_MESSAGE', text };
  const codes = outside.map((code) => `Code '${code}' is not in the value set`);
  const others = validation.issues.filter((i) => i.txIssueType !== 'this-code-not-in-vs');
  return {
    result: false,
    ...(validation.display !== undefined ? { display: validation.display } : {}),
    issues: [general, ...validation.issues],
    message: [...codes, text, ...others.map((i) => i.text)].join('; '),
  };
}

/**
 * Validates one coding against the ValueSet. `sentDisplay`: the display of the coding as the
 * request sent it in a Coding, which the not-in-vs issue names.
 */
export function validateCodingInValueSet(
  view: ReleaseView,
  releaseVersion: string,
  definition: ValueSetDefinition,
  coding: CodingInput & { system: string; code: string },
  paths: CodingPaths,
  sentDisplay?: string,
): CodeValidation {
  const reference = valueSetReference(definition, releaseVersion);
  const { check } = membershipCheck(view.store, definition, reference, 'coding', sentDisplay);
  return check(validateCoding(view, releaseVersion, coding, paths), paths);
}

/** Validates a CodeableConcept against the ValueSet: valid when one of its codings is a valid code of the ValueSet. */
export function validateCodeableConceptInValueSet(
  view: ReleaseView,
  releaseVersion: string,
  definition: ValueSetDefinition,
  codings: readonly CodingInput[],
): CodeValidation {
  const reference = valueSetReference(definition, releaseVersion);
  const { check, outside } = membershipCheck(view.store, definition, reference, 'codeableConcept');
  return codeableConceptOutcome(validateCodeableConcept(view, releaseVersion, codings, check), reference, outside);
}
