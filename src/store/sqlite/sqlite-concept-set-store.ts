/**
 * ConceptSetStore over the release's SQLite file: descendant ids from the covering index ancestor_by_level a page per
 * call without touching CONCEPT, 'Maps to' sources from the covering index relationship_by_concept_2.
 */
import type Database from 'better-sqlite3';
import type { ConceptFacetRows, ConceptSetStore, DescendantCursor, DescendantPage, IdPage, MapsToRows } from '../concept-set-store.js';

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

  descendantIds(ancestorId: number, after: DescendantCursor | undefined, limit: number): DescendantPage {
    // Ids only, from the covering index: at scale 0.1 a 33k-row hierarchy reads in 7 ms, against 26 ms along the
    // primary key joined to CONCEPT for validity (50 ms with the vocabulary test too); validity and licence are checked
    // in memory by the caller. One plucked range per level: a row-value cursor over (level, id) with raw rows measured
    // 4× slower (0.84 against 0.2 µs a row over 700k rows).
    const deepest = this.statement('desc-max', () => 'SELECT max(min_levels_of_separation) FROM concept_ancestor WHERE ancestor_concept_id = ?')
      .pluck()
      .get(ancestorId) as number | null;
    const ids: number[] = [];
    if (deepest === null) return { ids: new Int32Array(0), next: undefined };
    const st = this.statement('desc-level', () =>
      `SELECT descendant_concept_id FROM concept_ancestor INDEXED BY ancestor_by_level
        WHERE ancestor_concept_id = ? AND min_levels_of_separation = ? AND descendant_concept_id > ? AND descendant_concept_id <> ancestor_concept_id
        ORDER BY descendant_concept_id LIMIT ?`,
    ).pluck();
    let level = after?.level ?? 0;
    let afterId = after?.id ?? -1;
    for (; level <= deepest; level++, afterId = -1) {
      const rows = st.all(ancestorId, level, afterId, limit - ids.length) as number[];
      for (const id of rows) ids.push(id);
      if (ids.length === limit) return { ids: Int32Array.from(ids), next: { level, id: ids[ids.length - 1]! } };
    }
    return { ids: Int32Array.from(ids), next: undefined };
  }

  validConceptIds(afterId: number, limit: number): IdPage {
    const st = this.statement('valid', () => 'SELECT concept_id FROM concept WHERE concept_id > ? AND invalid_reason IS NULL ORDER BY concept_id LIMIT ?');
    const ids = Int32Array.from(st.pluck().all(afterId, limit) as number[]);
    return { ids, next: ids.length === limit ? ids[ids.length - 1] : undefined };
  }

  vocabularyConceptIds(vocabularyIds: readonly string[]): Int32Array {
    const st = this.statement('vocab', () => 'SELECT concept_id FROM concept INDEXED BY concept_by_vocabulary_code WHERE vocabulary_id = ?');
    const ids: number[] = [];
    for (const v of vocabularyIds) for (const id of st.pluck().iterate(v) as Iterable<number>) ids.push(id);
    return Int32Array.from(ids).sort();
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
