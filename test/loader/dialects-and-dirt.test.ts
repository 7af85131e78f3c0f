/** Both file dialects, both date forms, header-only and missing tables, and dirty rows that are kept and counted. */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRelease, type LoadResult } from '../../src/importer/load-release.js';
import { STORE_SCHEMA_VERSION } from '../../src/store/schema.js';
import {
  CONCEPT_HEADER,
  conceptRow,
  makeTempDir,
  RELATIONSHIP_HEADER,
  tab,
  VOCABULARY_HEADER,
  writeLines,
} from './loader-fixtures.js';

let sourceDir: string;
let dataDir: string;

beforeEach(() => {
  sourceDir = makeTempDir('omopterm-dialect-src-');
  dataDir = makeTempDir('omopterm-dialect-data-');
});
afterEach(() => {
  rmSync(sourceDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

const load = (label = '2025.1') => loadRelease({ sourceDir, dataDir, label, quiet: true });

function query<T>(result: LoadResult, sql: string, ...params: unknown[]): T[] {
  const db = new Database(result.storePath, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const anomaly = (result: LoadResult, kind: string) => result.manifest.anomalies.find((a) => a.kind === kind);

describe('TAB dialect (real Athena)', () => {
  it('treats quotes as ordinary characters and accepts both date forms', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [
      tab(CONCEPT_HEADER),
      tab(conceptRow(1, 'Patient "reported" pain')),
      tab(conceptRow(2, '"Quoted at the start', { valid_start_date: '2020-02-29' })),
      tab(conceptRow(3, 'Has, commas, inside', { valid_end_date: '2099-12-31' })),
    ]);
    const result = await load();
    expect(result.manifest.tables.concept!.rows_stored).toBe(3);
    expect(query(result, 'SELECT concept_id, concept_name, valid_start_date, valid_end_date FROM concept ORDER BY concept_id')).toEqual([
      { concept_id: 1, concept_name: 'Patient "reported" pain', valid_start_date: 19700101, valid_end_date: 20991231 },
      { concept_id: 2, concept_name: '"Quoted at the start', valid_start_date: 20200229, valid_end_date: 20991231 },
      { concept_id: 3, concept_name: 'Has, commas, inside', valid_start_date: 19700101, valid_end_date: 20991231 },
    ]);
    expect(result.manifest.anomalies).toEqual([]);
  });

  it('reads gzipped files with lower-case names, columns in any order, extra columns ignored', async () => {
    const header = ['VALID_END_DATE', 'concept_name', 'Concept_ID', 'domain_id', 'vocabulary_id', 'concept_class_id', 'standard_concept', 'concept_code', 'valid_start_date', 'invalid_reason', 'local_note'];
    writeLines(sourceDir, 'concept.csv.gz', [tab(header), tab(['20991231', 'Reordered', '42', 'Drug', 'RxNorm', 'Ingredient', 'S', '123', '20000101', '', 'x'])]);
    const result = await load();
    expect(query(result, 'SELECT concept_id, concept_name, domain_id, valid_start_date FROM concept')).toEqual([
      { concept_id: 42, concept_name: 'Reordered', domain_id: 'Drug', valid_start_date: 20000101 },
    ]);
    expect(result.manifest.tables.concept!.file).toBe('concept.csv.gz');
    expect(anomaly(result, 'extra_column')!.examples).toEqual(["concept.csv.gz:1: column 'local_note' is not part of CONCEPT; ignored"]);
  });
});

describe('comma dialect (CSV exports)', () => {
  it('reads quoted headers and quoted fields holding commas, doubled quotes and line breaks', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [
      CONCEPT_HEADER.map((h) => `"${h}"`).join(','),
      '1,"Pain, left knee",Condition,SNOMED,Clinical Finding,S,C1,1970-01-01,2099-12-31,',
      '2,"She said ""ouch""",Condition,SNOMED,Clinical Finding,"",C2,19700101,20991231,""',
      '3,"Two',
      'lines",Condition,SNOMED,Clinical Finding,C,C3,2001-05-05,20991231,D',
      '4,Literal "quote" inside,Condition,SNOMED,Clinical Finding,S,C4,19700101,20991231,',
    ]);
    const result = await load();
    expect(query(result, 'SELECT concept_id, concept_name, standard_concept, valid_start_date, invalid_reason FROM concept ORDER BY concept_id')).toEqual([
      { concept_id: 1, concept_name: 'Pain, left knee', standard_concept: 'S', valid_start_date: 19700101, invalid_reason: null },
      { concept_id: 2, concept_name: 'She said "ouch"', standard_concept: null, valid_start_date: 19700101, invalid_reason: null },
      { concept_id: 3, concept_name: 'Two\nlines', standard_concept: 'C', valid_start_date: 20010505, invalid_reason: 'D' },
      { concept_id: 4, concept_name: 'Literal "quote" inside', standard_concept: 'S', valid_start_date: 19700101, invalid_reason: null },
    ]);
  });
});

describe('missing and header-only tables', () => {
  it('loads header-only tables as empty and missing tables as absent', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER), tab(conceptRow(1))]);
    writeLines(sourceDir, 'CONCEPT_RELATIONSHIP.csv', [tab(RELATIONSHIP_HEADER)]);
    writeLines(sourceDir, 'CONCEPT_ANCESTOR.csv', []); // not even a header
    writeLines(sourceDir, 'SOURCE_TO_CONCEPT_MAP.csv', ['source_code\tsource_concept_id']);
    writeLines(sourceDir, 'readme.txt', ['hello']);
    const result = await load();
    expect(result.manifest.tables.concept_relationship).toMatchObject({ rows_read: 0, rows_stored: 0, file: 'CONCEPT_RELATIONSHIP.csv' });
    expect(result.manifest.tables.concept_synonym).toMatchObject({ rows_read: 0, rows_stored: 0, file: null });
    expect(result.missingTables).toEqual(['VOCABULARY', 'DOMAIN', 'CONCEPT_CLASS', 'RELATIONSHIP', 'CONCEPT_SYNONYM', 'DRUG_STRENGTH']);
    expect(result.ignoredFiles).toEqual(['SOURCE_TO_CONCEPT_MAP.csv', 'readme.txt']);
    expect(anomaly(result, 'empty_file')!.examples).toEqual(['CONCEPT_ANCESTOR.csv: no header line; read as an empty table']);
    expect(result.manifest.source_vocabulary_version).toBeNull();
    expect(result.manifest.release_date).toBeNull();
  });
});

