/** The small pure pieces of the reader and loader. */
import { describe, expect, it } from 'vitest';
import { COMMA_DIALECT, detectDialect, fieldStarts, TAB_DIALECT } from '../../src/athena/dialect.js';
import { characterLength, parseAthenaDate, parseAthenaInteger, parseAthenaReal } from '../../src/athena/value-parsers.js';
import { ConceptIdSet } from '../../src/importer/concept-id-set.js';
import { releaseDateFromVersion } from '../../src/importer/release-date.js';

describe('parseAthenaDate', () => {
  it('accepts YYYYMMDD and YYYY-MM-DD calendar dates', () => {
    expect(parseAthenaDate('20250827')).toBe(20250827);
    expect(parseAthenaDate('2025-08-27')).toBe(20250827);
    expect(parseAthenaDate('20240229')).toBe(20240229);
    expect(parseAthenaDate('2000-02-29')).toBe(20000229);
    expect(parseAthenaDate('20991231')).toBe(20991231);
  });
  it('rejects impossible or malformed dates', () => {
    for (const bad of ['20230229', '19000229', '20231301', '20230400', '2023-04-31', '2023-4-01', '2023/04/01', '202304011', '2023-04-0a', '27-AUG-25', '']) {
      expect(parseAthenaDate(bad), bad).toBeNull();
    }
  });
});

describe('parseAthenaInteger / parseAthenaReal', () => {
  it('reads whole numbers only', () => {
    expect(parseAthenaInteger('4329847')).toBe(4329847);
    expect(parseAthenaInteger('-1')).toBe(-1);
    expect(parseAthenaInteger('0')).toBe(0);
    for (const bad of ['', '-', '1.0', '1e3', ' 1', '12a', '+5', '99999999999999999']) expect(parseAthenaInteger(bad), bad).toBeNull();
  });
  it('reads decimals', () => {
    expect(parseAthenaReal('0.5')).toBe(0.5);
    expect(parseAthenaReal('500')).toBe(500);
    expect(parseAthenaReal('1.2E-4')).toBe(0.00012);
    expect(parseAthenaReal('.25')).toBe(0.25);
    for (const bad of ['', 'abc', '1,5', '1.2.3', 'NaN', 'Infinity']) expect(parseAthenaReal(bad), bad).toBeNull();
  });
  it('counts characters, not UTF-16 units', () => {
    expect(characterLength('abc')).toBe(3);
    expect(characterLength('💊x')).toBe(2);
  });
});

describe('dialects', () => {
  it('is decided by the header line', () => {
    expect(detectDialect('concept_id\tconcept_name')).toBe(TAB_DIALECT);
    expect(detectDialect('"concept_id","concept_name"')).toBe(COMMA_DIALECT);
  });
  it('locates fields, honouring quotes only in the comma dialect', () => {
    expect(fieldStarts(TAB_DIALECT, 'a\t"b\tc').map((s) => s.column)).toEqual([1, 3, 6, 7]);
    expect(fieldStarts(COMMA_DIALECT, '1,"x, ""y""",z').map((s) => s.column)).toEqual([1, 3, 14, 15]);
    expect(fieldStarts(COMMA_DIALECT, '1,"a\nbc",z\n')).toEqual([
      { lineOffset: 0, column: 1 },
      { lineOffset: 0, column: 3 },
      { lineOffset: 1, column: 5 },
      { lineOffset: 1, column: 6 },
    ]);
  });
});

describe('releaseDateFromVersion', () => {
  it('reads the date of the None vocabulary version', () => {
    expect(releaseDateFromVersion('v5.0 27-AUG-25')).toBe('2025-08-27');
    expect(releaseDateFromVersion('v5.0 09-APR-22*')).toBe('2022-04-09');
    expect(releaseDateFromVersion('v5.0 1-Feb-2024')).toBe('2024-02-01');
    expect(releaseDateFromVersion('v5.0 31-FEB-24')).toBeNull();
    expect(releaseDateFromVersion('SNOMED 2024-02-01')).toBeNull();
    expect(releaseDateFromVersion(null)).toBeNull();
  });
});

describe('ConceptIdSet', () => {
  it('holds sparse ids across the whole integer range', () => {
    const set = new ConceptIdSet();
    for (const id of [0, 1, 65535, 65536, 4329847, 2_000_000_001, 0xffffffff, -5, 2 ** 40]) set.add(id);
    set.add(1);
    expect(set.size).toBe(9);
    for (const id of [0, 1, 65535, 65536, 4329847, 2_000_000_001, 0xffffffff, -5, 2 ** 40]) expect(set.has(id), String(id)).toBe(true);
    for (const id of [2, 65537, 4329846, 2_000_000_000, -4, 2 ** 40 + 1]) expect(set.has(id), String(id)).toBe(false);
  });
});
