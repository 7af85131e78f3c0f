/**
 * Anomaly counts add up against the rows stored: a row pointing at missing concepts is counted once
 * (whichever ids are missing), and a dropped duplicate of it is counted as a duplicate, not again as
 * dangling. Values longer than their CDM column are kept and reported with file:line. The summary
 * says "1 row", "1 duplicate", "1 kind" in the singular.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease, type LoadResult } from '../../src/importer/load-release.js';
import { formatLoadSummary } from '../../src/importer/load-summary.js';
import { TerminalProgress } from '../../src/importer/terminal-progress.js';
import { CONCEPT_HEADER, conceptRow, makeTempDir, RELATIONSHIP_HEADER, tab, writeLines } from './loader-fixtures.js';

const ANCESTOR_HEADER = ['ancestor_concept_id', 'descendant_concept_id', 'min_levels_of_separation', 'max_levels_of_separation'];
const DRUG_STRENGTH_HEADER = [
  'drug_concept_id',
  'ingredient_concept_id',
  'amount_value',
  'amount_unit_concept_id',
  'numerator_value',
  'numerator_unit_concept_id',
  'denominator_value',
  'denominator_unit_concept_id',
  'box_size',
  'valid_start_date',
  'valid_end_date',
  'invalid_reason',
];

let sourceDir: string;
let dataDir: string;
let result: LoadResult;

beforeAll(async () => {
  sourceDir = makeTempDir('omopterm-anomaly-counts-src-');
  dataDir = makeTempDir('omopterm-anomaly-counts-data-');
  writeLines(sourceDir, 'CONCEPT.csv', [
    tab(CONCEPT_HEADER),
    tab(conceptRow(1)),
    tab(conceptRow(2)),
    tab(conceptRow(3, 'Hearing test', { domain_id: 'Observation/Procedure' })),
  ]);
  writeLines(sourceDir, 'CONCEPT_ANCESTOR.csv', [
    tab(ANCESTOR_HEADER),
    tab([1, 2, 1, 1]),
    tab([1, 99, 1, 1]), // descendant missing
    tab([98, 99, 1, 1]), // both missing: one row, counted once
    tab([1, 99, 2, 2]), // repeats line 3: a dropped duplicate, not a second dangling row
    tab([1, 2, 1, 1]), // repeats line 2
    tab([98, 99, 1, 1]), // repeats line 4
  ]);
  writeLines(sourceDir, 'CONCEPT_RELATIONSHIP.csv', [
    tab(RELATIONSHIP_HEADER),
    tab([1, 99, 'Is a', '19700101', '20991231', '']),
    tab([1, 99, 'Is a', '19700101', '20991231', '']),
  ]);
  writeLines(sourceDir, 'DRUG_STRENGTH.csv', [
    tab(DRUG_STRENGTH_HEADER),
    tab([1, 97, 5, 8576, '', '', '', '', '', '19700101', '20991231', '']),
    tab([1, 97, 10, 8576, '', '', '', '', '', '19700101', '20991231', '']),
  ]);
  result = await loadRelease({ sourceDir, dataDir, label: '2025.1', quiet: true });
});
afterAll(() => {
  rmSync(sourceDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const anomaly = (kind: string) => result.manifest.anomalies.find((a) => a.kind === kind);

/** Stored rows of `table` with any of `columns` missing from CONCEPT, counted by SQL over the finished store. */
function storedDanglingRows(table: string, columns: string[]): number {
  const db = new Database(result.storePath, { readonly: true });
  try {
    const missing = columns.map((c) => `${c} NOT IN (SELECT concept_id FROM concept)`).join(' OR ');
    return db.prepare(`SELECT count(*) FROM ${table} WHERE ${missing}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('anomaly counts add up', () => {
  it('counts CONCEPT_ANCESTOR rows with a missing id once, and stored rows only', () => {
    expect(result.manifest.tables.concept_ancestor).toMatchObject({ rows_read: 6, rows_stored: 3 });
    expect(anomaly('duplicate_ancestor')!.count).toBe(3);
    expect(anomaly('dangling_ancestor_concept')!.count).toBe(2);
    expect(anomaly('dangling_ancestor_concept')!.count).toBe(storedDanglingRows('concept_ancestor', ['ancestor_concept_id', 'descendant_concept_id']));
    expect(anomaly('dangling_ancestor_concept')!.examples.slice(0, 2)).toEqual([
      'CONCEPT_ANCESTOR.csv:3: descendant_concept_id 99 not in CONCEPT',
      'CONCEPT_ANCESTOR.csv:4: ancestor_concept_id 98 and descendant_concept_id 99 not in CONCEPT',
    ]);
    expect(anomaly('dangling_ancestor_concept')!.description).toMatch(/^CONCEPT_ANCESTOR rows stored whose .* \(kept; each row counted once\)$/);
  });

  it('does the same for CONCEPT_RELATIONSHIP and DRUG_STRENGTH', () => {
    expect(result.manifest.tables.concept_relationship).toMatchObject({ rows_read: 2, rows_stored: 1 });
    expect(anomaly('dangling_relationship_concept')!.count).toBe(1);
    expect(anomaly('dangling_relationship_concept')!.count).toBe(storedDanglingRows('concept_relationship', ['concept_id_1', 'concept_id_2']));
    expect(result.manifest.tables.drug_strength).toMatchObject({ rows_read: 2, rows_stored: 1 });
    expect(anomaly('duplicate_drug_strength')!.count).toBe(1);
    expect(anomaly('dangling_drug_strength_concept')!.count).toBe(1);
    expect(anomaly('dangling_drug_strength_concept')!.count).toBe(storedDanglingRows('drug_strength', ['drug_concept_id', 'ingredient_concept_id']));
  });

  it('reports a domain_id over the CDM width of 20 as over_long_value with file:line, and keeps it', () => {
    expect(anomaly('over_long_value')).toMatchObject({ count: 1, examples: ['CONCEPT.csv:4: domain_id has 21 characters (CDM limit 20)'] });
    const db = new Database(result.storePath, { readonly: true });
    try {
      expect(db.prepare('SELECT domain_id FROM concept WHERE concept_id = 3').pluck().get()).toBe('Observation/Procedure');
    } finally {
      db.close();
    }
  });
});

describe('singular and plural in the summary and the progress', () => {
  it('says "1 row", "1 duplicate", "3 duplicates"', () => {
    const summary = formatLoadSummary(result);
    expect(summary).toMatch(/^ {4}concept_relationship +1 row +CONCEPT_RELATIONSHIP\.csv +\(2 read, 1 duplicate dropped\)$/m);
    expect(summary).toMatch(/^ {4}concept_ancestor +3 rows +CONCEPT_ANCESTOR\.csv +\(6 read, 3 duplicates dropped\)$/m);
    expect(summary).toMatch(/^ {4}concept_synonym +0 rows +\(no file\)$/m);
    expect(summary).toMatch(/^ {2}anomalies \(\d+ kinds; first examples as file:line\):$/m);
    expect(summary).toMatch(/^ {4}dangling_ancestor_concept: 2 — CONCEPT_ANCESTOR rows stored/m);
  });

  it('the progress lines too', () => {
    let text = '';
    const progress = new TerminalProgress({ write: (chunk: string) => (text += chunk) });
    progress.handle({ type: 'table-done', table: 'concept', rowsRead: 1, rowsStored: 1, elapsedMs: 10 });
    progress.handle({ type: 'table-done', table: 'concept_ancestor', rowsRead: 3, rowsStored: 2, elapsedMs: 10 });
    progress.finish();
    expect(text).toContain('  concept: 1 row in 0.0 s');
    expect(text).toContain('  concept_ancestor: 3 rows (2 stored, 1 duplicate dropped) in 0.0 s');
  });
});
