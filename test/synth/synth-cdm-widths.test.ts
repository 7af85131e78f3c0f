/**
 * `omopterm synth` output fits the OMOP CDM v5.4 vocabulary tables: no text value is longer than
 * its column's varchar(n) width, so the files load into a CDM database. The widths are read from
 * the CDM specification itself (shared/vocab/cdm-spec/OMOP_CDMv5.4_Field_Level.csv).
 */
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conceptsForScale, synthesize } from '../../src/synth/index.js';
import { SHARED_VOCAB } from '../helpers/cli.js';
import { sharedVocabMissing } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('cdm-spec');

/** table (lower case) → its varchar columns → width, from the CDM field-level specification. */
function cdmVarcharWidths(): Map<string, Map<string, number>> {
  const rows = parse(readFileSync(join(SHARED_VOCAB, 'cdm-spec', 'OMOP_CDMv5.4_Field_Level.csv')), { columns: true }) as Array<Record<string, string>>;
  const widths = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const table = row.cdmTableName!.toLowerCase();
    if (!widths.has(table)) widths.set(table, new Map());
    const width = /^varchar\((\d+)\)$/i.exec(row.cdmDatatype!)?.[1];
    if (width) widths.get(table)!.set(row.cdmFieldName!.toLowerCase(), Number(width));
  }
  return widths;
}

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'omopterm-synth-widths-'));
  synthesize({ outDir: work, concepts: conceptsForScale(0.002) });
}, 120_000);
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe.skipIf(MISSING_SHARED_VOCAB)('synth output within the CDM v5.4 column widths', () => {
  it('every text value of every table file fits its varchar(n)', () => {
    const widths = cdmVarcharWidths();
    const files = readdirSync(work).filter((f) => f.endsWith('.csv'));
    expect(files.length).toBe(9);
    const tooLong: string[] = [];
    let checkedColumns = 0;
    for (const file of files) {
      const table = file.replace(/\.csv$/, '').toLowerCase();
      const tableWidths = widths.get(table);
      expect(tableWidths, `${table} is a CDM table`).toBeDefined();
      const lines = readFileSync(join(work, file), 'utf8').split('\n');
      const header = lines[0]!.split('\t');
      const checked = header.map((column, index) => [index, column, tableWidths!.get(column)] as const).filter(([, , width]) => width !== undefined);
      checkedColumns += checked.length;
      for (let l = 1; l < lines.length; l++) {
        if (lines[l] === '') continue;
        const fields = lines[l]!.split('\t');
        for (const [index, column, width] of checked) {
          const value = fields[index]!;
          if (value.length > width! && [...value].length > width!) tooLong.push(`${file}:${l + 1}: ${column} (${[...value].length} > ${width}) ${value}`);
        }
      }
    }
    // concept 7 text columns, relationship 5, vocabulary 4, …: every varchar column of the nine tables.
    expect(checkedColumns).toBe(7 + 2 + 0 + 1 + 4 + 2 + 2 + 5 + 1);
    expect(tooLong.slice(0, 20)).toEqual([]);
  });
});
