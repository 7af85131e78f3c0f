/**
 * Reads a fixture's CONCEPT file (TAB or comma Athena dialect) directly, so the metadata tests
 * compute their expected counts from the source rows, independently of the loader and the store.
 */
import { parse } from 'csv-parse/sync';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { sharedVocabPath } from '../helpers/shared-vocab.js';

export const DEMO_VOCABULARY_DIR = fileURLToPath(new URL('../../examples/demo-vocabulary/', import.meta.url));
/** The shared subset eunomia-gibleed-2019 (comma CSV, ISO dates, real Athena rows). */
export const EUNOMIA_GIBLEED_DIR = sharedVocabPath('eunomia-gibleed-2019');

export interface SourceConcept {
  concept_id: number;
  concept_name: string;
  domain_id: string;
  vocabulary_id: string;
  concept_class_id: string;
  standard_concept: string | null;
  concept_code: string;
  /** YYYY-MM-DD */
  valid_start_date: string;
  valid_end_date: string;
  invalid_reason: string | null;
}

export const isoDate = (value: string) => (/^\d{8}$/.test(value) ? `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}` : value);

/**
 * The CONCEPT rows, one per concept_id: a repeated id (eunomia-gibleed-2019 has 40213200 twice) is
 * one concept in a release, the first row (documented loader rule: the first row of a repeated id wins).
 */
export function readSourceConcepts(dir: string): SourceConcept[] {
  const seen = new Set<string>();
  const rows = readSourceTable(dir, 'CONCEPT.csv').filter((r) => !seen.has(r.concept_id!) && seen.add(r.concept_id!));
  return rows.map((r) => ({
    concept_id: Number(r.concept_id),
    concept_name: r.concept_name!,
    domain_id: r.domain_id!,
    vocabulary_id: r.vocabulary_id!,
    concept_class_id: r.concept_class_id!,
    standard_concept: r.standard_concept || null,
    concept_code: r.concept_code!,
    valid_start_date: isoDate(r.valid_start_date!),
    valid_end_date: isoDate(r.valid_end_date!),
    invalid_reason: r.invalid_reason || null,
  }));
}

/** Reads a table file (e.g. `DOMAIN.csv`, or its `.gz` when only that exists) as records of strings. */
export function readSourceTable(dir: string, file: string): Array<Record<string, string>> {
  const plain = join(dir, file);
  const text = existsSync(plain) ? readFileSync(plain, 'utf8') : gunzipSync(readFileSync(`${plain}.gz`)).toString('utf8');
  const delimiter = text.slice(0, text.indexOf('\n')).includes('\t') ? '\t' : ',';
  return parse(text, { columns: true, delimiter, quote: delimiter === '\t' ? false : '"', skip_empty_lines: true, relax_column_count: true }) as Array<
    Record<string, string>
  >;
}

/** Vocabularies a key without CPT4 validation may see (spec Authentication 5). */
export const visibleWithoutCpt4 = (c: { vocabulary_id: string }) => !['CPT4', 'GPI', 'MedDRA'].includes(c.vocabulary_id);
/** Vocabularies a key with a current CPT4 validation may see. */
export const visibleWithCpt4 = (c: { vocabulary_id: string }) => !['GPI', 'MedDRA'].includes(c.vocabulary_id);

/** Counts items per key. */
export function countBy<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}
