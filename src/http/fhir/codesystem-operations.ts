/**
 * CodeSystem/$lookup (E13), CodeSystem/$validate-code and CodeSystem/$subsumes on every FHIR
 * version, GET and POST: reads the operation's parameters, calls the terminology service
 * (src/services/terminology/) and writes its answer as a Parameters resource.
 *
 * Version differences: $lookup on r5/r6 also returns the looked-up `code` and `system` (R5 output
 * parameters the HL7 tests accept; R4's definition has neither). The other R5 additions have nothing
 * to carry for OMOP (no concept definitions, no designation additionalUse). $validate-code returns
 * R5's `code`, `system`, `version`, `codeableConcept` and `issues` on every version, as the HL7
 * terminology ecosystem expects of R4 servers too (fhir-and-omop-notes.md §3.3); $subsumes is the
 * same on all versions. Property dates are `valueDate`, as in the HL7 OMOP $lookup fixtures.
 */
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../services/errors.js';
import { lookupConcept, type ConceptLookup, type LookupPropertyValue } from '../../services/terminology/concept-lookup.js';
import { validateCodeableConcept, validateCoding } from '../../services/terminology/code-validation.js';
import { terminologySystem } from '../../services/terminology/code-system-concept.js';
import { subsumption } from '../../services/terminology/subsumption.js';
import { fhirCodeSystemVersion, registerFhirOperation, usesR5Terminology, type FhirOperationContext } from './fhir-operation.js';
import { parametersResource, type FhirParameter } from './fhir-resources.js';
import { codeableConceptToValidate, codingToValidate, validationParameters, type CodeParameterNames } from './validate-code-parameters.js';

const PREFERRED_FOR_LANGUAGE = {
  system: 'http://terminology.hl7.org/CodeSystem/hl7TermMaintInfra',
  code: 'preferredForLanguage',
  display: 'Preferred For Language',
};
/** CodeSystem/$validate-code names the code system `url` (or `system`). */
const CODE_SYSTEM_PARAMETERS: CodeParameterNames = { system: ['url', 'system'], version: ['version'] };

function required(value: string | undefined, message: string, parameter: string): string {
  if (value === undefined || value === '') throw validationError(message, { parameter });
  return value;
}

// ---- $lookup ---------------------------------------------------------------------------------

function propertyValue(value: LookupPropertyValue): Record<string, unknown> {
  switch (value.type) {
    case 'code':
      return { valueCode: value.value };
    case 'string':
      return { valueString: value.value };
    case 'boolean':
      return { valueBoolean: value.value };
    case 'date':
      return { valueDate: value.value };
    case 'coding':
      return { valueCoding: value.value };
  }
}

function lookupParameters(lookup: ConceptLookup, ctx: FhirOperationContext): FhirParameter[] {
  const out: FhirParameter[] = [
    { name: 'name', valueString: lookup.name },
    { name: 'version', valueString: lookup.version },
    { name: 'display', valueString: lookup.display },
  ];
  if (usesR5Terminology(ctx.version)) out.push({ name: 'code', valueCode: lookup.code }, { name: 'system', valueUri: lookup.system });
  for (const d of lookup.designations) {
    const part: FhirParameter[] = [];
    if (d.language) part.push({ name: 'language', valueCode: d.language });
    if (d.preferred) part.push({ name: 'use', valueCoding: PREFERRED_FOR_LANGUAGE });
    part.push({ name: 'value', valueString: d.value });
    out.push({ name: 'designation', part });
  }
  for (const p of lookup.properties) {
    out.push({ name: 'property', part: [{ name: 'code', valueCode: p.code }, { name: 'value', ...propertyValue(p.value) }] });
  }
  return out;
}

function lookup(ctx: FhirOperationContext): object {
  const coding = ctx.params.coding('coding');
  const code = required(ctx.params.get('code') ?? coding?.code, "Parameter 'code' (or 'coding' with a code) is required.", 'code');
  const system = required(ctx.params.get('system') ?? coding?.system, "Parameter 'system' (or 'coding' with a system) is required.", 'system');
  const version = ctx.params.get('version') ?? coding?.version;
  const result = lookupConcept(ctx.store, ctx.policy, fhirCodeSystemVersion(ctx.store), {
    system,
    code,
    ...(version !== undefined ? { version } : {}),
    properties: ctx.params.all('property'),
  });
  return parametersResource(lookupParameters(result, ctx));
}

