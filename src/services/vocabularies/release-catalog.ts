/** The releases a server holds (GET /v1/vocabularies/releases; later the FHIR CodeSystem versions). */
import type { ReleaseRegistry } from '../../store/release-registry.js';

export interface ReleaseSummary {
  vocab_release: string;
  label: string;
  release_date: string | null;
  source_vocabulary_version: string | null;
  is_default: boolean;
  status: 'default' | 'active';
  loaded_at: string;
  concept_count: number;
  relationship_count: number;
  ancestor_count: number;
  synonym_count: number;
}

/** Every open release, newest label first. */
export function listReleases(registry: ReleaseRegistry): { releases: ReleaseSummary[]; default_release: string | null } {
  const defaultLabel = registry.getDefaultLabel();
  const releases = registry
    .all()
    .map(({ label, store }): ReleaseSummary => {
      const m = store.manifest;
      const rows = (table: string) => m.tables[table]?.rows_stored ?? 0;
      return {
        vocab_release: label,
        label,
        release_date: m.release_date,
        source_vocabulary_version: m.source_vocabulary_version,
        is_default: label === defaultLabel,
        status: label === defaultLabel ? 'default' : 'active',
        loaded_at: m.loaded_at,
        concept_count: rows('concept'),
        relationship_count: rows('concept_relationship'),
        ancestor_count: rows('concept_ancestor'),
        synonym_count: rows('concept_synonym'),
      };
    })
    .reverse(); // registry.all() is in label order
  return { releases, default_release: defaultLabel };
}
