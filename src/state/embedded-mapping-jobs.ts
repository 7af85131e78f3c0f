/**
 * Mapping jobs in the embedded state file: one row per job and one per term (its candidates and review as JSON, the
 * review status beside it for filtering). A term's candidates are written once, so a resumed job counts each term once.
 */
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type { MappedTerm, SourceTerm, TermCandidate, TermReview } from '../services/source-mapping/mapping-types.js';
import {
  FINISHED_MAPPING_JOB_STATES,
  MAX_MAPPING_JOBS_PER_OWNER,
  MAX_TERMS_PER_MAPPING_JOB,
  MappingJobLimitError,
  type MappedTermQuery,
  type MappingJobRecord,
  type MappingJobState,
  type NewMappingJob,
  type ReviewProgress,
} from './mapping-job-store.js';
import type { Clock } from './state-store.js';
import { jobOf, mappedTermOf, reviewProgressOf, TERM_COLUMNS, termOf, uncheckedReview, type JobRow, type StatusTally, type TermRow } from './mapping-job-rows.js';

export const MAPPING_JOB_DDL = `
CREATE TABLE IF NOT EXISTS mapping_job (
  id                   TEXT PRIMARY KEY,
  owner_key_id         TEXT,
  name                 TEXT NOT NULL,
  release_label        TEXT NOT NULL,
  cpt4_validated_until TEXT,
  options              TEXT NOT NULL,
  columns              TEXT NOT NULL,
  state                TEXT NOT NULL,
  total_terms          INTEGER NOT NULL,
  mapped_terms         INTEGER NOT NULL DEFAULT 0,
  error                TEXT,
  created_at           TEXT NOT NULL,
  created_seq          INTEGER NOT NULL,
  updated_at           TEXT NOT NULL,
  finished_at          TEXT
);
CREATE INDEX IF NOT EXISTS mapping_job_by_owner ON mapping_job (owner_key_id, created_seq);
CREATE INDEX IF NOT EXISTS mapping_job_by_state ON mapping_job (state, created_seq);
CREATE TABLE IF NOT EXISTS mapping_term (
  job_id           TEXT NOT NULL,
  term_index       INTEGER NOT NULL,
  line             INTEGER NOT NULL,
  source_code      TEXT NOT NULL,
  source_name      TEXT NOT NULL,
  source_frequency REAL NOT NULL,
  additional_info  TEXT NOT NULL,
  hints            TEXT,
  candidates       TEXT,
  status           TEXT NOT NULL,
  review           TEXT NOT NULL,
  review_kept      INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (job_id, term_index)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS mapping_term_by_frequency ON mapping_term (job_id, source_frequency DESC, term_index);
CREATE INDEX IF NOT EXISTS mapping_term_by_status ON mapping_term (job_id, status, source_frequency DESC, term_index);
CREATE TABLE IF NOT EXISTS mapping_job_lease (
  job_id        TEXT PRIMARY KEY,
  runner        TEXT NOT NULL,
  expires_at_ms INTEGER NOT NULL
) WITHOUT ROWID;
`;

export class EmbeddedMappingJobs {
  private readonly stmts;
  private seq: number;

