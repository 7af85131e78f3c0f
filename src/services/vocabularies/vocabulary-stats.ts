/**
 * GET /v1/vocabularies/{id}/stats and /stats/domains/{domain_id}: the concept counts of one vocabulary, overall or
 * within one domain, from the concept summary.
 */
import type { ReleaseView } from '../release-view.js';
import { notFound } from '../errors.js';
import type { ReleaseStore } from '../../store/release-store.js';
import { domainCatalog, type DomainEntry } from '../domains/domain-catalog.js';
import { byCountThenKey, tally, tallyBy, visibleSummary, type ConceptTally } from '../concept-tallies.js';
import { requireVocabulary } from './vocabulary-catalog.js';

export interface ConceptCounts {
  total_concepts: number;
  standard_concepts: number;
  classification_concepts: number;
  non_standard_concepts: number;
  invalid_concepts: number;
  active_concepts: number;
  valid_start_date: string | null;
  valid_end_date: string | null;
  last_updated: string | null;
}

export interface VocabularyStats extends ConceptCounts {
  vocabulary_id: string;
  vocabulary_name: string;
  domain_distribution: Array<{ domain_id: string; domain_name: string; concept_count: number }>;
}

export interface VocabularyDomainStats {
  vocabulary: { vocabulary_id: string; vocabulary_name: string; vocabulary_version: string | null };
  domain: DomainEntry;
  statistics: ConceptCounts;
  concept_class_breakdown: Array<{ concept_class_id: string; concept_class_name: string; concept_count: number }>;
}

function counts(t: ConceptTally): ConceptCounts {
  return {
    total_concepts: t.total,
    standard_concepts: t.standard,
    classification_concepts: t.classification,
    non_standard_concepts: t.total - t.standard - t.classification,
    invalid_concepts: t.invalid,
    active_concepts: t.total - t.invalid,
    valid_start_date: t.earliestStart,
    valid_end_date: t.latestEnd,
    last_updated: t.latestStart,
  };
}

export function vocabularyStats(view: ReleaseView, vocabularyId: string): VocabularyStats {
  const vocabulary = requireVocabulary(view, vocabularyId);
  const rows = visibleSummary(view).filter((r) => r.vocabulary_id === vocabularyId);
  const domainNames = new Map(domainCatalog(view).map((d) => [d.domain_id, d.domain_name]));
  return {
    vocabulary_id: vocabulary.vocabulary_id,
    vocabulary_name: vocabulary.vocabulary_name,
    ...counts(tally(rows)),
    domain_distribution: [...tallyBy(rows, (r) => r.domain_id)]
      .sort(byCountThenKey)
      .map(([domainId, t]) => ({ domain_id: domainId, domain_name: domainNames.get(domainId) ?? domainId, concept_count: t.total })),
  };
}

/** 404 not_found for a domain id that is in no domain list of the release. */
export function vocabularyDomainStats(view: ReleaseView, vocabularyId: string, domainId: string): VocabularyDomainStats {
  const vocabulary = requireVocabulary(view, vocabularyId);
  const domain = domainCatalog(view).find((d) => d.domain_id === domainId);
  if (!domain) throw notFound(`Unknown domain '${domainId}' in release ${view.store.manifest.label}.`, 'not_found', { domain_id: domainId });
  const rows = visibleSummary(view).filter((r) => r.vocabulary_id === vocabularyId && r.domain_id === domainId);
  const classNames = new Map(view.store.metadata.conceptClasses().map((c) => [c.concept_class_id, c.concept_class_name]));
  return {
    vocabulary: { vocabulary_id: vocabulary.vocabulary_id, vocabulary_name: vocabulary.vocabulary_name, vocabulary_version: vocabulary.vocabulary_version },
    domain,
    statistics: counts(tally(rows)),
    concept_class_breakdown: [...tallyBy(rows, (r) => r.concept_class_id)]
      .sort(byCountThenKey)
      .map(([classId, t]) => ({ concept_class_id: classId, concept_class_name: classNames.get(classId) ?? classId, concept_count: t.total })),
  };
}
