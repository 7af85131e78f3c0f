/**
 * Read interface for the vocabulary statistics (E5) derived once per release by the loader
 * (src/importer/statistics-summary.ts). Every method reads a few small rows of one vocabulary; the
 * definitions of the figures are src/services/statistics/statistics-definitions.ts.
 */

/** One vocabulary's per-concept tallies (statistics_vocabulary). */
export interface VocabularyTallies {
  concept_count: number;
  hierarchy_concepts: number;
  root_concepts: number;
  leaf_concepts: number;
  orphaned_concepts: number;
  duplicate_codes: number;
  missing_descriptions: number;
  complete_concepts: number;
  consistent_concepts: number;
  mapped_concepts: number;
  synonym_concepts: number;
  multilingual_concepts: number;
}

export interface DepthCount {
  depth: number;
  concept_count: number;
}

export interface RelationshipCount {
  relationship_id: string;
  relationship_count: number;
}

export interface MappingTargetCount {
  target_vocabulary_id: string;
  /** Valid 'Maps to' rows from the vocabulary's concepts into the target vocabulary (self-maps excluded). */
  mapping_count: number;
  /** Concepts of the vocabulary with at least one such row. */
  mapped_concepts: number;
}

export interface LanguageCount {
  language_concept_id: number;
  synonym_count: number;
  concept_count: number;
}

export interface PeriodCount {
  year: number;
  concepts_added: number;
  concepts_modified: number;
  concepts_deprecated: number;
}

export interface StatisticsStore {
  /** Undefined when the release has no concept of the vocabulary. */
  vocabularyTallies(vocabularyId: string): VocabularyTallies | undefined;
  /** Hierarchy members per depth, shallowest first. */
  depths(vocabularyId: string): DepthCount[];
  /** Most frequent first. */
  relationships(vocabularyId: string): RelationshipCount[];
  /** Most rows first. */
  mappingTargets(vocabularyId: string): MappingTargetCount[];
  /** Most synonyms first. */
  languages(vocabularyId: string): LanguageCount[];
  /** Oldest year first. */
  periods(vocabularyId: string): PeriodCount[];
}
