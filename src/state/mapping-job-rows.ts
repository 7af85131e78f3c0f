/**
 * Mapping jobs as rows, the same in every backend: a job's options and columns, a term's extra columns, hints,
 * candidates and review are JSON text beside plain columns; these turn rows back into records and tallies into progress.
 */
import type { MappedTerm, MappingStatus, SourceTerm, TermCandidate, TermReview } from '../services/source-mapping/mapping-types.js';
import type { MappingJobRecord, ReviewProgress } from './mapping-job-store.js';

/** A job as stored: its options and columns as JSON text. */
export type JobRow = Omit<MappingJobRecord, 'options' | 'columns'> & { options: string; columns: string };

export interface TermRow {
  term_index: number;
  line: number;
  source_code: string;
  source_name: string;
  source_frequency: number;
  additional_info: string;
  hints: string | null;
  candidates: string | null;
  review: string;
}

/** One row of `SELECT status, count(*) AS terms, sum(source_frequency) AS frequency … GROUP BY status`. */
export interface StatusTally {
  status: MappingStatus;
  terms: number;
  frequency: number;
}

/** The columns of a TermRow, in a SELECT. */
export const TERM_COLUMNS = 'term_index, line, source_code, source_name, source_frequency, additional_info, hints, candidates, review';

/** The review of a term nobody (no person, no rule) has looked at. */
export function uncheckedReview(): TermReview {
  return { status: 'unchecked', equivalence: 'UNREVIEWED', concept_ids: [], comment: '', status_set_by: null, status_set_at: null, assigned_reviewer: '' };
}

export function jobOf(row: JobRow): MappingJobRecord {
  return { ...row, options: JSON.parse(row.options), columns: JSON.parse(row.columns) };
}

export function termOf(row: TermRow): SourceTerm {
  return {
    index: row.term_index,
    line: row.line,
    source_code: row.source_code,
    source_name: row.source_name,
    source_frequency: row.source_frequency,
    additional_info: JSON.parse(row.additional_info),
    ...(row.hints ? { hints: JSON.parse(row.hints) } : {}),
  };
}

export function mappedTermOf(row: TermRow): MappedTerm {
  return { term: termOf(row), candidates: row.candidates ? (JSON.parse(row.candidates) as TermCandidate[]) : [], review: JSON.parse(row.review) };
}

/** Review progress from the per-status tallies of a job's terms. */
export function reviewProgressOf(tallies: readonly StatusTally[]): ReviewProgress {
  const byStatus: Record<MappingStatus, number> = { unchecked: 0, approved: 0, flagged: 0, ignored: 0 };
  let totalTerms = 0;
  let totalFrequency = 0;
  let approvedFrequency = 0;
  for (const row of tallies) {
    byStatus[row.status] = row.terms;
    totalTerms += row.terms;
    totalFrequency += row.frequency;
    if (row.status === 'approved') approvedFrequency = row.frequency;
  }
  return {
    total_terms: totalTerms,
    reviewed_terms: totalTerms - byStatus.unchecked,
    approved_terms: byStatus.approved,
    total_frequency: totalFrequency,
    approved_frequency: approvedFrequency,
    by_status: byStatus,
  };
}
