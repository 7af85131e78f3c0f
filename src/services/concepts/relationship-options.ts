/**
 * GET /v1/concepts/{concept_id}/relationships/options (E9): the relationship ids a concept takes part in through
 * valid rows, outbound and inbound, as {id, name} ordered by id, with per-direction counts on request.
 */
import type { ReleaseView } from '../release-view.js';
import type { RelationshipCount, RelationshipDirection } from '../../store/relationship-store.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { requireVisibleConcept } from './concept-lookup.js';
import { relationshipTypeIndex } from './relationship-types.js';

export interface RelationshipOption {
  id: string;
  name: string;
}

export interface CountedRelationshipOption {
  relationship_id: string;
  relationship_name: string;
  reverse_relationship_id: string | null;
  relationship_concept_id: number | null;
  is_hierarchical: '0' | '1' | null;
  defines_ancestry: '0' | '1' | null;
  /** Valid rows of the concept with this relationship in this direction. */
  count: number;
}

export interface RelationshipOptions {
  concept_id: number;
  available_relationships: RelationshipOption[];
  relationship_options?: { outbound: CountedRelationshipOption[]; inbound: CountedRelationshipOption[] };
}

export function getRelationshipOptions(
  view: ReleaseView,
  conceptId: number,
  options: { includeCounts?: boolean } = {},
): RelationshipOptions {
  requireVisibleConcept(view, conceptId);
  const countsOf = (direction: RelationshipDirection): RelationshipCount[] =>
    view.store.relationships.countByRelationship({
      conceptId,
      direction,
      includeInvalid: false,
      otherEnd: { hiddenVocabularyIds: view.hiddenVocabularyIds() },
    });
  const outbound = countsOf('outbound');
  const inbound = countsOf('inbound');
  const types = relationshipTypeIndex(view.store);
  const nameOf = (id: string) => types.get(id)?.relationship_name ?? id;
  const ids = [...new Set([...outbound, ...inbound].map((c) => c.relationship_id))].sort();
  const result: RelationshipOptions = {
    concept_id: conceptId,
    available_relationships: ids.map((id) => ({ id, name: nameOf(id) })),
  };
  if (options.includeCounts) {
    result.relationship_options = { outbound: counted(view.store, outbound), inbound: counted(view.store, inbound) };
  }
  return result;
}

function counted(store: ReleaseStore, counts: RelationshipCount[]): CountedRelationshipOption[] {
  const types = relationshipTypeIndex(store);
  return counts.map(({ relationship_id, count }) => {
    const type = types.get(relationship_id);
    return {
      relationship_id,
      relationship_name: type?.relationship_name ?? relationship_id,
      reverse_relationship_id: type?.reverse_relationship_id ?? null,
      relationship_concept_id: type?.relationship_concept_id ?? null,
      is_hierarchical: type?.is_hierarchical ?? null,
      defines_ancestry: type?.defines_ancestry ?? null,
      count,
    };
  });
}

/**
 * The `relationship_options.outbound` of getRelationshipOptions alone (the browser's relationship groups): one
 * grouped count of the concept's valid outbound rows, without the inbound one.
 */
export function outboundRelationshipCounts(view: ReleaseView, conceptId: number): CountedRelationshipOption[] {
  requireVisibleConcept(view, conceptId);
  const counts = view.store.relationships.countByRelationship({
    conceptId,
    direction: 'outbound',
    includeInvalid: false,
    otherEnd: { hiddenVocabularyIds: view.hiddenVocabularyIds() },
  });
  return counted(view.store, counts);
}
