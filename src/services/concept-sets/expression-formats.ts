/**
 * Reads a concept-set expression in any of the three OHDSI shapes (ATLAS JSON with UPPER_CASE concept fields, bare,
 * wrapped as {"expression":…} or as a whole concept set; the OHDSI TAB draft with camelCase fields; the ATLAS CSV
 * export, through csv-parse) into one ConceptSetExpression; every error names the item index and field, or the CSV
 * line and column.
 */
import { parse as parseCsv, CsvError } from 'csv-parse/sync';
import { validationError } from '../errors.js';

export type ExpressionFormat = 'atlas-json' | 'tab-json' | 'atlas-csv';

/** One item: a concept and the three flags of the reference resolver. */
export interface ConceptSetItem {
  conceptId: number;
  isExcluded: boolean;
  includeDescendants: boolean;
  includeMapped: boolean;
  /**
   * Only the sources mapped into the item (and into its valid descendants when includeDescendants), not the item or
   * its descendants: a FHIR compose's `maps-to` filter (concept-set-value-set.ts). Never read from the three formats.
   */
  mappedOnly?: boolean;
}

export interface ConceptSetExpression {
  format: ExpressionFormat;
  id?: string | number;
  name?: string;
  items: ConceptSetItem[];
}

/** Most items one expression may have (ATLAS' largest published phenotypes have a few hundred). */
export const MAX_EXPRESSION_ITEMS = 10_000;

const FLAGS = ['isExcluded', 'includeDescendants', 'includeMapped'] as const;

/** The ATLAS CSV export's header, in its order. */
export const ATLAS_CSV_COLUMNS = [
  'Concept Set ID',
  'Name',
  'Concept ID',
  'Concept Code',
  'Concept Name',
  'Domain',
  'Vocabulary',
  'Standard Concept',
  'Exclude',
  'Descendants',
  'Mapped',
] as const;

const CSV_FLAG_COLUMNS: Record<(typeof FLAGS)[number], string> = { isExcluded: 'Exclude', includeDescendants: 'Descendants', includeMapped: 'Mapped' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function asConceptId(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= 0x7fffffff) return value;
  throw validationError(`${field} must be a concept id (an integer from 0 to 2147483647), got ${describe(value)}.`, { field });
}

/**
 * Reads the body's `expression` (at `path`): an object (ATLAS or TAB JSON, any wrapping) or a string (the ATLAS CSV
 * export, or JSON text).
 */
