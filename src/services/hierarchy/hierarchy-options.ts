/**
 * The options every hierarchy answer takes (ancestors, descendants, hierarchy and each batch query), their
 * defaults and limits, and how they become a store filter.
 */
import type { ReleaseView } from '../release-view.js';
import { validationError } from '../errors.js';
import type { HierarchyFilter } from '../../store/hierarchy-store.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { relationshipTypeIndex } from '../concepts/relationship-types.js';

export const DEFAULT_MAX_LEVELS = 10;
export const MAX_LEVELS_CEILING = 20;
export const DEFAULT_RELATIONSHIP_TYPES: readonly string[] = ['Is a'];
/** Page size of ancestors and descendants (GET; above MAX_HIERARCHY_PAGE_SIZE is clamped). */
export const DEFAULT_HIERARCHY_PAGE_SIZE = 100;
export const MAX_HIERARCHY_PAGE_SIZE = 200;
/** Ancestors and descendants each in GET /hierarchy (above MAX_HIERARCHY_RESULTS is clamped). */
export const DEFAULT_HIERARCHY_RESULTS = 100;
export const MAX_HIERARCHY_RESULTS = 1000;

export interface HierarchyOptions {
  max_levels?: number;
  relationship_types?: readonly string[];
  vocabulary_ids?: readonly string[];
  domain_ids?: readonly string[];
  include_invalid?: boolean;
  standard_only?: boolean;
  /** Add `hierarchy_level` to every node. */
  include_distance?: boolean;
  /** Add `path_length` and `max_path_length` to every node. */
  include_paths?: boolean;
}

/** The options with defaults applied, checked against the release. */
export interface ResolvedHierarchyOptions {
  filter: HierarchyFilter;
  relationshipTypes: readonly string[];
  includeDistance: boolean;
  includePaths: boolean;
}

export function resolveHierarchyOptions(view: ReleaseView, options: HierarchyOptions): ResolvedHierarchyOptions {
  const relationshipTypes = options.relationship_types?.length ? options.relationship_types : DEFAULT_RELATIONSHIP_TYPES;
  assertAncestryDefining(view.store, relationshipTypes);
  view.assertVisibleAll(options.vocabulary_ids);
  return {
    filter: {
      maxLevels: Math.min(options.max_levels ?? DEFAULT_MAX_LEVELS, MAX_LEVELS_CEILING),
      vocabularyIds: options.vocabulary_ids?.length ? options.vocabulary_ids : undefined,
      domainIds: options.domain_ids?.length ? options.domain_ids : undefined,
      standardOnly: options.standard_only === true,
      includeInvalid: options.include_invalid === true,
      hiddenVocabularyIds: view.hiddenVocabularyIds(),
    },
    relationshipTypes,
    includeDistance: options.include_distance === true,
    includePaths: options.include_paths === true,
  };
}

function assertAncestryDefining(store: ReleaseStore, relationshipIds: readonly string[]): void {
  const types = relationshipTypeIndex(store);
  for (const id of relationshipIds) {
    const type = types.get(id);
    const reverse = type ? types.get(type.reverse_relationship_id) : undefined;
    if (!type) {
      throw validationError(`relationship_types: '${id}' is not a relationship of release ${store.manifest.label}.`, { relationship_types: relationshipIds });
    }
    if (type.defines_ancestry !== '1' && reverse?.defines_ancestry !== '1') {
      throw validationError(
        `relationship_types: '${id}' does not define ancestry (neither it nor its reverse has defines_ancestry = 1), so CONCEPT_ANCESTOR holds no levels for it.`,
        { relationship_types: relationshipIds },
      );
    }
  }
}
