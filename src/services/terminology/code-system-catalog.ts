/**
 * The code systems a release offers, as metadata for GET /CodeSystem and /CodeSystem/{id}: the unified OMOP system
 * and one per vocabulary with a code-system URI, counted from the concept summary over the vocabularies the caller
 * may read.
 */
import { OMOP_CODE_SYSTEM_ID_PREFIX } from '../../store/release-registry.js';
import type { ReleaseStore } from '../../store/release-store.js';
import type { ReleaseView } from '../release-view.js';
import { OMOP_CONCEPT_SYSTEM, matchSystem, systemForVocabulary } from '../fhir/code-system-uris.js';
import { OMOP_CODE_SYSTEM_NAME } from './code-system-concept.js';

/** The OMOP system's id prefix: `omop-v20250827` (client-compatibility.md §2.1). */
export { OMOP_CODE_SYSTEM_ID_PREFIX };

export interface CatalogCodeSystem {
  id: string;
  url: string;
  version: string;
  name: string;
  /** Concepts of the code system in the release (for the OMOP system: those the caller may read). */
  count: number;
  /** Set for a vocabulary's code system. */
  vocabularyId?: string;
}

/** Search parameters of `GET /CodeSystem`; each one given must match. */
export interface CodeSystemSearch {
  /** A code-system URI; aliases of a known system match its canonical URI. */
  url?: string;
  /** Exact version. */
  version?: string;
  /** Case-insensitive start of the name (FHIR string search). */
  name?: string;
}

/** The FHIR id of the OMOP code system of a release whose code-system version is `version`. */
export function omopCodeSystemId(version: string): string {
  return `${OMOP_CODE_SYSTEM_ID_PREFIX}${version}`;
}

/** The FHIR id of a vocabulary's code system: [A-Za-z0-9-.] only, so `dm+d` is `dm-d`. */
export function vocabularyCodeSystemId(vocabularyId: string): string {
  return vocabularyId.replace(/[^A-Za-z0-9.-]/g, '-');
}

function conceptCounts(store: ReleaseStore): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of store.metadata.conceptSummary()) counts.set(row.vocabulary_id, (counts.get(row.vocabulary_id) ?? 0) + row.concept_count);
  return counts;
}

/** The OMOP code system of a release; `version` is its code-system version (YYYYMMDD, from the FHIR edge). */
export function omopCodeSystem(view: ReleaseView, version: string): CatalogCodeSystem {
  let count = 0;
  for (const [vocabularyId, concepts] of conceptCounts(view.store)) if (view.canSee(vocabularyId)) count += concepts;
  return { id: omopCodeSystemId(version), url: OMOP_CONCEPT_SYSTEM, version, name: OMOP_CODE_SYSTEM_NAME, count };
}

/** Every vocabulary code system of the release (those the caller may not read included; see `codeSystemCatalog`). */
function vocabularyCodeSystems(store: ReleaseStore, version: string): CatalogCodeSystem[] {
  const counts = conceptCounts(store);
  return store.metadata.vocabularies().flatMap((vocabulary) => {
    const url = systemForVocabulary(vocabulary.vocabulary_id);
    if (url === undefined) return [];
    return [
      {
        id: vocabularyCodeSystemId(vocabulary.vocabulary_id),
        url,
        version: vocabulary.vocabulary_version ?? version,
        name: vocabulary.vocabulary_name,
        count: counts.get(vocabulary.vocabulary_id) ?? 0,
        vocabularyId: vocabulary.vocabulary_id,
      },
    ];
  });
}

/** The code systems of a release the caller may read: OMOP first, then the vocabularies in the store's order (by vocabulary_id). */
export function codeSystemCatalog(view: ReleaseView, version: string): CatalogCodeSystem[] {
  return [omopCodeSystem(view, version), ...vocabularyCodeSystems(view.store, version).filter((cs) => view.canSee(cs.vocabularyId!))];
}

/**
 * The vocabulary code system with this id in the release, or undefined. Licences are not applied:
 * the caller decides (a restricted vocabulary is a 403, not a 404).
 */
export function vocabularyCodeSystemById(view: ReleaseView, version: string, id: string): CatalogCodeSystem | undefined {
  return vocabularyCodeSystems(view.store, version).find((cs) => cs.id === id);
}

function sameSystem(requested: string, url: string): boolean {
  if (requested === url) return true;
  const a = matchSystem(requested);
  const b = matchSystem(url);
  if (!a || !b || a.kind !== b.kind) return false;
  return a.kind !== 'vocabulary' || (b.kind === 'vocabulary' && a.canonical === b.canonical);
}

/** The catalog entries that match every given search parameter. */
export function searchCodeSystems(catalog: readonly CatalogCodeSystem[], search: CodeSystemSearch): CatalogCodeSystem[] {
  const name = search.name?.toLowerCase();
  return catalog.filter(
    (cs) =>
      (search.url === undefined || sameSystem(search.url, cs.url)) &&
      (search.version === undefined || cs.version === search.version) &&
      (name === undefined || cs.name.toLowerCase().startsWith(name)),
  );
}
