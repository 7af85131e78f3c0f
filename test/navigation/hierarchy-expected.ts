/**
 * What the hierarchy endpoints should answer, computed from an Athena source directory's files
 * (read by ./mapping-athena-files.ts), independently of the loader and the store: a concept's
 * ancestors or descendants from CONCEPT_ANCESTOR (first row of a repeated pair, as the loader
 * keeps), other end present in CONCEPT, self excluded, filtered, nearest first then concept_id.
 */
import type { AthenaFiles, FileAncestor, FileConcept } from './mapping-athena-files.js';

export interface ExpectedFilter {
  maxLevels?: number;
  vocabularyIds?: string[];
  domainIds?: string[];
  standardOnly?: boolean;
  includeInvalid?: boolean;
  /** Which vocabularies the key may see (default: no CPT4, no GPI/MedDRA). */
  visible?: (vocabularyId: string) => boolean;
}

export interface ExpectedNode {
  concept: FileConcept;
  min: number;
  max: number;
}

const firstRows = new WeakMap<AthenaFiles, FileAncestor[]>();

/** CONCEPT_ANCESTOR without repeated (ancestor, descendant) pairs: the first row of each. */
export function ancestorRows(files: AthenaFiles): FileAncestor[] {
  let rows = firstRows.get(files);
  if (!rows) {
    const seen = new Set<string>();
    rows = files.ancestors.filter((r) => {
      const key = `${r.ancestor}:${r.descendant}`;
      return !seen.has(key) && seen.add(key) !== undefined;
    });
    firstRows.set(files, rows);
  }
  return rows;
}

export function expectedLineage(files: AthenaFiles, conceptId: number, direction: 'ancestors' | 'descendants', filter: ExpectedFilter = {}): ExpectedNode[] {
  const visible = filter.visible ?? ((v: string) => !['CPT4', 'GPI', 'MedDRA'].includes(v));
  const maxLevels = filter.maxLevels ?? 10;
  return ancestorRows(files)
    .filter((r) => (direction === 'ancestors' ? r.descendant === conceptId : r.ancestor === conceptId) && r.ancestor !== r.descendant && r.min <= maxLevels)
    .map((r) => ({ concept: files.concepts.get(direction === 'ancestors' ? r.ancestor : r.descendant)!, min: r.min, max: r.max }))
    .filter(({ concept }) => {
      if (!concept || !visible(concept.vocabulary_id)) return false;
      if (!filter.includeInvalid && concept.invalid_reason !== null) return false;
      if (filter.standardOnly && concept.standard_concept !== 'S') return false;
      if (filter.vocabularyIds && !filter.vocabularyIds.includes(concept.vocabulary_id)) return false;
      if (filter.domainIds && !filter.domainIds.includes(concept.domain_id)) return false;
      return true;
    })
    .sort((a, b) => a.min - b.min || a.concept.concept_id - b.concept.concept_id);
}

/** The node fields the endpoints return for an expected node. */
export function nodeOf(node: ExpectedNode) {
  const c = node.concept;
  return {
    concept_id: c.concept_id,
    concept_name: c.concept_name,
    vocabulary_id: c.vocabulary_id,
    concept_code: c.concept_code,
    domain_id: c.domain_id,
    concept_class_id: c.concept_class_id,
    standard_concept: c.standard_concept,
    invalid_reason: c.invalid_reason,
    level: node.min,
    min_levels_of_separation: node.min,
    max_levels_of_separation: node.max,
  };
}

/** The concepts with the most rows in a direction (both ends present), most first: test subjects chosen from the data. */
export function busiestConcepts(files: AthenaFiles, direction: 'ancestors' | 'descendants', count: number): number[] {
  const tally = new Map<number, number>();
  for (const r of ancestorRows(files)) {
    if (r.ancestor === r.descendant || !files.concepts.has(r.ancestor) || !files.concepts.has(r.descendant)) continue;
    const id = direction === 'ancestors' ? r.descendant : r.ancestor;
    tally.set(id, (tally.get(id) ?? 0) + 1);
  }
  return [...tally.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, count).map(([id]) => id);
}
