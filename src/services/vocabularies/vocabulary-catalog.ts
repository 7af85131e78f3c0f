/** The vocabulary list (GET /v1/vocabularies) and one vocabulary (GET /v1/vocabularies/{id}). */
import type { ReleaseView } from '../release-view.js';
import { notFound } from '../errors.js';
import type { VocabularyRecord } from '../../store/records.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { authorityRank } from '../../search-model/vocabulary-authority.js';

export type VocabularySort = 'name' | 'id' | 'priority' | 'updated';

export interface VocabularyListOptions {
  include_stats?: boolean;
  include_inactive?: boolean;
  sort_by?: VocabularySort;
  sort_order?: 'asc' | 'desc';
}

export interface VocabularySummary {
  vocabulary_id: string;
  vocabulary_name: string;
  vocabulary_reference: string | null;
  vocabulary_version: string | null;
  vocabulary_concept_id: number;
  created_at: string | null;
  updated_at: string | null;
  concept_count?: number;
  standard_concept_count?: number;
  classification_concept_count?: number;
  invalid_concept_count?: number;
}

function summarise(v: VocabularyRecord, includeStats: boolean): VocabularySummary {
  return {
    vocabulary_id: v.vocabulary_id,
    vocabulary_name: v.vocabulary_name,
    vocabulary_reference: v.vocabulary_reference,
    vocabulary_version: v.vocabulary_version,
    vocabulary_concept_id: v.vocabulary_concept_id,
    created_at: v.earliest_start_date,
    updated_at: v.latest_start_date,
    ...(includeStats
      ? {
          concept_count: v.concept_count,
          standard_concept_count: v.standard_count,
          classification_concept_count: v.classification_count,
          invalid_concept_count: v.invalid_count,
        }
      : {}),
  };
}

export function listVocabularies(view: ReleaseView, options: VocabularyListOptions = {}): VocabularySummary[] {
  let rows = view.visible(view.store.metadata.vocabularies());
  // "Inactive" vocabularies are those with no concepts in this release (e.g. reference-only rows).
  if (!options.include_inactive) rows = rows.filter((v) => v.concept_count > 0);
  const sortBy = options.sort_by ?? 'name';
  const sorted = [...rows].sort((a, b) => {
    switch (sortBy) {
      case 'id':
        return a.vocabulary_id.localeCompare(b.vocabulary_id);
      case 'priority':
        return authorityRank(a.vocabulary_id) - authorityRank(b.vocabulary_id) || a.vocabulary_id.localeCompare(b.vocabulary_id);
      case 'updated':
        return (a.latest_start_date ?? '').localeCompare(b.latest_start_date ?? '') || a.vocabulary_id.localeCompare(b.vocabulary_id);
      default:
        return a.vocabulary_name.localeCompare(b.vocabulary_name) || a.vocabulary_id.localeCompare(b.vocabulary_id);
    }
  });
  if (options.sort_order === 'desc') sorted.reverse();
  return sorted.map((v) => summarise(v, options.include_stats ?? false));
}

/** The vocabulary record; 403 vocabulary_restricted when the caller may not see it, 404 vocabulary_not_found when unknown. */
export function requireVocabulary(view: ReleaseView, vocabularyId: string): VocabularyRecord {
  view.assertVisible(vocabularyId);
  const vocabulary = view.store.metadata.vocabulary(vocabularyId);
  if (!vocabulary) {
    throw notFound(`Unknown vocabulary '${vocabularyId}' in release ${view.store.manifest.label}.`, 'vocabulary_not_found', { vocabulary_id: vocabularyId });
  }
  return vocabulary;
}

/** GET /v1/vocabularies/{id}: the list record with its concept counts. */
export function getVocabulary(view: ReleaseView, vocabularyId: string): VocabularySummary {
  return summarise(requireVocabulary(view, vocabularyId), true);
}

