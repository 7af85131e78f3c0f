/**
 * Output files (issue #24 "Output"): Usagi's saved file with its exact columns and dialect (a file as Usagi 1.4 writes
 * it is read, and written back identical; ours round-trips: export, import, same content) and SOURCE_TO_CONCEPT_MAP
 * with the 9 columns, types and widths of the CDM v5.4 field-level specification.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/services/errors.js';
import type { MappedTerm } from '../../src/services/source-mapping/mapping-types.js';
import { sourceToConceptMapCsv, sourceToConceptMapRows, STCM_COLUMNS } from '../../src/services/source-mapping/source-to-concept-map.js';
import { readUsagiCsv, termOfUsagiMapping, usagiMappingOf, writeUsagiCsv } from '../../src/services/source-mapping/usagi-csv.js';
import { SHARED_VOCAB } from '../helpers/shared-vocab.js';

/** Written by hand from Usagi's WriteCodeMappingsToFile / SourceCode.toRow / WriteCSVFile: two targets, escapes, AUTO_MAPPED. */
const USAGI_FILE = [
  'sourceCode,sourceName,sourceFrequency,sourceAutoAssignedConceptIds,ADD_INFO:ward,matchScore,mappingStatus,equivalence,statusSetBy,statusSetOn,conceptId,conceptName,domainId,mappingType,comment,createdBy,createdOn,assignedReviewer',
  'E11,"Diabetes, type 2",120,201826,W1,0.87,APPROVED,EQUAL,ana,1700000000000,201826,Type 2 diabetes mellitus,Condition,MAPS_TO,,ana,1700000000000,bo',
  'X1,"Glucose \\"fasting\\"",40,,W2,0.50,UNCHECKED,UNREVIEWED,,0,3004501,Glucose [Mass/volume] in Serum or Plasma,Measurement,MAPS_TO,c:\\\\temp,ana,1700000001000,',
  'X1,"Glucose \\"fasting\\"",40,,W2,0.50,UNCHECKED,UNREVIEWED,,0,4121395,Fasting,Observation,MAPS_TO_VALUE,c:\\\\temp,ana,1700000002000,',
  'Z9,Unknown thing,1,,W3,0.00,AUTO_MAPPED,UNREVIEWED,,0,0,,,MAPS_TO,,,0,',
  '',
].join('\n');