  constructor(
    private readonly db: Database.Database,
    private readonly now: Clock,
  ) {
    db.exec(MAPPING_JOB_DDL);
    this.stmts = {
      insertJob: db.prepare(
        `INSERT INTO mapping_job (id, owner_key_id, name, release_label, cpt4_validated_until, options, columns, state, total_terms,
           created_at, created_seq, updated_at)
         VALUES (@id, @owner_key_id, @name, @release_label, @cpt4_validated_until, @options, @columns, 'queued', @total_terms,
           @created_at, @created_seq, @created_at)`,
      ),
      insertTerm: db.prepare(
        `INSERT INTO mapping_term (job_id, term_index, line, source_code, source_name, source_frequency, additional_info, hints, status, review, review_kept)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      countOwned: db.prepare('SELECT count(*) AS n FROM mapping_job WHERE owner_key_id IS ?'),
      maxSeq: db.prepare('SELECT coalesce(max(created_seq), 0) AS n FROM mapping_job'),
      job: db.prepare('SELECT * FROM mapping_job WHERE id = ?'),
      owned: db.prepare('SELECT * FROM mapping_job WHERE id = ? AND owner_key_id IS ?'),
      list: db.prepare('SELECT * FROM mapping_job WHERE owner_key_id IS ? ORDER BY created_seq DESC'),
      pending: db.prepare(`SELECT ${TERM_COLUMNS} FROM mapping_term WHERE job_id = ? AND candidates IS NULL ORDER BY term_index LIMIT ?`),
      saveTerm: db.prepare(
        `UPDATE mapping_term SET candidates = @candidates, review = CASE WHEN review_kept = 1 THEN review ELSE @review END,
           status = CASE WHEN review_kept = 1 THEN status ELSE @status END
         WHERE job_id = @job_id AND term_index = @index AND candidates IS NULL`,
      ),
      addMapped: db.prepare('UPDATE mapping_job SET mapped_terms = mapped_terms + ?, updated_at = ? WHERE id = ?'),
      setState: db.prepare(
        `UPDATE mapping_job SET state = ?, error = ?, updated_at = ?, finished_at = ? WHERE id = ?
           AND state NOT IN (${FINISHED_MAPPING_JOB_STATES.map((s) => `'${s}'`).join(', ')})`,
      ),
      byFrequency: db.prepare(`SELECT ${TERM_COLUMNS} FROM mapping_term WHERE job_id = ? ORDER BY source_frequency DESC, term_index LIMIT ? OFFSET ?`),
      byIndex: db.prepare(`SELECT ${TERM_COLUMNS} FROM mapping_term WHERE job_id = ? ORDER BY term_index LIMIT ? OFFSET ?`),
      byFrequencyWithStatus: db.prepare(
        `SELECT ${TERM_COLUMNS} FROM mapping_term WHERE job_id = ? AND status = ? ORDER BY source_frequency DESC, term_index LIMIT ? OFFSET ?`,
      ),
      byIndexWithStatus: db.prepare(`SELECT ${TERM_COLUMNS} FROM mapping_term WHERE job_id = ? AND status = ? ORDER BY term_index LIMIT ? OFFSET ?`),
      countTerms: db.prepare('SELECT count(*) AS n FROM mapping_term WHERE job_id = ?'),
      countWithStatus: db.prepare('SELECT count(*) AS n FROM mapping_term WHERE job_id = ? AND status = ?'),
      term: db.prepare(`SELECT ${TERM_COLUMNS} FROM mapping_term WHERE job_id = ? AND term_index = ?`),
      setReview: db.prepare('UPDATE mapping_term SET review = ?, status = ? WHERE job_id = ? AND term_index = ?'),
      progress: db.prepare(
        `SELECT status, count(*) AS terms, coalesce(sum(source_frequency), 0) AS frequency FROM mapping_term WHERE job_id = ? GROUP BY status`,
      ),
      deleteTerms: db.prepare('DELETE FROM mapping_term WHERE job_id = ?'),
      deleteJob: db.prepare('DELETE FROM mapping_job WHERE id = ?'),
      claimable: db.prepare(
        `SELECT j.* FROM mapping_job j LEFT JOIN mapping_job_lease l ON l.job_id = j.id
         WHERE j.state IN ('queued', 'running') AND (l.job_id IS NULL OR l.expires_at_ms <= ? OR l.runner = ?)
         ORDER BY j.created_seq LIMIT 1`,
      ),
      takeLease: db.prepare('INSERT OR REPLACE INTO mapping_job_lease (job_id, runner, expires_at_ms) VALUES (?, ?, ?)'),
      renewLease: db.prepare('UPDATE mapping_job_lease SET expires_at_ms = ? WHERE job_id = ? AND runner = ?'),
      releaseLease: db.prepare('DELETE FROM mapping_job_lease WHERE job_id = ? AND runner = ?'),
      deleteLease: db.prepare('DELETE FROM mapping_job_lease WHERE job_id = ?'),
    };
    this.seq = (this.stmts.maxSeq.get() as { n: number }).n;
  }

  create(job: NewMappingJob): MappingJobRecord {
    if (job.terms.length > MAX_TERMS_PER_MAPPING_JOB) {
      throw new MappingJobLimitError('terms', `a mapping job holds at most ${MAX_TERMS_PER_MAPPING_JOB.toLocaleString('en')} terms (this one has ${job.terms.length.toLocaleString('en')}): split the file`);
    }
    const insert = this.db.transaction((): MappingJobRecord => {
      const owned = (this.stmts.countOwned.get(job.owner_key_id) as { n: number }).n;
      if (owned >= MAX_MAPPING_JOBS_PER_OWNER) {
        throw new MappingJobLimitError('jobs', `a key keeps at most ${MAX_MAPPING_JOBS_PER_OWNER} mapping jobs (this one has ${owned}): delete one first`);
      }
      // Another process may have added jobs since this one started: order after the largest sequence number stored.
      this.seq = Math.max(this.seq, (this.stmts.maxSeq.get() as { n: number }).n) + 1;
      const at = new Date(this.now()).toISOString();
      const id = randomUUID();
      this.stmts.insertJob.run({
        id,
        owner_key_id: job.owner_key_id,
        name: job.name,
        release_label: job.release_label,
        cpt4_validated_until: job.cpt4_validated_until,
        options: JSON.stringify(job.options),
        columns: JSON.stringify(job.columns),
        total_terms: job.terms.length,
        created_at: at,
        created_seq: this.seq,
      });
      const unchecked = uncheckedReview();
      job.terms.forEach((t, position) => {
        const review = job.reviews?.[position];
        this.stmts.insertTerm.run(
          id,
          t.index,
          t.line,
          t.source_code,
          t.source_name,
          t.source_frequency,
          JSON.stringify(t.additional_info),
          t.hints ? JSON.stringify(t.hints) : null,
          (review ?? unchecked).status,
          JSON.stringify(review ?? unchecked),
          review ? 1 : 0,
        );
      });
      return jobOf(this.stmts.job.get(id) as JobRow);
    });
    return insert.immediate();
  }

  find(id: string, ownerKeyId: string | null): MappingJobRecord | undefined {
    const row = this.stmts.owned.get(id, ownerKeyId) as JobRow | undefined;
    return row && jobOf(row);
  }

  /** Any owner's job (the runner's view). */
  findAny(id: string): MappingJobRecord | undefined {
    const row = this.stmts.job.get(id) as JobRow | undefined;
    return row && jobOf(row);
  }

  list(ownerKeyId: string | null): MappingJobRecord[] {
    return (this.stmts.list.all(ownerKeyId) as JobRow[]).map(jobOf);
  }

  claim(runner: string, expiresAtMs: number): MappingJobRecord | undefined {
    const take = this.db.transaction((): MappingJobRecord | undefined => {
      const row = this.stmts.claimable.get(this.now(), runner) as JobRow | undefined;
      if (!row) return undefined;
      this.stmts.takeLease.run(row.id, runner, expiresAtMs);
      return jobOf(row);
    });
    // IMMEDIATE: the write lock is held from the read, so two processes on one state file never claim the same job.
    return take.immediate();
  }

  renewLease(jobId: string, runner: string, expiresAtMs: number): boolean {
    return this.stmts.renewLease.run(expiresAtMs, jobId, runner).changes === 1;
  }

  releaseLease(jobId: string, runner: string): void {
    this.stmts.releaseLease.run(jobId, runner);
  }

  pending(jobId: string, limit: number): SourceTerm[] {
    return (this.stmts.pending.all(jobId, limit) as TermRow[]).map(termOf);
  }

  save(jobId: string, results: { index: number; candidates: TermCandidate[]; review: TermReview }[]): void {
    const write = this.db.transaction(() => {
      let saved = 0;
      for (const r of results) {
        saved += this.stmts.saveTerm.run({
          candidates: JSON.stringify(r.candidates),
          review: JSON.stringify(r.review),
          status: r.review.status,
          job_id: jobId,
          index: r.index,
        }).changes;
      }
      if (saved > 0) this.stmts.addMapped.run(saved, new Date(this.now()).toISOString(), jobId);
    });
    write.immediate();
  }

  setState(jobId: string, state: MappingJobState, error: string | null): MappingJobRecord | undefined {
    const at = new Date(this.now()).toISOString();
    const finished = (FINISHED_MAPPING_JOB_STATES as readonly string[]).includes(state) ? at : null;
    this.stmts.setState.run(state, error, at, finished, jobId);
    return this.findAny(jobId);
  }

  terms(jobId: string, query: MappedTermQuery): { items: MappedTerm[]; total: number } {
    const byIndex = query.order === 'index';
    const rows = query.status
      ? (byIndex ? this.stmts.byIndexWithStatus : this.stmts.byFrequencyWithStatus).all(jobId, query.status, query.limit, query.offset)
      : (byIndex ? this.stmts.byIndex : this.stmts.byFrequency).all(jobId, query.limit, query.offset);
    const total = (query.status ? this.stmts.countWithStatus.get(jobId, query.status) : this.stmts.countTerms.get(jobId)) as { n: number };
    return { items: (rows as TermRow[]).map(mappedTermOf), total: total.n };
  }

  term(jobId: string, index: number): MappedTerm | undefined {
    const row = this.stmts.term.get(jobId, index) as TermRow | undefined;
    return row && mappedTermOf(row);
  }

  updateReview(jobId: string, index: number, review: TermReview): MappedTerm | undefined {
    const changed = this.stmts.setReview.run(JSON.stringify(review), review.status, jobId, index).changes;
    return changed === 1 ? this.term(jobId, index) : undefined;
  }

  progress(jobId: string): ReviewProgress {
    return reviewProgressOf(this.stmts.progress.all(jobId) as StatusTally[]);
  }

  delete(id: string, ownerKeyId: string | null): boolean {
    const remove = this.db.transaction((): boolean => {
      if (!this.stmts.owned.get(id, ownerKeyId)) return false;
      this.stmts.deleteTerms.run(id);
      this.stmts.deleteLease.run(id);
      this.stmts.deleteJob.run(id);
      return true;
    });
    return remove.immediate();
  }
}
