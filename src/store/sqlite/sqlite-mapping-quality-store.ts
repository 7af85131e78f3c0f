/**
 * MappingQualityStore over the tables written by src/importer/mapping-quality-summary.ts: primary-key lookups of
 * the load-time aggregates, parsed pair aggregates kept in a small LRU cache.
 */

import type Database from 'better-sqlite3';
import { LruCache } from '../../lru-cache.js';
import type { PairQualityAggregate, SourceDomainCoverage, TargetDomainCoverage } from '../mapping-quality-records.js';
import type { MappingQualityStore } from '../mapping-quality-store.js';

/** Parsed pair aggregates kept per open release (each is at most a few hundred kB of JSON). */
const PARSED_PAIR_CACHE = 64;

/**
 * Reads the tables of src/importer/mapping-quality-summary.ts (primary-key lookups only). A store
 * loaded before they existed is refused at open with a plain explanation.
 */
export class SqliteMappingQualityStore implements MappingQualityStore {
  private readonly pairStatement: Database.Statement;
  private readonly sourceStatement: Database.Statement;
  private readonly targetStatement: Database.Statement;
  private readonly parsed = new LruCache<PairQualityAggregate | null>(PARSED_PAIR_CACHE);

  constructor(db: Database.Database, releaseLabel: string) {
    const tables = db
      .prepare(
        `SELECT count(*) FROM sqlite_master
          WHERE type = 'table' AND name IN ('mapping_quality_pair', 'mapping_coverage_source', 'mapping_coverage_target')`,
      )
      .pluck()
      .get();
    if (tables !== 3) {
      throw new Error(
        `release ${releaseLabel} has no mapping quality tables (loaded by an older omopterm): load the release again with this version of omopterm`,
      );
    }
    this.pairStatement = db
      .prepare('SELECT aggregate FROM mapping_quality_pair WHERE source_vocabulary_id = ? AND target_vocabulary_id = ?')
      .pluck();
    this.sourceStatement = db.prepare(
      'SELECT source_vocabulary_id, domain_id, source_concepts, first_concepts FROM mapping_coverage_source WHERE source_vocabulary_id = ? ORDER BY domain_id',
    );
    this.targetStatement = db.prepare(
      `SELECT source_vocabulary_id, target_vocabulary_id, domain_id, mapped_concepts, unmapped_concepts
         FROM mapping_coverage_target WHERE source_vocabulary_id = ? AND target_vocabulary_id = ? ORDER BY domain_id`,
    );
  }

  pairQuality(sourceVocabularyId: string, targetVocabularyId: string): PairQualityAggregate | undefined {
    const key = `${sourceVocabularyId}\u0000${targetVocabularyId}`;
    let aggregate = this.parsed.get(key);
    if (aggregate === undefined) {
      const json = this.pairStatement.get(sourceVocabularyId, targetVocabularyId) as string | undefined;
      aggregate = json === undefined ? null : (JSON.parse(json) as PairQualityAggregate);
      this.parsed.set(key, aggregate);
    }
    return aggregate ?? undefined;
  }

  sourceCoverage(sourceVocabularyId: string): SourceDomainCoverage[] {
    const rows = this.sourceStatement.all(sourceVocabularyId) as Array<Omit<SourceDomainCoverage, 'first_concepts'> & { first_concepts: string }>;
    return rows.map((r) => ({ ...r, first_concepts: JSON.parse(r.first_concepts) as number[] }));
  }

  targetCoverage(sourceVocabularyId: string, targetVocabularyId: string): TargetDomainCoverage[] {
    const rows = this.targetStatement.all(sourceVocabularyId, targetVocabularyId) as Array<
      Omit<TargetDomainCoverage, 'unmapped_concepts'> & { unmapped_concepts: string }
    >;
    return rows.map((r) => ({ ...r, unmapped_concepts: JSON.parse(r.unmapped_concepts) as number[] }));
  }
}
