/**
 * Reading source-term files (issue #24 "Input"): CSV and TSV with the delimiter sniffed, column roles guessed from
 * Usagi-like headers or named, extra columns kept as additional info, and every bad row reported with its line and
 * column while the rest are kept.
 */
import { describe, expect, it } from 'vitest';
import { describeBadRow, readSourceTerms } from '../../src/services/source-mapping/source-term-reader.js';
import { ServiceError } from '../../src/services/errors.js';

const caught = (f: () => unknown): ServiceError => {
  try {
    f();
  } catch (err) {
    return err as ServiceError;
  }
  throw new Error('no error');
};

describe('readSourceTerms', () => {
  it('reads a Usagi-style CSV: roles guessed, extra columns kept in file order, lines counted across quoted newlines', () => {
    const file = readSourceTerms('\uFEFFsourceCode,sourceName,sourceFrequency,ward,unit\nA1,"fever, high",10,W1,mg\nA2,"cough\nproductive",3,W2,\nA3,headache,,W3,x\n');
    expect(file.delimiter).toBe(',');
    expect(file.columns).toEqual({ source_code: 'sourceCode', source_name: 'sourceName', source_frequency: 'sourceFrequency' });
    expect(file.column_choice).toEqual({ source_code: 'guessed', source_name: 'guessed', source_frequency: 'guessed' });
    expect(file.bad_rows).toEqual([]);
    expect(file.terms).toEqual([
      { index: 0, line: 2, source_code: 'A1', source_name: 'fever, high', source_frequency: 10, additional_info: { ward: 'W1', unit: 'mg' } },
      { index: 1, line: 3, source_code: 'A2', source_name: 'cough\nproductive', source_frequency: 3, additional_info: { ward: 'W2', unit: '' } },
      { index: 2, line: 5, source_code: 'A3', source_name: 'headache', source_frequency: 0, additional_info: { ward: 'W3', unit: 'x' } },
    ]);
    expect(Object.keys(file.terms[0]!.additional_info)).toEqual(['ward', 'unit']);
  });

  it('sniffs TSV and semicolons, guesses other header spellings and reads per-row hints', () => {
    const tsv = readSourceTerms('code\tdescription\tcount\tdomain\tvocabulary_id\nE11\tType 2 diabetes\t1,200\tCondition\tSNOMED;ICD10CM\n');
    expect(tsv.delimiter).toBe('\t');
    expect(tsv.columns).toEqual({ source_code: 'code', source_name: 'description', source_frequency: 'count', domain_hint: 'domain', vocabulary_hint: 'vocabulary_id' });
    expect(tsv.terms[0]).toMatchObject({ source_code: 'E11', source_name: 'Type 2 diabetes', source_frequency: 1200, hints: { domain_ids: ['Condition'], vocabulary_ids: ['SNOMED', 'ICD10CM'] } });
    const semi = readSourceTerms('Name;Frequency\nAsthma;4\n');
    expect(semi.delimiter).toBe(';');
    expect(semi.terms[0]).toMatchObject({ source_code: '', source_name: 'Asthma', source_frequency: 4, additional_info: {} });
  });

  it('named columns win over guesses; a named column not in the header is an error naming the option', () => {
    const file = readSourceTerms('code,label,local text\nX1,ignored,Chest pain\n', { columns: { source_name: 'local text' } });
    expect(file.columns.source_name).toBe('local text');
    expect(file.column_choice.source_name).toBe('named');
    expect(file.terms[0]!.source_name).toBe('Chest pain');
    expect(file.terms[0]!.additional_info).toEqual({ label: 'ignored' });
    const err = caught(() => readSourceTerms('code,label\nX,Y\n', { columns: { source_frequency: 'n_records' }, fileName: 'terms.csv' }));
    expect(err.status).toBe(400);
    expect(err.message).toContain("terms.csv: the source_frequency column 'n_records' is not in the header");
    expect(err.details).toMatchObject({ parameter: 'source_frequency_column' });
  });

  it('a file without a name column is a clear error', () => {
    const err = caught(() => readSourceTerms('code,frequency\nX,1\n', { fileName: 'codes.csv' }));
    expect(err.status).toBe(400);
    expect(err.message).toContain('codes.csv: no source name column');
    expect(err.message).toContain("'code', 'frequency'");
  });

  it('reports bad rows with line and column and keeps the others, also after an unterminated quote', () => {
    const text = [
      'sourceCode,sourceName,sourceFrequency',
      'A1,fever,10', // line 2
      'A2,cough', // 3: too few fields
      'A3,"bad"q,7', // 4: text after a closing quote
      'A4,,3', // 5: empty name
      'A5,headache,many', // 6: frequency not a number
      'A6,"never closed,12', // 7: unterminated quote
      'A7,nausea,5', // 8
      'A8,rash,-2', // 9: negative frequency
      '',
    ].join('\n');
    const file = readSourceTerms(text, { fileName: 'in.csv' });
    expect(file.terms.map((t) => [t.source_code, t.line])).toEqual([
      ['A1', 2],
      ['A7', 8],
    ]);
    expect(file.terms.map((t) => t.index)).toEqual([0, 1]);
    expect(file.bad_rows.map((b) => [b.line, b.column])).toEqual([
      [3, 3],
      [4, 2],
      [5, 2],
      [6, 3],
      [7, 2],
      [9, 3],
    ]);
    expect(describeBadRow('in.csv', file.bad_rows[3]!)).toBe("in.csv: line 6, column 3 (sourceFrequency): the frequency 'many' is not a whole number ≥ 0");
    expect(file.bad_rows[4]!.message).toContain('never closed');
  });

  it('counts lines right with CRLF line ends and blank lines', () => {
    const file = readSourceTerms('code,name,count\r\nA,alpha,1\r\n\r\n\r\nB,"be\r\nta",2\r\nC,,3\r\n\r\nD,delta,x\r\nE,eps,4\r\n');
    expect(file.terms.map((t) => [t.source_code, t.line, t.source_name])).toEqual([
      ['A', 2, 'alpha'],
      ['B', 5, 'be\nta'],
      ['E', 10, 'eps'],
    ]);
    expect(file.bad_rows.map((b) => [b.line, b.column])).toEqual([
      [7, 2],
      [9, 3],
    ]);
    const unclosed = readSourceTerms('code,name\nA,"open\n\nB,b\nC,c\n');
    expect(unclosed.terms.map((t) => [t.source_code, t.line])).toEqual([
      ['B', 4],
      ['C', 5],
    ]);
    expect(unclosed.bad_rows).toEqual([{ line: 2, column: 2, message: 'a quote opened here is never closed' }]);
  });

  it('bounds the input: too many terms or bytes is an error, an empty file or a missing header too', () => {
    const rows = ['name', ...Array.from({ length: 6 }, (_, i) => `term ${i}`)].join('\n');
    expect(readSourceTerms(rows, { maxTerms: 6 }).terms).toHaveLength(6);
    expect(caught(() => readSourceTerms(rows, { maxTerms: 5 })).message).toContain('more than 5 source terms (line 7)');
    expect(caught(() => readSourceTerms(rows, { maxBytes: 10 })).message).toContain('at most 10 bytes');
    expect(caught(() => readSourceTerms('  \n')).message).toContain('empty');
    expect(caught(() => readSourceTerms('name,name\nx,y\n')).message).toContain("line 1, column 2: the header name 'name' is also column 1");
    const latin1 = Buffer.concat([Buffer.from('name\nok\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect(caught(() => readSourceTerms(latin1, { fileName: 'l.csv' })).message).toBe('l.csv is not UTF-8 (line 3, character 4): save it as UTF-8.');
    expect(readSourceTerms(Buffer.from('name\ncafé\n')).terms[0]!.source_name).toBe('café');
  });
});
