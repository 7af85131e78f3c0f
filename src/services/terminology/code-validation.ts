/**
 * CodeSystem/$validate-code as domain logic: whether a code, Coding or CodeableConcept is a code of the named
 * system in this release with a right display, a code-level problem being result false with an issue, never an
 * error.
 */
import type { ReleaseView } from '../release-view.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { assertSystemVisible, codeOfConcept, conceptCodeSystem, conceptOfCode, isKnownVersion, unknownSystemMessage, unknownVersionMessage } from './code-system-concept.js';

export interface CodingInput {
  system?: string;
  version?: string;
  code?: string;
  display?: string;
  /** The request's `displayLanguage` (a BCP-47 code), named in a wrong-display message. */
  displayLanguage?: string;
}

/**
 * What a wrong-display message names as its language(s) when the request gave none: '--', as
 * tx.fhir.org writes it and the HL7 OMOP conformance fixtures (omop-validate-bad-display-*.json)
 * expect it word for word.
 */
const NO_DISPLAY_LANGUAGE = '--';

export type ValidationIssueType = 'code-invalid' | 'invalid' | 'not-found';

export interface ValidationIssue {
  severity: 'error' | 'warning' | 'information';
  type: ValidationIssueType;
  /** http://hl7.org/fhir/tools/CodeSystem/tx-issue-type code. */
  txIssueType: 'invalid-code' | 'invalid-display' | 'not-found' | 'invalid-data' | 'not-in-vs' | 'this-code-not-in-vs';
  /** tx.fhir.org's message id (operationoutcome-message-id extension). */
  messageId: string;
  text: string;
  /** Path of the element the issue is about (FHIR issue location/expression); none for an issue about the whole input. */
  path?: string;
}

export interface CodeValidation {
  result: boolean;
  /** The validated coding's system, code and version (absent when no coding of a known system was read). */
  system?: string;
  code?: string;
  version?: string;
  /** The concept's name, when the code is known. */
  display?: string;
  issues: ValidationIssue[];
  /** The answer's `message` when it is not the issues' texts joined (ValueSet/$validate-code). */
  message?: string;
  /** `system|version` of a system or version this server does not have. */
  unknownSystem?: string;
}

/** How the code was given: the paths its issues point at. */
export interface CodingPaths {
  system: string;
  code: string;
  display: string;
}

export const CODE_PATHS: CodingPaths = { system: 'system', code: 'code', display: 'display' };
export const CODING_PATHS: CodingPaths = { system: 'Coding.system', code: 'Coding.code', display: 'Coding.display' };

export function codeableConceptPaths(index: number): CodingPaths {
  const prefix = `CodeableConcept.coding[${index}]`;
  return { system: `${prefix}.system`, code: `${prefix}.code`, display: `${prefix}.display` };
}

const normalisedDisplay = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

function displayIssue(
  store: ReleaseStore,
  concept: ConceptRecord,
  system: string,
  code: string,
  display: string,
  displayLanguage: string | undefined,
  path: string,
): ValidationIssue | undefined {
  const valid = [concept.concept_name, ...store.concepts.synonyms(concept.concept_id).map((s) => s.concept_synonym_name)];
  const wanted = normalisedDisplay(display);
  if (valid.some((v) => normalisedDisplay(v) === wanted)) return undefined;
  const choices = [...new Set(valid)].map((v) => `'${v}' (en)`);
  const validText = choices.length === 1 ? `Valid display is ${choices[0]}` : `Valid display is one of ${choices.length} choices: ${choices.join(', ')}`;
  return {
    severity: 'error',
    type: 'invalid',
    txIssueType: 'invalid-display',
    messageId: 'Display_Name_for__should_be_one_of__instead_of',
    text: `Wrong Display Name '${display}' for ${system}#${code}. ${validText} (for the language(s) '${displayLanguage ?? NO_DISPLAY_LANGUAGE}')`,
    path,
  };
}

/**
 * Validates one coding. The caller has checked that it has a system and a code. Throws 403 when
 * the code system or the concept is licensed away from the caller.
 */
