/**
 * The hierarchy read interface: a concept's ancestors and descendants from CONCEPT_ANCESTOR with their levels of
 * separation, filtered, paged and counted exactly, nearest first (min levels, then concept_id); the concept itself
 * and rows whose other end is missing from CONCEPT are never returned nor counted.
 */
import type { ConceptRecord } from './records.js';

/** Which rows count: every condition must hold for every row returned or counted. */
export interface HierarchyFilter {
  /** Only rows with min_levels_of_separation ≤ maxLevels. */
  maxLevels: number;
  /** Only concepts of these vocabularies (none: any). */
  vocabularyIds?: readonly string[];
  /** Only concepts of these domains (none: any). */
  domainIds?: readonly string[];
  /** Only standard ('S') concepts. */
  standardOnly: boolean;
  /** Also deprecated or replaced concepts (invalid_reason not null). */
  includeInvalid: boolean;
  /** Never concepts of these vocabularies (the caller's licence; see licences/licence-rules.ts). */
  hiddenVocabularyIds: readonly string[];
}

/** A concept reached through CONCEPT_ANCESTOR, with its distance from the concept asked about. */
export interface HierarchyRow {
  concept: ConceptRecord;
  min_levels_of_separation: number;
  max_levels_of_separation: number;
}

/** How many matching concepts sit at one level, in one vocabulary, with one standard flag. */
export interface LevelTally {
  level: number;
  vocabulary_id: string;
  standard_concept: 'S' | 'C' | null;
  count: number;
}

/** A direct ancestry link (min_levels_of_separation = 1) between two concepts. */
export interface DirectLink {
  ancestor_concept_id: number;
  descendant_concept_id: number;
}

export interface HierarchyStore {
  /**
   * Every matching ancestor, nearest first. Unpaged on purpose: a concept has few ancestors (at
   * most a few hundred in a full release), so callers page in memory.
   */
  ancestors(conceptId: number, filter: HierarchyFilter): HierarchyRow[];
  /** Exact counts of the matching descendants, by level, vocabulary and standard flag. */
  descendantTallies(conceptId: number, filter: HierarchyFilter): LevelTally[];
  /** One page of the matching descendants, nearest first (`offset` counts matching rows). */
  descendants(conceptId: number, filter: HierarchyFilter, offset: number, limit: number): HierarchyRow[];
  /** The direct links among these concepts (both ends in the set). */
  directLinks(conceptIds: readonly number[]): DirectLink[];
  /** Whether CONCEPT_ANCESTOR has the row (ancestor, descendant) for two different concepts: one primary-key lookup. */
  isAncestor(ancestorId: number, descendantId: number): boolean;
}