describe('Usagi saved file', () => {
  it("reads Usagi's own file: grouped targets, escapes, statuses, times, additional info", () => {
    const { mappings, bad_rows } = readUsagiCsv(USAGI_FILE);
    expect(bad_rows).toEqual([]);
    expect(mappings).toHaveLength(3);
    expect(mappings[0]).toMatchObject({
      source_code: 'E11',
      source_name: 'Diabetes, type 2',
      source_frequency: 120,
      auto_assigned_concept_ids: [201826],
      additional_info: { ward: 'W1' },
      match_score: 0.87,
      status: 'approved',
      equivalence: 'EQUAL',
      status_set_by: { kind: 'reviewer', reviewer: 'ana' },
      status_set_at: new Date(1700000000000).toISOString(),
      assigned_reviewer: 'bo',
      targets: [{ concept_id: 201826, mapping_type: 'MAPS_TO', created_by: 'ana' }],
      line: 2,
    });
    expect(mappings[1]!.source_name).toBe('Glucose "fasting"');
    expect(mappings[1]!.comment).toBe('c:\\temp');
    expect(mappings[1]!.targets.map((t) => [t.concept_id, t.mapping_type])).toEqual([
      [3004501, 'MAPS_TO'],
      [4121395, 'MAPS_TO_VALUE'],
    ]);
    expect(mappings[2]).toMatchObject({ status: 'unchecked', usagi_status: 'AUTO_MAPPED', targets: [], status_set_at: null });
  });

  it("writes Usagi's file back line for line (same columns, dialect and values)", () => {
    const { mappings } = readUsagiCsv(USAGI_FILE);
    const written = writeUsagiCsv(mappings).split('\n');
    const original = USAGI_FILE.split('\n');
    expect(written[0]).toBe(original[0]);
    // Usagi writes scores with 2 decimals (0.50), we write the number (0.5): compare the other fields exactly
    const withoutScore = (line: string) => line.replace(/,(\d+\.\d+),/, ',#,').replace(/,0\.5,|,0\.50,|,0\.87,|,0,(?=AUTO)/g, ',#,');
    expect(written.slice(1).map(withoutScore)).toEqual(original.slice(1).map(withoutScore));
  });

  it('round trip: a mapping exported and imported back has the same content', () => {
    const term = (i: number, code: string, name: string, info: Record<string, string>) => ({ index: i, line: i + 2, source_code: code, source_name: name, source_frequency: 10 * i, additional_info: info });
    const candidate = (id: number, name: string, score: number) => ({ concept_id: id, concept_name: name, domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_class_id: 'Disorder', concept_code: String(id), standard_concept: 'S', score, matched_text: name, reasons: ['keyword' as const] });
    const terms: MappedTerm[] = [
      {
        term: term(0, 'A,1', 'name with "quotes", commas, a back\\slash\nand a line break', { ward: 'W,1', note: '' }),
        candidates: [candidate(11, 'Eleven', 0.8123), candidate(12, 'Twelve', 0.5)],
        review: { status: 'approved', equivalence: 'WIDER', concept_ids: [12, 11], comment: 'two "targets"', status_set_by: { kind: 'reviewer', reviewer: 'Ana' }, status_set_at: '2026-01-02T03:04:05.678Z', assigned_reviewer: 'Bo' },
      },
      {
        term: term(1, 'B2', 'auto', { ward: 'W2', note: 'x' }),
        candidates: [candidate(13, 'Thirteen', 1)],
        review: { status: 'approved', equivalence: 'UNREVIEWED', concept_ids: [13], comment: '', status_set_by: { kind: 'rule', rule: 'exact_code' }, status_set_at: '2026-01-02T00:00:00.000Z', assigned_reviewer: '' },
      },
      {
        term: term(2, '', 'nothing found', { ward: '', note: '' }),
        candidates: [],
        review: { status: 'ignored', equivalence: 'UNMATCHED', concept_ids: [], comment: '', status_set_by: { kind: 'reviewer', reviewer: 'Cy' }, status_set_at: '2026-01-03T00:00:00.000Z', assigned_reviewer: '' },
      },
    ];
    const exported = terms.map((t) => usagiMappingOf(t));
    const text = writeUsagiCsv(exported);
    expect(text.split('\n')[0]).toBe(
      'sourceCode,sourceName,sourceFrequency,sourceAutoAssignedConceptIds,ADD_INFO:ward,ADD_INFO:note,matchScore,mappingStatus,equivalence,statusSetBy,statusSetOn,conceptId,conceptName,domainId,mappingType,comment,createdBy,createdOn,assignedReviewer',
    );
    expect(text.trimEnd().split('\n')).toHaveLength(1 + 2 + 1 + 1);
    const { mappings, bad_rows } = readUsagiCsv(text);
    expect(bad_rows).toEqual([]);
    expect(mappings.map(({ line: _line, ...m }) => m)).toEqual(exported);
    expect(mappings.map((m, i) => termOfUsagiMapping(m, i).review)).toEqual(terms.map((t) => t.review));
    expect(mappings.map((m, i) => ({ ...termOfUsagiMapping(m, i).term, line: 0 }))).toEqual(terms.map((t) => ({ ...t.term, line: 0 })));
    expect(exported[0]!.match_score).toBe(0.5); // the score of the first chosen target (12)
  });

  it('reads a file re-saved by a spreadsheet (RFC 4180 doubled quotes)', () => {
    const resaved = USAGI_FILE.replaceAll('"Glucose \\"fasting\\""', '"Glucose ""fasting"""');
    expect(resaved).not.toBe(USAGI_FILE);
    expect(readUsagiCsv(resaved).mappings[1]!.source_name).toBe('Glucose "fasting"');
  });

  it('reports unreadable lines with line and column, and a file without Usagi columns', () => {
    const bad = USAGI_FILE.replace('0.87,APPROVED', '0.87,DONE').replaceAll(',40,,W2,0.50,UNCHECKED', ',forty,,W2,0.50,UNCHECKED');
    const { mappings, bad_rows } = readUsagiCsv(bad);
    expect(bad_rows.map((b) => [b.line, b.column, b.column_name])).toEqual([
      [2, 7, 'mappingStatus'],
      [3, 3, 'sourceFrequency'],
      [4, 3, 'sourceFrequency'],
    ]);
    expect(mappings.map((m) => m.source_code)).toEqual(['Z9']);
    expect(() => readUsagiCsv('code,name\nx,y\n', 'mine.csv')).toThrow("mine.csv: line 1 has no 'sourceCode' column");
  });
});

