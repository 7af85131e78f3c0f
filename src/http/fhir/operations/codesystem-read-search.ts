/**
 * CodeSystem read and search over src/services/terminology/code-system-catalog.ts: metadata-only resources
 * (`content: not-present`), the same on every FHIR version.
 */
import type { FastifyInstance } from 'fastify';
import { notFound, validationError } from '../../../services/errors.js';
import {
  codeSystemCatalog,
  omopCodeSystem,
  searchCodeSystems,
  vocabularyCodeSystemById,
  type CatalogCodeSystem,
} from '../../../services/terminology/code-system-catalog.js';
import { RELEASE_LABEL_PATTERN } from '../../../store/release-manifest.js';
import { normaliseReleaseSelector, OMOP_CODE_SYSTEM_ID_PREFIX, type OpenRelease, type ReleaseRegistry } from '../../../store/release-registry.js';
import { fhirBase, searchsetBundle } from '../fhir-resources.js';
import { fhirCodeSystemVersion, registerFhirOperation, type FhirOperationContext } from '../fhir-operation.js';

/** `_summary` values of a search: `count` answers the total alone; the others change nothing (resources are summaries already). */
const SUMMARY_VALUES = ['true', 'false', 'data', 'text', 'count'];

function codeSystemResource(cs: CatalogCodeSystem, releaseLabel: string): object {
  const what = cs.vocabularyId ? `The ${cs.vocabularyId} vocabulary` : 'Every OMOP concept (codes are concept_ids)';
  return {
    resourceType: 'CodeSystem',
    id: cs.id,
    url: cs.url,
    version: cs.version,
    name: cs.name,
    status: 'active',
    experimental: false,
    description: `${what} of OMOP vocabulary release ${releaseLabel}. Metadata only: CodeSystem/$lookup and ValueSet/$expand give the concepts.`,
    caseSensitive: true,
    hierarchyMeaning: 'is-a',
    content: 'not-present',
    count: cs.count,
  };
}

/** The release whose OMOP code system an id names (`omop-v<version>`, or a release label such as 2025.2 or 2025v2), or undefined. */
function releaseOfOmopId(registry: ReleaseRegistry, id: string): OpenRelease | undefined {
  // Other ids (vocabulary ids, the aliases latest/default/current, bare dates) are not OMOP code-system ids.
  if (!id.startsWith(OMOP_CODE_SYSTEM_ID_PREFIX) && !RELEASE_LABEL_PATTERN.test(normaliseReleaseSelector(id))) return undefined;
  const selection = registry.select(id);
  return selection.ok ? selection.release : undefined;
}

function readCodeSystem(ctx: FhirOperationContext, registry: ReleaseRegistry): object {
  const id = (ctx.request.params as { id?: string }).id ?? '';
  const omopRelease = releaseOfOmopId(registry, id);
  if (omopRelease) {
    const omopView = ctx.view.onRelease(omopRelease);
    return codeSystemResource(omopCodeSystem(omopView, fhirCodeSystemVersion(omopView)), omopView.label);
  }
  const vocabulary = vocabularyCodeSystemById(ctx.view, fhirCodeSystemVersion(ctx.view), id);
  if (!vocabulary) {
    throw notFound(
      `CodeSystem/${id} is not a code system of this server: ids are omop-v<YYYYMMDD> (or a release label such as ${ctx.view.label}) and the vocabulary ids of release ${ctx.view.label}; GET CodeSystem lists them.`,
    );
  }
  ctx.view.assertVisible(vocabulary.vocabularyId!);
  return codeSystemResource(vocabulary, ctx.view.label);
}

function searchCodeSystemResources(ctx: FhirOperationContext): object {
  const summary = ctx.params.get('_summary');
  if (summary !== undefined && !SUMMARY_VALUES.includes(summary)) {
    throw validationError(`Parameter '_summary' must be one of ${SUMMARY_VALUES.join(', ')}, not '${summary}'.`, { parameter: '_summary' });
  }
  const catalog = codeSystemCatalog(ctx.view, fhirCodeSystemVersion(ctx.view));
  const found = searchCodeSystems(catalog, { url: ctx.params.get('url'), version: ctx.params.get('version'), name: ctx.params.get('name') });
  if (summary === 'count') return searchsetBundle([], found.length);
  const base = fhirBase(ctx.request, ctx.version);
  return searchsetBundle(
    found.map((cs) => ({ fullUrl: `${base}/CodeSystem/${cs.id}`, resource: codeSystemResource(cs, ctx.view.label) })),
    found.length,
  );
}

export function registerCodeSystemResources(app: FastifyInstance, registry: ReleaseRegistry): void {
  registerFhirOperation(app, {
    methods: ['GET'],
    path: '/CodeSystem',
    summary: 'CodeSystem search (the OMOP system and every vocabulary with a code-system URI)',
    description:
      'Search type interaction on CodeSystem. Answers a searchset Bundle of CodeSystem resources, metadata only (`content` `not-present`): ' +
      'the OMOP system `https://fhir-terminology.ohdsi.org` (id `omop-v<YYYYMMDD>`, name "OMOP Concepts", `count` the concepts the key may ' +
      'read) and one per vocabulary of the release with a code-system URI (id the vocabulary id, version its vocabulary_version). Search ' +
      'parameters, all optional: `url` (a code-system URI; its aliases match too), `version` (exact), `name` (case-insensitive start), ' +
      '`_summary=count` (the total alone). Vocabularies the key may not read are left out. Other parameters are not used.',
    handler: (ctx) => searchCodeSystemResources(ctx),
  });

  registerFhirOperation(app, {
    methods: ['GET'],
    path: '/CodeSystem/:id',
    summary: 'CodeSystem read',
    description:
      'Read interaction on CodeSystem: `omop-v<YYYYMMDD>` is the OMOP system of the loaded release with that vocabulary date (a release ' +
      'label such as `2025.2` names it too); a vocabulary id (characters outside [A-Za-z0-9.-] as `-`) is that vocabulary in the selected ' +
      'release. Metadata only. 404 not-found for any other id; 403 forbidden for a vocabulary the key may not read (CPT4 without a validated ' +
      'licence).',
    handler: (ctx) => readCodeSystem(ctx, registry),
  });
}
