/**
 * Turns the text fields of one record into typed values in the spec's column order (integers, reals, YYYYMMDD
 * dates, texts; an empty optional field is NULL). An unreadable value throws a RowFieldError; oddities that can be
 * kept (over-long text, empty required text) go to `notice` and are kept.
 */
import type { ColumnMapping } from './column-mapping.js';
import { RowFieldError } from './read-error.js';
import type { AthenaColumnKind, AthenaColumnSpec, AthenaTableSpec } from './table-specs.js';
import { characterLength, parseAthenaDate, parseAthenaInteger, parseAthenaReal } from './value-parsers.js';

export type AthenaValue = string | number | null;

export type KeptValueIssue = 'over_long_value' | 'empty_required_value';

export type KeptValueNotice = (issue: KeptValueIssue, column: AthenaColumnSpec, value: string) => void;

export class AthenaRowDecoder {
  /** The decoded row; reused for every record (copy it to keep it). */
  readonly values: AthenaValue[];
  private readonly kinds: AthenaColumnKind[];
  private readonly fieldIndex: number[];
  private readonly required: boolean[];
  private readonly maxLength: number[];

  constructor(
    private readonly spec: AthenaTableSpec,
    mapping: ColumnMapping,
    private readonly notice: KeptValueNotice,
  ) {
    this.values = spec.columns.map(() => null);
    this.kinds = spec.columns.map((c) => c.kind);
    this.fieldIndex = mapping.fieldIndexOfColumn;
    this.required = spec.columns.map((c) => c.required);
    this.maxLength = spec.columns.map((c) => c.maxLength ?? Infinity);
  }

  decode(fields: readonly string[]): AthenaValue[] {
    const values = this.values;
    for (let c = 0; c < this.kinds.length; c++) {
      const field = this.fieldIndex[c]!;
      const text = fields[field]!;
      if (text.length === 0) {
        if (!this.required[c]) {
          values[c] = null;
          continue;
        }
        if (this.kinds[c] !== 'text') throw new RowFieldError(field, `${this.spec.columns[c]!.name} is empty, but every ${this.spec.name} row needs one`);
        this.notice('empty_required_value', this.spec.columns[c]!, text);
        values[c] = '';
        continue;
      }
      switch (this.kinds[c]) {
        case 'integer': {
          const value = parseAthenaInteger(text);
          if (value === null) throw new RowFieldError(field, `${this.spec.columns[c]!.name} must be a whole number, found ${quote(text)}`);
          values[c] = value;
          break;
        }
        case 'date': {
          const value = parseAthenaDate(text);
          if (value === null) {
            throw new RowFieldError(field, `${this.spec.columns[c]!.name} is not a valid date (expected YYYYMMDD or YYYY-MM-DD), found ${quote(text)}`);
          }
          values[c] = value;
          break;
        }
        case 'real': {
          const value = parseAthenaReal(text);
          if (value === null) throw new RowFieldError(field, `${this.spec.columns[c]!.name} must be a number, found ${quote(text)}`);
          values[c] = value;
          break;
        }
        default:
          if (text.length > this.maxLength[c]! && characterLength(text) > this.maxLength[c]!) {
            this.notice('over_long_value', this.spec.columns[c]!, text);
          }
          values[c] = text;
      }
    }
    return values;
  }
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
