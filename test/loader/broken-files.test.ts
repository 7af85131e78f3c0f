/**
 * Files that cannot be read stop the load with FILE:LINE:COLUMN and a plain explanation, and
 * nothing is published.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AthenaReadError } from '../../src/athena/read-error.js';
import { loadRelease } from '../../src/importer/load-release.js';
import { listReleaseBuilds, releasesDir } from '../../src/store/data-dir.js';
import { comma, CONCEPT_HEADER, conceptRow, makeTempDir, RELATIONSHIP_HEADER, tab, writeLines } from './loader-fixtures.js';

let sourceDir: string;
let dataDir: string;

beforeEach(() => {
  sourceDir = makeTempDir('omopterm-broken-src-');
  dataDir = makeTempDir('omopterm-broken-data-');
});
afterEach(() => {
  rmSync(sourceDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The load's error, the same whether the files are parsed on the loading thread (`threads: 1`) or on a thread of their
 * own (`threads: 2`, src/athena/athena-file-thread.ts).
 */
async function loadError(): Promise<Error> {
  const errors: Error[] = [];
  for (const threads of [1, 2]) {
    const error = await loadRelease({ sourceDir, dataDir, label: '2025.1', quiet: true, threads }).then(
      () => null,
      (err: unknown) => err as Error,
    );
    if (!error) throw new Error(`the load (threads: ${threads}) was expected to fail`);
    // Nothing published, no temp dir left.
    expect(listReleaseBuilds(dataDir)).toEqual([]);
    expect(readdirSync(releasesDir(dataDir))).toEqual([]);
    errors.push(error);
  }
  const [one, two] = errors as [Error, Error];
  expect({ ...two, name: two.name, message: two.message }).toEqual({ ...one, name: one.name, message: one.message });
  return two;
}

/** 1-based column where field `index` of a TAB line starts. */
const tabColumn = (fields: string[], index: number) => fields.slice(0, index).reduce((col, f) => col + f.length + 1, 1);

describe('unreadable rows', () => {
  it('a TAB line with a missing field: points at the end of the line', async () => {
    const short = conceptRow(2).slice(0, 9);
    writeLines(sourceDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER), tab(conceptRow(1)), tab(short)]);
    const err = await loadError();
    expect(err).toBeInstanceOf(AthenaReadError);
    expect(err.message).toBe(
      `CONCEPT.csv:3:${tab(short).length + 1}: wrong number of fields: the header has 10 TAB-separated fields, this line has 9; ` +
        'the line ends here, where field 10 was expected',
    );
    expect(err).toMatchObject({ file: 'CONCEPT.csv', line: 3, column: tab(short).length + 1 });
  });

  it('a comma line with an unquoted comma: points at the extra field', async () => {
    const line = '2,Pain, left knee,Condition,SNOMED,Clinical Finding,S,C2,19700101,20991231,';
    writeLines(sourceDir, 'CONCEPT.csv', [comma(CONCEPT_HEADER), comma(conceptRow(1)), line]);
    const err = await loadError();
    // Field 11 is the empty one after the trailing comma.
    expect(err.message).toBe(
      `CONCEPT.csv:3:${line.length + 1}: wrong number of fields: the header has 10 comma-separated fields, this line has 11; field 11 starts here ` +
        '(a field containing a comma must be quoted)',
    );
  });

  it('an impossible date names the field and the value', async () => {
    const row = conceptRow(7, 'Seven', { valid_start_date: '20230230' });
    writeLines(sourceDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER), tab(row)]);
    const err = await loadError();
    expect(err.message).toBe(
      `CONCEPT.csv:2:${tabColumn(row, 7)}: valid_start_date is not a valid date (expected YYYYMMDD or YYYY-MM-DD), found "20230230"`,
    );
  });

  it('a malformed ISO date in comma CSV', async () => {
    const line = '1,"One, the first",Condition,SNOMED,Clinical Finding,S,C1,2023-1-05,2099-12-31,';
    writeLines(sourceDir, 'CONCEPT.csv', [comma(CONCEPT_HEADER), line]);
    const err = await loadError();
    // Columns count characters as written, quotes included: valid_start_date starts at column 59.
    expect(line.indexOf('2023-1-05') + 1).toBe(59);
    expect(err.message).toBe('CONCEPT.csv:2:59: valid_start_date is not a valid date (expected YYYYMMDD or YYYY-MM-DD), found "2023-1-05"');
  });

  it('a non-numeric concept id in CONCEPT_RELATIONSHIP', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER), tab(conceptRow(1))]);
    const bad = ['1', '12a', 'Is a', '19700101', '20991231', ''];
    writeLines(sourceDir, 'concept_relationship.csv', [tab(RELATIONSHIP_HEADER), tab(['1', '1', 'Is a', '19700101', '20991231', '']), tab(bad)]);
    const err = await loadError();
    expect(err.message).toBe('concept_relationship.csv:3:3: concept_id_2 must be a whole number, found "12a"');
  });

  it('an empty required id', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER), tab(conceptRow(1, 'One', { concept_id: '' }))]);
    const err = await loadError();
    expect(err.message).toBe('CONCEPT.csv:2:1: concept_id is empty, but every CONCEPT row needs one');
  });

  it('line numbers stay right after a quoted field spanning lines', async () => {
    const bad = '2,"Two ""quoted"" words",Condition,SNOMED,Clinical Finding,X,C"2,19700101,2099123,';
    writeLines(sourceDir, 'CONCEPT.csv', [comma(CONCEPT_HEADER), '1,"Two\nlines",Condition,SNOMED,Clinical Finding,S,C1,19700101,20991231,', bad]);
    const err = await loadError();
    expect(err.message).toBe(
      `CONCEPT.csv:4:${bad.indexOf('2099123') + 1}: valid_end_date is not a valid date (expected YYYYMMDD or YYYY-MM-DD), found "2099123"`,
    );
  });
});

