/**
 * The source-code mapping workflow's records (Usagi's model): source terms read from a CSV, their ranked candidates,
 * and the review of each term. Shared by the CLI (`omopterm map`), the mapping jobs of the REST API and the browser.
 */
import type { CandidateReason } from '../semantic/ranked-candidates.js';

/** One source term as read from the input file (line numbers are the file's, header = line 1). */
export interface SourceTerm {
  /** 0-based position among the kept terms (stable: the key of the term in a job). */
  index: number;
  /** Line of the input file the term came from. */
  line: number;
  source_code: string;
  source_name: string;
  /** 0 when the file gives none. */
  source_frequency: number;
  /** Extra columns kept as they are (Usagi's ADD_INFO), by header name, in file order. */
  additional_info: Record<string, string>;
  /** Per-row hints (Usagi's "filter by concept/domain/vocabulary of the source"): narrow this term's candidates. */
  hints?: { domain_ids?: string[]; vocabulary_ids?: string[]; concept_class_ids?: string[] };
}

/** Filters applied to every term's candidates (Usagi's filter panel). */
export interface MappingFilters {
  domain_ids?: string[];
  vocabulary_ids?: string[];
  concept_class_ids?: string[];
  /** Default true: only standard concepts are proposed. */
  standard_only?: boolean;
  /** Default true: only valid concepts are proposed. */
  valid_only?: boolean;
}

/** Rules that approve a term without a person (each one undoable by a reviewer). */
export interface AutoApprovalRules {
  /** Approve the one candidate (within the filters) whose code, or whose Maps to source's code, equals the source code. */
  exact_code?: boolean;
  /** Approve the one candidate whose name or a synonym (or whose Maps to source's name) equals the source name. */
  exact_name?: boolean;
  /** Approve when the best candidate scores at least this (0..1); undefined: no threshold rule. */
  score_at_least?: number;
}

export interface MappingOptions {
  /** Candidates per term, 1..25 (default 10). */
  k: number;
  filters: MappingFilters;
  auto_approve: AutoApprovalRules;
}

/** One candidate of a term, as stored and shown (a flat copy, so a job stays readable if the release goes away). */
export interface TermCandidate {
  concept_id: number;
  concept_name: string;
  domain_id: string;
  vocabulary_id: string;
  concept_class_id: string;
  concept_code: string;
  standard_concept: string | null;
  score: number;
  matched_text: string;
  reasons: CandidateReason[];
  via_concept_ids?: number[];
}

export const MAPPING_STATUSES = ['unchecked', 'approved', 'flagged', 'ignored'] as const;
export type MappingStatus = (typeof MAPPING_STATUSES)[number];
/** Usagi's equivalence values. */
export const EQUIVALENCES = ['EQUAL', 'EQUIVALENT', 'WIDER', 'NARROWER', 'INEXACT', 'UNMATCHED', 'UNREVIEWED'] as const;
export type Equivalence = (typeof EQUIVALENCES)[number];

/** How the current status was set. */
export type StatusSetBy = { kind: 'reviewer'; reviewer: string } | { kind: 'rule'; rule: 'exact_code' | 'exact_name' | 'score_threshold' };

/** A term's review: the chosen concepts (Usagi allows several targets per term), status and notes. */
export interface TermReview {
  status: MappingStatus;
  equivalence: Equivalence;
  /** Chosen target concept ids (pre-selected: the best candidate); empty for none. */
  concept_ids: number[];
  comment: string;
  /** Who set the status (a person's name or the rule), and when (ISO time). */
  status_set_by: StatusSetBy | null;
  status_set_at: string | null;
  assigned_reviewer: string;
}

/** A term with its candidates and review: one row of a mapping's results. */
export interface MappedTerm {
  term: SourceTerm;
  candidates: TermCandidate[];
  review: TermReview;
}
