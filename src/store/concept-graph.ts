/**
 * What concept traversal (src/services/related) needs from a release: the valid outgoing CONCEPT_RELATIONSHIP
 * links of one concept, light (relationship id and the concept at the other end) and bounded per concept; the
 * cheap read a breadth-first walk repeats for every concept it expands.
 */

/** One valid outgoing relationship row (concept_id_2 may be missing from CONCEPT in a partial release). */
export interface GraphLink {
  relationship_id: string;
  /** concept_id_2 of the row. */
  concept_id: number;
}

export interface ConceptGraph {
  /**
   * Valid rows (invalid_reason NULL) whose concept_id_1 is `conceptId`, only with these
   * relationship ids when `relationshipIds` is given, at most `limit` rows. Ordered by
   * relationship_id, then concept_id_2. When the concept has more than `limit`
   * such rows (a hub), the rows are spread over its relationship ids: each id keeps its first
   * rows, up to an equal share of `limit` (so a hub's 10,000 `Subsumes` rows cannot crowd out its
   * one `Is a`); `truncated` then says that rows were left out.
   */
  outgoingLinks(conceptId: number, relationshipIds: readonly string[] | null, limit: number): { links: GraphLink[]; truncated: boolean };
}
