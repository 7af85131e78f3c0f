/** Small Athena source directories written by the loader tests (TAB or comma dialect, plain or gzipped). */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The shared real-data subsets (OMOPTERM_SHARED_VOCAB, default ../shared/vocab). */
export { SHARED_VOCAB as SHARED_VOCAB_DIR } from '../helpers/shared-vocab.js';

export const CONCEPT_HEADER = [
  'concept_id',
  'concept_name',
  'domain_id',
  'vocabulary_id',
  'concept_class_id',
  'standard_concept',
  'concept_code',
  'valid_start_date',
  'valid_end_date',
  'invalid_reason',
];
export const RELATIONSHIP_HEADER = ['concept_id_1', 'concept_id_2', 'relationship_id', 'valid_start_date', 'valid_end_date', 'invalid_reason'];
export const VOCABULARY_HEADER = ['vocabulary_id', 'vocabulary_name', 'vocabulary_reference', 'vocabulary_version', 'vocabulary_concept_id'];

export function makeTempDir(prefix = 'omopterm-loader-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes `lines` (already formatted) as a table file; `.gz` names are gzipped. */
export function writeLines(dir: string, fileName: string, lines: string[]): string {
  mkdirSync(dir, { recursive: true });
  const text = lines.map((l) => `${l}\n`).join('');
  const path = join(dir, fileName);
  writeFileSync(path, fileName.endsWith('.gz') ? gzipSync(Buffer.from(text)) : text);
  return path;
}

export const tab = (fields: Array<string | number>) => fields.join('\t');
export const comma = (fields: Array<string | number>) => fields.join(',');

/** A valid TAB concept row. */
export function conceptRow(id: number, name = `Concept ${id}`, overrides: Partial<Record<string, string>> = {}): string[] {
  const row: Record<string, string> = {
    concept_id: String(id),
    concept_name: name,
    domain_id: 'Condition',
    vocabulary_id: 'SNOMED',
    concept_class_id: 'Clinical Finding',
    standard_concept: 'S',
    concept_code: `C${id}`,
    valid_start_date: '19700101',
    valid_end_date: '20991231',
    invalid_reason: '',
    ...overrides,
  };
  return CONCEPT_HEADER.map((c) => row[c]!);
}

/** A minimal valid Athena (TAB) directory: three concepts, two relationships, the 'None' vocabulary row. */
export function writeMinimalAthenaDir(dir = makeTempDir(), version = 'v5.0 27-AUG-25'): string {
  writeLines(dir, 'CONCEPT.csv', [tab(CONCEPT_HEADER), tab(conceptRow(1, 'Alpha')), tab(conceptRow(2, 'Beta')), tab(conceptRow(3, 'Gamma'))]);
  writeLines(dir, 'CONCEPT_RELATIONSHIP.csv', [
    tab(RELATIONSHIP_HEADER),
    tab([1, 2, 'Is a', '19700101', '20991231', '']),
    tab([2, 1, 'Subsumes', '19700101', '20991231', '']),
  ]);
  writeLines(dir, 'VOCABULARY.csv', [
    tab(VOCABULARY_HEADER),
    tab(['None', 'OMOP Standardized Vocabularies', 'OMOP generated', version, 44819096]),
    tab(['SNOMED', 'SNOMED', 'x', 'SNOMED 2025', 44819097]),
  ]);
  return dir;
}

/** Whether a process is running: neither gone nor a zombie waiting to be reaped (Linux /proc). */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The minimal directory plus 1.5M relationship rows: a load that takes a few seconds, to be interrupted. */
export function writeSlowAthenaDir(): string {
  const dir = writeMinimalAthenaDir();
  const rows = [tab(RELATIONSHIP_HEADER)];
  for (let i = 0; i < 1_500_000; i++) rows.push(tab([i % 5000, i, 'Maps to', '19700101', '20991231', '']));
  writeLines(dir, 'CONCEPT_RELATIONSHIP.csv', rows);
  return dir;
}
