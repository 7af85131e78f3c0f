/**
 * The filters a keyword search accepts (E4 + client contract) and the rules tied to them: licence
 * restrictions (hidden vocabularies never appear; naming one is a 403), the demotion switch, and
 * which bands can hold results at all.
 */
import type { ReleaseView } from '../release-view.js';
import { validationError } from '../errors.js';
import { bandIsCore, bandPartition, DEMOTED_CONCEPT_CLASSES, DEMOTION_OFF_DOMAIN, CORE_DOMAINS, Partition } from '../../search-model/ranking.js';

import type { IndexFilter, StandardFlag } from '../../store/search-store.js';

export type { IndexFilter, StandardFlag };

export interface SearchFilters {
  vocabularyIds?: string[];
  domainIds?: string[];
  conceptClassIds?: string[];
  /** 'N' means non-standard (standard_concept null). */
  standardConcepts?: StandardFlag[];
  includeInvalid?: boolean;
  /** Only deprecated or replaced concepts (the browser's validity=invalid); implies includeInvalid. */
  invalidOnly?: boolean;
}

/** Parses `standard_concept` (S, C, N; a comma list is accepted; `all` means no filter). */
export function parseStandardConcept(value: string | undefined): StandardFlag[] | undefined {
  if (value === undefined || value.trim() === '' || value.trim().toLowerCase() === 'all') return undefined;
  const out: StandardFlag[] = [];
  for (const part of value.split(',')) {
    const v = part.trim().toUpperCase();
    if (v === '') continue;
    if (v !== 'S' && v !== 'C' && v !== 'N') {
      throw validationError(`Invalid query parameter 'standard_concept': must be S, C, N or all (got '${part.trim()}').`, {
        parameter: 'standard_concept',
      });
    }
    if (!out.includes(v)) out.push(v);
  }
  return out.length ? out : undefined;
}

/** 403 for a named vocabulary the caller may not see; then the index filter. */
export function indexFilterFor(filters: SearchFilters, view: ReleaseView): IndexFilter {
  for (const v of filters.vocabularyIds ?? []) view.assertVisible(v);
  return {
    vocabularyIds: filters.vocabularyIds,
    domainIds: filters.domainIds,
    conceptClassIds: filters.conceptClassIds,
    standardConcepts: filters.standardConcepts,
    hiddenVocabularyIds: view.hiddenVocabularyIds(),
    ...(filters.invalidOnly ? { invalidOnly: true } : {}),
  };
}

/** The demotion applies unless a demoted class is named in concept_class_ids or Meas Value in domain_ids. */
export function demotionApplies(filters: SearchFilters): boolean {
  if (filters.conceptClassIds?.some((c) => DEMOTED_CONCEPT_CLASSES.has(c))) return false;
  if (filters.domainIds?.includes(DEMOTION_OFF_DOMAIN)) return false;
  return true;
}

/** The filters applied, as reported in meta.search.filters_applied. */
export function describeFilters(filters: SearchFilters, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (filters.vocabularyIds) out.vocabulary_ids = filters.vocabularyIds;
  if (filters.domainIds) out.domain_ids = filters.domainIds;
  if (filters.conceptClassIds) out.concept_class_ids = filters.conceptClassIds;
  if (filters.standardConcepts) out.standard_concept = filters.standardConcepts.join(',');
  if (filters.includeInvalid) out.include_invalid = true;
  if (filters.invalidOnly) out.invalid_only = true;
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== false) out[k] = v;
  return out;
}

/** Whether one concept passes the filter (for results found outside the index: identifiers, exact keys). */
export function conceptPasses(
  c: { vocabulary_id: string; domain_id: string; concept_class_id: string; standard_concept: string | null; invalid_reason: string | null },
  filter: IndexFilter,
  includeInvalid: boolean,
): boolean {
  if (filter.hiddenVocabularyIds.includes(c.vocabulary_id)) return false;
  if (!includeInvalid && c.invalid_reason) return false;
  if (filter.invalidOnly && !c.invalid_reason) return false;
  if (filter.vocabularyIds && !filter.vocabularyIds.includes(c.vocabulary_id)) return false;
  if (filter.domainIds && !filter.domainIds.includes(c.domain_id)) return false;
  if (filter.conceptClassIds && !filter.conceptClassIds.includes(c.concept_class_id)) return false;
  if (filter.standardConcepts) {
    const flag: StandardFlag = c.standard_concept === 'S' ? 'S' : c.standard_concept === 'C' ? 'C' : 'N';
    if (!filter.standardConcepts.includes(flag)) return false;
  }
  return true;
}

/** False when no concept of this band can pass the filter (saves walking its index). */
export function bandCanMatch(band: number, filter: IndexFilter): boolean {
  if (filter.invalidOnly && bandPartition(band) !== Partition.Invalid) return false;
  if (filter.domainIds) {
    const core = bandIsCore(band);
    if (!filter.domainIds.some((d) => CORE_DOMAINS.has(d) === core)) return false;
  }
  if (filter.standardConcepts) {
    const p = bandPartition(band);
    const flag: StandardFlag | null =
      p === Partition.Standard || p === Partition.ArtifactStandard
        ? 'S'
        : p === Partition.Classification || p === Partition.ArtifactClassification
          ? 'C'
          : p === Partition.Invalid
            ? null
            : 'N';
    if (flag !== null && !filter.standardConcepts.includes(flag)) return false;
  }
  return true;
}
