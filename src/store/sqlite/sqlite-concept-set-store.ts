/**
 * ConceptSetStore over the release's SQLite file: descendants are read along the CONCEPT_ANCESTOR primary key
 * (ancestor, descendant) in id order, one bounded page per call, each row checked against CONCEPT by primary key;
 * 'Maps to' sources come from the covering index relationship_by_concept_2.
 */
import type Database from 'better-sqlite3';
import type { ConceptFacetRows, ConceptSetStore, IdPage, MapsToRows } from '../concept-set-store.js';

const IDS_PER_STATEMENT = 500;

function hiddenCondition(hidden: readonly string[]): string {
  return hidden.length ? ` AND c.vocabulary_id NOT IN (${hidden.map(() => '?').join(', ')})` : '';
}

export class SqliteConceptSetStore implements ConceptSetStore {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  private statement(key: string, sql: () => string): Database.Statement {
    let st = this.statements.get(key);
    if (!st) {
      st = this.db.prepare(sql());
      this.statements.set(key, st);
    }
    return st;
  }

  validDescendantIds(ancestorId: number, afterId: number, limit: number, hiddenVocabularyIds: readonly string[]): IdPage {
    const st = this.statement(`desc:${hiddenVocabularyIds.join('\u0000')}`, () =>
      `SELECT a.descendant_concept_id FROM concept_ancestor a NOT INDEXED
         JOIN concept c ON c.concept_id = a.descendant_concept_id
        WHERE a.ancestor_concept_id = ? AND a.descendant_concept_id > ? AND a.descendant_concept_id <> a.ancestor_concept_id
          AND c.invalid_reason IS NULL${hiddenCondition(hiddenVocabularyIds)}
        ORDER BY a.descendant_concept_id LIMIT ?`,
    );
    const rows = st.pluck().all(ancestorId, afterId, ...hiddenVocabularyIds, limit) as number[];
    return { ids: Int32Array.from(rows), next: rows.length === limit ? rows[rows.length - 1] : undefined };
  }

  mapsToInto(targetIds: ArrayLike<number>, hiddenVocabularyIds: readonly string[]): MapsToRows {
    const sources: number[] = [];
    const targets: number[] = [];
    for (let start = 0; start < targetIds.length; start += IDS_PER_STATEMENT) {
      const chunk = Array.from({ length: Math.min(IDS_PER_STATEMENT, targetIds.length - start) }, (_, i) => targetIds[start + i]!);
      const st = this.statement(`maps:${chunk.length}:${hiddenVocabularyIds.join('\u0000')}`, () =>
        `SELECT r.concept_id_1, r.concept_id_2 FROM concept_relationship r INDEXED BY relationship_by_concept_2
           JOIN concept c ON c.concept_id = r.concept_id_1
          WHERE r.concept_id_2 IN (${chunk.map(() => '?').join(', ')}) AND r.relationship_id = 'Maps to'
            AND r.invalid_reason IS NULL${hiddenCondition(hiddenVocabularyIds)}`,
      );
      for (const row of st.raw(true).iterate(...chunk, ...hiddenVocabularyIds) as Iterable<[number, number]>) {
        sources.push(row[0]);
        targets.push(row[1]);
      }
    }
    return { sources: Int32Array.from(sources), targets: Int32Array.from(targets) };
  }

  facets(conceptIds: ArrayLike<number>): ConceptFacetRows {
    const out: ConceptFacetRows = { ids: new Int32Array(conceptIds.length), vocabularyIds: [], domainIds: [], standardConcepts: [] };
    let n = 0;
    for (let start = 0; start < conceptIds.length; start += IDS_PER_STATEMENT) {
      const chunk = Array.from({ length: Math.min(IDS_PER_STATEMENT, conceptIds.length - start) }, (_, i) => conceptIds[start + i]!);
      const st = this.statement(`facets:${chunk.length}`, () =>
        `SELECT concept_id, vocabulary_id, domain_id, standard_concept FROM concept WHERE concept_id IN (${chunk.map(() => '?').join(', ')})`,
      );
      for (const row of st.raw(true).iterate(...chunk) as Iterable<[number, string, string, 'S' | 'C' | null]>) {
        out.ids[n++] = row[0];
        out.vocabularyIds.push(row[1]);
        out.domainIds.push(row[2]);
        out.standardConcepts.push(row[3]);
      }
    }
    return { ...out, ids: out.ids.slice(0, n) };
  }
}
