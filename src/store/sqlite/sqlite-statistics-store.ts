/** The statistics_* tables of a release store (written by src/importer/statistics-summary.ts): primary-key range reads. */
import type Database from 'better-sqlite3';
import type {
  DepthCount,
  LanguageCount,
  MappingTargetCount,
  PeriodCount,
  RelationshipCount,
  StatisticsStore,
  VocabularyTallies,
} from '../statistics-store.js';

export class SqliteStatisticsStore implements StatisticsStore {
  private readonly talliesOf: Database.Statement<[string], VocabularyTallies>;
  private readonly depthsOf: Database.Statement<[string], DepthCount>;
  private readonly relationshipsOf: Database.Statement<[string], RelationshipCount>;
  private readonly mappingTargetsOf: Database.Statement<[string], MappingTargetCount>;
  private readonly languagesOf: Database.Statement<[string], LanguageCount>;
  private readonly periodsOf: Database.Statement<[string], PeriodCount>;

  constructor(db: Database.Database) {
    this.talliesOf = db.prepare(
      `SELECT concept_count, hierarchy_concepts, root_concepts, leaf_concepts, orphaned_concepts, duplicate_codes,
              missing_descriptions, complete_concepts, consistent_concepts, mapped_concepts, synonym_concepts, multilingual_concepts
         FROM statistics_vocabulary WHERE vocabulary_id = ?`,
    );
    this.depthsOf = db.prepare('SELECT depth, concept_count FROM statistics_depth WHERE vocabulary_id = ? ORDER BY depth');
    this.relationshipsOf = db.prepare(
      'SELECT relationship_id, relationship_count FROM statistics_relationship WHERE vocabulary_id = ? ORDER BY relationship_count DESC, relationship_id',
    );
    this.mappingTargetsOf = db.prepare(
      `SELECT target_vocabulary_id, mapping_count, mapped_concepts FROM statistics_mapping
        WHERE vocabulary_id = ? ORDER BY mapping_count DESC, target_vocabulary_id`,
    );
    this.languagesOf = db.prepare(
      `SELECT language_concept_id, synonym_count, concept_count FROM statistics_language
        WHERE vocabulary_id = ? ORDER BY synonym_count DESC, language_concept_id`,
    );
    this.periodsOf = db.prepare(
      'SELECT year, concepts_added, concepts_modified, concepts_deprecated FROM statistics_period WHERE vocabulary_id = ? ORDER BY year',
    );
  }

  vocabularyTallies(vocabularyId: string): VocabularyTallies | undefined {
    return this.talliesOf.get(vocabularyId);
  }

  depths(vocabularyId: string): DepthCount[] {
    return this.depthsOf.all(vocabularyId);
  }

  relationships(vocabularyId: string): RelationshipCount[] {
    return this.relationshipsOf.all(vocabularyId);
  }

  mappingTargets(vocabularyId: string): MappingTargetCount[] {
    return this.mappingTargetsOf.all(vocabularyId);
  }

  languages(vocabularyId: string): LanguageCount[] {
    return this.languagesOf.all(vocabularyId);
  }

  periods(vocabularyId: string): PeriodCount[] {
    return this.periodsOf.all(vocabularyId);
  }
}
