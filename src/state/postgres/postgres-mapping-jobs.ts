/**
 * Mapping jobs in PostgreSQL, the MappingJobStore contract as the embedded store keeps it: one row per job and per term,
 * terms written in one statement (arrays unnested), a term's candidates written once, an owner's job count checked under
 * a per-owner advisory lock so that nodes creating jobs at once respect MAX_MAPPING_JOBS_PER_OWNER.
 */
import { randomUUID } from 'node:crypto';
import type { MappedTerm, SourceTerm, TermCandidate, TermReview } from '../../services/source-mapping/mapping-types.js';
import { jobOf, mappedTermOf, reviewProgressOf, TERM_COLUMNS, termOf, uncheckedReview, type JobRow, type StatusTally, type TermRow } from '../mapping-job-rows.js';
import {
  FINISHED_MAPPING_JOB_STATES,
  MAX_MAPPING_JOBS_PER_OWNER,
  MAX_TERMS_PER_MAPPING_JOB,
  MappingJobLimitError,
  type MappedTermQuery,
  type MappingJobRecord,
  type MappingJobState,
  type MappingJobStore,
  type NewMappingJob,
  type ReviewProgress,
} from '../mapping-job-store.js';
import type { Clock } from '../state-store.js';
import type { PgDatabase } from './pg-database.js';

/** The first key of the per-owner advisory lock of job creation ('MAPJ'). */
const OWNER_LOCK_CLASS = 0x4d41504a;
/** The first key of the advisory lock every claim of a job takes ('MAPL'): claims are rare, one at a time is enough. */
const CLAIM_LOCK_CLASS = 0x4d41504c;

const JOB_COLUMNS =
  'id, owner_key_id, name, release_label, cpt4_validated_until, options, columns, state, total_terms, mapped_terms, error, created_at, updated_at, finished_at';

export class PostgresMappingJobs implements MappingJobStore {
  private readonly sql;

