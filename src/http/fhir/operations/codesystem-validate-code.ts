/**
 * CodeSystem/$validate-code, GET and POST on every FHIR version: reads the code, validates it with
 * src/services/terminology/code-validation.ts and writes the Parameters answer with R5's outputs on every version.
 */
import type { FastifyInstance } from 'fastify';
import { validateCodeableConcept, validateCoding } from '../../../services/terminology/code-validation.js';
import { fhirCodeSystemVersion, registerFhirOperation, type FhirOperationContext } from '../fhir-operation.js';
import { parametersResource } from '../fhir-resources.js';
import { codeableConceptToValidate, codingToValidate, validationParameters, type CodeParameterNames } from '../validate-code-parameters.js';

/** CodeSystem/$validate-code names the code system `url` (or `system`). */
const CODE_SYSTEM_PARAMETERS: CodeParameterNames = { system: ['url', 'system'], version: ['version'] };

function validateCode(ctx: FhirOperationContext): object {
  const releaseVersion = fhirCodeSystemVersion(ctx.view);
  const codeableConcept = codeableConceptToValidate(ctx.params);
  if (codeableConcept) {
    const validation = validateCodeableConcept(ctx.view, releaseVersion, codeableConcept.coding);
    return parametersResource(validationParameters(validation, codeableConcept.concept));
  }
  const single = codingToValidate(ctx.params, CODE_SYSTEM_PARAMETERS);
  return parametersResource(validationParameters(validateCoding(ctx.view, releaseVersion, single.coding, single.paths), undefined));
}

export function registerCodeSystemValidateCodeOperation(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/CodeSystem/$validate-code',
    summary: 'Validate a code against a code system',
    description:
      '`url` (or `system`) with `code`, `version` and `display`; or `coding`; or `codeableConcept`. Answers `result`, `message`, `display`, `code`, `system`, `version` and an `issues` OperationOutcome; an unknown code, a wrong display or an unknown system or version is result false with an issue, not an error.',
    handler: validateCode,
  });
}
