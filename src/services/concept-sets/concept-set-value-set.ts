/**
 * Concept sets as FHIR ValueSets: writes an expression as a ValueSet compose on the OMOP concept system, reads such a
 * compose back into an expression, and resolves its members with the concept-set resolver for $expand and
 * $validate-code (resolve.ts: circe's rules live there only). Compose semantics in docs/concept-sets.md.
 */
import { createHash } from 'node:crypto';
import { codeSystemVersionOf } from '../../store/release-registry.js';
import { OMOP_CONCEPT_SYSTEM } from '../fhir/code-system-uris.js';
import { validationError } from '../errors.js';
import type { ReleaseView } from '../release-view.js';
import { MAX_EXPRESSION_ITEMS, type ConceptSetExpression, type ConceptSetItem } from './expression-formats.js';
import { intersection, resolveExpression, SliceClock, validConceptIds } from './resolve.js';

export const FHIR_VERSIONS = ['r4', 'r4b', 'r5', 'r6'] as const;
export type FhirVersionName = (typeof FHIR_VERSIONS)[number];

/** The filter property of a compose entry for includeMapped: the sources of valid 'Maps to' rows into the value. */
export const MAPS_TO_PROPERTY = 'maps-to';

type Json = Record<string, unknown>;

/** The FHIR version a `fhir_version` query names (default r4); 400 naming the parameter otherwise. */
export function fhirVersionOf(value: string | undefined): FhirVersionName {
  if (value === undefined || value === '') return 'r4';
  const v = value.trim().toLowerCase();
  if ((FHIR_VERSIONS as readonly string[]).includes(v)) return v as FhirVersionName;
  throw validationError(`Parameter 'fhir_version' must be one of ${FHIR_VERSIONS.join(', ')}, not '${value}'.`, { parameter: 'fhir_version' });
}

/** The compose entries of one item: itself (a concept) or itself with its valid descendants (`concept is-a`), plus its mapped sources (`maps-to`). */
function entriesOf(item: ConceptSetItem, version: string): Json[] {
  const code = String(item.conceptId);
  const base = { system: OMOP_CONCEPT_SYSTEM, version };
  const entries: Json[] = [
    item.includeDescendants ? { ...base, filter: [{ property: 'concept', op: 'is-a', value: code }] } : { ...base, concept: [{ code }] },
  ];
  if (item.includeMapped) entries.push({ ...base, filter: [{ property: MAPS_TO_PROPERTY, op: item.includeDescendants ? 'is-a' : '=', value: code }] });
  return entries;
}

/**
 * The tag that marks a ValueSet as a concept-set expression, whose compose $expand reads by circe's rules (a compose
 * without it, and without a `maps-to` filter, keeps the general FHIR rules: nearest-first is-a, 403 for a restricted root).
 */
export const CONCEPT_SET_TAG = {
  system: 'urn:omopterm:value-set-kind',
  code: 'concept-set-expression',
  display: 'OHDSI concept-set expression (circe resolution rules)',
} as const;

/** Whether a ValueSet resource states a concept-set expression: it carries CONCEPT_SET_TAG, or a `maps-to` filter. */
export function statesConceptSet(resource: Json): boolean {
  const tags = (resource.meta as Json | undefined)?.tag;
  if (Array.isArray(tags) && tags.some((t) => (t as Json | null)?.system === CONCEPT_SET_TAG.system && (t as Json).code === CONCEPT_SET_TAG.code)) return true;
  const compose = resource.compose as Json | undefined;
  const entries = [compose?.include, compose?.exclude].flatMap((list) => (Array.isArray(list) ? list : []));
  return entries.some((e) => Array.isArray((e as Json | null)?.filter) && ((e as Json).filter as unknown[]).some((f) => (f as Json | null)?.property === MAPS_TO_PROPERTY));
}

/**
 * The ValueSet stating an expression: one compose.include per included item (two when it maps: the item, then its
 * mapped sources), compose.exclude likewise for excluded items, all on the OMOP concept system at the release's
 * code-system version. Every item is stated as given (an unknown or restricted one too: $expand leaves it out, as
 * resolve does). The shape is the same on every FHIR version (ValueSet.compose did not change from R4 to R6).
 */
export function conceptSetValueSet(view: ReleaseView, expression: ConceptSetExpression, fhirVersion: FhirVersionName): Json {
  return valueSetOfExpression(expression, { codeSystemVersion: codeSystemVersionOf(view.store), releaseLabel: view.label, fhirVersion });
}