  constructor(
    private readonly db: PgDatabase,
    private readonly now: Clock,
  ) {
    const job = `${db.schema}.mapping_job`;
    const term = `${db.schema}.mapping_term`;
    const lease = `${db.schema}.mapping_job_lease`;
    const finished = FINISHED_MAPPING_JOB_STATES.map((s) => `'${s}'`).join(', ');
    const termsOrdered = (where: string, order: string) => `SELECT ${TERM_COLUMNS} FROM ${term} WHERE ${where} ORDER BY ${order} LIMIT $3 OFFSET $4`;
    this.sql = {
      countOwned: `SELECT count(*)::int AS n FROM ${job} WHERE owner_key_id IS NOT DISTINCT FROM $1`,
      insertJob: `INSERT INTO ${job} (id, owner_key_id, name, release_label, cpt4_validated_until, options, columns, state, total_terms, created_at, updated_at)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, 'queued', $8, $9, $9) RETURNING ${JOB_COLUMNS}`,
      insertTerms: `INSERT INTO ${term} (job_id, term_index, line, source_code, source_name, source_frequency, additional_info, hints, status, review, review_kept)
                    SELECT $1::text, * FROM unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::float8[], $7::text[], $8::text[], $9::text[], $10::text[], $11::bool[])`,
      job: `SELECT ${JOB_COLUMNS} FROM ${job} WHERE id = $1`,
      owned: `SELECT ${JOB_COLUMNS} FROM ${job} WHERE id = $1 AND owner_key_id IS NOT DISTINCT FROM $2`,
      list: `SELECT ${JOB_COLUMNS} FROM ${job} WHERE owner_key_id IS NOT DISTINCT FROM $1 ORDER BY created_seq DESC`,
      pending: `SELECT ${TERM_COLUMNS} FROM ${term} WHERE job_id = $1 AND candidates IS NULL ORDER BY term_index LIMIT $2`,
      // One statement: the terms still without candidates get them (a kept review stays), and the job counts them.
      save: `WITH input AS (
               SELECT * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) AS i(term_index, candidates, review, status)
             ), saved AS (
               UPDATE ${term} t SET candidates = i.candidates,
                 review = CASE WHEN t.review_kept THEN t.review ELSE i.review END,
                 status = CASE WHEN t.review_kept THEN t.status ELSE i.status END
               FROM input i WHERE t.job_id = $1 AND t.term_index = i.term_index AND t.candidates IS NULL
               RETURNING 1
             )
             UPDATE ${job} SET mapped_terms = mapped_terms + (SELECT count(*) FROM saved), updated_at = $6
             WHERE id = $1 AND (SELECT count(*) FROM saved) > 0`,
      setState: `UPDATE ${job} SET state = $2, error = $3, updated_at = $4, finished_at = $5 WHERE id = $1 AND state NOT IN (${finished})`,
      byFrequency: termsOrdered('job_id = $1 AND ($2::text IS NULL OR status = $2)', 'source_frequency DESC, term_index'),
      byIndex: termsOrdered('job_id = $1 AND ($2::text IS NULL OR status = $2)', 'term_index'),
      count: `SELECT count(*)::int AS n FROM ${term} WHERE job_id = $1 AND ($2::text IS NULL OR status = $2)`,
      term: `SELECT ${TERM_COLUMNS} FROM ${term} WHERE job_id = $1 AND term_index = $2`,
      setReview: `UPDATE ${term} SET review = $3, status = $4 WHERE job_id = $1 AND term_index = $2 RETURNING ${TERM_COLUMNS}`,
      progress: `SELECT status, count(*)::int AS terms, coalesce(sum(source_frequency), 0)::float8 AS frequency FROM ${term} WHERE job_id = $1 GROUP BY status`,
      deleteOwned: `DELETE FROM ${job} WHERE id = $1 AND owner_key_id IS NOT DISTINCT FROM $2`,
      claimable: `SELECT ${JOB_COLUMNS.split(', ').map((c) => `j.${c}`).join(', ')} FROM ${job} j LEFT JOIN ${lease} l ON l.job_id = j.id
                  WHERE j.state IN ('queued', 'running') AND (l.job_id IS NULL OR l.expires_at_ms <= $1 OR l.runner = $2)
                  ORDER BY j.created_seq LIMIT 1`,
      takeLease: `INSERT INTO ${lease} (job_id, runner, expires_at_ms) VALUES ($1, $2, $3)
                  ON CONFLICT (job_id) DO UPDATE SET runner = EXCLUDED.runner, expires_at_ms = EXCLUDED.expires_at_ms`,
      renewLease: `UPDATE ${lease} SET expires_at_ms = $3 WHERE job_id = $1 AND runner = $2`,
      releaseLease: `DELETE FROM ${lease} WHERE job_id = $1 AND runner = $2`,
    };
  }

