/**
 * A concept row as the SQLite stores read it: its columns (plain and qualified by the alias `c` for
 * joins) and its conversion to a ConceptRecord (dates stored as YYYYMMDD integers).
 */
import { formatStoredDate, type ConceptRecord } from '../../records.js';

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

/** The concept columns qualified by the alias `c`, for joins. */
export const QUALIFIED_CONCEPT_COLUMNS = CONCEPT_COLUMNS.split(', ')
  .map((c) => `c.${c}`)
  .join(', ');
