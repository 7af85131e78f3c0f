/**
 * What the FHIR surface says about itself (fhir-and-omop-notes.md §3.11):
 *   GET /fhir/{v}/metadata                    CapabilityStatement (instantiates the terminology-server statement)
 *   GET /fhir/{v}/metadata?mode=terminology   TerminologyCapabilities: every code system of the selected release
 *   GET /fhir/{v}/$versions                   the FHIR versions served and the default
 * The operations listed are the ones this server registers (one list, FHIR_CAPABILITIES, that the
 * operation files' registrations are checked against in the tests).
 */
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../services/errors.js';
import { OMOP_CONCEPT_SYSTEM, systemForVocabulary } from '../../services/fhir/code-system-uris.js';
import { VERSION } from '../../version.js';
import { FHIR_RELEASE_NUMBERS, FHIR_VERSIONS, fhirCodeSystemVersion, registerFhirOperation, type FhirOperationContext } from './fhir-operation.js';
import { parametersResource } from './fhir-resources.js';

/** Resource types and the interactions / operations served for each (kept in step with the registrations). */
export const FHIR_CAPABILITIES: Record<string, { interactions: string[]; operations: string[] }> = {
  CodeSystem: { interactions: ['read', 'search-type'], operations: ['lookup', 'validate-code', 'subsumes', 'find-matches', 'diff'] },
  ValueSet: { interactions: ['search-type'], operations: ['expand', 'validate-code'] },
  ConceptMap: { interactions: [], operations: ['translate', 'closure'] },
};

/** The HL7 OperationDefinition of a resource type's operation (CodeSystem-lookup, ValueSet-expand, …). */
const operationDefinition = (type: string, name: string) => `http://hl7.org/fhir/OperationDefinition/${type}-${name}`;

function capabilityStatement(ctx: FhirOperationContext): object {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: ctx.store.manifest.loaded_at,
    kind: 'instance',
    instantiates: ['http://hl7.org/fhir/CapabilityStatement/terminology-server'],
    software: { name: 'omopterm', version: VERSION },
    implementation: { description: `omopterm FHIR terminology server, OMOP vocabulary release ${ctx.releaseLabel}` },
    fhirVersion: FHIR_RELEASE_NUMBERS[ctx.version],
    format: ['application/fhir+json', 'application/fhir+xml'],
    rest: [
      {
        mode: 'server',
        security: { description: 'Authorization: Bearer <API key> on every request.' },
        // POST /fhir/{v} with a batch Bundle of GET entries (./batch-bundle.ts).
        interaction: [{ code: 'batch' }],
        resource: Object.entries(FHIR_CAPABILITIES).map(([type, cap]) => ({
          type,
          ...(cap.interactions.length ? { interaction: cap.interactions.map((code) => ({ code })) } : {}),
          ...(cap.operations.length ? { operation: cap.operations.map((name) => ({ name, definition: operationDefinition(type, name) })) } : {}),
        })),
      },
    ],
  };
}

function terminologyCapabilities(ctx: FhirOperationContext): object {
  const version = fhirCodeSystemVersion(ctx.store);
  const vocabularies = ctx.store.metadata
    .vocabularies()
    .filter((v) => ctx.policy.canSee(v.vocabulary_id))
    .map((v) => ({ uri: systemForVocabulary(v.vocabulary_id), version: v.vocabulary_version }))
    .filter((v): v is { uri: string; version: string | null } => v.uri !== undefined);
  const codeSystem = [
    { uri: OMOP_CONCEPT_SYSTEM, version: [{ code: version, isDefault: true }], subsumption: true },
    ...vocabularies.map((v) => ({ uri: v.uri, version: [{ code: v.version ?? version, isDefault: true }], subsumption: true })),
  ];
  return {
    resourceType: 'TerminologyCapabilities',
    status: 'active',
    date: ctx.store.manifest.loaded_at,
    kind: 'instance',
    software: { name: 'omopterm', version: VERSION },
    codeSystem,
    closure: { translation: false },
  };
}

export function registerMetadataOperations(app: FastifyInstance): void {
  registerFhirOperation(app, {
    methods: ['GET'],
    path: '/metadata',
    summary: 'CapabilityStatement, or TerminologyCapabilities with mode=terminology',
    description: 'The server\'s CapabilityStatement (instantiates the HL7 terminology-server statement); `mode=terminology` lists every code system of the selected release with its version.',
    handler: (ctx) => {
      const mode = ctx.params.get('mode');
      if (mode === undefined || mode === 'full' || mode === 'normative') return capabilityStatement(ctx);
      if (mode === 'terminology') return terminologyCapabilities(ctx);
      throw validationError(`Parameter 'mode' must be full, normative or terminology, not '${mode}'.`, { parameter: 'mode' });
    },
  });
  registerFhirOperation(app, {
    methods: ['GET'],
    path: '/$versions',
    summary: 'FHIR versions served',
    description: 'Parameters with one `version` per FHIR version served and the `default` (r4).',
    handler: () =>
      parametersResource([
        ...FHIR_VERSIONS.map((v) => ({ name: 'version', valueCode: FHIR_RELEASE_NUMBERS[v].split('.').slice(0, 2).join('.') })),
        { name: 'default', valueCode: FHIR_RELEASE_NUMBERS.r4.split('.').slice(0, 2).join('.') },
      ]),
  });
}
