/**
 * A concept's place in the hierarchy from CONCEPT_ANCESTOR: its ancestors and descendants (paged, nearest first,
 * exact totals) and both together as lists or as a graph of direct links, every row and count under the filter and
 * licence.
 */
import type { ReleaseView } from '../release-view.js';
import type { LevelTally, HierarchyRow } from '../../store/hierarchy-store.js';
import type { ConceptRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { resolveHierarchyOptions, type HierarchyOptions, type ResolvedHierarchyOptions } from './hierarchy-options.js';
import { briefConcept, type ConceptBrief } from '../concepts/concept-brief.js';
import { requireVisibleConcept } from '../concepts/concept-lookup.js';

export interface HierarchyNode extends ConceptBrief {
  invalid_reason: 'D' | 'U' | null;
  /** Levels from the concept asked about: min_levels_of_separation (0 for the concept itself in a graph). */
  level: number;
  min_levels_of_separation: number;
  max_levels_of_separation: number;
  /** include_distance: the same distance, under the name OMOPHub's Python client reads. */
  hierarchy_level?: number;
  /** include_paths: steps of the shortest and of the longest ancestry path (min/max levels of separation). */
  path_length?: number;
  max_path_length?: number;
}

export interface HierarchySummary {
  total_ancestors?: number;
  total_descendants?: number;
  /** The largest level of separation among the concepts counted. */
  max_hierarchy_depth: number;
  /** Vocabularies of the concepts counted, sorted. */
  unique_vocabularies: string[];
  relationship_types_used: string[];
  /** Concepts counted that are classification concepts (standard_concept 'C'). */
  classification_count: number;
  /** The max_levels applied (after clamping). */
  max_levels: number;
}

interface ConceptHeader {
  concept_id: number;
  concept_name: string;
  vocabulary_id: string;
}

export interface AncestorsAnswer extends ConceptHeader {
  ancestors: HierarchyNode[];
  hierarchy_summary: HierarchySummary;
}

export interface DescendantsAnswer extends ConceptHeader {
  descendants: HierarchyNode[];
  hierarchy_summary: HierarchySummary;
}

export interface FlatHierarchy extends ConceptHeader {
  ancestors: HierarchyNode[];
  descendants: HierarchyNode[];
  total_ancestors: number;
  total_descendants: number;
  hierarchy_summary: HierarchySummary;
}

export interface HierarchyEdge {
  /** The child (descendant) end of a direct link. */
  source: number;
  /** The parent (ancestor) end. */
  target: number;
  relationship_id: 'Is a';
}

export interface GraphHierarchy extends ConceptHeader {
  nodes: HierarchyNode[];
  edges: HierarchyEdge[];
  total_ancestors: number;
  total_descendants: number;
  hierarchy_summary: HierarchySummary;
}

export interface RowWindow {
  offset: number;
  limit: number;
}

/** A page of an answer and the number of matching rows over all pages. */
export interface Paged<T> {
  data: T;
  total: number;
}

export type HierarchyFormat = 'flat' | 'graph';

export function conceptAncestors(
  view: ReleaseView,
  conceptId: number,
  options: HierarchyOptions,
  window: RowWindow,
): Paged<AncestorsAnswer> {
  const concept = requireVisibleConcept(view, conceptId);
  const resolved = resolveHierarchyOptions(view, options);
  const rows = view.store.hierarchy.ancestors(conceptId, resolved.filter);
  const summary = summarize(tallyRows(rows), resolved);
  return {
    data: {
      ...header(concept),
      ancestors: rows.slice(window.offset, window.offset + window.limit).map((r) => toNode(r, resolved)),
      hierarchy_summary: { total_ancestors: rows.length, ...summary },
    },
    total: rows.length,
  };
}

export function conceptDescendants(
  view: ReleaseView,
  conceptId: number,
  options: HierarchyOptions,
  window: RowWindow,
): Paged<DescendantsAnswer> {
  const concept = requireVisibleConcept(view, conceptId);
  const resolved = resolveHierarchyOptions(view, options);
  const tallies = view.store.hierarchy.descendantTallies(conceptId, resolved.filter);
  const total = sumOf(tallies);
  const rows = window.offset < total ? view.store.hierarchy.descendants(conceptId, resolved.filter, window.offset, window.limit) : [];
  return {
    data: {
      ...header(concept),
      descendants: rows.map((r) => toNode(r, resolved)),
      hierarchy_summary: { total_descendants: total, ...summarize(tallies, resolved) },
    },
    total,
  };
}

/** Ancestors and descendants together (the first `maxResults` of each), as lists or as a graph. */
export function conceptHierarchy(
  view: ReleaseView,
  conceptId: number,
  options: HierarchyOptions,
  format: HierarchyFormat,
  maxResults: number,
): FlatHierarchy | GraphHierarchy {
  const concept = requireVisibleConcept(view, conceptId);
  const resolved = resolveHierarchyOptions(view, options);
  const ancestorRows = view.store.hierarchy.ancestors(conceptId, resolved.filter);
  const descendantTallies = view.store.hierarchy.descendantTallies(conceptId, resolved.filter);
  const totalDescendants = sumOf(descendantTallies);
  const ancestors = ancestorRows.slice(0, maxResults).map((r) => toNode(r, resolved));
  const descendants = (totalDescendants ? view.store.hierarchy.descendants(conceptId, resolved.filter, 0, maxResults) : []).map((r) => toNode(r, resolved));
  const totals = { total_ancestors: ancestorRows.length, total_descendants: totalDescendants };
  const hierarchy_summary = { ...totals, ...summarize([...tallyRows(ancestorRows), ...descendantTallies], resolved) };
  if (format === 'flat') return { ...header(concept), ancestors, descendants, ...totals, hierarchy_summary };

  const self = toNode({ concept, min_levels_of_separation: 0, max_levels_of_separation: 0 }, resolved);
  const nodes = [self, ...ancestors, ...descendants];
  const edges = view.store.hierarchy
    .directLinks(nodes.map((n) => n.concept_id))
    .map((link): HierarchyEdge => ({ source: link.descendant_concept_id, target: link.ancestor_concept_id, relationship_id: 'Is a' }))
    .sort((a, b) => a.target - b.target || a.source - b.source);
  return { ...header(concept), nodes, edges, ...totals, hierarchy_summary };
}

function header(concept: ConceptRecord): ConceptHeader {
  return { concept_id: concept.concept_id, concept_name: concept.concept_name, vocabulary_id: concept.vocabulary_id };
}

function toNode(row: HierarchyRow, options: ResolvedHierarchyOptions): HierarchyNode {
  const c = row.concept;
  const node: HierarchyNode = {
    ...briefConcept(c),
    invalid_reason: c.invalid_reason,
    level: row.min_levels_of_separation,
    min_levels_of_separation: row.min_levels_of_separation,
    max_levels_of_separation: row.max_levels_of_separation,
  };
  if (options.includeDistance) node.hierarchy_level = row.min_levels_of_separation;
  if (options.includePaths) {
    node.path_length = row.min_levels_of_separation;
    node.max_path_length = row.max_levels_of_separation;
  }
  return node;
}

/** Rows (ancestors, all of them) as tallies, so that one summary serves both directions. */
function tallyRows(rows: readonly HierarchyRow[]): LevelTally[] {
  return rows.map((r) => ({ level: r.min_levels_of_separation, vocabulary_id: r.concept.vocabulary_id, standard_concept: r.concept.standard_concept, count: 1 }));
}

function sumOf(tallies: readonly LevelTally[]): number {
  return tallies.reduce((sum, t) => sum + t.count, 0);
}

function summarize(tallies: readonly LevelTally[], options: ResolvedHierarchyOptions): Omit<HierarchySummary, 'total_ancestors' | 'total_descendants'> {
  return {
    max_hierarchy_depth: tallies.reduce((max, t) => Math.max(max, t.level), 0),
    unique_vocabularies: [...new Set(tallies.map((t) => t.vocabulary_id))].sort(),
    relationship_types_used: [...options.relationshipTypes],
    classification_count: tallies.reduce((sum, t) => sum + (t.standard_concept === 'C' ? t.count : 0), 0),
    max_levels: options.filter.maxLevels,
  };
}
