/**
 * A concept's way up the hierarchy for a person: its ancestors from CONCEPT_ANCESTOR (every level, nearest first, the
 * caller's hidden vocabularies left out) and the paths from the concept to the root(s), walked over the direct links
 * (min_levels_of_separation = 1) among those ancestors. A concept of a polyhierarchy has many paths: the first
 * `maxPaths` (parents in concept_id order) are returned and `truncated` says there are more.
 */
import type { ReleaseView } from '../release-view.js';
import type { HierarchyFilter, HierarchyRow } from '../../store/hierarchy-store.js';
import { briefConcept, type ConceptBrief } from '../concepts/concept-brief.js';
import { requireVisibleConcept } from '../concepts/concept-lookup.js';

export interface AncestorNode extends ConceptBrief {
  invalid_reason: 'D' | 'U' | null;
  min_levels_of_separation: number;
  max_levels_of_separation: number;
}

export interface RootPaths {
  /** Every visible ancestor, nearest first (min levels, then concept_id). */
  ancestors: AncestorNode[];
  /** Paths from a root down to the concept's parent (the concept itself is not in them); empty for a root. */
  paths: AncestorNode[][];
  /** More paths exist than were returned. */
  truncated: boolean;
}

export const DEFAULT_MAX_ROOT_PATHS = 5;

function toNode(row: HierarchyRow): AncestorNode {
  return {
    ...briefConcept(row.concept),
    invalid_reason: row.concept.invalid_reason,
    min_levels_of_separation: row.min_levels_of_separation,
    max_levels_of_separation: row.max_levels_of_separation,
  };
}

export function conceptRootPaths(view: ReleaseView, conceptId: number, maxPaths = DEFAULT_MAX_ROOT_PATHS): RootPaths {
  requireVisibleConcept(view, conceptId);
  const filter: HierarchyFilter = {
    maxLevels: Number.MAX_SAFE_INTEGER,
    standardOnly: false,
    includeInvalid: false,
    hiddenVocabularyIds: view.hiddenVocabularyIds(),
  };
  const ancestors = view.store.hierarchy.ancestors(conceptId, filter).map(toNode);
  if (ancestors.length === 0) return { ancestors, paths: [], truncated: false };
  const byId = new Map(ancestors.map((a) => [a.concept_id, a]));
  const parents = new Map<number, number[]>();
  for (const link of view.store.hierarchy.directLinks([conceptId, ...byId.keys()])) {
    if (!byId.has(link.ancestor_concept_id)) continue;
    const list = parents.get(link.descendant_concept_id) ?? [];
    list.push(link.ancestor_concept_id);
    parents.set(link.descendant_concept_id, list);
  }
  for (const list of parents.values()) list.sort((a, b) => a - b);

  const paths: AncestorNode[][] = [];
  let truncated = false;
  // Depth-first from the concept upwards; every walk ends at a node without a visible parent (a root), so each leaf
  // of the walk is one whole path. `onPath` guards against a cycle in a malformed CONCEPT_ANCESTOR.
  const onPath = new Set<number>([conceptId]);
  const stack: number[] = [];
  const walk = (id: number): void => {
    if (truncated) return;
    const up = (parents.get(id) ?? []).filter((p) => !onPath.has(p));
    if (up.length === 0) {
      if (stack.length === 0) return;
      if (paths.length >= maxPaths) {
        truncated = true;
        return;
      }
      paths.push([...stack].reverse().map((p) => byId.get(p)!));
      return;
    }
    for (const parent of up) {
      onPath.add(parent);
      stack.push(parent);
      walk(parent);
      stack.pop();
      onPath.delete(parent);
      if (truncated) return;
    }
  };
  walk(conceptId);
  return { ancestors, paths, truncated };
}
