/**
 * Read interface for the mapping quality aggregates (E10) and mapping coverage, derived once per
 * release by the loader (src/importer/mapping-quality-summary.ts). Every call reads a few small rows.
 */
import type { PairQualityAggregate, SourceDomainCoverage, TargetDomainCoverage } from './mapping-quality-records.js';

export interface MappingQualityStore {
  /** The aggregate of every valid mapping row from `source` into `target`; undefined when there is none. */
  pairQuality(sourceVocabularyId: string, targetVocabularyId: string): PairQualityAggregate | undefined;
  /** Per domain of the source vocabulary: its valid concepts (none when the vocabulary has no valid concept). */
  sourceCoverage(sourceVocabularyId: string): SourceDomainCoverage[];
  /** Per domain: valid source concepts mapped into the target vocabulary (none when nothing maps there). */
  targetCoverage(sourceVocabularyId: string, targetVocabularyId: string): TargetDomainCoverage[];
}
