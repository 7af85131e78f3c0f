/**
 * GET /v1/relationships/types (E8): the RELATIONSHIP table of the release, ordered by
 * relationship_id, with `is_hierarchical` and `defines_ancestry` as the strings "0"/"1" (spec E8
 * wins over the clients' booleans, reading note 10).
 */
import type { RelationshipTypeRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { ReleaseView } from '../release-view.js';

/** E8: page_size default and ceiling. */
export const RELATIONSHIP_TYPES_DEFAULT_PAGE_SIZE = 100;
export const RELATIONSHIP_TYPES_MAX_PAGE_SIZE = 200;

/** A relationship type record with its flags as the strings "0"/"1" (spec E8). */
export interface RelationshipType extends RelationshipTypeRecord {
  is_hierarchical: '0' | '1';
  defines_ancestry: '0' | '1';
}

/** A "0"/"1" flag as stored; anything else Athena might hold (e.g. an empty cell) reads as "0". */
function flag(value: string): '0' | '1' {
  return value === '1' ? '1' : '0';
}

const lists = new WeakMap<ReleaseStore, { list: RelationshipType[]; byId: Map<string, RelationshipType> }>();

function typesOf(store: ReleaseStore) {
  let types = lists.get(store);
  if (!types) {
    const list = store.metadata.relationshipTypes().map(
      (t): RelationshipType => ({
        relationship_id: t.relationship_id,
        relationship_name: t.relationship_name,
        is_hierarchical: flag(t.is_hierarchical),
        defines_ancestry: flag(t.defines_ancestry),
        reverse_relationship_id: t.reverse_relationship_id,
        relationship_concept_id: t.relationship_concept_id,
      }),
    );
    types = { list, byId: new Map(list.map((t) => [t.relationship_id, t])) };
    lists.set(store, types);
  }
  return types;
}

/** The release's relationship types by relationship_id (built once per opened release). */
export function relationshipTypeIndex(store: ReleaseStore): ReadonlyMap<string, RelationshipType> {
  return typesOf(store).byId;
}

export function listRelationshipTypes(view: ReleaseView, page: { offset: number; limit: number }): { relationshipTypes: RelationshipType[]; total: number } {
  const { list } = typesOf(view.store);
  return { relationshipTypes: list.slice(page.offset, page.offset + page.limit), total: list.length };
}
