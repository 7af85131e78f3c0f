/**
 * CodeSystem/$diff (an OMOPHub extension, GET and POST): what changed between two loaded releases, for one code
 * or, one cursor-paged page at a time (computed on a worker thread), for a whole code system.
 */
import type { FastifyInstance } from 'fastify';
import { validationError } from '../../../services/errors.js';
import type { ReleaseView } from '../../../services/release-view.js';
import { DIFF_CHANGE_TYPES, diffChangeTypes, diffCode, type DiffChangeType, type ReleaseChange } from '../../../services/terminology/release-diff.js';
import type { OpenRelease, ReleaseRegistry } from '../../../store/release-registry.js';
import { computeHeavy } from '../../plumbing/heavy-work.js';
import { resolveRelease } from '../../plumbing/release-resolution.js';
import { registerFhirOperation, type FhirOperationContext } from '../fhir-operation.js';
import { parametersResource, type FhirParameter } from '../fhir-resources.js';

function releaseNamed(registry: ReleaseRegistry, selector: string, parameter: string): OpenRelease {
  return resolveRelease(registry, selector, { surface: 'fhir', parameter });
}

/** The two releases compared, each seen with the caller's licence rules. */
function comparedReleases(ctx: FhirOperationContext, registry: ReleaseRegistry): { before: ReleaseView; after: ReleaseView } {
  const toVersion = ctx.params.get('toVersion');
  const fromVersion = ctx.params.get('fromVersion');
  const after = toVersion !== undefined ? ctx.view.onRelease(releaseNamed(registry, toVersion, 'toVersion')) : ctx.view;
  if (fromVersion !== undefined) return { before: ctx.view.onRelease(releaseNamed(registry, fromVersion, 'fromVersion')), after };
  const before = registry.releaseBefore(after.label);
  if (before === undefined) {
    throw validationError(`Parameter 'fromVersion' is required: no release is loaded before ${after.label}.`, { parameter: 'fromVersion' });
  }
  return { before: ctx.view.onRelease(before), after };
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

const countParameter = ({ type, count }: { type: DiffChangeType; count: number }): FhirParameter => ({
  name: 'count',
  part: [
    { name: 'type', valueCode: type },
    { name: 'value', valueInteger: count },
  ],
});

/** Parameters that page the whole-system walk, refused with `code`. */
const WALK_PARAMETERS = ['count', 'cursor'] as const;

async function diffOperation(ctx: FhirOperationContext, registry: ReleaseRegistry): Promise<object> {
  const system = ctx.params.required('system');
  const code = ctx.params.get('code');
  const types = diffChangeTypes(ctx.params.all('type'));
  if (code !== undefined) {
    for (const name of WALK_PARAMETERS) {
      if (ctx.params.has(name)) {
        throw validationError(`Parameter '${name}' pages the diff of a whole code system; it cannot be used with 'code'.`, { parameter: name });
      }
    }
    if (code === '') throw validationError("Parameter 'code' is empty: give a code, or leave 'code' out to compare the whole code system.", { parameter: 'code' });
  }
  const { before, after } = comparedReleases(ctx, registry);
  const versions: FhirParameter[] = [
    { name: 'fromVersion', valueString: before.label },
    { name: 'toVersion', valueString: after.label },
  ];
  if (code !== undefined) {
    const changes = diffCode(before, after, system, code, types);
    const counted = DIFF_CHANGE_TYPES.filter((type) => types.has(type)).map((type) => ({ type, count: changes.filter((c) => c.type === type).length }));
    return parametersResource([...versions, ...changes.map(changeParameter), ...counted.map(countParameter)]);
  }
  // A page reads up to the walk's budget of concepts in both releases (~20 ms at full size): a worker thread's work.
  const page = await computeHeavy(ctx.request, 'codeSystemDiffPage', [before, after], {
    system,
    count: ctx.params.integer('count'),
    cursor: ctx.params.get('cursor'),
    types: [...types],
  });
  return parametersResource([
    ...versions,
    ...page.changes.map(changeParameter),
    ...page.counts.map(countParameter),
    ...(page.next !== undefined ? [{ name: 'next', valueString: page.next }] : []),
    { name: 'scanned', valueInteger: page.scanned },
  ]);
}

export function registerDiffOperation(app: FastifyInstance, registry: ReleaseRegistry): void {
  registerFhirOperation(app, {
    methods: ['GET', 'POST'],
    path: '/CodeSystem/$diff',
    summary: 'What changed for a code, or a whole code system, between two loaded releases (OMOPHub extension)',
    description:
      'Parameters: `system` (the OMOP system or a vocabulary URI), `code` (optional: without it the whole code system is compared), ' +
      '`fromVersion` and `toVersion` (a release label such as 2025.1, an omop-v<YYYYMMDD> id or a YYYYMMDD vocabulary date; default: the ' +
      'release before the selected one → the selected one), `type` (only these change types; repeatable or comma-separated; default all). ' +
      'Returns a `change` part per change {code, display, type, from, to} with type added, deprecated (valid before, invalid or absent ' +
      'after), reinstated, renamed (concept_name), re-domained (domain_id) or remapped (valid `Maps to` targets the key may see), and a ' +
      '`count` part per type. Without `code` the answer is one page of a walk over the code system (a vocabulary: concept_code order; the ' +
      'OMOP system: concept_id order, vocabularies the key may not see left out): `count` changes per page at most (1-1000, default 100), ' +
      'a bounded number of concepts read per page (so a page may hold fewer changes, even none, and still have `next`), `next` (the ' +
      '`cursor` of the following page; absent on the last one), `scanned` (codes walked in the page); its `count` parts are the changes ' +
      'found so far in the walk, so the last page gives the totals. A cursor of another system, release pair, type list or licence is a ' +
      '400. 404 not-found for a release that is not loaded or a code in neither release; 403 for a vocabulary the key may not see.',
    handler: (ctx) => diffOperation(ctx, registry),
  });
}
