/**
 * The CDM v5.4 SOURCE_TO_CONCEPT_MAP of a mapping's approved terms: its 9 columns in order, every value within its
 * column's width (a too-long code or description is an error naming the row, never truncated), one row per target.
 */
import { validationError } from '../errors.js';
import type { SourceTerm, TermReview } from './mapping-types.js';

/** The table's columns as the CDM v5.4 field-level specification gives them (OMOP_CDMv5.4_Field_Level.csv). */
export const STCM_COLUMNS = [
  { name: 'source_code', required: true, type: 'varchar(50)' },
  { name: 'source_concept_id', required: true, type: 'integer' },
  { name: 'source_vocabulary_id', required: true, type: 'varchar(20)' },
  { name: 'source_code_description', required: false, type: 'varchar(255)' },
  { name: 'target_concept_id', required: true, type: 'integer' },
  { name: 'target_vocabulary_id', required: true, type: 'varchar(20)' },
  { name: 'valid_start_date', required: true, type: 'date' },
  { name: 'valid_end_date', required: true, type: 'date' },
  { name: 'invalid_reason', required: false, type: 'varchar(1)' },
] as const;
export const STCM_SOURCE_CODE_MAX = 50;
export const STCM_VOCABULARY_ID_MAX = 20;
export const STCM_DESCRIPTION_MAX = 255;
/** Usagi's export defaults: valid from 1970-01-01 to 2099-12-31. */
export const DEFAULT_STCM_VALID_START = '1970-01-01';
export const DEFAULT_STCM_VALID_END = '2099-12-31';

export interface StcmOptions {
  /** The source_vocabulary_id of every row (your own vocabulary id, ≤ 20 characters). */
  sourceVocabularyId: string;
  validStartDate?: string;
  validEndDate?: string;
}

export interface StcmRow {
  source_code: string;
  source_concept_id: number;
  source_vocabulary_id: string;
  source_code_description: string;
  target_concept_id: number;
  target_vocabulary_id: string;
  valid_start_date: string;
  valid_end_date: string;
  invalid_reason: string;
}

/** The vocabulary of a target concept (the caller's release view); undefined when the release has no such concept. */
export type TargetVocabularyLookup = (conceptId: number) => string | undefined;

function checkDate(value: string, field: string): string {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
  if (!d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) throw validationError(`'${field}' must be a date YYYY-MM-DD (got '${value}').`, { parameter: field });
  return value;
}

/** A term's description in the file: the rows' 1-based position among approved terms and the input line. */
const rowName = (term: SourceTerm) => `term ${term.index + 1}${term.line ? ` (input line ${term.line})` : ''} '${term.source_code || term.source_name}'`;

/** The rows of the approved terms, in term order; every width problem at once in one 400 (the first few named). */
export function sourceToConceptMapRows(terms: ReadonlyArray<{ term: SourceTerm; review: TermReview }>, vocabularyOf: TargetVocabularyLookup, options: StcmOptions): StcmRow[] {
  const vocabulary = options.sourceVocabularyId.trim();
  if (vocabulary === '' || vocabulary.length > STCM_VOCABULARY_ID_MAX) {
    throw validationError(`'source_vocabulary_id' must be 1 to ${STCM_VOCABULARY_ID_MAX} characters (got '${options.sourceVocabularyId}').`, { parameter: 'source_vocabulary_id' });
  }
  const start = checkDate(options.validStartDate ?? DEFAULT_STCM_VALID_START, 'valid_start_date');
  const end = checkDate(options.validEndDate ?? DEFAULT_STCM_VALID_END, 'valid_end_date');
  if (end < start) throw validationError(`'valid_end_date' (${end}) is before 'valid_start_date' (${start}).`, { parameter: 'valid_end_date' });
  const rows: StcmRow[] = [];
  const problems: string[] = [];
  for (const { term, review } of terms) {
    if (review.status !== 'approved') continue;
    if (term.source_code.length > STCM_SOURCE_CODE_MAX) problems.push(`${rowName(term)}: source_code is ${term.source_code.length} characters, the column holds ${STCM_SOURCE_CODE_MAX}`);
    if (term.source_name.length > STCM_DESCRIPTION_MAX) problems.push(`${rowName(term)}: source_code_description is ${term.source_name.length} characters, the column holds ${STCM_DESCRIPTION_MAX}`);
    for (const target of review.concept_ids.length ? review.concept_ids : [0]) {
      const targetVocabulary = target === 0 ? 'None' : vocabularyOf(target);
      if (targetVocabulary === undefined) {
        problems.push(`${rowName(term)}: target concept ${target} is not in the release (or not visible to you)`);
        continue;
      }
      rows.push({
        source_code: term.source_code,
        source_concept_id: 0,
        source_vocabulary_id: vocabulary,
        source_code_description: term.source_name,
        target_concept_id: target,
        target_vocabulary_id: targetVocabulary,
        valid_start_date: start,
        valid_end_date: end,
        invalid_reason: '',
      });
    }
  }
  if (problems.length) {
    const shown = problems.slice(0, 5).join('; ');
    throw validationError(`SOURCE_TO_CONCEPT_MAP cannot hold ${problems.length} row${problems.length > 1 ? 's' : ''}: ${shown}${problems.length > 5 ? '; …' : ''}.`, {
      parameter: 'terms',
      problems,
    });
  }
  return rows;
}

const csvCell = (value: string | number) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The rows as CSV (RFC 4180, header of the 9 column names, empty field for null). */
export function sourceToConceptMapCsv(rows: readonly StcmRow[]): string {
  const names = STCM_COLUMNS.map((c) => c.name);
  return `${[names.join(','), ...rows.map((r) => names.map((n) => csvCell(r[n])).join(','))].join('\n')}\n`;
}
