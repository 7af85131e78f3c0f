/**
 * ValueSet/$expand and ValueSet/$validate-code on every FHIR version, GET and POST, over
 * src/services/terminology/value-set-compose.ts (which ValueSet) and value-set-expansion.ts (its
 * members). This file reads the FHIR input and writes the FHIR output.
 *
 * The ValueSet is named by `url` (an implicit `{system}?fhir_vs[=isa/{code}]` URL, an OMOP domain
 * ValueSet `https://fhir-terminology.ohdsi.org/ValueSet/{domain_id}`, or the url of a ValueSet sent
 * as a `tx-resource`) or sent inline as `valueSet` (POST). The one version difference: r5/r6 carry
 * `expansion.next`, the URL of the following page, when a ValueSet named by url is paged (R4 has no
 * such element). $validate-code answers on every version as CodeSystem/$validate-code does (R5's
 * outputs too, as the HL7 ecosystem expects), plus membership: a known code outside the ValueSet is
 * result false with a `not-in-vs` issue (the HL7 OMOP omop-validate-*-vs-* fixtures' wording).
 */
import { MAX_REGEX_LENGTH, MAX_REGEX_REPETITIONS } from '../../services/terminology/value-set-compose.js';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../services/errors.js';
import { validateCodeableConcept, validateCoding, type CodeValidation, type CodingPaths, type ValidationIssue } from '../../services/terminology/code-validation.js';
import { conceptCodeSystem, conceptOfCode } from '../../services/terminology/code-system-concept.js';
import { definitionOfResource, definitionOfUrl, FILTER_OPERATORS, OMOP_DOMAIN_VALUE_SET_PREFIX, type ValueSetDefinition } from '../../services/terminology/value-set-compose.js';
import { expandValueSet, MAX_EXPANSION_PAGE, memberRule, type Expansion } from '../../services/terminology/value-set-expansion.js';
import { fhirCodeSystemVersion, registerFhirOperation, usesR5Terminology, type FhirOperationContext } from './fhir-operation.js';
import { fhirBase, parametersResource, type FhirParameter } from './fhir-resources.js';
import { codeableConceptToValidate, codingToValidate, validationParameters, type CodeParameterNames } from './validate-code-parameters.js';

/** OMOP's English language concept (CONCEPT_SYNONYM.language_concept_id). */
const ENGLISH_LANGUAGE_CONCEPT_ID = 4180186;

/** Parameters $expand echoes in expansion.parameter (as given). */
const ECHOED_PARAMETERS = ['filter', 'offset', 'count', 'activeOnly', 'includeDesignations'] as const;

/** The ValueSet the request names: `valueSet` inline, or `url` (with the `tx-resource` ValueSets sent along). */
function requestedDefinition(ctx: FhirOperationContext, activeOnly: boolean): ValueSetDefinition {
  const { params, store, policy } = ctx;
  const options = { activeOnly };
  const inline = params.resource('valueSet');
  if (inline) return definitionOfResource(store, policy, inline, options);
  const url = params.get('url');
  if (url === undefined || url.trim() === '') throw validationError("Parameter 'url' (or 'valueSet', a ValueSet resource) is required.", { parameter: 'url' });
  return definitionOfUrl(store, policy, url.trim(), params.resources('tx-resource'), options);
}

// ---- $expand -----------------------------------------------------------------------------------

function designations(member: Expansion['members'][number]): object[] | undefined {
  return member.designations?.map((s) => ({
    ...(s.language_concept_id === ENGLISH_LANGUAGE_CONCEPT_ID ? { language: 'en' } : {}),
    value: s.concept_synonym_name,
  }));
}

function nextPageUrl(ctx: FhirOperationContext, definition: ValueSetDefinition, expansion: Expansion): string | undefined {
  const end = expansion.offset + expansion.members.length;
  if (!definition.named || !definition.url || expansion.members.length === 0 || end >= expansion.total) return undefined;
  const query = new URLSearchParams({ url: definition.url });
  for (const name of ['filter', 'activeOnly', 'includeDesignations']) {
    const value = ctx.params.get(name);
    if (value !== undefined) query.set(name, value);
  }
  query.set('offset', String(end));
  query.set('count', String(expansion.members.length));
  return `${fhirBase(ctx.request, ctx.version)}/ValueSet/$expand?${query.toString()}`;
}

