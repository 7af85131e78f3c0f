/**
 * HierarchyStore over CONCEPT_ANCESTOR, fast at full size through two structures built at load
 * (src/importer/hierarchy-index.ts): the covering index `ancestor_by_level` in answer order, and
 * `hierarchy_descendant_facet`, the descendant counts of large ancestors (the reads in docs/internals.md).
 */
import type Database from 'better-sqlite3';
import type { LevelTally, DirectLink, HierarchyFilter, HierarchyRow, HierarchyStore } from '../hierarchy-store.js';
import { CONCEPT_COLUMNS, toConceptRecord, type StoredConceptRow } from './rows/concept-rows.js';

/** Ancestors with at least this many CONCEPT_ANCESTOR rows get their facets counted at load. */
export const LARGE_ANCESTOR_ROWS = 1000;

/** Load-time layout (created by src/importer/hierarchy-index.ts). */
export const HIERARCHY_INDEX_DDL = `
CREATE INDEX ancestor_by_level ON concept_ancestor
  (ancestor_concept_id, min_levels_of_separation, descendant_concept_id, max_levels_of_separation);
CREATE TABLE hierarchy_descendant_facet (
  ancestor_concept_id      INTEGER NOT NULL,
  min_levels_of_separation INTEGER NOT NULL,
  vocabulary_id            TEXT,    -- NULL: descendant missing from CONCEPT (never matches)
  domain_id                TEXT,
  standard_concept         TEXT,
  is_valid                 INTEGER NOT NULL,
  descendant_count         INTEGER NOT NULL
);
`;
export const HIERARCHY_FACET_INDEX_DDL =
  'CREATE INDEX hierarchy_descendant_facet_by_ancestor ON hierarchy_descendant_facet (ancestor_concept_id, min_levels_of_separation)';

/** One facet of an ancestor's descendants: the rows at one level sharing these attributes. */
interface DescendantFacet {
  level: number;
  vocabulary_id: string | null;
  domain_id: string | null;
  standard_concept: 'S' | 'C' | null;
  is_valid: number;
  n: number;
}

/** The facet query over an ancestor's own rows (self row excluded; missing concepts kept, vocabulary NULL). */
const FACETS_OF_ANCESTOR_SQL = `
  SELECT a.min_levels_of_separation AS level, c.vocabulary_id, c.domain_id, c.standard_concept,
         (c.concept_id IS NOT NULL AND c.invalid_reason IS NULL) AS is_valid, count(*) AS n
    FROM concept_ancestor a INDEXED BY ancestor_by_level
    LEFT JOIN concept c ON c.concept_id = a.descendant_concept_id
   WHERE a.ancestor_concept_id = ? AND a.descendant_concept_id <> a.ancestor_concept_id
   GROUP BY 1, 2, 3, 4, 5`;

const QUALIFIED_COLUMNS = CONCEPT_COLUMNS.split(', ')
  .map((c) => `c.${c}`)
  .join(', ');

const IDS_PER_STATEMENT = 500;
const STATEMENT_CACHE_SIZE = 128;
/** Below every concept_id: the start of a level in (level, concept_id) order. */
const LEVEL_START = Number.MIN_SAFE_INTEGER;

type LinkedRow = StoredConceptRow & { min_l: number; max_l: number };