  async createMappingJob(job: NewMappingJob): Promise<MappingJobRecord> {
    if (job.terms.length > MAX_TERMS_PER_MAPPING_JOB) {
      throw new MappingJobLimitError('terms', `a mapping job holds at most ${MAX_TERMS_PER_MAPPING_JOB.toLocaleString('en')} terms (this one has ${job.terms.length.toLocaleString('en')}): split the file`);
    }
    return this.db.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [OWNER_LOCK_CLASS, job.owner_key_id ?? '']);
      const owned = (await client.query<{ n: number }>(this.sql.countOwned, [job.owner_key_id])).rows[0]!.n;
      if (owned >= MAX_MAPPING_JOBS_PER_OWNER) {
        throw new MappingJobLimitError('jobs', `a key keeps at most ${MAX_MAPPING_JOBS_PER_OWNER} mapping jobs (this one has ${owned}): delete one first`);
      }
      const at = new Date(this.now()).toISOString();
      const id = randomUUID();
      const inserted = await client.query<JobRow>(this.sql.insertJob, [
        id,
        job.owner_key_id,
        job.name,
        job.release_label,
        job.cpt4_validated_until,
        JSON.stringify(job.options),
        JSON.stringify(job.columns),
        job.terms.length,
        at,
      ]);
      const unchecked = uncheckedReview();
      const reviews = job.terms.map((_, position) => job.reviews?.[position]);
      await client.query(this.sql.insertTerms, [
        id,
        job.terms.map((t) => t.index),
        job.terms.map((t) => t.line),
        job.terms.map((t) => t.source_code),
        job.terms.map((t) => t.source_name),
        job.terms.map((t) => t.source_frequency),
        job.terms.map((t) => JSON.stringify(t.additional_info)),
        job.terms.map((t) => (t.hints ? JSON.stringify(t.hints) : null)),
        reviews.map((r) => (r ?? unchecked).status),
        reviews.map((r) => JSON.stringify(r ?? unchecked)),
        reviews.map((r) => r !== undefined),
      ]);
      return jobOf(inserted.rows[0]!);
    });
  }

  async mappingJob(id: string, ownerKeyId: string | null): Promise<MappingJobRecord | undefined> {
    const row = (await this.db.query<JobRow>(this.sql.owned, [id, ownerKeyId])).rows[0];
    return row && jobOf(row);
  }

  async listMappingJobs(ownerKeyId: string | null): Promise<MappingJobRecord[]> {
    return (await this.db.query<JobRow>(this.sql.list, [ownerKeyId])).rows.map(jobOf);
  }

  async claimMappingJob(runner: string, expiresAtMs: number): Promise<MappingJobRecord | undefined> {
    return this.db.transaction(async (client) => {
      // Held until commit: a claim on another node waits here, then sees this lease.
      await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [CLAIM_LOCK_CLASS, this.db.schemaName]);
      const row = (await client.query<JobRow>(this.sql.claimable, [this.now(), runner])).rows[0];
      if (!row) return undefined;
      await client.query(this.sql.takeLease, [row.id, runner, expiresAtMs]);
      return jobOf(row);
    });
  }

  async renewMappingJobLease(jobId: string, runner: string, expiresAtMs: number): Promise<boolean> {
    return ((await this.db.query(this.sql.renewLease, [jobId, runner, expiresAtMs])).rowCount ?? 0) === 1;
  }

  async releaseMappingJobLease(jobId: string, runner: string): Promise<void> {
    await this.db.query(this.sql.releaseLease, [jobId, runner]);
  }

  async pendingTerms(jobId: string, limit: number): Promise<SourceTerm[]> {
    return (await this.db.query<TermRow>(this.sql.pending, [jobId, limit])).rows.map(termOf);
  }

  async saveMappedTerms(jobId: string, results: { index: number; candidates: TermCandidate[]; review: TermReview }[]): Promise<void> {
    if (results.length === 0) return;
    await this.db.query(this.sql.save, [
      jobId,
      results.map((r) => r.index),
      results.map((r) => JSON.stringify(r.candidates)),
      results.map((r) => JSON.stringify(r.review)),
      results.map((r) => r.review.status),
      new Date(this.now()).toISOString(),
    ]);
  }

  async setMappingJobState(jobId: string, state: MappingJobState, error: string | null = null): Promise<MappingJobRecord | undefined> {
    const at = new Date(this.now()).toISOString();
    const finished = (FINISHED_MAPPING_JOB_STATES as readonly string[]).includes(state) ? at : null;
    await this.db.query(this.sql.setState, [jobId, state, error, at, finished]);
    const row = (await this.db.query<JobRow>(this.sql.job, [jobId])).rows[0];
    return row && jobOf(row);
  }

  async mappedTerms(jobId: string, query: MappedTermQuery): Promise<{ items: MappedTerm[]; total: number }> {
    const status = query.status ?? null;
    const rows = await this.db.query<TermRow>(query.order === 'index' ? this.sql.byIndex : this.sql.byFrequency, [jobId, status, query.limit, query.offset]);
    const total = (await this.db.query<{ n: number }>(this.sql.count, [jobId, status])).rows[0]!.n;
    return { items: rows.rows.map(mappedTermOf), total };
  }

  async mappedTerm(jobId: string, index: number): Promise<MappedTerm | undefined> {
    const row = (await this.db.query<TermRow>(this.sql.term, [jobId, index])).rows[0];
    return row && mappedTermOf(row);
  }

  async updateReview(jobId: string, index: number, review: TermReview): Promise<MappedTerm | undefined> {
    const row = (await this.db.query<TermRow>(this.sql.setReview, [jobId, index, JSON.stringify(review), review.status])).rows[0];
    return row && mappedTermOf(row);
  }

  async reviewProgress(jobId: string): Promise<ReviewProgress> {
    return reviewProgressOf((await this.db.query<StatusTally>(this.sql.progress, [jobId])).rows);
  }

  async deleteMappingJob(id: string, ownerKeyId: string | null): Promise<boolean> {
    return ((await this.db.query(this.sql.deleteOwned, [id, ownerKeyId])).rowCount ?? 0) > 0;
  }
}
