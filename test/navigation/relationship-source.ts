/**
 * Reads a vocabulary's CONCEPT_RELATIONSHIP (plain or .gz, TAB or comma) and RELATIONSHIP files
 * directly, so the relationship tests compute what the server must answer from the source rows,
 * independently of the loader and the store.
 */
import { parse } from 'csv-parse/sync';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readSourceConcepts, type SourceConcept } from '../metadata/concept-file.js';

export { DEMO_VOCABULARY_DIR, EUNOMIA_GIBLEED_DIR } from '../metadata/concept-file.js';
export type { SourceConcept };

export interface SourceRelationship {
  concept_id_1: number;
  relationship_id: string;
  concept_id_2: number;
  invalid_reason: string | null;
}

function readTable(dir: string, file: string): Array<Record<string, string>> {
  const path = join(dir, file);
  const text = existsSync(path) ? readFileSync(path, 'utf8') : gunzipSync(readFileSync(`${path}.gz`)).toString('utf8');
  const delimiter = text.slice(0, text.indexOf('\n')).includes('\t') ? '\t' : ',';
  return parse(text, { columns: true, delimiter, quote: delimiter === '\t' ? false : '"', skip_empty_lines: true }) as Array<Record<string, string>>;
}

export interface SourceVocabulary {
  concepts: Map<number, SourceConcept>;
  /** One row per (concept_id_1, relationship_id, concept_id_2), the first one read (the loader's rule). */
  relationships: SourceRelationship[];
  types: Map<string, Record<string, string>>;
  vocabularyNames: Map<string, string>;
}

export function readSourceVocabulary(dir: string): SourceVocabulary {
  const seen = new Set<string>();
  const relationships: SourceRelationship[] = [];
  for (const r of readTable(dir, 'CONCEPT_RELATIONSHIP.csv')) {
    const key = `${r.concept_id_1}|${r.relationship_id}|${r.concept_id_2}`;
    if (seen.has(key)) continue;
    seen.add(key);
    relationships.push({
      concept_id_1: Number(r.concept_id_1),
      relationship_id: r.relationship_id!,
      concept_id_2: Number(r.concept_id_2),
      invalid_reason: r.invalid_reason || null,
    });
  }
  return {
    concepts: new Map(readSourceConcepts(dir).map((c) => [c.concept_id, c])),
    relationships,
    types: new Map(readTable(dir, 'RELATIONSHIP.csv').map((t) => [t.relationship_id!, t])),
    vocabularyNames: new Map(readTable(dir, 'VOCABULARY.csv').map((v) => [v.vocabulary_id!, v.vocabulary_name!])),
  };
}

/** Byte-wise string order (how the store orders relationship ids). */
export const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The rows GET /v1/concepts/{id}/relationships must list, in its documented order: outbound rows
 * (concept is concept_id_1) by relationship_id then concept_id_2; with includeReverse then inbound
 * rows by relationship_id then concept_id_1. Rows whose other end is not a concept are not listed.
 */
export function expectedRelationships(
  source: SourceVocabulary,
  conceptId: number,
  options: {
    includeReverse?: boolean;
    includeInvalid?: boolean;
    relationshipIds?: string[];
    keepOther?: (other: SourceConcept) => boolean;
  } = {},
): SourceRelationship[] {
  const keep = (r: SourceRelationship, other: number) =>
    source.concepts.has(r.concept_id_1) &&
    source.concepts.has(r.concept_id_2) &&
    (options.includeInvalid || r.invalid_reason === null) &&
    (!options.relationshipIds || options.relationshipIds.includes(r.relationship_id)) &&
    (!options.keepOther || options.keepOther(source.concepts.get(other)!));
  const outbound = source.relationships
    .filter((r) => r.concept_id_1 === conceptId && keep(r, r.concept_id_2))
    .sort((a, b) => byteOrder(a.relationship_id, b.relationship_id) || a.concept_id_2 - b.concept_id_2);
  if (!options.includeReverse) return outbound;
  const inbound = source.relationships
    .filter((r) => r.concept_id_2 === conceptId && keep(r, r.concept_id_1))
    .sort((a, b) => byteOrder(a.relationship_id, b.relationship_id) || a.concept_id_1 - b.concept_id_1);
  return [...outbound, ...inbound];
}

/** The (concept_id_1, relationship_id, concept_id_2) triples of a list, for comparison. */
export const triples = (rows: ReadonlyArray<{ concept_id_1: number; relationship_id: string; concept_id_2: number }>) =>
  rows.map((r) => `${r.concept_id_1}|${r.relationship_id}|${r.concept_id_2}`);
