/**
 * ValueSet/$validate-code on every FHIR version, GET and POST: reads the ValueSet and the code; the validation and
 * the membership check are src/services/terminology/value-set-validation.ts.
 */
import type { FastifyInstance } from 'fastify';
import { validateCodeableConceptInValueSet, validateCodingInValueSet } from '../../../services/terminology/value-set-validation.js';
import { conceptSetMembers } from '../../../services/terminology/value-set-expansion.js';
import { fhirCodeSystemVersion, registerFhirOperation, type FhirOperationContext } from '../fhir-operation.js';
import { parametersResource } from '../fhir-resources.js';
import { codeableConceptToValidate, codingToValidate, validationParameters, type CodeParameterNames } from '../validate-code-parameters.js';
import { requestedDefinition, VALUE_SET_INPUT } from '../valueset-parameters.js';

/** ValueSet/$validate-code names the code system `system`, its version `systemVersion` (or `version`). */
const VALUE_SET_CODE_PARAMETERS: CodeParameterNames = { system: ['system'], version: ['systemVersion', 'version'] };

async function validateInValueSet(ctx: FhirOperationContext): Promise<object> {
  const { params, view } = ctx;
  const releaseVersion = fhirCodeSystemVersion(view);
  const definition = await conceptSetMembers(view, requestedDefinition(ctx, false), false);
  const codeableConcept = codeableConceptToValidate(params);
  if (codeableConcept) {
    const validation = validateCodeableConceptInValueSet(view, releaseVersion, definition, codeableConcept.coding);
    return parametersResource(validationParameters(validation, codeableConcept.concept));
  }
  const single = codingToValidate(params, VALUE_SET_CODE_PARAMETERS);
  const validation = validateCodingInValueSet(view, releaseVersion, definition, single.coding, single.paths, params.coding('coding')?.display);
  return parametersResource(validationParameters(validation, undefined));
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