// ---- $validate-code --------------------------------------------------------------------------

function validateCode(ctx: FhirOperationContext): object {
  const releaseVersion = fhirCodeSystemVersion(ctx.store);
  const codeableConcept = codeableConceptToValidate(ctx.params);
  if (codeableConcept) {
    const validation = validateCodeableConcept(ctx.store, ctx.policy, releaseVersion, codeableConcept.coding);
    return parametersResource(validationParameters(validation, codeableConcept.concept));
  }
  const single = codingToValidate(ctx.params, CODE_SYSTEM_PARAMETERS);
  return parametersResource(validationParameters(validateCoding(ctx.store, ctx.policy, releaseVersion, single.coding, single.paths), undefined));
}

// ---- $subsumes -------------------------------------------------------------------------------

function subsumes(ctx: FhirOperationContext): object {
  const { params } = ctx;
  const system = params.get('system');
  const codingA = params.coding('codingA');
  const codingB = params.coding('codingB');
  const codeA = required(params.get('codeA') ?? codingA?.code, "Parameter 'codeA' (or 'codingA' with a code) is required.", 'codeA');
  const codeB = required(params.get('codeB') ?? codingB?.code, "Parameter 'codeB' (or 'codingB' with a code) is required.", 'codeB');
  const systems = [codingA?.system, codingB?.system, system].filter((s): s is string => s !== undefined);
  const chosen = required(systems[0], "Parameter 'system' (or codings with a system) is required.", 'system');
  const sameSystem = (s: string) => s === chosen || (terminologySystem(s)?.canonical ?? s) === (terminologySystem(chosen)?.canonical ?? chosen);
  if (!systems.every(sameSystem)) throw validationError(`codeA and codeB must be codes of one code system; got ${[...new Set(systems)].join(' and ')}.`, { parameter: 'system' });
  const version = params.get('version') ?? codingA?.version ?? codingB?.version;
  const outcome = subsumption(ctx.store, ctx.policy, fhirCodeSystemVersion(ctx.store), {
    system: chosen,
    codeA,
    codeB,
    ...(version !== undefined ? { version } : {}),
  });
  return parametersResource([{ name: 'outcome', valueCode: outcome }]);
}

export function registerCodeSystemOperations(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/CodeSystem/$lookup',
    summary: 'Look up a code (E13)',
    description:
      "Everything known about one code: `system` (the OMOP system https://fhir-terminology.ohdsi.org, codes = concept_ids, or a vocabulary's URI, codes = concept_codes) and `code`, or `coding`; `version` (the release's YYYYMMDD); `property` (repeatable) selects properties (default all): concept-class-id, domain-id, vocabulary-id, standard-concept, inactive, valid-start-date, valid-end-date, invalid-reason, source-concept-code, the class/domain/vocabulary concept ids, and relationship ids such as `Maps to` or `Is a`. Unknown system, version or code: 404 not-found.",
    handler: lookup,
  });
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/CodeSystem/$validate-code',
    summary: 'Validate a code against a code system',
    description:
      '`url` (or `system`) with `code`, `version` and `display`; or `coding`; or `codeableConcept`. Answers `result`, `message`, `display`, `code`, `system`, `version` and an `issues` OperationOutcome; an unknown code, a wrong display or an unknown system or version is result false with an issue, not an error.',
    handler: validateCode,
  });
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/CodeSystem/$subsumes',
    summary: 'Test the subsumption of two codes',
    description:
      '`codeA`, `codeB` and `system` (or `codingA`, `codingB`), `version`: `outcome` equivalent, subsumes (A is an ancestor of B in CONCEPT_ANCESTOR), subsumed-by or not-subsumed. Unknown system, version or code: 404 not-found.',
    handler: subsumes,
  });
}