/** conceptSetValueSet without a release: the code-system version and release label given (benchmarks, tests). */
export function valueSetOfExpression(
  expression: Pick<ConceptSetExpression, 'id' | 'name' | 'items'>,
  release: { codeSystemVersion: string; releaseLabel: string; fhirVersion: FhirVersionName },
): Json {
  const version = release.codeSystemVersion;
  const included = expression.items.filter((i) => !i.isExcluded).flatMap((i) => entriesOf(i, version));
  const excluded = expression.items.filter((i) => i.isExcluded).flatMap((i) => entriesOf(i, version));
  const digest = createHash('sha256')
    .update(JSON.stringify([version, expression.items.map((i) => [i.conceptId, i.isExcluded, i.includeDescendants, i.includeMapped])]))
    .digest('hex');
  const uuid = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-5${digest.slice(13, 16)}-8${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
  const title = expression.name ?? (expression.id !== undefined ? `Concept set ${expression.id}` : 'Concept set');
  const name = title.replace(/[^A-Za-z0-9_]/g, '').replace(/^[^A-Za-z]+/, '') || 'ConceptSet';
  return {
    resourceType: 'ValueSet',
    meta: { tag: [CONCEPT_SET_TAG] },
    url: `urn:uuid:${uuid}`,
    name: /^[A-Z]/.test(name) ? name : `ConceptSet${name}`,
    title,
    status: 'active',
    description:
      `OHDSI concept-set expression of ${expression.items.length} item(s) on OMOP release ${release.releaseLabel}, stated as a compose: ` +
      "'concept is-a' is the concept itself (even if invalid) and its valid descendants; 'maps-to' are the sources of valid 'Maps to' rows " +
      `into the value (is-a: into it or its valid descendants). Expanded by circe's rules (FHIR ${release.fhirVersion}).`,
    compose: {
      // Circe includes an item's own concept even when it is invalid.
      inactive: true,
      ...(included.length ? { include: included } : {}),
      ...(excluded.length ? { exclude: excluded } : {}),
    },
  };
}

/** The concept id of a code on the OMOP concept system, or undefined when it is not one. */
function conceptIdOf(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,10}$/.test(value)) return undefined;
  const id = Number(value);
  return id <= 0x7fffffff ? id : undefined;
}

/** The items of one compose entry when it is one of the shapes conceptSetValueSet writes; undefined otherwise. */
function itemsOfEntry(entry: unknown, isExcluded: boolean): ConceptSetItem[] | undefined {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
  const e = entry as Json;
  if (e.system !== OMOP_CONCEPT_SYSTEM || e.valueSet !== undefined) return undefined;
  const flags = { isExcluded, includeDescendants: false, includeMapped: false };
  if (Array.isArray(e.concept) && e.concept.length > 0 && e.filter === undefined) {
    const ids = e.concept.map((c) => conceptIdOf((c as Json | null)?.code));
    if (ids.some((id) => id === undefined)) return undefined;
    return ids.map((id) => ({ conceptId: id!, ...flags }));
  }
  if (e.concept !== undefined || !Array.isArray(e.filter) || e.filter.length !== 1) return undefined;
  const f = e.filter[0] as Json | null;
  const conceptId = conceptIdOf(f?.value);
  if (!f || conceptId === undefined) return undefined;
  if (f.property === 'concept' && f.op === 'is-a') return [{ conceptId, ...flags, includeDescendants: true }];
  if (f.property === MAPS_TO_PROPERTY && (f.op === '=' || f.op === 'is-a')) {
    return [{ conceptId, ...flags, includeDescendants: f.op === 'is-a', includeMapped: true, mappedOnly: true }];
  }
  return undefined;
}

/**
 * The concept-set expression a compose states, when every include and exclude is on the OMOP concept system and is
 * a concept list, a single `concept is-a <id>` filter or a single `maps-to` filter (what conceptSetValueSet writes), with
 * at most 2 × MAX_EXPRESSION_ITEMS items; undefined for any other compose (the general $expand rules apply to it).
 */
export function expressionOfCompose(compose: unknown): ConceptSetExpression | undefined {
  if (!compose || typeof compose !== 'object' || Array.isArray(compose)) return undefined;
  const c = compose as Json;
  const include = c.include ?? [];
  const exclude = c.exclude ?? [];
  if (!Array.isArray(include) || !Array.isArray(exclude) || include.length + exclude.length === 0) return undefined;
  const items: ConceptSetItem[] = [];
  for (const [entries, isExcluded] of [[include, false], [exclude, true]] as const) {
    for (const entry of entries) {
      const found = itemsOfEntry(entry, isExcluded);
      if (!found) return undefined;
      items.push(...found);
    }
  }
  // Beyond what an expression may state (each item, and its mapped sources apart) the general rules and their limits apply.
  return items.length > 2 * MAX_EXPRESSION_ITEMS ? undefined : { format: 'atlas-json', items };
}

/** The resolved ids of a compose's expression (ascending), by the resolver; with activeOnly the invalid concepts left out. */
export async function composeMemberIds(view: ReleaseView, expression: ConceptSetExpression, activeOnly: boolean): Promise<Int32Array> {
  const clock = new SliceClock();
  // With item counts every item is read (a yield after each) rather than compared pairwise for subsumption first.
  const { ids } = await resolveExpression(view, expression, clock);
  return activeOnly ? intersection(ids, await validConceptIds(view, clock)) : ids;
}
