/**
 * Direct concept lookup (by id, by vocabulary + code) with the optional synonyms, parents/children
 * and ancestors/descendants that the OMOPHub clients ask for. Licence rules apply to the concept
 * itself (403) and silently to everything attached to it.
 */
import type { ReleaseView } from '../release-view.js';
import { notFound } from '../errors.js';
import type { ConceptRecord, SynonymRecord } from '../../store/records.js';
import type { LinkedConcept, ReleaseStore } from '../../store/release-store.js';
import { briefConcept, type ConceptBrief } from './concept-brief.js';
import type { HierarchyFilter, HierarchyRow } from '../../store/hierarchy-store.js';

export interface ConceptLookupOptions {
  include_synonyms?: boolean;
  include_relationships?: boolean;
  include_hierarchy?: boolean;
}

/** Parents/children and ancestors/descendants attached to a lookup are capped at this many each. */
export const ATTACHED_LIST_LIMIT = 100;

export interface HierarchyNode extends ConceptBrief {
  min_levels_of_separation: number;
  max_levels_of_separation: number;
}

/** Concept (full record inside relationship results): the concept with its vocabulary's name. */
export interface FullConceptRecord extends ConceptRecord {
  vocabulary_name: string | null;
}

export function fullConceptRecord(store: ReleaseStore, concept: ConceptRecord): FullConceptRecord {
  return { ...concept, vocabulary_name: store.metadata.vocabulary(concept.vocabulary_id)?.vocabulary_name ?? null };
}

export interface ConceptDetail extends FullConceptRecord {
  is_valid: boolean;
  is_standard: boolean;
  is_classification: boolean;
  synonyms?: SynonymRecord[];
  relationships?: {
    parents: Array<{ concept_id: number; concept_name: string; vocabulary_id: string; relationship_id: string }>;
    children: Array<{ concept_id: number; concept_name: string; vocabulary_id: string; relationship_id: string }>;
  };
  hierarchy?: { ancestors: HierarchyNode[]; descendants: HierarchyNode[] };
}

function toRelative(link: LinkedConcept) {
  return {
    concept_id: link.concept.concept_id,
    concept_name: link.concept.concept_name,
    vocabulary_id: link.concept.vocabulary_id,
    relationship_id: link.relationship_id,
  };
}

function toHierarchyNode(row: HierarchyRow): HierarchyNode {
  return {
    ...briefConcept(row.concept),
    min_levels_of_separation: row.min_levels_of_separation,
    max_levels_of_separation: row.max_levels_of_separation,
  };
}

/** The relationship ids behind `relationships.parents` and `relationships.children`. */
const PARENT_RELATIONSHIP = 'Is a';
const CHILD_RELATIONSHIP = 'Subsumes';

export type ConceptRelatives = NonNullable<ConceptDetail['relationships']>;

/**
 * Parents ('Is a') and children ('Subsumes') of each concept, up to ATTACHED_LIST_LIMIT each,
 * licensed ones left out; one batched read for all of them.
 */
export function relativesOf(view: ReleaseView, conceptIds: readonly number[]): Map<number, ConceptRelatives> {
  const links = view.store.relationships.linkedConceptsOf(conceptIds, [PARENT_RELATIONSHIP, CHILD_RELATIONSHIP], ATTACHED_LIST_LIMIT);
  const out = new Map<number, ConceptRelatives>();
  for (const [conceptId, linked] of links) {
    const visible = linked.filter((l) => view.canSee(l.concept.vocabulary_id));
    out.set(conceptId, {
      parents: visible.filter((l) => l.relationship_id === PARENT_RELATIONSHIP).map(toRelative),
      children: visible.filter((l) => l.relationship_id === CHILD_RELATIONSHIP).map(toRelative),
    });
  }
  return out;
}

export function describeConcept(
  view: ReleaseView,
  concept: ConceptRecord,
  options: ConceptLookupOptions,
): ConceptDetail {
  view.assertVisible(concept.vocabulary_id);
  const detail: ConceptDetail = {
    ...fullConceptRecord(view.store, concept),
    is_valid: concept.invalid_reason === null,
    is_standard: concept.standard_concept === 'S',
    is_classification: concept.standard_concept === 'C',
  };
  if (options.include_synonyms) detail.synonyms = view.store.concepts.synonyms(concept.concept_id);
  if (options.include_relationships) detail.relationships = relativesOf(view, [concept.concept_id]).get(concept.concept_id);
  if (options.include_hierarchy) {
    // Every level, invalid concepts included, the key's hidden vocabularies left out by the store.
    const filter: HierarchyFilter = {
      maxLevels: Number.MAX_SAFE_INTEGER,
      standardOnly: false,
      includeInvalid: true,
      hiddenVocabularyIds: view.hiddenVocabularyIds(),
    };
    detail.hierarchy = {
      ancestors: view.store.hierarchy.ancestors(concept.concept_id, filter).slice(0, ATTACHED_LIST_LIMIT).map(toHierarchyNode),
      descendants: view.store.hierarchy.descendants(concept.concept_id, filter, 0, ATTACHED_LIST_LIMIT).map(toHierarchyNode),
    };
  }
  return detail;
}

/** The concept with this id: 404 `not_found` when the release has none, 403 when the key may not see it. */
export function requireVisibleConcept(view: ReleaseView, conceptId: number): ConceptRecord {
  return view.requireConcept(conceptId);
}

export function getConceptById(view: ReleaseView, conceptId: number, options: ConceptLookupOptions = {}): ConceptDetail {
  return describeConcept(view, requireVisibleConcept(view, conceptId), options);
}

export function getConceptByCode(
  view: ReleaseView,
  vocabularyId: string,
  conceptCode: string,
  options: ConceptLookupOptions = {},
): ConceptDetail {
  view.assertVisible(vocabularyId);
  const concept = view.store.concepts.byCode(vocabularyId, conceptCode);
  if (!concept) {
    const known = view.store.metadata.vocabulary(vocabularyId) !== undefined;
    throw notFound(
      known
        ? `No concept with code '${conceptCode}' in vocabulary ${vocabularyId} (release ${view.store.manifest.label}).`
        : `Unknown vocabulary '${vocabularyId}' in release ${view.store.manifest.label}.`,
      'not_found',
      { vocabulary_id: vocabularyId, concept_code: conceptCode },
    );
  }
  return describeConcept(view, concept, options);
}
