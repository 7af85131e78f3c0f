/**
 * Derives the vocabulary statistics tables (E5) once per release, so a statistics request reads a few small rows:
 * three grouped passes into temp tables, then one pass over CONCEPT in concept_id order accumulated per vocabulary
 * in JavaScript, with no full-table sort (the steps and timings are in docs/internals.md).
 */
import { formatQuantity } from './format.js';
import type { IndexBuilder } from './index-builder.js';
import { StatisticsAccumulator, type ConceptFacts } from './statistics-accumulator.js';

/** Only this relationship counts as a mapping (valid rows, another concept as target). */
export const MAPPING_RELATIONSHIP_ID = 'Maps to';

/**
 * The tables the statistics store reads (src/store/sqlite/sqlite-statistics-store.ts); a few rows
 * per vocabulary each. Definitions of the columns: STATISTICS_DEFINITIONS.
 */
export const STATISTICS_DDL = `
CREATE TABLE statistics_vocabulary (
  vocabulary_id         TEXT PRIMARY KEY,
  concept_count         INTEGER NOT NULL,
  hierarchy_concepts    INTEGER NOT NULL,
  root_concepts         INTEGER NOT NULL,
  leaf_concepts         INTEGER NOT NULL,
  orphaned_concepts     INTEGER NOT NULL,
  duplicate_codes       INTEGER NOT NULL,
  missing_descriptions  INTEGER NOT NULL,
  complete_concepts     INTEGER NOT NULL,
  consistent_concepts   INTEGER NOT NULL,
  mapped_concepts       INTEGER NOT NULL,
  synonym_concepts      INTEGER NOT NULL,
  multilingual_concepts INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE statistics_depth (
  vocabulary_id TEXT NOT NULL,
  depth         INTEGER NOT NULL,
  concept_count INTEGER NOT NULL,
  PRIMARY KEY (vocabulary_id, depth)
) WITHOUT ROWID;
CREATE TABLE statistics_relationship (
  vocabulary_id      TEXT NOT NULL,
  relationship_id    TEXT NOT NULL,
  relationship_count INTEGER NOT NULL,
  PRIMARY KEY (vocabulary_id, relationship_id)
) WITHOUT ROWID;
CREATE TABLE statistics_mapping (
  vocabulary_id        TEXT NOT NULL,
  target_vocabulary_id TEXT NOT NULL,
  mapping_count        INTEGER NOT NULL,
  mapped_concepts      INTEGER NOT NULL,
  PRIMARY KEY (vocabulary_id, target_vocabulary_id)
) WITHOUT ROWID;
CREATE TABLE statistics_language (
  vocabulary_id       TEXT NOT NULL,
  language_concept_id INTEGER NOT NULL,
  synonym_count       INTEGER NOT NULL,
  concept_count       INTEGER NOT NULL,
  PRIMARY KEY (vocabulary_id, language_concept_id)
) WITHOUT ROWID;
CREATE TABLE statistics_period (
  vocabulary_id       TEXT NOT NULL,
  year                INTEGER NOT NULL,
  concepts_added      INTEGER NOT NULL,
  concepts_modified   INTEGER NOT NULL,
  concepts_deprecated INTEGER NOT NULL,
  PRIMARY KEY (vocabulary_id, year)
) WITHOUT ROWID;
`;

type ScanRow = [
  vocabularyId: string,
  conceptCode: string,
  validStart: number,
  validEnd: number,
  invalidReason: string | null,
  standardConcept: string | null,
  unnamed: number,
  depth: number | null,
  hasParent: number | null,
  hasChild: number | null,
  relationshipIds: string | null,
  mapTargets: string | null,
  languages: string | null,
  duplicateCode: number,
];

