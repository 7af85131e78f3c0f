/**
 * Derives the mapping quality aggregates (E10) and mapping coverage tables once per release, in one pass over
 * CONCEPT in concept_id order joined with its mapping rows, so that those requests only read a few small rows.
 */
import { CoverageAccumulator } from '../mapping-model/coverage-aggregate.js';
import { diceSimilarity, MAPPING_RELATIONSHIP_IDS, nameWords } from '../mapping-model/mapping-confidence.js';
import { PairQualityAccumulator, type MappingRowInput } from '../mapping-model/quality-aggregate.js';
import { formatQuantity } from './format.js';
import type { IndexBuilder } from './index-builder.js';

export const MAPPING_QUALITY_DDL = `
CREATE TABLE mapping_quality_pair (
  source_vocabulary_id TEXT NOT NULL,
  target_vocabulary_id TEXT NOT NULL,
  aggregate            TEXT NOT NULL, -- JSON: PairQualityAggregate
  PRIMARY KEY (source_vocabulary_id, target_vocabulary_id)
);
CREATE TABLE mapping_coverage_source (
  source_vocabulary_id TEXT NOT NULL,
  domain_id            TEXT NOT NULL,
  source_concepts      INTEGER NOT NULL,
  first_concepts       TEXT NOT NULL, -- JSON array of concept ids
  PRIMARY KEY (source_vocabulary_id, domain_id)
);
CREATE TABLE mapping_coverage_target (
  source_vocabulary_id TEXT NOT NULL,
  target_vocabulary_id TEXT NOT NULL,
  domain_id            TEXT NOT NULL,
  mapped_concepts      INTEGER NOT NULL,
  unmapped_concepts    TEXT NOT NULL, -- JSON array of concept ids
  PRIMARY KEY (source_vocabulary_id, target_vocabulary_id, domain_id)
);
`;

/** Word sets of recently seen target names (targets repeat: many sources map to one standard concept). */
const TARGET_WORDS_CACHE = 100_000;

type ScanRow = [
  conceptId: number,
  name: string,
  domainId: string,
  vocabularyId: string,
  invalidReason: string | null,
  relationshipId: string | null,
  relationshipStart: number | null,
  targetId: number | null,
  targetName: string | null,
  targetDomainId: string | null,
  targetVocabularyId: string | null,
  targetStandard: string | null,
  targetInvalid: string | null,
];

export const mappingQualityBuilder: IndexBuilder = {
  name: 'mapping quality',
  build({ db, log }) {
    db.exec(MAPPING_QUALITY_DDL);
    const placeholders = MAPPING_RELATIONSHIP_IDS.map(() => '?').join(', ');
    const scan = db.prepare(
      `SELECT c.concept_id, c.concept_name, c.domain_id, c.vocabulary_id, c.invalid_reason,
              r.relationship_id, r.valid_start_date,
              t.concept_id, t.concept_name, t.domain_id, t.vocabulary_id, t.standard_concept, t.invalid_reason
         FROM concept c
         LEFT JOIN concept_relationship r
                ON r.concept_id_1 = c.concept_id AND r.relationship_id IN (${placeholders}) AND r.invalid_reason IS NULL
         LEFT JOIN concept t ON t.concept_id = r.concept_id_2
        ORDER BY c.concept_id`,
    );
    const pairs = new Map<string, PairQualityAccumulator>();
    const coverage = new CoverageAccumulator();
    const targetWords = new Map<number, Set<string>>();
    let group: ScanRow[] = [];
    let mappingRows = 0;

    const wordsOfTarget = (id: number, name: string) => {
      let words = targetWords.get(id);
      if (!words) {
        if (targetWords.size >= TARGET_WORDS_CACHE) targetWords.clear();
        targetWords.set(id, (words = nameWords(name)));
      }
      return words;
    };

    const finishConcept = () => {
      const first = group[0]!;
      const [conceptId, name, domainId, vocabularyId, invalidReason] = first;
      const mappings = group.filter((r) => r[7] !== null);
      const mappedVocabularies = new Set<string>();
      let sourceWords: Set<string> | undefined;
      for (const r of mappings) {
        const targetId = r[7]!;
        const selfMap = targetId === conceptId;
        const similarity = selfMap ? 1 : diceSimilarity((sourceWords ??= nameWords(name)), wordsOfTarget(targetId, r[8]!));
        const row: MappingRowInput = {
          source_concept_id: conceptId,
          source_domain_id: domainId,
          target_concept_id: targetId,
          valid_start_date: r[6]!,
          similarity,
          relationship_id: r[5]!,
          fan_out: mappings.length,
          target_standard: r[11],
          target_invalid: r[12],
          same_domain: r[9] === domainId,
        };
        const targetVocabulary = r[10]!;
        const key = `${vocabularyId}\u0000${targetVocabulary}`;
        let pair = pairs.get(key);
        if (!pair) pairs.set(key, (pair = new PairQualityAccumulator(vocabularyId, targetVocabulary)));
        pair.add(row);
        if (r[5] === 'Maps to') mappedVocabularies.add(targetVocabulary);
      }
      mappingRows += mappings.length;
      if (!invalidReason) coverage.add(vocabularyId, domainId, conceptId, mappedVocabularies);
    };

    for (const row of scan.raw().iterate(...MAPPING_RELATIONSHIP_IDS) as IterableIterator<ScanRow>) {
      if (group.length && group[0]![0] !== row[0]) {
        finishConcept();
        group = [];
      }
      group.push(row);
    }
    if (group.length) finishConcept();

    db.transaction(() => {
      const insertPair = db.prepare('INSERT INTO mapping_quality_pair VALUES (?, ?, ?)');
      for (const pair of pairs.values()) {
        const aggregate = pair.result();
        insertPair.run(aggregate.source_vocabulary_id, aggregate.target_vocabulary_id, JSON.stringify(aggregate));
      }
      const insertSource = db.prepare('INSERT INTO mapping_coverage_source VALUES (?, ?, ?, ?)');
      for (const s of coverage.sourceDomains()) {
        insertSource.run(s.source_vocabulary_id, s.domain_id, s.source_concepts, JSON.stringify(s.first_concepts));
      }
      const insertTarget = db.prepare('INSERT INTO mapping_coverage_target VALUES (?, ?, ?, ?, ?)');
      for (const t of coverage.targetDomains()) {
        insertTarget.run(t.source_vocabulary_id, t.target_vocabulary_id, t.domain_id, t.mapped_concepts, JSON.stringify(t.unmapped_concepts));
      }
    })();
    log(`${formatQuantity(mappingRows, 'mapping row', 'mapping rows')} analysed, ${formatQuantity(pairs.size, 'vocabulary pair', 'vocabulary pairs')}`);
  },
};
