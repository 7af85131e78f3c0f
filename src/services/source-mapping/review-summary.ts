/**
 * The progress of a mapping's review: terms reviewed and approved, the share of the source frequency they carry, and
 * counts by status, equivalence, approving rule and target domain/vocabulary; as JSON and as Markdown.
 */
import { EQUIVALENCES, MAPPING_STATUSES, type Equivalence, type MappedTerm, type MappingStatus } from './mapping-types.js';

/** What the summary needs of a target concept that is not among the term's candidates (a reviewer's own choice). */
export type TargetLookup = (conceptId: number) => { domain_id: string; vocabulary_id: string } | undefined;

/** A superset of the state store's ReviewProgress (src/state/mapping-job-store.ts), which imports this folder's types. */
export interface ReviewSummary {
  total_terms: number;
  reviewed_terms: number;
  approved_terms: number;
  total_frequency: number;
  approved_frequency: number;
  by_status: Record<MappingStatus, number>;
  /** Frequency of the terms whose status is not unchecked. */
  reviewed_frequency: number;
  by_equivalence: Record<Equivalence, number>;
  /** Approved terms by who approved them: a person, or each rule. */
  approved_by: { reviewer: number; exact_code: number; exact_name: number; score_threshold: number };
  /** Approved terms' targets (a term with two targets counts in both), by domain and by vocabulary; 0 = no matching concept. */
  by_target_domain: Record<string, number>;
  by_target_vocabulary: Record<string, number>;
  /** Terms without any candidate. */
  terms_without_candidates: number;
}

const zeroes = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;

export function summarizeReview(terms: readonly MappedTerm[], lookup: TargetLookup = () => undefined): ReviewSummary {
  const s: ReviewSummary = {
    total_terms: terms.length,
    reviewed_terms: 0,
    approved_terms: 0,
    total_frequency: 0,
    approved_frequency: 0,
    reviewed_frequency: 0,
    by_status: zeroes(MAPPING_STATUSES),
    by_equivalence: zeroes(EQUIVALENCES),
    approved_by: { reviewer: 0, exact_code: 0, exact_name: 0, score_threshold: 0 },
    by_target_domain: {},
    by_target_vocabulary: {},
    terms_without_candidates: 0,
  };
  for (const { term, candidates, review } of terms) {
    s.total_frequency += term.source_frequency;
    s.by_status[review.status]++;
    s.by_equivalence[review.equivalence]++;
    if (candidates.length === 0) s.terms_without_candidates++;
    if (review.status !== 'unchecked') {
      s.reviewed_terms++;
      s.reviewed_frequency += term.source_frequency;
    }
    if (review.status !== 'approved') continue;
    s.approved_terms++;
    s.approved_frequency += term.source_frequency;
    const by = review.status_set_by;
    if (by?.kind === 'rule') s.approved_by[by.rule]++;
    else s.approved_by.reviewer++;
    const targets = review.concept_ids.length ? review.concept_ids : [0];
    for (const id of targets) {
      const known = id === 0 ? { domain_id: 'none', vocabulary_id: 'none' } : (candidates.find((c) => c.concept_id === id) ?? lookup(id));
      const domain = known?.domain_id ?? 'unknown';
      const vocabulary = known?.vocabulary_id ?? 'unknown';
      s.by_target_domain[domain] = (s.by_target_domain[domain] ?? 0) + 1;
      s.by_target_vocabulary[vocabulary] = (s.by_target_vocabulary[vocabulary] ?? 0) + 1;
    }
  }
  return s;
}

const share = (part: number, whole: number) => (whole === 0 ? '0 %' : `${((100 * part) / whole).toFixed(1)} %`);

function table(title: string, counts: Record<string, number>): string[] {
  const rows = Object.entries(counts).filter(([, n]) => n > 0);
  if (!rows.length) return [];
  rows.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return ['', `| ${title} | terms |`, '|---|---:|', ...rows.map(([k, n]) => `| ${k} | ${n} |`)];
}

/** The summary as Markdown (summary.md of `omopterm map`). */
export function reviewSummaryMarkdown(s: ReviewSummary, heading = 'Mapping review summary'): string {
  const lines = [
    `# ${heading}`,
    '',
    `- Terms: ${s.total_terms} (${s.terms_without_candidates} without candidates)`,
    `- Reviewed: ${s.reviewed_terms} (${share(s.reviewed_terms, s.total_terms)} of terms, ${share(s.reviewed_frequency, s.total_frequency)} of the frequency)`,
    `- Approved: ${s.approved_terms} (${share(s.approved_terms, s.total_terms)} of terms, ${share(s.approved_frequency, s.total_frequency)} of the frequency)`,
    `- Approved by a reviewer: ${s.approved_by.reviewer}; by rule: exact code ${s.approved_by.exact_code}, exact name ${s.approved_by.exact_name}, score threshold ${s.approved_by.score_threshold}`,
    ...table('status', s.by_status),
    ...table('equivalence', s.by_equivalence),
    ...table('target domain (approved)', s.by_target_domain),
    ...table('target vocabulary (approved)', s.by_target_vocabulary),
  ];
  return `${lines.join('\n')}\n`;
}
