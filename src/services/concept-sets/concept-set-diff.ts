/**
 * POST /v1/concept-sets/diff: what a concept set's resolution gains and loses between two releases, each changed
 * concept with the reason read from both releases (new or removed concept, deprecated or replaced, new descendant or
 * moved in the hierarchy, remapped, newly excluded or no longer excluded). Reasons are worked out for the page only.
 */
import type { ConceptRecord } from '../../store/records.js';
import { briefConcept, type ConceptBrief } from '../concepts/concept-brief.js';
import type { ConceptSetExpression } from './expression-formats.js';
import { difference, indexOfSorted, intersection, resolveExpression, SliceClock, type ConceptSetScope, type ItemOutcome, type Resolution } from './resolve.js';
import type { PageWindow } from './concept-set-operations.js';

export type ChangeReason =
  | 'new_concept'
  | 'new_descendant'
  | 'newly_mapped'
  | 'no_longer_excluded'
  | 'revalidated'
  | 'removed_from_release'
  | 'deprecated'
  | 'replaced'
  | 'moved_in_hierarchy'
  | 'remapped'
  | 'newly_excluded'
  | 'licence'
  | 'other';

export interface ConceptChange {
  concept: ConceptBrief & { invalid_reason: ConceptRecord['invalid_reason'] };
  reason: ChangeReason;
  /** The reason in words, naming the items, ancestors, targets or replacements involved. */
  detail: string;
  /** deprecated / replaced: the valid concepts the to-release says replace it ('Concept replaced by'). */
  replaced_by?: number[];
  /** remapped / newly_mapped: the concept's 'Maps to' targets in the release it is compared in. */
  maps_to?: number[];
}

export interface ConceptSetDiff {
  from_release: string;
  to_release: string;
  summary: { from_total: number; to_total: number; gained: number; lost: number; unchanged: number };
  gained: ConceptChange[];
  lost: ConceptChange[];
}

const MAPS_TO = 'Maps to';
const REPLACED_BY = 'Concept replaced by';

/** How a release's resolution reaches a concept: through which included item, and how. */
function howIncluded(scope: ConceptSetScope, resolution: Resolution, conceptId: number): { via: 'item' | 'descendant' | 'mapped'; item: ItemOutcome; target?: number } | undefined {
  const included = resolution.items.filter((o) => o.status === 'resolved' && !o.item.isExcluded);
  for (const o of included) if (o.item.conceptId === conceptId) return { via: 'item', item: o };
  for (const o of included) {
    if (o.item.includeDescendants && scope.store.hierarchy.isAncestor(o.item.conceptId, conceptId)) return { via: 'descendant', item: o };
  }
  const targets = scope.store.concepts.targetsOf([conceptId], MAPS_TO).map((t) => t.target_id);
  for (const o of included.filter((i) => i.item.includeMapped)) {
    for (const target of targets) {
      if (target === o.item.conceptId) return { via: 'mapped', item: o, target };
      if (o.item.includeDescendants && scope.store.hierarchy.isAncestor(o.item.conceptId, target) && scope.store.concepts.byId(target)?.invalid_reason === null) {
        return { via: 'mapped', item: o, target };
      }
    }
  }
  return undefined;
}

const describeVia = (how: NonNullable<ReturnType<typeof howIncluded>>) =>
  how.via === 'item'
    ? `item ${how.item.index} names it`
    : how.via === 'descendant'
      ? `a descendant of concept ${how.item.item.conceptId} (item ${how.item.index})`
      : `it maps to concept ${how.target} (item ${how.item.index} includes mapped concepts)`;

function brief(c: ConceptRecord) {
  return { ...briefConcept(c), invalid_reason: c.invalid_reason };
}

