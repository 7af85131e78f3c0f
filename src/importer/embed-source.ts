/**
 * What the embed pipeline reads from a release store (read-only SQLite), streamed in store order: the texts to
 * embed (names and synonyms of valid standard and classification concepts) and the name pairs that mean the same.
 */
import type Database from 'better-sqlite3';
import { exactKey } from '../search-model/text-normalization.js';

export interface EmbedEntry {
  conceptId: number;
  text: string;
  isSynonym: boolean;
}

/** Names and synonyms of valid S/C concepts, grouped by concept (ascending id), name first. */
export function* entriesToEmbed(store: Database.Database): Generator<EmbedEntry> {
  const rows = store
    .prepare(
      `SELECT c.concept_id AS concept_id, c.concept_name AS name, s.concept_synonym_name AS synonym
         FROM concept c LEFT JOIN concept_synonym s ON s.concept_id = c.concept_id
        WHERE c.standard_concept IN ('S', 'C') AND c.invalid_reason IS NULL
        ORDER BY c.concept_id`,
    )
    .iterate() as IterableIterator<{ concept_id: number; name: string; synonym: string | null }>;
  let currentConcept = -1;
  let seen = new Set<string>();
  for (const row of rows) {
    if (row.concept_id !== currentConcept) {
      currentConcept = row.concept_id;
      seen = new Set();
      const nameKey = exactKey(row.name);
      if (nameKey !== '') {
        seen.add(nameKey);
        yield { conceptId: row.concept_id, text: row.name, isSynonym: false };
      }
    }
    if (row.synonym === null) continue;
    const key = exactKey(row.synonym);
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    yield { conceptId: row.concept_id, text: row.synonym, isSynonym: true };
  }
}

/** Two names of the same meaning. */
export type NamePair = readonly [string, string];

/** Concept name × each synonym (all concepts), then both ends of valid `Maps to` rows; pairs whose names differ only. */
export function* namePairs(store: Database.Database): Generator<NamePair> {
  const synonymPairs = store
    .prepare(
      `SELECT c.concept_name AS a, s.concept_synonym_name AS b
         FROM concept_synonym s JOIN concept c ON c.concept_id = s.concept_id`,
    )
    .iterate() as IterableIterator<{ a: string; b: string }>;
  for (const { a, b } of synonymPairs) if (exactKey(a) !== exactKey(b)) yield [a, b];
  const mappingPairs = store
    .prepare(
      `SELECT a.concept_name AS a, b.concept_name AS b
         FROM concept_relationship r
         JOIN concept a ON a.concept_id = r.concept_id_1
         JOIN concept b ON b.concept_id = r.concept_id_2
        WHERE r.relationship_id = 'Maps to' AND r.invalid_reason IS NULL AND r.concept_id_1 <> r.concept_id_2`,
    )
    .iterate() as IterableIterator<{ a: string; b: string }>;
  for (const { a, b } of mappingPairs) if (exactKey(a) !== exactKey(b)) yield [a, b];
}
