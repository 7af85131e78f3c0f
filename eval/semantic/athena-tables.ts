/**
 * Athena vocabulary tables held in memory for building evaluation releases: read from a download
 * directory (either dialect, plain or gzipped, through the loader's own reader) and written back
 * as a TAB-separated Athena directory that `loadRelease` loads like any download. Values stay the
 * text the file held; dates are written as YYYYMMDD whichever form they were read in.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAthenaFile } from '../../src/athena/athena-file-reader.js';
import { listAthenaSourceFiles } from '../../src/athena/source-files.js';
import { ATHENA_TABLE_SPECS, type AthenaTableName } from '../../src/athena/table-specs.js';

/** One row: column name (lower case) → value as text ('' for NULL). */
export type AthenaRow = Record<string, string>;

/** The rows of each table; a table that is absent is written header-only. */
export type AthenaTables = Partial<Record<AthenaTableName, AthenaRow[]>>;

/** Reads every Athena table file of a directory. */
export async function readAthenaTables(sourceDir: string): Promise<AthenaTables> {
  const tables: AthenaTables = {};
  for (const file of listAthenaSourceFiles(sourceDir).files.values()) {
    const rows: AthenaRow[] = [];
    let names: string[] = [];
    await readAthenaFile(file, {
      onHeader: (header) => {
        names = header.names.map((n) => n.toLowerCase());
      },
      onRecord: (fields) => {
        const row: AthenaRow = {};
        names.forEach((name, i) => (row[name] = fields[i] ?? ''));
        rows.push(row);
      },
    });
    tables[file.table] = rows;
  }
  return tables;
}

/** 2024-08-30 or 20240830 → 20240830. */
const athenaDate = (value: string) => value.replaceAll('-', '');

/** Writes the tables as a TAB-separated Athena download into `dir` (created if needed); returns `dir`. */
export function writeAthenaTables(tables: AthenaTables, dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const spec of ATHENA_TABLE_SPECS) {
    const lines = [spec.columns.map((c) => c.name).join('\t')];
    for (const row of tables[spec.name] ?? []) {
      lines.push(
        spec.columns
          .map((c) => {
            const value = (row[c.name] ?? '').replace(/[\t\r\n]+/g, ' ');
            return c.kind === 'date' ? athenaDate(value) : value;
          })
          .join('\t'),
      );
    }
    writeFileSync(join(dir, `${spec.name}.csv`), `${lines.join('\n')}\n`);
  }
  return dir;
}

/** Rows of several sources, keeping the first row of each key (sources in priority order). */
export function unionRows(sources: ReadonlyArray<readonly AthenaRow[] | undefined>, keyOf: (row: AthenaRow) => string): AthenaRow[] {
  const out = new Map<string, AthenaRow>();
  for (const rows of sources) {
    for (const row of rows ?? []) {
      const key = keyOf(row);
      if (!out.has(key)) out.set(key, row);
    }
  }
  return [...out.values()];
}

/** The key of each table's rows (primary key, or the whole row for tables without one). */
export const ROW_KEYS: Record<AthenaTableName, (row: AthenaRow) => string> = {
  CONCEPT: (r) => r.concept_id!,
  CONCEPT_RELATIONSHIP: (r) => `${r.concept_id_1}|${r.concept_id_2}|${r.relationship_id}`,
  CONCEPT_ANCESTOR: (r) => `${r.ancestor_concept_id}|${r.descendant_concept_id}`,
  CONCEPT_SYNONYM: (r) => `${r.concept_id}|${(r.concept_synonym_name ?? '').toLowerCase()}|${r.language_concept_id}`,
  VOCABULARY: (r) => r.vocabulary_id!,
  DOMAIN: (r) => r.domain_id!,
  CONCEPT_CLASS: (r) => r.concept_class_id!,
  RELATIONSHIP: (r) => r.relationship_id!,
  DRUG_STRENGTH: (r) => `${r.drug_concept_id}|${r.ingredient_concept_id}`,
};

/** Merges whole downloads table by table (first source wins on a key). */
export function mergeAthenaTables(sources: readonly AthenaTables[]): AthenaTables {
  const merged: AthenaTables = {};
  for (const spec of ATHENA_TABLE_SPECS) {
    merged[spec.name] = unionRows(
      sources.map((s) => s[spec.name]),
      ROW_KEYS[spec.name],
    );
  }
  return merged;
}