/**
 * The expanded ValueSet's own elements: the url and version of a ValueSet sent (nothing else of it,
 * as in the HL7 omop-expand-explicit answer), or url, version and status of one this server defines.
 */
function valueSetMetadata(definition: ValueSetDefinition, releaseVersion: string): object {
  const url = definition.url !== undefined ? { url: definition.url } : {};
  if (definition.sent) return { resourceType: 'ValueSet', ...url, ...(definition.version !== undefined ? { version: definition.version } : {}) };
  return { resourceType: 'ValueSet', ...url, version: definition.version ?? releaseVersion, status: 'active' };
}

function expand(ctx: FhirOperationContext): object {
  const { params, store, policy } = ctx;
  const activeOnly = params.boolean('activeOnly') ?? false;
  const count = params.integer('count');
  const definition = requestedDefinition(ctx, activeOnly);
  const filter = params.get('filter');
  const expansion = expandValueSet(store, policy, definition, {
    ...(filter !== undefined ? { filter } : {}),
    offset: params.integer('offset') ?? 0,
    ...(count !== undefined ? { count } : {}),
    includeDesignations: params.boolean('includeDesignations') ?? false,
  });
  const releaseVersion = fhirCodeSystemVersion(store);
  const parameter = ECHOED_PARAMETERS.flatMap((name): FhirParameter[] => {
    const value = params.get(name);
    if (value === undefined) return [];
    if (name === 'filter') return [{ name, valueString: value }];
    return [name === 'offset' || name === 'count' ? { name, valueInteger: Number(value) } : { name, valueBoolean: value === 'true' }];
  });
  parameter.push(...expansion.systems.map((system) => ({ name: 'used-codesystem', valueUri: `${system}|${releaseVersion}` })));
  const next = usesR5Terminology(ctx.version) ? nextPageUrl(ctx, definition, expansion) : undefined;
  return {
    ...valueSetMetadata(definition, releaseVersion),
    expansion: {
      identifier: `urn:uuid:${randomUUID()}`,
      timestamp: new Date().toISOString(),
      total: expansion.total,
      ...(params.has('offset') || params.has('count') ? { offset: expansion.offset } : {}),
      ...(next ? { next } : {}),
      parameter,
      ...(expansion.members.length
        ? {
            contains: expansion.members.map((m) => {
              const designation = designations(m);
              return {
                system: m.system,
                code: m.code,
                display: m.concept.concept_name,
                ...(m.concept.invalid_reason !== null ? { inactive: true } : {}),
                ...(designation?.length ? { designation } : {}),
              };
            }),
          }
        : {}),
    },
  };
}

// ---- $validate-code ----------------------------------------------------------------------------

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

const VALUE_SET_INPUT =
  '`url`: an implicit ValueSet `{system}?fhir_vs` (every concept of the code system) or `{system}?fhir_vs=isa/{code}` (the concept and its ' +
  `descendants, CONCEPT_ANCESTOR), an OMOP domain ValueSet \`${OMOP_DOMAIN_VALUE_SET_PREFIX}{domain_id}\` (the domain's valid standard concepts), ` +
  'or the url of a ValueSet sent as `tx-resource`; or `valueSet` (POST), a ValueSet resource whose compose.include/exclude give a `system`, ' +
  `a \`concept\` list and \`filter\`s (op ${FILTER_OPERATORS.join(', ')}; property concept, domain-id, vocabulary-id, concept-class-id, ` +
  'standard-concept). An unknown url or code system is 404 not-found; a compose this server cannot read is 400.';

export function registerValueSetOperations(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/ValueSet/$expand',
    summary: 'Expand a ValueSet',
    description:
      `The members of a ValueSet, paged in a stable order with an exact \`total\`. ${VALUE_SET_INPUT} Parameters: \`offset\`, \`count\`, ` +
      '`filter` (text: keyword search within the set, its first 1000 matches, in ranking order), `activeOnly`, `includeDesignations` ' +
      `(synonyms). One answer lists at most ${MAX_EXPANSION_PAGE} codes: a larger page is 422 too-costly (page with count and offset). ` +
      'r5/r6 add `expansion.next`, the URL of the next page, for a ValueSet named by url. A compose `regex` filter is matched against ' +
      `the whole value, at most ${MAX_REGEX_LENGTH} characters, with at most ${MAX_REGEX_REPETITIONS} repetitions and no repeated group or ` +
      'backreference (400 otherwise: a pattern that can backtrack without bound would hold the server).',
    handler: expand,
  });
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
