/**
 * CodeSystem/$diff (an OMOPHub extension, GET and POST): what changed for one code between two
 * loaded releases. Parameters: `system` (the OMOP system or a vocabulary's URI), `code`,
 * `fromVersion` and `toVersion` (a release label such as 2025.1, an `omop-v<YYYYMMDD>` id or a
 * YYYYMMDD vocabulary date). Defaults: toVersion the selected release, fromVersion the loaded
 * release before it. The answer has one `change` part per change ({code, display, type, from, to};
 * types in src/services/terminology/release-diff.ts) and a `count` part per change type.
 */
import type { FastifyInstance } from 'fastify';
import { notFound, validationError } from '../../services/errors.js';
import { DIFF_CHANGE_TYPES, diffCode, requireDiffCode, type ReleaseChange } from '../../services/terminology/release-diff.js';
import type { OpenRelease, ReleaseRegistry } from '../../store/release-registry.js';
import { fhirCodeSystemVersion, registerFhirOperation, type FhirOperationContext } from './fhir-operation.js';
import { parametersResource, type FhirParameter } from './fhir-resources.js';

/** The loaded releases, earliest vocabulary date first. */
function releasesByDate(registry: ReleaseRegistry): OpenRelease[] {
  return registry.all().sort((a, b) => fhirCodeSystemVersion(a.store).localeCompare(fhirCodeSystemVersion(b.store)));
}

function releaseNamed(registry: ReleaseRegistry, selector: string, parameter: string): OpenRelease {
  const selection = registry.select(selector);
  if (selection.ok) return selection.release;
  const date = selector.startsWith('omop-v') ? selector.slice('omop-v'.length) : selector;
  const release = registry.all().find((r) => fhirCodeSystemVersion(r.store) === date);
  if (release) return release;
  throw notFound(`Parameter '${parameter}': release '${selector}' is not loaded; loaded: ${registry.labels().join(', ')}.`, 'not_found', { parameter });
}

function comparedReleases(ctx: FhirOperationContext, registry: ReleaseRegistry): { before: OpenRelease; after: OpenRelease } {
  const toVersion = ctx.params.get('toVersion');
  const fromVersion = ctx.params.get('fromVersion');
  const after = toVersion !== undefined ? releaseNamed(registry, toVersion, 'toVersion') : releaseNamed(registry, ctx.releaseLabel, 'toVersion');
  if (fromVersion !== undefined) return { before: releaseNamed(registry, fromVersion, 'fromVersion'), after };
  const ordered = releasesByDate(registry);
  const before = ordered[ordered.findIndex((r) => r.label === after.label) - 1];
  if (before === undefined) {
    throw validationError(`Parameter 'fromVersion' is required: no release is loaded before ${after.label}.`, { parameter: 'fromVersion' });
  }
  return { before, after };
}

function changeParameter(change: ReleaseChange): FhirParameter {
  return {
    name: 'change',
    part: [
      { name: 'code', valueCode: change.code },
      { name: 'display', valueString: change.display },
      { name: 'type', valueCode: change.type },
      { name: 'from', valueString: change.from },
      { name: 'to', valueString: change.to },
    ],
  };
}

function diffOperation(ctx: FhirOperationContext, registry: ReleaseRegistry): object {
  const system = ctx.params.required('system');
  const code = requireDiffCode(ctx.params.get('code'));
  const { before, after } = comparedReleases(ctx, registry);
  const changes = diffCode(before.store, after.store, ctx.policy, system, code);
  return parametersResource([
    { name: 'fromVersion', valueString: before.label },
    { name: 'toVersion', valueString: after.label },
    ...changes.map(changeParameter),
    ...DIFF_CHANGE_TYPES.map((type) => ({
      name: 'count',
      part: [
        { name: 'type', valueCode: type },
        { name: 'value', valueInteger: changes.filter((c) => c.type === type).length },
      ],
    })),
  ]);
}

export function registerDiffOperation(app: FastifyInstance, registry: ReleaseRegistry): void {
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/CodeSystem/$diff',
    summary: 'What changed for a code between two loaded releases (OMOPHub extension)',
    description:
      'Parameters: `system` (the OMOP system or a vocabulary URI), `code` (required: a whole vocabulary is not yet served), `fromVersion` and ' +
      '`toVersion` (a release label such as 2025.1, an omop-v<YYYYMMDD> id or a YYYYMMDD vocabulary date; default: the release before the ' +
      'selected one → the selected one). Returns a `change` part per change {code, display, type, from, to} with type added, deprecated ' +
      '(valid before, invalid or absent after), reinstated, renamed (concept_name), re-domained (domain_id) or remapped (valid `Maps to` ' +
      'targets), and a `count` part per type. 404 not-found for a release that is not loaded or a code in neither release.',
    handler: (ctx) => diffOperation(ctx, registry),
  });
}
