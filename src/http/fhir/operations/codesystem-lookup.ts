/**
 * CodeSystem/$lookup (E13), GET and POST on every FHIR version: reads the code and `property`, looks it up with
 * src/services/terminology/code-system-lookup.ts and writes the Parameters answer for the version.
 */
import type { FastifyInstance } from 'fastify';
import type { ReleaseView } from '../../../services/release-view.js';
import { lookupConcept, type ConceptLookup, type ConceptLookupRequest, type LookupPropertyValue } from '../../../services/terminology/code-system-lookup.js';
import { fhirCodeSystemVersion, registerFhirOperation, usesR5Terminology, type FhirOperationContext, type FhirVersion } from '../fhir-operation.js';
import { parametersResource, type FhirParameter } from '../fhir-resources.js';
import { requiredParameter as required } from '../operation-parameters.js';

const PREFERRED_FOR_LANGUAGE = {
  system: 'http://terminology.hl7.org/CodeSystem/hl7TermMaintInfra',
  code: 'preferredForLanguage',
  display: 'Preferred For Language',
};

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

function lookupParameters(lookup: ConceptLookup, version: FhirVersion): FhirParameter[] {
  const out: FhirParameter[] = [
    { name: 'name', valueString: lookup.name },
    { name: 'version', valueString: lookup.version },
    { name: 'display', valueString: lookup.display },
  ];
  if (usesR5Terminology(version)) out.push({ name: 'code', valueCode: lookup.code }, { name: 'system', valueUri: lookup.system });
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
  return lookupResource(ctx.view, ctx.version, {
    system,
    code,
    ...(version !== undefined ? { version } : {}),
    properties: ctx.params.all('property'),
  });
}

/** The $lookup answer (a Parameters resource) for a FHIR version: the operation's, and the concept page's FHIR view. */
export function lookupResource(view: ReleaseView, fhirVersion: FhirVersion, request: ConceptLookupRequest): object {
  return parametersResource(lookupParameters(lookupConcept(view, fhirCodeSystemVersion(view), request), fhirVersion));
}

export function registerLookupOperation(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/CodeSystem/$lookup',
    summary: 'Look up a code (E13)',
    description:
      "Everything known about one code: `system` (the OMOP system https://fhir-terminology.ohdsi.org, codes = concept_ids, or a vocabulary's URI, codes = concept_codes) and `code`, or `coding`; `version` (the release's YYYYMMDD); `property` (repeatable) selects properties (default all): concept-class-id, domain-id, vocabulary-id, standard-concept, inactive, valid-start-date, valid-end-date, invalid-reason, source-concept-code, the class/domain/vocabulary concept ids, and relationship ids such as `Maps to` or `Is a`. Unknown system, version or code: 404 not-found.",
    handler: lookup,
  });
}