export const statisticsSummaryBuilder: IndexBuilder = {
  name: 'vocabulary statistics',
  build({ db, log }) {
    db.exec(STATISTICS_DDL);
    let started = Date.now();
    const step = (what: string) => {
      log(`${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      started = Date.now();
    };

    db.exec(`
      CREATE TEMP TABLE stat_descendant (concept_id INTEGER PRIMARY KEY, depth INTEGER NOT NULL, has_parent INTEGER NOT NULL);
      INSERT INTO temp.stat_descendant
      SELECT descendant_concept_id, max(min_levels_of_separation), max(ancestor_concept_id <> descendant_concept_id)
        FROM concept_ancestor INDEXED BY ancestor_by_descendant
       GROUP BY descendant_concept_id;`);
    step('depth per concept');
    db.exec(`
      CREATE TEMP TABLE stat_ancestor (concept_id INTEGER PRIMARY KEY, has_child INTEGER NOT NULL);
      INSERT INTO temp.stat_ancestor
      SELECT ancestor_concept_id, max(descendant_concept_id <> ancestor_concept_id)
        FROM concept_ancestor NOT INDEXED
       GROUP BY ancestor_concept_id;`);
    step('descendants per concept');
    db.exec(`
      CREATE TEMP TABLE stat_duplicate_code (vocabulary_id TEXT NOT NULL, concept_code TEXT NOT NULL, PRIMARY KEY (vocabulary_id, concept_code)) WITHOUT ROWID;
      INSERT INTO temp.stat_duplicate_code
      SELECT vocabulary_id, concept_code FROM concept INDEXED BY concept_by_vocabulary_code
       GROUP BY vocabulary_id, concept_code HAVING count(*) > 1;`);
    step('duplicate codes');

    const scan = db.prepare(
      `SELECT c.vocabulary_id, c.concept_code, c.valid_start_date, c.valid_end_date, c.invalid_reason, c.standard_concept,
              length(trim(c.concept_name, char(32, 9, 10, 13))) = 0,
              d.depth, d.has_parent, a.has_child,
              (SELECT group_concat(r.relationship_id, char(9)) FROM concept_relationship r
                WHERE r.concept_id_1 = c.concept_id AND r.invalid_reason IS NULL),
              (SELECT group_concat(t.vocabulary_id, char(9))
                 FROM concept_relationship m JOIN concept t ON t.concept_id = m.concept_id_2
                WHERE m.concept_id_1 = c.concept_id AND m.relationship_id = ? AND m.invalid_reason IS NULL
                  AND m.concept_id_2 <> c.concept_id),
              (SELECT group_concat(s.language_concept_id) FROM concept_synonym s WHERE s.concept_id = c.concept_id),
              EXISTS (SELECT 1 FROM temp.stat_duplicate_code x WHERE x.vocabulary_id = c.vocabulary_id AND x.concept_code = c.concept_code)
         FROM concept c
         LEFT JOIN temp.stat_descendant d ON d.concept_id = c.concept_id
         LEFT JOIN temp.stat_ancestor a ON a.concept_id = c.concept_id
        ORDER BY c.concept_id`,
    );
    const totals = new StatisticsAccumulator();
    const facts: ConceptFacts = {
      vocabularyId: '',
      validStart: 0,
      validEnd: 0,
      invalidReason: null,
      standardConcept: null,
      unnamed: false,
      inHierarchy: false,
      depth: 0,
      hasParent: false,
      hasChild: false,
      relationshipIds: [],
      mapTargets: [],
      languages: [],
      duplicateCode: false,
    };
    let concepts = 0;
    for (const row of scan.raw().iterate(MAPPING_RELATIONSHIP_ID) as IterableIterator<ScanRow>) {
      facts.vocabularyId = row[0];
      facts.validStart = row[2];
      facts.validEnd = row[3];
      facts.invalidReason = row[4];
      facts.standardConcept = row[5];
      facts.unnamed = row[6] === 1;
      facts.inHierarchy = row[7] !== null || row[9] !== null;
      facts.depth = row[7] ?? 0;
      facts.hasParent = row[8] === 1;
      facts.hasChild = row[9] === 1;
      facts.relationshipIds = row[10] === null ? [] : row[10].split('\t');
      facts.mapTargets = row[11] === null ? [] : row[11].split('\t');
      facts.languages = row[12] === null ? [] : row[12].split(',').map(Number);
      facts.duplicateCode = row[13] === 1;
      totals.add(facts);
      concepts++;
    }
    step(`${formatQuantity(concepts, 'concept')} summarised`);

    const duplicateCodes = db
      .prepare('SELECT vocabulary_id, count(*) AS codes FROM temp.stat_duplicate_code GROUP BY vocabulary_id')
      .all() as Array<{ vocabulary_id: string; codes: number }>;
    totals.write(db, new Map(duplicateCodes.map((d) => [d.vocabulary_id, d.codes])));
    db.exec('DROP TABLE temp.stat_descendant; DROP TABLE temp.stat_ancestor; DROP TABLE temp.stat_duplicate_code;');
    step(`${formatQuantity(totals.vocabularyCount(), 'vocabulary', 'vocabularies')} written`);
  },
};
