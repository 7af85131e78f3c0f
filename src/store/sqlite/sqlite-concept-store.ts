/**
 * ConceptStore over the release's SQLite file: concepts by id and code, synonyms, related concepts and the keyset
 * reads of the whole-system $diff walk, each an index seek plus a bounded range.
 */
import type Database from 'better-sqlite3';
import type { ConceptCodePosition, ConceptStore, LinkedConcept, RelationshipTarget } from '../release-store.js';
import { formatStoredDate, type ConceptRecord, type SynonymRecord } from '../records.js';
import { CONCEPT_COLUMNS, QUALIFIED_CONCEPT_COLUMNS, toConceptRecord, type StoredConceptRow } from './rows/concept-rows.js';

/** A concept row as an array, in CONCEPT_COLUMNS order. */
type StoredConceptTuple = [
  concept_id: number,
  concept_name: string,
  domain_id: string,
  vocabulary_id: string,
  concept_class_id: string,
  standard_concept: ConceptRecord['standard_concept'],
  concept_code: string,
  valid_start_date: number,
  valid_end_date: number,
  invalid_reason: ConceptRecord['invalid_reason'],
];

function tupleToConceptRecord(row: StoredConceptTuple): ConceptRecord {
  return {
    concept_id: row[0],
    concept_name: row[1],
    domain_id: row[2],
    vocabulary_id: row[3],
    concept_class_id: row[4],
    standard_concept: row[5],
    concept_code: row[6],
    valid_start_date: formatStoredDate(row[7])!,
    valid_end_date: formatStoredDate(row[8])!,
    invalid_reason: row[9],
  };
}

const IDS_PER_STATEMENT = 500;

export class SqliteConceptStore implements ConceptStore {
  private readonly byIdStmt: Database.Statement<[number], StoredConceptRow>;
  private readonly byCodeStmt: Database.Statement<[string, string], StoredConceptRow>;
  private readonly byCodeNoCaseStmt: Database.Statement<[string, string], StoredConceptRow>;
  private readonly synonymsStmt: Database.Statement<[number], SynonymRecord>;
  private readonly relatedStmt: Database.Statement<[number, string, number], StoredConceptRow & { relationship_id: string }>;
  // The walk reads (thousands of rows a call) take rows as arrays: half the cost of named rows.
  private readonly firstInCodeOrderStmt: Database.Statement<[string, number], StoredConceptTuple>;
  private readonly nextInCodeOrderStmt: Database.Statement<[string, string, number, number], StoredConceptTuple>;
  private readonly inIdOrderStmt: Database.Statement<[number, number], StoredConceptTuple>;
  private readonly targetsOfStmt: Database.Statement<[string, string], [source_id: number, target_id: number, target_vocabulary_id: string]>;

