/**
 * Finds the Athena table files in a download directory: names are matched case-insensitively,
 * plain (`.csv`) or gzipped (`.csv.gz`). Anything else in the directory is listed as ignored.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ATHENA_TABLE_SPECS, type AthenaTableName } from './table-specs.js';

export interface AthenaSourceFile {
  table: AthenaTableName;
  /** Absolute (or as given) path used to open the file. */
  path: string;
  /** The file's name as it appears in the directory; used in messages. */
  displayName: string;
  gzip: boolean;
}

export interface AthenaSourceListing {
  files: Map<AthenaTableName, AthenaSourceFile>;
  /** Other files of the directory (e.g. SOURCE_TO_CONCEPT_MAP.csv), not read. */
  ignored: string[];
}

const TABLE_FILE_PATTERN = /^([A-Za-z_]+)\.csv(\.gz)?$/i;

export function listAthenaSourceFiles(sourceDir: string): AthenaSourceListing {
  let names: string[];
  try {
    if (!statSync(sourceDir).isDirectory()) throw new Error(`${sourceDir} is not a directory`);
    names = readdirSync(sourceDir).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`source directory ${sourceDir} does not exist`);
    throw new Error(`cannot read source directory ${sourceDir}: ${(err as Error).message}`);
  }
  const known = new Set<string>(ATHENA_TABLE_SPECS.map((s) => s.name));
  const files = new Map<AthenaTableName, AthenaSourceFile>();
  const ignored: string[] = [];
  for (const name of names) {
    const path = join(sourceDir, name);
    const match = TABLE_FILE_PATTERN.exec(name);
    const table = match?.[1]?.toUpperCase();
    if (!match || !table || !known.has(table) || !isFile(path)) {
      if (!name.startsWith('.')) ignored.push(name);
      continue;
    }
    const existing = files.get(table as AthenaTableName);
    if (existing) {
      throw new Error(`${sourceDir} holds two files for table ${table} (${existing.displayName} and ${name}): keep only one`);
    }
    files.set(table as AthenaTableName, { table: table as AthenaTableName, path, displayName: name, gzip: match[2] !== undefined });
  }
  return { files, ignored };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
