/**
 * ConceptGraph over the concept_relationship primary key: every read is a range of one concept's rows, at most the
 * limit plus one (at a hub, per relationship id found by skip scan), read from the key alone without joining the
 * concept at the other end (measurements in docs/internals.md).
 */
import type Database from 'better-sqlite3';
import type { ConceptGraph, GraphLink } from '../concept-graph.js';

const LINK_COLUMNS = 'relationship_id, concept_id_2 AS concept_id';

export class SqliteConceptGraph implements ConceptGraph {
  private readonly allLinks: Database.Statement<[number, number], GraphLink>;
  private readonly linksWithId: Database.Statement<[number, string, number], GraphLink>;
  private readonly nextRelationshipId: Database.Statement<[number, string], string>;
  private readonly countWithId: Database.Statement<[number, string, number], number>;

  constructor(db: Database.Database) {
    this.allLinks = db.prepare(
      `SELECT ${LINK_COLUMNS} FROM concept_relationship
        WHERE concept_id_1 = ? AND invalid_reason IS NULL ORDER BY relationship_id, concept_id_2 LIMIT ?`,
    );
    this.linksWithId = db.prepare(
      `SELECT ${LINK_COLUMNS} FROM concept_relationship
        WHERE concept_id_1 = ? AND relationship_id = ? AND invalid_reason IS NULL ORDER BY concept_id_2 LIMIT ?`,
    );
    this.nextRelationshipId = db
      .prepare(
        `SELECT relationship_id FROM concept_relationship WHERE concept_id_1 = ? AND relationship_id > ?
          ORDER BY relationship_id LIMIT 1`,
      )
      .pluck() as Database.Statement<[number, string], string>;
    this.countWithId = db
      .prepare(
        `SELECT count(*) FROM (SELECT 1 FROM concept_relationship
          WHERE concept_id_1 = ? AND relationship_id = ? AND invalid_reason IS NULL LIMIT ?)`,
      )
      .pluck() as Database.Statement<[number, string, number], number>;
  }

  outgoingLinks(conceptId: number, relationshipIds: readonly string[] | null, limit: number): { links: GraphLink[]; truncated: boolean } {
    const ids = relationshipIds ? [...new Set(relationshipIds)].sort() : null;
    const first = ids ? this.linksOfIds(conceptId, ids, limit + 1) : this.allLinks.all(conceptId, limit + 1);
    if (first.length <= limit) return { links: first, truncated: false };
    const hubIds = ids ?? this.relationshipIdsOf(conceptId);
    const quotas = spreadEvenly(
      hubIds.map((id) => this.countWithId.get(conceptId, id, limit) ?? 0),
      limit,
    );
    const links: GraphLink[] = [];
    hubIds.forEach((id, i) => {
      if (quotas[i]! > 0) links.push(...this.linksWithId.all(conceptId, id, quotas[i]!));
    });
    return { links, truncated: true };
  }

  /** Rows of each id in turn (ids sorted), at most `limit` in all. */
  private linksOfIds(conceptId: number, ids: readonly string[], limit: number): GraphLink[] {
    const out: GraphLink[] = [];
    for (const id of ids) {
      if (out.length >= limit) break;
      out.push(...this.linksWithId.all(conceptId, id, limit - out.length));
    }
    return out;
  }

  /** The relationship ids of a concept's rows, sorted: one index descent per id (skip scan). */
  private relationshipIdsOf(conceptId: number): string[] {
    const ids: string[] = [];
    for (let id = this.nextRelationshipId.get(conceptId, ''); id !== undefined; id = this.nextRelationshipId.get(conceptId, id)) ids.push(id);
    return ids;
  }
}

/**
 * Shares of `limit` for groups of `sizes` rows (water filling): a group smaller than an equal share
 * keeps all its rows and leaves the rest to the others; what does not divide evenly goes one each to
 * the first groups still short.
 */
export function spreadEvenly(sizes: readonly number[], limit: number): number[] {
  const quotas = sizes.map(() => 0);
  let open = sizes.map((_, i) => i);
  let remaining = limit;
  for (;;) {
    if (!open.length || remaining <= 0) return quotas;
    const share = Math.floor(remaining / open.length);
    const small = open.filter((i) => sizes[i]! <= share);
    if (!small.length) break;
    for (const i of small) {
      quotas[i] = sizes[i]!;
      remaining -= sizes[i]!;
    }
    open = open.filter((i) => sizes[i]! > share);
  }
  const share = Math.floor(remaining / open.length);
  let extra = remaining - share * open.length;
  for (const i of open) {
    quotas[i] = share + (extra > 0 ? 1 : 0);
    if (extra > 0) extra--;
  }
  return quotas;
}