export function readExpression(input: unknown, path = 'expression'): ConceptSetExpression {
  if (typeof input === 'string') {
    const text = input.replace(/^\uFEFF/, '');
    if (/^\s*[{[]/.test(text)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        throw validationError(`${path} is not valid JSON: ${(err as Error).message}`, { field: path });
      }
      return readExpression(parsed, path);
    }
    return readAtlasCsv(text, path);
  }
  if (!isObject(input)) {
    throw validationError(`${path} must be a concept-set expression (an object with items, or the ATLAS CSV export as a string), got ${describe(input)}.`, { field: path });
  }
  // A whole concept set {id, name, expression} or a wrapper {expression}.
  if (!('items' in input) && 'expression' in input) {
    const inner = readExpression(input.expression, `${path}.expression`);
    if (inner.format === 'atlas-csv') throw validationError(`${path}.expression must be an object with items.`, { field: `${path}.expression` });
    return { ...inner, ...meta(input, path) };
  }
  const items = input.items;
  if (!Array.isArray(items)) throw validationError(`${path}.items must be an array of concept-set items, got ${describe(items)}.`, { field: `${path}.items` });
  if (items.length > MAX_EXPRESSION_ITEMS) {
    throw validationError(`${path}.items has ${items.length} items; at most ${MAX_EXPRESSION_ITEMS} are accepted.`, { field: `${path}.items` });
  }
  let camel = 0;
  let upper = 0;
  const read = items.map((item, i): ConceptSetItem => {
    const at = `${path}.items[${i}]`;
    if (!isObject(item)) throw validationError(`${at} must be an object, got ${describe(item)}.`, { field: at, item_index: i });
    const concept = item.concept;
    if (!isObject(concept)) throw validationError(`${at}.concept must be an object with CONCEPT_ID (ATLAS) or conceptId (OHDSI TAB), got ${describe(concept)}.`, { field: `${at}.concept`, item_index: i });
    let conceptId: number;
    if ('CONCEPT_ID' in concept) {
      upper++;
      conceptId = asConceptId(concept.CONCEPT_ID, `${at}.concept.CONCEPT_ID`);
    } else if ('conceptId' in concept) {
      camel++;
      conceptId = asConceptId(concept.conceptId, `${at}.concept.conceptId`);
    } else {
      throw validationError(`${at}.concept has neither CONCEPT_ID (ATLAS) nor conceptId (OHDSI TAB).`, { field: `${at}.concept`, item_index: i });
    }
    const flags = {} as Record<(typeof FLAGS)[number], boolean>;
    for (const flag of FLAGS) {
      const value = item[flag];
      if (value !== undefined && typeof value !== 'boolean') {
        throw validationError(`${at}.${flag} must be a boolean (true or false), got ${describe(value)}.`, { field: `${at}.${flag}`, item_index: i });
      }
      flags[flag] = value === true;
    }
    return { conceptId, ...flags };
  });
  return { format: camel > upper ? 'tab-json' : 'atlas-json', ...meta(input, path), items: read };
}

/** The optional id and name of a concept set (TAB draft: also version, tags, metadata, which resolution ignores). */
function meta(input: Record<string, unknown>, path: string): { id?: string | number; name?: string } {
  const out: { id?: string | number; name?: string } = {};
  if (input.id !== undefined && input.id !== null) {
    if (typeof input.id !== 'string' && typeof input.id !== 'number') throw validationError(`${path}.id must be a string or a number.`, { field: `${path}.id` });
    out.id = input.id;
  }
  if (input.name !== undefined && input.name !== null) {
    if (typeof input.name !== 'string') throw validationError(`${path}.name must be a string.`, { field: `${path}.name` });
    out.name = input.name;
  }
  return out;
}

function csvFlag(value: string | undefined, line: number, column: string, path: string): boolean {
  const v = (value ?? '').trim().toLowerCase();
  if (v === 'true' || v === '1' || v === 'yes') return true;
  if (v === 'false' || v === '0' || v === 'no' || v === '') return false;
  throw validationError(`${path}: line ${line}, column "${column}" must be true or false, got ${describe(value)}.`, { field: path, line, column });
}

/** The ATLAS CSV export: a header row naming at least "Concept ID"; the flags default to false when their column is absent. */
export function readAtlasCsv(text: string, path = 'expression'): ConceptSetExpression {
  let rows: string[][];
  try {
    rows = parseCsv(text, { skip_empty_lines: true, relax_column_count: false, bom: true, trim: true });
  } catch (err) {
    const line = err instanceof CsvError ? ((err as CsvError & { lines?: number }).lines ?? undefined) : undefined;
    throw validationError(`${path} is not a readable CSV${line ? ` (line ${line})` : ''}: ${(err as Error).message}`, { field: path, line });
  }
  if (rows.length === 0) throw validationError(`${path} is an empty CSV: expected the ATLAS export header ${ATLAS_CSV_COLUMNS.map((c) => `"${c}"`).join(',')}.`, { field: path });
  const header = rows[0]!;
  const column = (name: string) => header.findIndex((h) => h.toLowerCase() === name.toLowerCase());
  const idColumn = column('Concept ID');
  if (idColumn < 0) {
    throw validationError(`${path}: the CSV header (line 1) has no "Concept ID" column; expected the ATLAS export header ${ATLAS_CSV_COLUMNS.map((c) => `"${c}"`).join(',')}.`, {
      field: path,
      line: 1,
      column: 'Concept ID',
    });
  }
  if (rows.length - 1 > MAX_EXPRESSION_ITEMS) throw validationError(`${path} has ${rows.length - 1} rows; at most ${MAX_EXPRESSION_ITEMS} are accepted.`, { field: path });
  const flagColumns = FLAGS.map((flag) => [flag, CSV_FLAG_COLUMNS[flag], column(CSV_FLAG_COLUMNS[flag])] as const);
  const setId = column('Concept Set ID');
  const setName = column('Name');
  const items = rows.slice(1).map((row, i): ConceptSetItem => {
    const line = i + 2;
    const raw = row[idColumn] ?? '';
    const conceptId = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(conceptId) || conceptId > 0x7fffffff) {
      throw validationError(`${path}: line ${line}, column "Concept ID" must be a concept id, got ${describe(raw)}.`, { field: path, line, column: 'Concept ID', item_index: i });
    }
    const flags = {} as Record<(typeof FLAGS)[number], boolean>;
    for (const [flag, name, index] of flagColumns) flags[flag] = index < 0 ? false : csvFlag(row[index], line, name, path);
    return { conceptId, ...flags };
  });
  const first = rows[1];
  const out: ConceptSetExpression = { format: 'atlas-csv', items };
  if (first && setId >= 0 && first[setId]) out.id = /^\d+$/.test(first[setId]!) ? Number(first[setId]) : first[setId]!;
  if (first && setName >= 0 && first[setName]) out.name = first[setName]!;
  return out;
}

/** An item as the API lists it back (snake_case, with its index in the expression). */
export interface ItemReference {
  index: number;
  concept_id: number;
  is_excluded: boolean;
  include_descendants: boolean;
  include_mapped: boolean;
}

export function itemReference(item: ConceptSetItem, index: number): ItemReference {
  return {
    index,
    concept_id: item.conceptId,
    is_excluded: item.isExcluded,
    include_descendants: item.includeDescendants,
    include_mapped: item.includeMapped,
  };
}

/** The expression as ATLAS JSON (the shape optimize answers). */
export function toAtlasJson(items: readonly ConceptSetItem[]): { items: Array<Record<string, unknown>> } {
  return {
    items: items.map((item) => ({
      concept: { CONCEPT_ID: item.conceptId },
      isExcluded: item.isExcluded,
      includeDescendants: item.includeDescendants,
      includeMapped: item.includeMapped,
    })),
  };
}