/** The SQL conditions on the joined concept `c` for a filter, with their parameters. */
function conceptConditions(filter: HierarchyFilter): { sql: string; params: string[] } {
  const parts: string[] = [];
  const params: string[] = [];
  const list = (column: string, values: readonly string[], negate = false) => {
    parts.push(`${column} ${negate ? 'NOT IN' : 'IN'} (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  if (!filter.includeInvalid) parts.push('c.invalid_reason IS NULL');
  if (filter.standardOnly) parts.push("c.standard_concept = 'S'");
  if (filter.vocabularyIds?.length) list('c.vocabulary_id', filter.vocabularyIds);
  if (filter.domainIds?.length) list('c.domain_id', filter.domainIds);
  if (filter.hiddenVocabularyIds.length) list('c.vocabulary_id', filter.hiddenVocabularyIds, true);
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

/** The same conditions as conceptConditions, on a facet (one predicate per condition, in the same order). */
function facetMatches(facet: DescendantFacet, filter: HierarchyFilter): boolean {
  if (facet.vocabulary_id === null) return false; // the JOIN of the row queries drops missing concepts
  if (!filter.includeInvalid && !facet.is_valid) return false;
  if (filter.standardOnly && facet.standard_concept !== 'S') return false;
  if (filter.vocabularyIds?.length && !filter.vocabularyIds.includes(facet.vocabulary_id)) return false;
  if (filter.domainIds?.length && !filter.domainIds.includes(facet.domain_id ?? '')) return false;
  if (filter.hiddenVocabularyIds.includes(facet.vocabulary_id)) return false;
  return true;
}

export class SqliteHierarchyStore implements HierarchyStore {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly storedFacetsStmt: Database.Statement<[number], DescendantFacet>;
  private readonly countedFacetsStmt: Database.Statement<[number], DescendantFacet>;
  private readonly levelPositionStmt: Database.Statement<[number, number, number], { id: number }>;
  private readonly ancestorRowStmt: Database.Statement<[number, number], { found: number }>;

  constructor(private readonly db: Database.Database) {
    this.storedFacetsStmt = db.prepare(
      `SELECT min_levels_of_separation AS level, vocabulary_id, domain_id, standard_concept, is_valid, descendant_count AS n
         FROM hierarchy_descendant_facet WHERE ancestor_concept_id = ?`,
    );
    this.countedFacetsStmt = db.prepare(FACETS_OF_ANCESTOR_SQL);
    this.levelPositionStmt = db.prepare(
      `SELECT descendant_concept_id AS id FROM concept_ancestor INDEXED BY ancestor_by_level
        WHERE ancestor_concept_id = ? AND min_levels_of_separation = ? AND descendant_concept_id <> ancestor_concept_id
        ORDER BY descendant_concept_id LIMIT 1 OFFSET ?`,
    );
    this.ancestorRowStmt = db.prepare(
      'SELECT 1 AS found FROM concept_ancestor WHERE ancestor_concept_id = ? AND descendant_concept_id = ? AND ancestor_concept_id <> descendant_concept_id',
    );
  }

  isAncestor(ancestorId: number, descendantId: number): boolean {
    return this.ancestorRowStmt.get(ancestorId, descendantId) !== undefined;
  }

  ancestors(conceptId: number, filter: HierarchyFilter): HierarchyRow[] {
    const where = conceptConditions(filter);
    const sql = `SELECT a.min_levels_of_separation AS min_l, a.max_levels_of_separation AS max_l, ${QUALIFIED_COLUMNS}
        FROM concept_ancestor a INDEXED BY ancestor_by_descendant JOIN concept c ON c.concept_id = a.ancestor_concept_id
       WHERE a.descendant_concept_id = ? AND a.ancestor_concept_id <> a.descendant_concept_id
         AND a.min_levels_of_separation <= ?${where.sql}
       ORDER BY a.min_levels_of_separation, a.ancestor_concept_id`;
    return (this.statement(sql).all(conceptId, filter.maxLevels, ...where.params) as LinkedRow[]).map(toHierarchyRow);
  }

  descendantTallies(conceptId: number, filter: HierarchyFilter): LevelTally[] {
    const tallies = new Map<string, LevelTally>();
    for (const facet of this.facets(conceptId)) {
      if (facet.level > filter.maxLevels || !facetMatches(facet, filter)) continue;
      const key = `${facet.level}\u0000${facet.vocabulary_id}\u0000${facet.standard_concept}`;
      const tally = tallies.get(key);
      if (tally) tally.count += facet.n;
      else tallies.set(key, { level: facet.level, vocabulary_id: facet.vocabulary_id!, standard_concept: facet.standard_concept, count: facet.n });
    }
    return [...tallies.values()].sort((a, b) => a.level - b.level || a.vocabulary_id.localeCompare(b.vocabulary_id));
  }

  descendants(conceptId: number, filter: HierarchyFilter, offset: number, limit: number): HierarchyRow[] {
    // Rows and matching rows per level, from the facets.
    const levels = new Map<number, { rows: number; matching: number }>();
    for (const facet of this.facets(conceptId)) {
      if (facet.level > filter.maxLevels) continue;
      const level = levels.get(facet.level) ?? { rows: 0, matching: 0 };
      level.rows += facet.n;
      if (facetMatches(facet, filter)) level.matching += facet.n;
      levels.set(facet.level, level);
    }
    const where = conceptConditions(filter);
    const levelRows = this.statement(
      `SELECT a.min_levels_of_separation AS min_l, a.max_levels_of_separation AS max_l, ${QUALIFIED_COLUMNS}
         FROM concept_ancestor a INDEXED BY ancestor_by_level JOIN concept c ON c.concept_id = a.descendant_concept_id
        WHERE a.ancestor_concept_id = ? AND a.min_levels_of_separation = ? AND a.descendant_concept_id >= ?
          AND a.descendant_concept_id <> a.ancestor_concept_id${where.sql}
        ORDER BY a.descendant_concept_id LIMIT ? OFFSET ?`,
    );
    // Each level with matching rows, in order, is one range read; levels without any are never read.
    const page: HierarchyRow[] = [];
    let skip = offset;
    for (const [level, counts] of [...levels.entries()].sort((a, b) => a[0] - b[0])) {
      if (page.length >= limit) break;
      if (counts.matching <= skip) {
        skip -= counts.matching;
        continue;
      }
      let startId = LEVEL_START;
      if (counts.matching === counts.rows && skip > 0) {
        // Every row of the level matches: find the page's first row by stepping the covering index alone.
        startId = this.levelPositionStmt.get(conceptId, level, skip)!.id;
        skip = 0;
      }
      const rows = levelRows.all(conceptId, level, startId, ...where.params, limit - page.length, skip) as LinkedRow[];
      for (const row of rows) page.push(toHierarchyRow(row));
      skip = 0;
    }
    return page;
  }

  directLinks(conceptIds: readonly number[]): DirectLink[] {
    const wanted = new Set(conceptIds);
    const unique = [...wanted];
    const out: DirectLink[] = [];
    for (let i = 0; i < unique.length; i += IDS_PER_STATEMENT) {
      const chunk = unique.slice(i, i + IDS_PER_STATEMENT);
      const sql = `SELECT ancestor_concept_id, descendant_concept_id FROM concept_ancestor INDEXED BY ancestor_by_descendant
          WHERE descendant_concept_id IN (${chunk.map(() => '?').join(', ')}) AND min_levels_of_separation = 1`;
      for (const link of this.statement(sql).all(...chunk) as DirectLink[]) {
        if (wanted.has(link.ancestor_concept_id) && link.ancestor_concept_id !== link.descendant_concept_id) out.push(link);
      }
    }
    return out;
  }

  /** The facets of an ancestor's descendants: stored for large ancestors, counted for the others. */
  private facets(conceptId: number): DescendantFacet[] {
    const stored = this.storedFacetsStmt.all(conceptId);
    return stored.length ? stored : this.countedFacetsStmt.all(conceptId);
  }

  /** Prepared statements by SQL text (filters give a few shapes; the cache is bounded all the same). */
  private statement(sql: string): Database.Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.clear();
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return stmt;
  }
}

function toHierarchyRow(row: LinkedRow): HierarchyRow {
  return { concept: toConceptRecord(row), min_levels_of_separation: row.min_l, max_levels_of_separation: row.max_l };
}