describe('broken files', () => {
  it('a missing required column is reported at line 1, where the column was expected', async () => {
    const header = CONCEPT_HEADER.filter((c) => c !== 'concept_code');
    writeLines(sourceDir, 'CONCEPT.csv', [tab(header)]);
    const err = await loadError();
    // concept_code is the 7th CONCEPT column; the 7th header field here is valid_start_date.
    expect(err.message).toBe(
      `CONCEPT.csv:1:${tabColumn(header, 6)}: required column 'concept_code' of CONCEPT is missing from the header (the header has: ${header.join(', ')})`,
    );
  });

  it('a truncated gzip names the file and the last line read', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER), tab(conceptRow(1))]);
    const rows = [tab(RELATIONSHIP_HEADER)];
    for (let i = 0; i < 50_000; i++) rows.push(tab([i, i + 1, 'Is a', '19700101', '20991231', '']));
    const gz = gzipSync(Buffer.from(rows.map((r) => `${r}\n`).join('')));
    writeFileSync(join(sourceDir, 'CONCEPT_RELATIONSHIP.csv.gz'), gz.subarray(0, Math.floor(gz.length / 2)));
    const err = await loadError();
    expect(err.message).toMatch(
      /^CONCEPT_RELATIONSHIP\.csv\.gz: the gzip data is truncated \(the compressed data ends too early\); line (\d+) was the last one read\. The file is incomplete or damaged: download or copy it again$/,
    );
    const lastLine = Number(/line (\d+)/.exec(err.message)![1]);
    expect(lastLine).toBeGreaterThan(1000);
    expect(lastLine).toBeLessThan(50_001);
  });

  it('a file that is not gzip at all', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER), tab(conceptRow(1))]);
    writeFileSync(join(sourceDir, 'CONCEPT_ANCESTOR.csv.gz'), 'ancestor_concept_id\tdescendant_concept_id\n');
    const err = await loadError();
    expect(err.message).toMatch(/^CONCEPT_ANCESTOR\.csv\.gz: the gzip data is corrupt \(incorrect header check\); not even the header line could be read/);
  });

  it('a quote that is never closed (a csv-parse error, rewrapped)', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [comma(CONCEPT_HEADER), comma(conceptRow(1)), '2,"Pain left,Condition,SNOMED,Clinical Finding,S,C2,19700101,20991231,']);
    const err = await loadError();
    expect(err.message).toBe('CONCEPT.csv:3:3: unterminated quote: the quoted field opened here is never closed (the file ends inside the quotes)');
  });

  // The quote opened on line 3 runs on over the next lines until the next `"` in the file (line 8):
  // reported where it opened, not five lines later, and never read silently as one long name.
  const UNCLOSED = '2,"Pain left,Condition,SNOMED,Clinical Finding,S,C2,19700101,20991231,';
  const following = (line8Name: string) => [3, 4, 5, 6].map((id) => comma(conceptRow(id))).concat(comma(conceptRow(7, line8Name)), comma(conceptRow(8)));
  it.each([
    ['a later quoted field holding a comma (the record then has 11 fields)', '"Seven, quoted"'],
    ['a later quoted field (the record would have 10 fields: read silently before)', '"Seven"'],
    ['a later unquoted field with quotes in it', 'Seven "x" y'],
  ])('an unterminated quote before %s: FILE:LINE:COLUMN of the opening quote', async (_label, line8Name) => {
    writeLines(sourceDir, 'CONCEPT.csv', [comma(CONCEPT_HEADER), comma(conceptRow(1)), UNCLOSED, ...following(line8Name)]);
    const err = await loadError();
    expect(err).toBeInstanceOf(AthenaReadError);
    expect(err).toMatchObject({ file: 'CONCEPT.csv', line: 3, column: UNCLOSED.indexOf('"') + 1 });
    expect(err.message).toMatch(/^CONCEPT\.csv:3:3: unterminated quote: the quoted field opened here is not closed on its line; /);
    expect(err.message).toContain('line 8');
  });

  it('a quoted field that legitimately spans lines but closes properly, then has too many fields, names the opening quote too', async () => {
    const bad = '2,"Pain\nleft",Condition,SNOMED,Clinical Finding,S,C2,19700101,20991231,,extra';
    writeLines(sourceDir, 'CONCEPT.csv', [comma(CONCEPT_HEADER), comma(conceptRow(1)), bad]);
    const err = await loadError();
    expect(err.message).toBe(
      'CONCEPT.csv:3:3: probably an unterminated quote: the quoted field opened here is not closed on its line; lines 3–4 were read as one record, which has 11 fields where the header has 10',
    );
  });

  it('a column named twice in the header', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [tab([...CONCEPT_HEADER, 'CONCEPT_NAME'])]);
    const err = await loadError();
    expect(err.message).toBe(`CONCEPT.csv:1:${tab(CONCEPT_HEADER).length + 2}: column 'CONCEPT_NAME' appears twice in the header`);
  });

  it('a CONCEPT table without rows', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER)]);
    const err = await loadError();
    expect(err.message).toBe('CONCEPT.csv has no concept rows (only a header, or nothing): a release needs concepts');
  });

  it('two files for one table', async () => {
    writeLines(sourceDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER)]);
    writeLines(sourceDir, 'concept.csv.gz', [tab(CONCEPT_HEADER)]);
    await expect(loadRelease({ sourceDir, dataDir, label: '2025.1', quiet: true })).rejects.toThrow(/two files for table CONCEPT/);
  });

  it('a missing source directory', async () => {
    await expect(loadRelease({ sourceDir: join(sourceDir, 'nope'), dataDir, label: '2025.1', quiet: true })).rejects.toThrow(/does not exist/);
  });

  it('reads the header of a BOM-prefixed CRLF file', async () => {
    writeFileSync(join(sourceDir, 'CONCEPT.csv'), `\uFEFF${tab(CONCEPT_HEADER)}\r\n${tab(conceptRow(1))}\r\n`);
    const result = await loadRelease({ sourceDir, dataDir, label: '2025.1', quiet: true });
    expect(result.manifest.tables.concept!.rows_stored).toBe(1);
    expect(readFileSync(join(sourceDir, 'CONCEPT.csv'), 'utf8').startsWith('\uFEFF')).toBe(true);
  });
});
