/**
 * SQLite reads behind MappingStore: relationship rows as one primary-key range per (source, relationship id),
 * ancestors from `ancestor_by_descendant`, descendants from concept_ancestor's primary key, the target concept
 * joined by its primary key; statement details in docs/internals.md.
 */
import type Database from 'better-sqlite3';
import type { BoundedResult, HierarchyMatch, MappingFilter, MappingRow, MappingStore } from '../mapping-store.js';
import { formatStoredDate } from '../records.js';
import { CONCEPT_COLUMNS, toConceptRecord, type StoredConceptRow } from './rows/concept-rows.js';

const TARGET_COLUMNS = CONCEPT_COLUMNS.split(', ')
  .map((column) => `c.${column}`)
  .join(', ');

/**
 * Vocabulary lists are bound as one JSON array parameter each, so every statement is prepared once. Written
 * `+c.vocabulary_id` so that the planner never drives a read from the concept_by_vocabulary_code index (a whole
 * vocabulary) instead of the source's rows.
 */
const TARGET_VOCABULARY_CONDITION = `(@vocabularies IS NULL OR +c.vocabulary_id IN (SELECT value FROM json_each(@vocabularies)))
  AND +c.vocabulary_id NOT IN (SELECT value FROM json_each(@excluded))`;

/** Conditions on a relationship row `r` and its target `c`. */
const ROW_CONDITION = `${TARGET_VOCABULARY_CONDITION}
  AND (@include_invalid = 1 OR (r.invalid_reason IS NULL AND c.invalid_reason IS NULL))`;

/** Conditions on a concept `c` reached through CONCEPT_ANCESTOR. */
const CONCEPT_CONDITION = `${TARGET_VOCABULARY_CONDITION}
  AND (@include_invalid = 1 OR c.invalid_reason IS NULL)`;

interface FilterParams {
  vocabularies: string | null;
  excluded: string;
  include_invalid: 0 | 1;
}

interface StoredMappingRow extends StoredConceptRow {
  relationship_id: string;
  row_start: number;
  row_end: number;
  row_invalid: 'D' | 'U' | null;
}

interface StoredHierarchyRow extends StoredConceptRow {
  min_l: number;
  max_l: number;
}

function filterParams(filter: MappingFilter): FilterParams {
  return {
    vocabularies: filter.targetVocabularyIds ? JSON.stringify(filter.targetVocabularyIds) : null,
    excluded: JSON.stringify(filter.hiddenVocabularyIds),
    include_invalid: filter.includeInvalid ? 1 : 0,
  };
}

function toMappingRow(sourceId: number, row: StoredMappingRow): MappingRow {
  return {
    source_concept_id: sourceId,
    relationship_id: row.relationship_id,
    target: toConceptRecord(row),
    valid_start_date: formatStoredDate(row.row_start)!,
    valid_end_date: formatStoredDate(row.row_end)!,
    invalid_reason: row.row_invalid,
  };
}

function toHierarchyMatch(sourceId: number, row: StoredHierarchyRow): HierarchyMatch {
  return { source_concept_id: sourceId, concept: toConceptRecord(row), min_levels_of_separation: row.min_l, max_levels_of_separation: row.max_l };
}

/** The first `limit` of `rows` (read with limit + 1), and whether nothing was left out. */
function bounded<T>(rows: T[], limit: number, scanComplete: boolean): BoundedResult<T> {
  return { items: rows.slice(0, limit), complete: scanComplete && rows.length <= limit };
}

export class SqliteMappingStore implements MappingStore {
  private readonly countStmt: Database.Statement<[Record<string, unknown>], { n: number }>;
  private readonly pageStmt: Database.Statement<[Record<string, unknown>], StoredMappingRow>;
  private readonly scanStmt: Database.Statement<[Record<string, unknown>], StoredMappingRow>;
  private readonly rowsWithinStmt: Database.Statement<[Record<string, unknown>], { n: number }>;
  private readonly ancestorsStmt: Database.Statement<[Record<string, unknown>], StoredHierarchyRow>;
  private readonly descendantsStmt: Database.Statement<[Record<string, unknown>], StoredHierarchyRow>;
  private readonly descendantsWithinStmt: Database.Statement<[Record<string, unknown>], { n: number }>;

