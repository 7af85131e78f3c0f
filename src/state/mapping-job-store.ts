/**
 * Mapping jobs in the shared state (part of StateStore): a job's terms, candidates, reviews and progress live here,
 * so a job survives a restart and every node sees it. Every method is async (embedded SQLite by default).
 */
import type { MappedTerm, MappingOptions, SourceTerm, TermCandidate, TermReview } from '../services/source-mapping/mapping-types.js';

export const MAPPING_JOB_STATES = ['queued', 'running', 'completed', 'cancelled', 'failed'] as const;
export type MappingJobState = (typeof MAPPING_JOB_STATES)[number];
/** States a job never leaves (setMappingJobState ignores a change from them). */
export const FINISHED_MAPPING_JOB_STATES: readonly MappingJobState[] = ['completed', 'cancelled', 'failed'];

/** Most terms one job holds (the REST API's 10,000-term target with room; a larger file is split by the caller). */
export const MAX_TERMS_PER_MAPPING_JOB = 50_000;
/** Most jobs one key (or the anonymous browser) keeps at a time, finished ones included: delete to make room. */
export const MAX_MAPPING_JOBS_PER_OWNER = 50;

/** createMappingJob refuses a job over a bound: too many terms, or the owner keeps too many jobs. */
export class MappingJobLimitError extends RangeError {
  constructor(
    readonly limit: 'terms' | 'jobs',
    message: string,
  ) {
    super(message);
    this.name = 'MappingJobLimitError';
  }
}

export interface MappingJobRecord {
  id: string;
  /** The API key that submitted it (only that key, or its browser sessions, may read it); null: anonymous browser. */
  owner_key_id: string | null;
  /** A name for people (the uploaded file's name by default). */
  name: string;
  release_label: string;
  /** The CPT4 validation date of the owner when submitted (the licence the candidates were computed under). */
  cpt4_validated_until: string | null;
  options: MappingOptions;
  /** The input's column roles as used (header name per role), shown to the user. */
  columns: Record<string, string>;
  state: MappingJobState;
  total_terms: number;
  /** Terms whose candidates are computed. */
  mapped_terms: number;
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface NewMappingJob {
  owner_key_id: string | null;
  name: string;
  release_label: string;
  cpt4_validated_until: string | null;
  options: MappingOptions;
  columns: Record<string, string>;
  terms: SourceTerm[];
  /** Reviews to keep (an imported Usagi file's), by term position: mapping then adds candidates and leaves these as they are. */
  reviews?: (TermReview | undefined)[];
}

export type MappedTermOrder = 'frequency' | 'index';

export interface MappedTermQuery {
  offset: number;
  limit: number;
  /** Default 'frequency' (highest first, then index). */
  order?: MappedTermOrder;
  /** Only terms with this review status. */
  status?: TermReview['status'];
}

/** Progress of the review (terms and the share of the source frequency they carry). */
export interface ReviewProgress {
  total_terms: number;
  reviewed_terms: number;
  approved_terms: number;
  total_frequency: number;
  approved_frequency: number;
  by_status: Record<TermReview['status'], number>;
}

export interface MappingJobStore {
  /** Queued, with every term unchecked; rejects with MappingJobLimitError over MAX_TERMS_PER_MAPPING_JOB or MAX_MAPPING_JOBS_PER_OWNER. */
  createMappingJob(job: NewMappingJob): Promise<MappingJobRecord>;
  /** The job if it exists and `ownerKeyId` owns it (undefined otherwise: another key's job is not found). */
  mappingJob(id: string, ownerKeyId: string | null): Promise<MappingJobRecord | undefined>;
  listMappingJobs(ownerKeyId: string | null): Promise<MappingJobRecord[]>;
  /**
   * Takes the lease of the oldest unfinished job that no other runner holds a live lease on (one it holds itself is
   * taken again), until `expiresAtMs`; undefined when there is none. One claim at a time across every instance, so two
   * runners (nodes) never hold the same job: the one that lost its lease (it stopped renewing: crashed, cut off) finds
   * out on its next renewal.
   */
  claimMappingJob(runner: string, expiresAtMs: number): Promise<MappingJobRecord | undefined>;
  /** Extends the runner's lease on the job; false when it no longer holds it (expired and taken, or the job is gone). */
  renewMappingJobLease(jobId: string, runner: string, expiresAtMs: number): Promise<boolean>;
  /** Gives the lease up (a runner stopping): another runner may claim the job at once. */
  releaseMappingJobLease(jobId: string, runner: string): Promise<void>;
  /** Up to `limit` terms of a job without candidates yet, in index order. */
  pendingTerms(jobId: string, limit: number): Promise<SourceTerm[]>;
  /**
   * Stores computed candidates and initial reviews (auto-approved or not; a review given at creation is kept) and advances
   * `mapped_terms`; a term already mapped is left as it is.
   */
  saveMappedTerms(jobId: string, results: { index: number; candidates: TermCandidate[]; review: TermReview }[]): Promise<void>;
  /** Sets the state unless the job is finished (FINISHED_MAPPING_JOB_STATES are final); answers the job as it now is. */
  setMappingJobState(jobId: string, state: MappingJobState, error?: string | null): Promise<MappingJobRecord | undefined>;
  mappedTerms(jobId: string, query: MappedTermQuery): Promise<{ items: MappedTerm[]; total: number }>;
  mappedTerm(jobId: string, index: number): Promise<MappedTerm | undefined>;
  /** Replaces a term's review; undefined when the job or term does not exist. */
  updateReview(jobId: string, index: number, review: TermReview): Promise<MappedTerm | undefined>;
  reviewProgress(jobId: string): Promise<ReviewProgress>;
  deleteMappingJob(id: string, ownerKeyId: string | null): Promise<boolean>;
}
