import type Database from 'better-sqlite3';
import type { ConceptStore, LinkedConcept } from '../release-store.js';
import { formatStoredDate, type ConceptRecord, type SynonymRecord } from '../records.js';

/** A concept row as stored (dates as YYYYMMDD integers). */
export interface StoredConceptRow extends Omit<ConceptRecord, 'valid_start_date' | 'valid_end_date'> {
  valid_start_date: number;
  valid_end_date: number;
}

export const CONCEPT_COLUMNS =
  'concept_id, concept_name, domain_id, vocabulary_id, concept_class_id, standard_concept, concept_code, valid_start_date, valid_end_date, invalid_reason';

export function toConceptRecord(row: StoredConceptRow): ConceptRecord {
  return {
    concept_id: row.concept_id,
    concept_name: row.concept_name,
    domain_id: row.domain_id,
    vocabulary_id: row.vocabulary_id,
    concept_class_id: row.concept_class_id,
    standard_concept: row.standard_concept,
    concept_code: row.concept_code,
    valid_start_date: formatStoredDate(row.valid_start_date)!,
    valid_end_date: formatStoredDate(row.valid_end_date)!,
    invalid_reason: row.invalid_reason,
  };
}

const QUALIFIED_COLUMNS = CONCEPT_COLUMNS.split(', ')
  .map((c) => `c.${c}`)
  .join(', ');

const IDS_PER_STATEMENT = 500;

export class SqliteConceptStore implements ConceptStore {
  private readonly byIdStmt: Database.Statement<[number], StoredConceptRow>;
  private readonly byCodeStmt: Database.Statement<[string, string], StoredConceptRow>;
  private readonly byCodeNoCaseStmt: Database.Statement<[string, string], StoredConceptRow>;
  private readonly synonymsStmt: Database.Statement<[number], SynonymRecord>;
  private readonly relatedStmt: Database.Statement<[number, string, number], StoredConceptRow & { relationship_id: string }>;

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
      `SELECT r.relationship_id, ${QUALIFIED_COLUMNS} FROM concept_relationship r JOIN concept c ON c.concept_id = r.concept_id_2
        WHERE r.concept_id_1 = ? AND r.relationship_id = ? AND r.invalid_reason IS NULL ORDER BY r.concept_id_2 LIMIT ?`,
    );
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
}
