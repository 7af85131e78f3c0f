/**
 * E2 domain statistics: the concept counts of one domain from the in-memory load-time concept summary, over the
 * vocabularies the caller may see, so the totals equal the sum of the breakdown.
 */
import type { ReleaseView } from '../release-view.js';
import { findDomain } from '../domains/domain-catalog.js';
import { notFound } from '../errors.js';
import { byCountThenKey, tally, tallyBy, visibleSummary } from '../concept-tallies.js';
import type { ReleaseStore } from '../../store/release-store.js';

export interface DomainStatistics {
  domain_id: string;
  statistics: {
    domain_id: string;
    domain_name: string;
    total_concepts: number;
    /** standard_concept 'S'. */
    standard_concepts: number;
    /** standard_concept 'C'. */
    classification_concepts: number;
    /** standard_concept empty: total = standard + classification + non-standard. */
    non_standard_concepts: number;
    /** invalid_reason set (any standard flag). */
    invalid_concepts: number;
    vocabulary_breakdown: Array<{ vocabulary_id: string; vocabulary_name: string; concept_count: number }>;
    concept_class_breakdown: Array<{ concept_class_id: string; concept_class_name: string; concept_count: number }>;
    /** Earliest and latest valid_start_date of the domain's concepts; null without concepts. */
    creation_date_range: { earliest: string | null; latest: string | null };
  };
  notes: string[];
}

export function domainStatistics(view: ReleaseView, domainId: string): DomainStatistics {
  const domain = findDomain(view, domainId);
  if (!domain) {
    throw notFound(`Unknown domain '${domainId}' in release ${view.store.manifest.label}.`, 'not_found', { domain_id: domainId });
  }
  const rows = visibleSummary(view).filter((r) => r.domain_id === domainId);
  const total = tally(rows);
  const classNames = new Map(view.store.metadata.conceptClasses().map((c) => [c.concept_class_id, c.concept_class_name]));
  const notes: string[] = [];
  if (total.total === 0) notes.push(`Release ${view.store.manifest.label} has no concept in domain ${domainId} that this key may see: every count is 0 and the date range null.`);
  const hidden = view.hiddenVocabularyIds().filter((v) => view.store.metadata.conceptSummary().some((r) => r.vocabulary_id === v && r.domain_id === domainId));
  if (hidden.length) notes.push(`Concepts of ${hidden.join(', ')} are not counted (licence restriction for this key).`);
  return {
    domain_id: domainId,
    statistics: {
      domain_id: domainId,
      domain_name: domain.domain_name,
      total_concepts: total.total,
      standard_concepts: total.standard,
      classification_concepts: total.classification,
      non_standard_concepts: total.total - total.standard - total.classification,
      invalid_concepts: total.invalid,
      vocabulary_breakdown: [...tallyBy(rows, (r) => r.vocabulary_id)].sort(byCountThenKey).map(([id, t]) => ({
        vocabulary_id: id,
        vocabulary_name: view.store.metadata.vocabulary(id)?.vocabulary_name ?? id,
        concept_count: t.total,
      })),
      concept_class_breakdown: [...tallyBy(rows, (r) => r.concept_class_id)].sort(byCountThenKey).map(([id, t]) => ({
        concept_class_id: id,
        concept_class_name: classNames.get(id) ?? id,
        concept_count: t.total,
      })),
      creation_date_range: { earliest: total.earliestStart, latest: total.latestStart },
    },
    notes,
  };
}
