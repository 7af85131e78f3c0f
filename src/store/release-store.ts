/**
 * The read side of one loaded release: the interfaces services depend on (implementation in ./sqlite, chosen in
 * ./openers/release-store-openers.ts). A release store is local, immutable and synchronous: every method answers in the
 * calling thread from the local file (why in docs/internals.md).
 */
import type { ReleaseBuild } from './data-dir.js';
import type { ReleaseManifest } from './release-manifest.js';
import type {
  ConceptClassRecord,
  ConceptRecord,
  DomainRecord,
  RelationshipTypeRecord,
  SynonymRecord,
  VocabularyRecord,
} from './records.js';
import type { SearchStore } from './search-store.js';
import type { ConceptGraph } from './concept-graph.js';
import type { MappingQualityStore } from './mapping-quality-store.js';
import type { StatisticsStore } from './statistics-store.js';
import type { RelationshipStore } from './relationship-store.js';
import type { MappingStore } from './mapping-store.js';
import type { HierarchyStore } from './hierarchy-store.js';
import type { ConceptSetStore } from './concept-set-store.js';

export interface ConceptStore {
  byId(conceptId: number): ConceptRecord | undefined;
  /** Concepts for the ids that exist, in no particular order. */
  byIds(conceptIds: readonly number[]): ConceptRecord[];
  /** Exact code first; falls back to a case-insensitive match within the vocabulary. */
  byCode(vocabularyId: string, conceptCode: string): ConceptRecord | undefined;
  synonyms(conceptId: number): SynonymRecord[];
  /** Valid relationships of a concept with one of these relationship ids, targets joined, at most `limit`. */
  related(conceptId: number, relationshipIds: readonly string[], limit: number): LinkedConcept[];
  /**
   * Up to `limit` concepts of one vocabulary in (concept_code, concept_id) order, after the position
   * `after` (exclusive; undefined: from the first). concept_code is ordered as SQLite's BINARY
   * collation orders it: by UTF-8 bytes. One index seek at any depth (concept_by_vocabulary_code).
   */
  inCodeOrder(vocabularyId: string, after: ConceptCodePosition | undefined, limit: number): ConceptRecord[];
  /** Up to `limit` concepts with a concept_id above `afterId`, in concept_id order (one rowid seek at any depth). */
  inIdOrder(afterId: number, limit: number): ConceptRecord[];
  /**
   * The valid relationships with this relationship id of each of these concepts (one index seek per
   * concept; callers pass a few hundred at a time), targets existing in CONCEPT, in no particular order.
   */
  targetsOf(conceptIds: readonly number[], relationshipId: string): RelationshipTarget[];
}

/** A relationship from a concept to a target, with the target's vocabulary (for licence filters). */
export interface RelationshipTarget {
  source_id: number;
  target_id: number;
  target_vocabulary_id: string;
}

/** A position in a vocabulary's (concept_code, concept_id) order. */
export interface ConceptCodePosition {
  code: string;
  conceptId: number;
}

export interface MetadataStore {
  vocabularies(): VocabularyRecord[];
  vocabulary(vocabularyId: string): VocabularyRecord | undefined;
  domains(): DomainRecord[];
  conceptClasses(): ConceptClassRecord[];
  relationshipTypes(): RelationshipTypeRecord[];
  /** The load-time concept_summary table (a few thousand rows at full scale), held in memory. */
  conceptSummary(): readonly ConceptSummaryRecord[];
  /**
   * Up to `limit` concepts of one domain segment (domain, vocabulary, standard flag, validity) in
   * concept_id order, starting at the 0-based `position` within the segment: one index seek at any
   * depth (the domain_concept_order table). Segment sizes are in conceptSummary().
   */
  domainSegmentConcepts(segment: DomainSegment, position: number, limit: number): ConceptRecord[];
}

/** Concepts of one (vocabulary, domain, class, standard flag, validity) group (concept_summary). */
export interface ConceptSummaryRecord {
  vocabulary_id: string;
  domain_id: string;
  concept_class_id: string;
  standard_concept: 'S' | 'C' | null;
  is_invalid: boolean;
  concept_count: number;
  /** YYYY-MM-DD over the group's concepts. */
  earliest_start_date: string;
  latest_start_date: string;
  latest_end_date: string;
}

/** The concepts of one domain, vocabulary, standard flag and validity. */
export interface DomainSegment {
  domainId: string;
  vocabularyId: string;
  standardConcept: 'S' | 'C' | null;
  isInvalid: boolean;
}

export interface ReleaseStore {
  readonly manifest: ReleaseManifest;
  readonly concepts: ConceptStore;
  readonly metadata: MetadataStore;
  /** Keyword search index (E4); a store without one (or with another fingerprint) is refused at open. */
  readonly search: SearchStore;
  /** Light outgoing links for breadth-first traversal (related concepts, traverse, recommendations). */
  readonly graph: ConceptGraph;
  /** CONCEPT_RELATIONSHIP reads of concept navigation (both directions). */
  readonly relationships: RelationshipStore;
  /** Mapping quality aggregates (E10) and mapping coverage, derived at load. */
  readonly mappingQuality: MappingQualityStore;
  /** Vocabulary statistics (E5) derived at load: hierarchy, relationships, mappings, languages, quality, periods. */
  readonly statistics: StatisticsStore;
  /** Mapping reads ('Maps to' and friends, ancestors/descendants in a vocabulary) of GET /mappings and POST /concepts/map. */
  readonly mappings: MappingStore;
  /** Ancestors and descendants from CONCEPT_ANCESTOR, filtered and paged, with exact counts. */
  readonly hierarchy: HierarchyStore;
  /** Bulk id reads of concept-set resolution (valid descendants, 'Maps to' sources, summary facets). */
  readonly conceptSets: ConceptSetStore;
  close(): void;
}

/** Opens one build of a release read-only (throws a plain explanation when the store is unusable). */
export type ReleaseStoreOpener = (build: ReleaseBuild) => ReleaseStore;

/** A concept reached from another one through a relationship. */
export interface LinkedConcept {
  concept: import('./records.js').ConceptRecord;
  relationship_id: string;
}