export function validateCoding(
  view: ReleaseView,
  releaseVersion: string,
  coding: CodingInput & { system: string; code: string },
  paths: CodingPaths,
): CodeValidation {
  const codeSystem = conceptCodeSystem(coding.system);
  if (!codeSystem) {
    const text = unknownSystemMessage(coding.system, true);
    const unknown = coding.version === undefined ? coding.system : `${coding.system}|${coding.version}`;
    return {
      result: false,
      system: coding.system,
      code: coding.code,
      ...(coding.version !== undefined ? { version: coding.version } : {}),
      issues: [{ severity: 'error', type: 'not-found', txIssueType: 'not-found', messageId: 'UNKNOWN_CODESYSTEM', text, path: paths.system }],
      unknownSystem: unknown,
    };
  }
  assertSystemVisible(view, codeSystem);
  if (coding.version !== undefined && !isKnownVersion(view.store, codeSystem, coding.version, releaseVersion)) {
    const text = unknownVersionMessage(codeSystem.canonical, coding.version, releaseVersion, true);
    return {
      result: false,
      system: codeSystem.canonical,
      code: coding.code,
      version: coding.version,
      issues: [{ severity: 'error', type: 'not-found', txIssueType: 'not-found', messageId: 'UNKNOWN_CODESYSTEM_VERSION', text, path: paths.system }],
      unknownSystem: `${codeSystem.canonical}|${coding.version}`,
    };
  }
  const concept = conceptOfCode(view.store, codeSystem, coding.code, 'exact');
  if (!concept) {
    const text = `Unknown code '${coding.code}' in the CodeSystem '${codeSystem.canonical}' version '${releaseVersion}'`;
    return {
      result: false,
      system: codeSystem.canonical,
      code: coding.code,
      version: releaseVersion,
      issues: [{ severity: 'error', type: 'code-invalid', txIssueType: 'invalid-code', messageId: 'Unknown_Code_in_Version', text, path: paths.code }],
    };
  }
  view.assertVisible(concept.vocabulary_id);
  const code = codeOfConcept(codeSystem, concept);
  const issue = coding.display === undefined ? undefined : displayIssue(view.store, concept, codeSystem.canonical, code, coding.display, coding.displayLanguage, paths.display);
  return { result: !issue, system: codeSystem.canonical, code, version: releaseVersion, display: concept.concept_name, issues: issue ? [issue] : [] };
}

/**
 * Validates a CodeableConcept: valid when one of its codings is. The answer names the first valid
 * coding, or else the first coding whose code was found; issues of all codings are kept (as
 * warnings when the whole is valid). A coding without a system or code is an issue of its own.
 */
export function validateCodeableConcept(
  view: ReleaseView,
  releaseVersion: string,
  codings: readonly CodingInput[],
  /** A further check of each coding's validation (ValueSet membership); default none. */
  check: (validation: CodeValidation, paths: CodingPaths) => CodeValidation = (validation) => validation,
): CodeValidation {
  const results = codings.map((coding, index): CodeValidation => {
    const paths = codeableConceptPaths(index);
    if (coding.system === undefined || coding.code === undefined) {
      const missing = coding.system === undefined ? 'system' : 'code';
      const text = `The coding has no ${missing}, so it cannot be validated`;
      return { result: false, issues: [{ severity: 'error', type: 'invalid', txIssueType: 'invalid-data', messageId: 'Coding_has_no_system__cannot_validate', text, path: paths[missing] }] };
    }
    return check(validateCoding(view, releaseVersion, { ...coding, system: coding.system, code: coding.code }, paths), paths);
  });
  const chosen = results.find((r) => r.result) ?? results.find((r) => r.display !== undefined);
  const result = results.some((r) => r.result);
  const issues = results.flatMap((r) => r.issues).map((issue) => (result ? { ...issue, severity: 'warning' as const } : issue));
  const unknownSystem = results.find((r) => r.unknownSystem !== undefined)?.unknownSystem;
  return {
    result,
    ...(chosen ? { system: chosen.system, code: chosen.code, version: chosen.version, display: chosen.display } : {}),
    issues,
    ...(unknownSystem !== undefined ? { unknownSystem } : {}),
  };
}