function whyLost(from: ConceptSetScope, to: ConceptSetScope, fromRes: Resolution, toRes: Resolution, id: number): ConceptChange {
  const before = from.store.concepts.byId(id)!;
  const after = to.store.concepts.byId(id);
  const concept = brief(before);
  if (!after) return { concept, reason: 'removed_from_release', detail: `concept ${id} is not in release ${to.label}` };
  if (!to.canSee(after.vocabulary_id)) return { concept, reason: 'licence', detail: `this key may not see vocabulary ${after.vocabulary_id} in release ${to.label}` };
  if (after.invalid_reason !== null && before.invalid_reason === null) {
    const replacedBy = to.store.concepts.targetsOf([id], REPLACED_BY).map((t) => t.target_id).sort((a, b) => a - b);
    if (after.invalid_reason === 'U' || replacedBy.length) {
      return { concept, reason: 'replaced', detail: `invalid in release ${to.label} (${after.invalid_reason}), replaced by ${replacedBy.join(', ') || 'no concept listed'}`, replaced_by: replacedBy };
    }
    return { concept, reason: 'deprecated', detail: `deprecated in release ${to.label} (invalid_reason D): descendants count only when valid`, replaced_by: replacedBy };
  }
  if (indexOfSorted(toRes.excludedIds, id) >= 0) return { concept, reason: 'newly_excluded', detail: `an excluded item reaches it in release ${to.label}` };
  const how = howIncluded(from, fromRes, id);
  if (how?.via === 'descendant') {
    return { concept, reason: 'moved_in_hierarchy', detail: `${describeVia(how)} in release ${from.label}, no longer in release ${to.label}` };
  }
  if (how?.via === 'mapped') {
    const mapsTo = to.store.concepts.targetsOf([id], MAPS_TO).map((t) => t.target_id).sort((a, b) => a - b);
    return { concept, reason: 'remapped', detail: `${describeVia(how)} in release ${from.label}; in release ${to.label} it maps to ${mapsTo.join(', ') || 'nothing'}`, maps_to: mapsTo };
  }
  return { concept, reason: 'other', detail: `resolved in release ${from.label}${how ? ` (${describeVia(how)})` : ''}, not in release ${to.label}` };
}

function whyGained(from: ConceptSetScope, to: ConceptSetScope, fromRes: Resolution, toRes: Resolution, id: number): ConceptChange {
  const after = to.store.concepts.byId(id)!;
  const before = from.store.concepts.byId(id);
  const concept = brief(after);
  const how = howIncluded(to, toRes, id);
  const via = how ? ` (${describeVia(how)})` : '';
  if (!before) return { concept, reason: 'new_concept', detail: `new in release ${to.label}${via}` };
  if (!from.canSee(before.vocabulary_id)) return { concept, reason: 'licence', detail: `this key may not see vocabulary ${before.vocabulary_id} in release ${from.label}` };
  if (before.invalid_reason !== null && after.invalid_reason === null) return { concept, reason: 'revalidated', detail: `invalid in release ${from.label}, valid in release ${to.label}${via}` };
  if (indexOfSorted(fromRes.excludedIds, id) >= 0) return { concept, reason: 'no_longer_excluded', detail: `an excluded item reached it in release ${from.label}, none does in release ${to.label}` };
  if (how?.via === 'descendant') return { concept, reason: 'new_descendant', detail: `${describeVia(how)} in release ${to.label}, not in release ${from.label}` };
  if (how?.via === 'mapped') {
    const mapsTo = to.store.concepts.targetsOf([id], MAPS_TO).map((t) => t.target_id).sort((a, b) => a - b);
    return { concept, reason: 'newly_mapped', detail: `${describeVia(how)} in release ${to.label}, not in release ${from.label}`, maps_to: mapsTo };
  }
  return { concept, reason: 'other', detail: `resolved in release ${to.label}${via}, not in release ${from.label}` };
}

/** The diff of one expression's resolution from one release to another, for the same caller; both lists paged by `page`. */
export async function diffConceptSet(from: ConceptSetScope, to: ConceptSetScope, expression: ConceptSetExpression, page: PageWindow): Promise<ConceptSetDiff> {
  const clock = new SliceClock();
  const fromRes = await resolveExpression(from, expression, clock, { itemCounts: false });
  const toRes = await resolveExpression(to, expression, clock, { itemCounts: false });
  const gained = difference(toRes.ids, fromRes.ids);
  const lost = difference(fromRes.ids, toRes.ids);
  const window = (ids: Int32Array) => Array.from(ids.subarray(page.offset, page.offset + page.limit));
  return {
    from_release: from.label,
    to_release: to.label,
    summary: {
      from_total: fromRes.ids.length,
      to_total: toRes.ids.length,
      gained: gained.length,
      lost: lost.length,
      unchanged: intersection(fromRes.ids, toRes.ids).length,
    },
    gained: window(gained).map((id) => whyGained(from, to, fromRes, toRes, id)),
    lost: window(lost).map((id) => whyLost(from, to, fromRes, toRes, id)),
  };
}
