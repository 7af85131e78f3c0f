/**
 * ValueSet/$validate-code on every FHIR version, GET and POST: answers as CodeSystem/$validate-code
 * does (src/services/terminology/code-validation.ts, R5's outputs on every version, as the HL7
 * ecosystem expects), plus membership of the ValueSet (../valueset-parameters.ts;
 * src/services/terminology/value-set-expansion.ts memberRule): a known code outside the ValueSet is
 * result false with a `not-in-vs` issue (the HL7 OMOP omop-validate-*-vs-* fixtures' wording).
 */
import type { FastifyInstance } from 'fastify';
import { validateCodeableConcept, validateCoding, type CodeValidation, type CodingPaths, type ValidationIssue } from '../../../services/terminology/code-validation.js';
import { conceptCodeSystem, conceptOfCode } from '../../../services/terminology/code-system-concept.js';
import type { ValueSetDefinition } from '../../../services/terminology/value-set-compose.js';
import { memberRule } from '../../../services/terminology/value-set-expansion.js';
import { fhirCodeSystemVersion, registerFhirOperation, type FhirOperationContext } from '../fhir-operation.js';
import { parametersResource } from '../fhir-resources.js';
import { codeableConceptToValidate, codingToValidate, validationParameters, type CodeParameterNames } from '../validate-code-parameters.js';
import { requestedDefinition, VALUE_SET_INPUT } from '../valueset-parameters.js';

/** How the ValueSet is named in messages: `url|version` (the release's version for the ones this server defines). */
function valueSetReference(definition: ValueSetDefinition, releaseVersion: string): string {
  const url = definition.url ?? 'the inline ValueSet';
  const version = definition.version ?? (definition.named ? releaseVersion : undefined);
  return version === undefined ? url : `${url}|${version}`;
}

/** ValueSet/$validate-code names the code system `system`, its version `systemVersion` (or `version`). */
const VALUE_SET_CODE_PARAMETERS: CodeParameterNames = { system: ['system'], version: ['systemVersion', 'version'] };

const NOT_IN_VALUE_SET_ID = 'None_of_the_provided_codes_are_in_the_value_set_one';

/**
 * A validation of a known code, checked for membership: outside the ValueSet it becomes result
 * false with a not-in-vs issue (a coding within a CodeableConcept: an information issue
 * this-code-not-in-vs, the whole answer's error comes from codeableConceptOutcome). The issue
 * names the coding as sent, with its display when one was sent (omop-validate-bad-vs-coding).
 */
function membershipCheck(ctx: FhirOperationContext, definition: ValueSetDefinition, reference: string, within: 'coding' | 'codeableConcept', sentDisplay?: string) {
  /** The codes found outside the ValueSet, in the order checked. */
  const outside: string[] = [];
  const check = (validation: CodeValidation, paths: CodingPaths): CodeValidation => {
    if (validation.display === undefined || validation.system === undefined || validation.code === undefined) return validation;
    const system = conceptCodeSystem(validation.system);
    const concept = system && conceptOfCode(ctx.store, system, validation.code, 'exact');
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

function validateInValueSet(ctx: FhirOperationContext): object {
  const { params, store, policy } = ctx;
  const releaseVersion = fhirCodeSystemVersion(store);
  const definition = requestedDefinition(ctx, false);
  const reference = valueSetReference(definition, releaseVersion);
  const codeableConcept = codeableConceptToValidate(params);
  if (codeableConcept) {
    const { check, outside } = membershipCheck(ctx, definition, reference, 'codeableConcept');
    const validation = validateCodeableConcept(store, policy, releaseVersion, codeableConcept.coding, check);
    return parametersResource(validationParameters(codeableConceptOutcome(validation, reference, outside), codeableConcept.concept));
  }
  const single = codingToValidate(params, VALUE_SET_CODE_PARAMETERS);
  const { check } = membershipCheck(ctx, definition, reference, 'coding', params.coding('coding')?.display);
  return parametersResource(validationParameters(check(validateCoding(store, policy, releaseVersion, single.coding, single.paths), single.paths), undefined));
}

export function registerValueSetValidateCodeOperation(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/ValueSet/$validate-code',
    summary: 'Validate a code against a ValueSet',
    description:
      `Whether a code is a member of a ValueSet. ${VALUE_SET_INPUT} The code: \`code\` with \`system\` (\`systemVersion\`, \`display\`), ` +
      'or `coding`, or `codeableConcept`. Answers `result`, `message`, `display`, `code`, `system`, `version` and an `issues` ' +
      'OperationOutcome: an unknown code, a wrong display or a code outside the ValueSet (`not-in-vs`) is result false, not an error.',
    handler: validateInValueSet,
  });
}
