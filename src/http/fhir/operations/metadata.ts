/**
 * What the FHIR surface says about itself: the CapabilityStatement, the TerminologyCapabilities and $versions,
 * listing the resources, interactions and operations actually registered.
 */
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../../services/errors.js';
import type { ReleaseView } from '../../../services/release-view.js';
import { OMOP_CONCEPT_SYSTEM, systemForVocabulary } from '../../../services/fhir/code-system-uris.js';
import { VERSION } from '../../../version.js';
import { FHIR_RELEASE_NUMBERS, FHIR_VERSIONS, fhirCodeSystemVersion, registeredFhirOperations, registerFhirOperation, type FhirOperationContext, type FhirVersion } from '../fhir-operation.js';
import { parametersResource } from '../fhir-resources.js';

/** The version code $versions uses for a path version: major.minor of its FHIR release (r4b → 4.3). */
function majorMinor(version: FhirVersion): string {
  return FHIR_RELEASE_NUMBERS[version].split('.').slice(0, 2).join('.');
}

/**
 * Resource types with the interactions and operations served for each, read from the registered
 * FHIR interactions (../fhir-operation.ts), so the statement cannot drift from what is served:
 * `/CodeSystem` → search-type, `/CodeSystem/:id` → read, `/CodeSystem/$lookup` → operation lookup.
 */
export function fhirCapabilities(app: FastifyInstance): Record<string, { interactions: string[]; operations: string[] }> {
  const capabilities: Record<string, { interactions: string[]; operations: string[] }> = {};
  for (const spec of registeredFhirOperations(app)) {
    const [type, second, ...rest] = spec.path.split('/').filter(Boolean);
    if (!type || !/^[A-Z]/.test(type) || rest.length > 0) continue;
    const entry = (capabilities[type] ??= { interactions: [], operations: [] });
    if (second === undefined) entry.interactions.push('search-type');
    else if (second.startsWith(':')) entry.interactions.push('read');
    else if (second.startsWith('$')) entry.operations.push(second.slice(1));
  }
  for (const entry of Object.values(capabilities)) entry.interactions.sort();
  return capabilities;
}

/** The HL7 OperationDefinition of a resource type's operation (CodeSystem-lookup, ValueSet-expand, …). */
const operationDefinition = (type: string, name: string) => `http://hl7.org/fhir/OperationDefinition/${type}-${name}`;

function capabilityStatement(ctx: FhirOperationContext): object {
  return capabilityStatementResource(ctx.request.server, ctx.view, ctx.version);
}

/** The CapabilityStatement of a FHIR version for a release: the /metadata answer, and the browser's FHIR metadata page. */
export function capabilityStatementResource(server: FastifyInstance, view: ReleaseView, version: FhirVersion): object {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: view.manifest.loaded_at,
    kind: 'instance',
    instantiates: ['http://hl7.org/fhir/CapabilityStatement/terminology-server'],
    software: { name: 'omopterm', version: VERSION },
    implementation: { description: `omopterm FHIR terminology server, OMOP vocabulary release ${view.label}` },
    fhirVersion: FHIR_RELEASE_NUMBERS[version],
    format: ['application/fhir+json', 'application/fhir+xml'],
    rest: [
      {
        mode: 'server',
        security: { description: 'Authorization: Bearer <API key> on every request.' },
        // POST /fhir/{v} with a batch Bundle of GET entries (./batch.ts).
        interaction: [{ code: 'batch' }],
        resource: Object.entries(fhirCapabilities(server)).map(([type, cap]) => ({
          type,
          ...(cap.interactions.length ? { interaction: cap.interactions.map((code) => ({ code })) } : {}),
          ...(cap.operations.length ? { operation: cap.operations.map((name) => ({ name, definition: operationDefinition(type, name) })) } : {}),
        })),
      },
    ],
  };
}

function terminologyCapabilities(ctx: FhirOperationContext): object {
  const version = fhirCodeSystemVersion(ctx.view);
  const vocabularies = ctx.view
    .vocabularies()
    .map((v) => ({ uri: systemForVocabulary(v.vocabulary_id), version: v.vocabulary_version }))
    .filter((v): v is { uri: string; version: string | null } => v.uri !== undefined);
  const codeSystem = [
    { uri: OMOP_CONCEPT_SYSTEM, version: [{ code: version, isDefault: true }], subsumption: true },
    ...vocabularies.map((v) => ({ uri: v.uri, version: [{ code: v.version ?? version, isDefault: true }], subsumption: true })),
  ];
  return {
    resourceType: 'TerminologyCapabilities',
    status: 'active',
    date: ctx.view.manifest.loaded_at,
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
    description:
      "Parameters with the `version` this base speaks and the same `default` (FHIR's $versions answers for the base it is called on): " +
      `${FHIR_VERSIONS.map((v) => `/fhir/${v} → ${majorMinor(v)}`).join(', ')}. ` +
      'A base speaks one version (the fhirVersion MIME parameter does not switch it); the other versions are the other /fhir/{v} bases.',
    handler: (ctx) =>
      parametersResource([
        { name: 'version', valueCode: majorMinor(ctx.version) },
        { name: 'default', valueCode: majorMinor(ctx.version) },
      ]),
  });
}