  constructor(private readonly db: Database.Database) {
    this.byIdStmt = db.prepare(`SELECT ${CONCEPT_COLUMNS} FROM concept WHERE concept_id = ?`);
    this.byCodeStmt = db.prepare(
      `SELECT ${CONCEPT_COLUMNS} FROM concept WHERE vocabulary_id = ? AND concept_code = ? ORDER BY concept_id LIMIT 1`,
    );
    this.byCodeNoCaseStmt = db.prepare(
      `SELECT ${CONCEPT_COLUMNS} FROM concept WHERE concept_code = ? COLLATE NOCASE AND vocabulary_id = ? ORDER BY concept_id LIMIT 1`,
    );
    this.synonymsStmt = db.prepare(
      'SELECT concept_synonym_name, language_concept_id FROM concept_synonym WHERE concept_id = ? ORDER BY rowid',
    );
    this.relatedStmt = db.prepare(
      `SELECT r.relationship_id, ${QUALIFIED_CONCEPT_COLUMNS} FROM concept_relationship r JOIN concept c ON c.concept_id = r.concept_id_2
        WHERE r.concept_id_1 = ? AND r.relationship_id = ? AND r.invalid_reason IS NULL ORDER BY r.concept_id_2 LIMIT ?`,
    );
    // concept_by_vocabulary_code is (vocabulary_id, concept_code) plus the rowid concept_id: a SEARCH
    // on (vocabulary_id=? AND (concept_code, rowid)>(?,?)) read in index order, no temp B-tree.
    this.firstInCodeOrderStmt = db
      .prepare<[string, number], StoredConceptTuple>(
        `SELECT ${CONCEPT_COLUMNS} FROM concept INDEXED BY concept_by_vocabulary_code
          WHERE vocabulary_id = ? ORDER BY concept_code, concept_id LIMIT ?`,
      )
      .raw(true);
    this.nextInCodeOrderStmt = db
      .prepare<[string, string, number, number], StoredConceptTuple>(
        `SELECT ${CONCEPT_COLUMNS} FROM concept INDEXED BY concept_by_vocabulary_code
          WHERE vocabulary_id = ? AND (concept_code, concept_id) > (?, ?) ORDER BY concept_code, concept_id LIMIT ?`,
      )
      .raw(true);
    this.inIdOrderStmt = db
      .prepare<[number, number], StoredConceptTuple>(`SELECT ${CONCEPT_COLUMNS} FROM concept WHERE concept_id > ? ORDER BY concept_id LIMIT ?`)
      .raw(true);
    // One statement for any number of ids (a JSON array): a primary-key seek per id, a rowid seek per target.
    this.targetsOfStmt = db
      .prepare<[string, string], [number, number, string]>(
        `SELECT r.concept_id_1, r.concept_id_2, c.vocabulary_id
          FROM concept_relationship r JOIN concept c ON c.concept_id = r.concept_id_2
          WHERE r.concept_id_1 IN (SELECT value FROM json_each(?)) AND r.relationship_id = ? AND r.invalid_reason IS NULL`,
      )
      .raw(true);
  }

  byId(conceptId: number): ConceptRecord | undefined {
    const row = this.byIdStmt.get(conceptId);
    return row ? toConceptRecord(row) : undefined;
  }

  byIds(conceptIds: readonly number[]): ConceptRecord[] {
    const out: ConceptRecord[] = [];
    const unique = [...new Set(conceptIds)];
    for (let i = 0; i < unique.length; i += IDS_PER_STATEMENT) {
      const chunk = unique.slice(i, i + IDS_PER_STATEMENT);
      const rows = this.db
        .prepare(`SELECT ${CONCEPT_COLUMNS} FROM concept WHERE concept_id IN (${chunk.map(() => '?').join(',')})`)
        .all(...chunk) as StoredConceptRow[];
      for (const row of rows) out.push(toConceptRecord(row));
    }
    return out;
  }

  byCode(vocabularyId: string, conceptCode: string): ConceptRecord | undefined {
    const row = this.byCodeStmt.get(vocabularyId, conceptCode) ?? this.byCodeNoCaseStmt.get(conceptCode, vocabularyId);
    return row ? toConceptRecord(row) : undefined;
  }

  synonyms(conceptId: number): SynonymRecord[] {
    return this.synonymsStmt.all(conceptId);
  }

  related(conceptId: number, relationshipIds: readonly string[], limit: number): LinkedConcept[] {
    const out: LinkedConcept[] = [];
    for (const relationshipId of relationshipIds) {
      for (const row of this.relatedStmt.all(conceptId, relationshipId, limit - out.length)) {
        out.push({ concept: toConceptRecord(row), relationship_id: row.relationship_id });
      }
      if (out.length >= limit) break;
    }
    return out;
  }

  inCodeOrder(vocabularyId: string, after: ConceptCodePosition | undefined, limit: number): ConceptRecord[] {
    const rows =
      after === undefined
        ? this.firstInCodeOrderStmt.all(vocabularyId, limit)
        : this.nextInCodeOrderStmt.all(vocabularyId, after.code, after.conceptId, limit);
    return rows.map(tupleToConceptRecord);
  }

  inIdOrder(afterId: number, limit: number): ConceptRecord[] {
    return this.inIdOrderStmt.all(afterId, limit).map(tupleToConceptRecord);
  }

  targetsOf(conceptIds: readonly number[], relationshipId: string): RelationshipTarget[] {
    if (conceptIds.length === 0) return [];
    return this.targetsOfStmt.all(JSON.stringify(conceptIds), relationshipId).map(([source_id, target_id, target_vocabulary_id]) => ({ source_id, target_id, target_vocabulary_id }));
  }
}