  constructor(db: Database.Database) {
    const rowColumns = `r.relationship_id AS relationship_id, r.valid_start_date AS row_start, r.valid_end_date AS row_end,
      r.invalid_reason AS row_invalid, ${TARGET_COLUMNS}`;
    this.countStmt = db.prepare(
      `SELECT count(*) AS n FROM concept_relationship r JOIN concept c ON c.concept_id = r.concept_id_2
        WHERE r.concept_id_1 = @source AND r.relationship_id = @relationship AND ${ROW_CONDITION}`,
    );
    this.pageStmt = db.prepare(
      `SELECT ${rowColumns} FROM concept_relationship r JOIN concept c ON c.concept_id = r.concept_id_2
        WHERE r.concept_id_1 = @source AND r.relationship_id = @relationship AND ${ROW_CONDITION}
        ORDER BY r.concept_id_2 LIMIT @limit OFFSET @offset`,
    );
    this.scanStmt = db.prepare(
      `SELECT ${rowColumns}
         FROM (SELECT relationship_id, concept_id_2, valid_start_date, valid_end_date, invalid_reason FROM concept_relationship
                WHERE concept_id_1 = @source AND relationship_id = @relationship ORDER BY concept_id_2 LIMIT @scan) r
         JOIN concept c ON c.concept_id = r.concept_id_2
        WHERE ${ROW_CONDITION}
        ORDER BY r.concept_id_2 LIMIT @limit`,
    );
    this.rowsWithinStmt = db.prepare(
      `SELECT count(*) AS n FROM (SELECT 1 FROM concept_relationship WHERE concept_id_1 = @source AND relationship_id = @relationship LIMIT @scan)`,
    );
    this.ancestorsStmt = db.prepare(
      `SELECT a.min_levels_of_separation AS min_l, a.max_levels_of_separation AS max_l, ${TARGET_COLUMNS}
         FROM concept_ancestor a JOIN concept c ON c.concept_id = a.ancestor_concept_id
        WHERE a.descendant_concept_id = @concept AND a.ancestor_concept_id <> @concept AND ${CONCEPT_CONDITION}
        ORDER BY a.min_levels_of_separation, c.concept_id LIMIT @limit`,
    );
    this.descendantsStmt = db.prepare(
      `SELECT a.min_l AS min_l, a.max_l AS max_l, ${TARGET_COLUMNS}
         FROM (SELECT descendant_concept_id, min_levels_of_separation AS min_l, max_levels_of_separation AS max_l FROM concept_ancestor
                WHERE ancestor_concept_id = @concept AND descendant_concept_id <> @concept ORDER BY descendant_concept_id LIMIT @scan) a
         JOIN concept c ON c.concept_id = a.descendant_concept_id
        WHERE ${CONCEPT_CONDITION}
        ORDER BY a.min_l, c.concept_id LIMIT @limit`,
    );
    this.descendantsWithinStmt = db.prepare(
      `SELECT count(*) AS n FROM (SELECT 1 FROM concept_ancestor WHERE ancestor_concept_id = @concept AND descendant_concept_id <> @concept LIMIT @scan)`,
    );
  }

  count(sourceId: number, relationshipId: string, filter: MappingFilter): number {
    return this.countStmt.get({ source: sourceId, relationship: relationshipId, ...filterParams(filter) })!.n;
  }

  page(sourceId: number, relationshipId: string, filter: MappingFilter, offset: number, limit: number): MappingRow[] {
    return this.pageStmt
      .all({ source: sourceId, relationship: relationshipId, offset, limit, ...filterParams(filter) })
      .map((row) => toMappingRow(sourceId, row));
  }

  scan(sourceId: number, relationshipId: string, filter: MappingFilter, limit: number, scanLimit: number): BoundedResult<MappingRow> {
    const rows = this.scanStmt.all({ source: sourceId, relationship: relationshipId, scan: scanLimit, limit: limit + 1, ...filterParams(filter) });
    // Only when the limit was not reached does it matter whether the budget cut the scan short.
    const scanComplete = rows.length > limit || this.rowsWithinStmt.get({ source: sourceId, relationship: relationshipId, scan: scanLimit + 1 })!.n <= scanLimit;
    return bounded(
      rows.map((row) => toMappingRow(sourceId, row)),
      limit,
      scanComplete,
    );
  }

  ancestors(conceptId: number, filter: MappingFilter, limit: number): BoundedResult<HierarchyMatch> {
    const rows = this.ancestorsStmt.all({ concept: conceptId, limit: limit + 1, ...filterParams(filter) });
    return bounded(
      rows.map((row) => toHierarchyMatch(conceptId, row)),
      limit,
      true,
    );
  }

  descendants(conceptId: number, filter: MappingFilter, limit: number, scanLimit: number): BoundedResult<HierarchyMatch> {
    const rows = this.descendantsStmt.all({ concept: conceptId, scan: scanLimit, limit: limit + 1, ...filterParams(filter) });
    const scanComplete = rows.length > limit || this.descendantsWithinStmt.get({ concept: conceptId, scan: scanLimit + 1 })!.n <= scanLimit;
    return bounded(
      rows.map((row) => toHierarchyMatch(conceptId, row)),
      limit,
      scanComplete,
    );
  }
}