describe('dirty data is kept and counted', () => {
  it('reports each kind with file:line examples and stores what can be stored', async () => {
    const longName = 'x'.repeat(300);
    writeLines(sourceDir, 'CONCEPT.csv', [
      tab(CONCEPT_HEADER),
      tab(conceptRow(1, 'First')),
      tab(conceptRow(2, longName)),
      tab(conceptRow(1, 'Second with the same id')),
      tab(conceptRow(3, 'Odd flags', { standard_concept: 's', invalid_reason: 'X' })),
      '',
      tab(conceptRow(4, '', { domain_id: 'Nowhere', valid_start_date: '20200101', valid_end_date: '20100101' })),
    ]);
    writeLines(sourceDir, 'CONCEPT_RELATIONSHIP.csv', [
      tab(RELATIONSHIP_HEADER),
      tab([1, 2, 'Is a', '19700101', '20991231', '']),
      tab([1, 999, 'Is a', '19700101', '20991231', '']),
      tab([1, 2, 'Is a', '20000101', '20991231', 'D']),
      tab([2, 1, 'Invented', '19700101', '20991231', '']),
    ]);
    writeLines(sourceDir, 'CONCEPT_SYNONYM.csv', ['concept_id\tconcept_synonym_name\tlanguage_concept_id', tab([5, 'ghost', 4180186]), tab([1, 'Uno', 4180186])]);
    writeLines(sourceDir, 'DOMAIN.csv', ['domain_id\tdomain_name\tdomain_concept_id', tab(['Condition', 'Condition', 19]), tab(['Condition', 'Again', 19])]);
    writeLines(sourceDir, 'RELATIONSHIP.csv', [
      'relationship_id\trelationship_name\tis_hierarchical\tdefines_ancestry\treverse_relationship_id\trelationship_concept_id',
      tab(['Is a', 'Is a', '1', '1', 'Subsumes', 44818821]),
    ]);
    writeLines(sourceDir, 'VOCABULARY.csv', [tab(VOCABULARY_HEADER), tab(['None', 'OMOP', 'OMOP generated', 'v5.0 31-AUG-23', 44819096]), tab(['SNOMED', 'SNOMED', '', '', 1])]);
    const result = await load();
    const byKind = Object.fromEntries(result.manifest.anomalies.map((a) => [a.kind, a]));
    expect(Object.fromEntries(result.manifest.anomalies.map((a) => [a.kind, a.count]))).toEqual({
      duplicate_concept_id: 1,
      duplicate_relationship: 1,
      duplicate_reference_id: 1,
      dangling_relationship_concept: 1,
      dangling_synonym_concept: 1,
      unknown_domain_id: 1,
      unknown_relationship_id: 1,
      odd_standard_concept: 1,
      odd_invalid_reason: 1,
      end_before_start: 1,
      over_long_value: 1,
      empty_required_value: 1,
      blank_line: 1,
    });
    expect(byKind.duplicate_concept_id!.examples).toEqual(['CONCEPT.csv:4: concept_id 1 was already read; this row was dropped']);
    expect(byKind.duplicate_relationship!.examples).toEqual([
      'CONCEPT_RELATIONSHIP.csv:4: (concept_id_1=1, relationship_id="Is a", concept_id_2=2) repeats line 2 (kept)',
    ]);
    expect(byKind.duplicate_reference_id!.examples).toEqual(['DOMAIN.csv:3: domain_id "Condition" was already read; this row was dropped']);
    expect(byKind.dangling_relationship_concept!.examples).toEqual(['CONCEPT_RELATIONSHIP.csv:3: concept_id_2 999 not in CONCEPT']);
    expect(byKind.dangling_synonym_concept!.examples).toEqual(['CONCEPT_SYNONYM.csv:2: concept_id 5 not in CONCEPT']);
    expect(byKind.unknown_domain_id!.examples).toEqual(['CONCEPT.csv:7: domain_id "Nowhere"']);
    expect(byKind.unknown_relationship_id!.examples).toEqual(['CONCEPT_RELATIONSHIP.csv:5: relationship_id "Invented"']);
    expect(byKind.odd_standard_concept!.examples).toEqual(['CONCEPT.csv:5: standard_concept "s" stored as NULL']);
    expect(byKind.odd_invalid_reason!.examples).toEqual(['CONCEPT.csv:5: invalid_reason "X" stored as NULL']);
    expect(byKind.end_before_start!.examples).toEqual(['CONCEPT.csv:7: valid_end_date 20100101 is before valid_start_date 20200101']);
    expect(byKind.over_long_value!.examples).toEqual(['CONCEPT.csv:3: concept_name has 300 characters (CDM limit 255)']);
    expect(byKind.empty_required_value!.examples).toEqual(['CONCEPT.csv:7: concept_name is empty']);
    expect(byKind.blank_line!.examples).toEqual(['CONCEPT.csv:6: empty line skipped']);

    // Kept: the first duplicate, the long name in full, the dangling rows; odd flags are NULL.
    expect(query(result, 'SELECT concept_id, concept_name, standard_concept, invalid_reason FROM concept ORDER BY concept_id')).toEqual([
      { concept_id: 1, concept_name: 'First', standard_concept: 'S', invalid_reason: null },
      { concept_id: 2, concept_name: longName, standard_concept: 'S', invalid_reason: null },
      { concept_id: 3, concept_name: 'Odd flags', standard_concept: null, invalid_reason: null },
      { concept_id: 4, concept_name: '', standard_concept: 'S', invalid_reason: null },
    ]);
    expect(query(result, 'SELECT concept_id_1, relationship_id, concept_id_2, valid_start_date, invalid_reason FROM concept_relationship')).toEqual([
      { concept_id_1: 1, relationship_id: 'Is a', concept_id_2: 2, valid_start_date: 19700101, invalid_reason: null },
      { concept_id_1: 1, relationship_id: 'Is a', concept_id_2: 999, valid_start_date: 19700101, invalid_reason: null },
      { concept_id_1: 2, relationship_id: 'Invented', concept_id_2: 1, valid_start_date: 19700101, invalid_reason: null },
    ]);
    expect(query(result, 'SELECT count(*) AS n FROM concept_synonym')).toEqual([{ n: 2 }]);

    // The manifest's anomalies are in store_meta too, with the release identity.
    const meta = Object.fromEntries(query<{ key: string; value: string }>(result, 'SELECT key, value FROM store_meta').map((r) => [r.key, r.value]));
    expect(JSON.parse(meta.anomalies!)).toEqual(result.manifest.anomalies);
    expect(JSON.parse(meta.counts!)).toMatchObject({ concept: 4, concept_relationship: 3, concept_synonym: 2, domain: 1 });
    expect(meta).toMatchObject({ schema_version: String(STORE_SCHEMA_VERSION), label: '2025.1', source_vocabulary_version: 'v5.0 31-AUG-23', release_date: '2023-08-31' });
  });

  it('builds vocabulary_summary with one row per vocabulary', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [
      tab(CONCEPT_HEADER),
      tab(conceptRow(1, 'a', { valid_start_date: '20010101' })),
      tab(conceptRow(2, 'b', { standard_concept: 'C', valid_start_date: '19990101' })),
      tab(conceptRow(3, 'c', { standard_concept: '', invalid_reason: 'U' })),
      tab(conceptRow(4, 'd', { vocabulary_id: 'LOINC', valid_start_date: '20200101' })),
    ]);
    const result = await load();
    expect(query(result, 'SELECT * FROM vocabulary_summary ORDER BY vocabulary_id')).toEqual([
      { vocabulary_id: 'LOINC', concept_count: 1, standard_count: 1, classification_count: 0, invalid_count: 0, earliest_start_date: 20200101, latest_start_date: 20200101 },
      { vocabulary_id: 'SNOMED', concept_count: 3, standard_count: 1, classification_count: 1, invalid_count: 1, earliest_start_date: 19700101, latest_start_date: 20010101 },
    ]);
  });
});