describe('SOURCE_TO_CONCEPT_MAP', () => {
  const spec = join(SHARED_VOCAB, 'cdm-spec', 'OMOP_CDMv5.4_Field_Level.csv');
  it.skipIf(!existsSync(spec))('has the 9 columns of the CDM v5.4 specification, in order, with their types', () => {
    const rows = readFileSync(spec, 'utf8')
      .split('\n')
      .filter((l) => l.toLowerCase().startsWith('source_to_concept_map,'))
      .map((l) => l.split(','));
    expect(STCM_COLUMNS.map((c) => [c.name, c.required ? 'TRUE' : 'FALSE', c.type])).toEqual(rows.map((r) => [r[1], r[2], r[3]]));
  });

  const term = (i: number, code: string, name: string) => ({ index: i, line: i + 2, source_code: code, source_name: name, source_frequency: 1, additional_info: {} });
  const review = (status: 'approved' | 'unchecked', ids: number[]) => ({ status, equivalence: 'EQUAL' as const, concept_ids: ids, comment: '', status_set_by: null, status_set_at: null, assigned_reviewer: '' });
  const vocabularies: Record<number, string> = { 201826: 'SNOMED', 3004501: 'LOINC' };

  it('holds approved terms only, one row per target (0 / None for an approval without target), dates and vocabulary as asked', () => {
    const rows = sourceToConceptMapRows(
      [
        { term: term(0, 'E11', 'Diabetes, "type 2"'), review: review('approved', [201826, 3004501]) },
        { term: term(1, 'X', 'not yet'), review: review('unchecked', [201826]) },
        { term: term(2, 'Z', 'no match'), review: review('approved', []) },
      ],
      (id) => vocabularies[id],
      { sourceVocabularyId: 'MY_LAB', validStartDate: '2020-01-01' },
    );
    expect(sourceToConceptMapCsv(rows).split('\n')).toEqual([
      'source_code,source_concept_id,source_vocabulary_id,source_code_description,target_concept_id,target_vocabulary_id,valid_start_date,valid_end_date,invalid_reason',
      'E11,0,MY_LAB,"Diabetes, ""type 2""",201826,SNOMED,2020-01-01,2099-12-31,',
      'E11,0,MY_LAB,"Diabetes, ""type 2""",3004501,LOINC,2020-01-01,2099-12-31,',
      'Z,0,MY_LAB,no match,0,None,2020-01-01,2099-12-31,',
      '',
    ]);
  });

  it('a value wider than its column is an error naming the row, never truncated', () => {
    const problem = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return err as ServiceError;
      }
      throw new Error('no error');
    };
    const long = problem(() =>
      sourceToConceptMapRows(
        [
          { term: term(0, 'C'.repeat(50), 'ok'), review: review('approved', [201826]) },
          { term: term(1, 'C'.repeat(51), 'd'.repeat(256)), review: review('approved', [201826]) },
        ],
        (id) => vocabularies[id],
        { sourceVocabularyId: 'MY_LAB' },
      ),
    );
    expect(long.status).toBe(400);
    expect(long.message).toContain("term 2 (input line 3) 'CCCCC");
    expect(long.message).toContain('source_code is 51 characters, the column holds 50');
    expect(long.message).toContain('source_code_description is 256 characters, the column holds 255');
    expect(problem(() => sourceToConceptMapRows([], () => undefined, { sourceVocabularyId: 'V'.repeat(21) })).details?.parameter).toBe('source_vocabulary_id');
    expect(problem(() => sourceToConceptMapRows([], () => undefined, { sourceVocabularyId: 'V', validEndDate: '2099-02-30' })).details?.parameter).toBe('valid_end_date');
  });
});
