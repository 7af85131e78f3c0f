/**
 * The MappingJobStore contract on the embedded state store: jobs survive closing and reopening the state file,
 * belong to the key that made them, are bounded, count each term once, and keep finished states final.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import {
  MAX_MAPPING_JOBS_PER_OWNER,
  MAX_TERMS_PER_MAPPING_JOB,
  MappingJobLimitError,
  type NewMappingJob,
} from '../../src/state/mapping-job-store.js';
import type { SourceTerm, TermCandidate, TermReview } from '../../src/services/source-mapping/mapping-types.js';

let dir: string;
let store: EmbeddedStateStore;
const open = () => new EmbeddedStateStore(join(dir, 'state.sqlite'), { flushIntervalMs: 0 });

const term = (index: number, name: string, frequency: number): SourceTerm => ({
  index,
  line: index + 2,
  source_code: `C${index}`,
  source_name: name,
  source_frequency: frequency,
  additional_info: { ward: `W${index}` },
});
const TERMS = [term(0, 'chest pain', 5), term(1, 'type 2 diabetes', 40), term(2, 'aspirin 100 mg', 12)];
const newJob = (owner: string | null, terms: SourceTerm[] = TERMS): NewMappingJob => ({
  owner_key_id: owner,
  name: 'ward codes.csv',
  release_label: '2025.2',
  cpt4_validated_until: null,
  options: { k: 5, filters: { domain_ids: ['Condition'] }, auto_approve: { exact_name: true } },
  columns: { source_code: 'code', source_name: 'name', source_frequency: 'count' },
  terms,
});
const candidate = (id: number, score: number): TermCandidate => ({
  concept_id: id,
  concept_name: `concept ${id}`,
  domain_id: 'Condition',
  vocabulary_id: 'SNOMED',
  concept_class_id: 'Clinical Finding',
  concept_code: String(id),
  standard_concept: 'S',
  score,
  matched_text: `concept ${id}`,
  reasons: ['keyword'],
});
const review = (status: TermReview['status'], ids: number[]): TermReview => ({
  status,
  equivalence: status === 'approved' ? 'EQUAL' : 'UNREVIEWED',
  concept_ids: ids,
  comment: '',
  status_set_by: status === 'unchecked' ? null : { kind: 'reviewer', reviewer: 'ana' },
  status_set_at: status === 'unchecked' ? null : '2026-11-28T00:00:00.000Z',
  assigned_reviewer: '',
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'omopterm-mapping-jobs-'));
  store = open();
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('mapping jobs in the state store', () => {
  it('a job, its terms and reviews survive closing and reopening the state file; an unfinished job is listed', async () => {
    const job = await store.createMappingJob(newJob('key-a'));
    expect(job).toMatchObject({ state: 'queued', total_terms: 3, mapped_terms: 0, owner_key_id: 'key-a', name: 'ward codes.csv' });
    await store.setMappingJobState(job.id, 'running');
    await store.saveMappedTerms(job.id, [{ index: 0, candidates: [candidate(101, 0.9), candidate(102, 0.5)], review: review('unchecked', [101]) }]);
    await store.updateReview(job.id, 0, review('approved', [102]));
    await store.close();

    store = open();
    const again = await store.mappingJob(job.id, 'key-a');
    expect(again).toMatchObject({ state: 'running', total_terms: 3, mapped_terms: 1, options: newJob('key-a').options, columns: newJob('key-a').columns });
    expect((await store.unfinishedMappingJobs()).map((j) => j.id)).toEqual([job.id]);
    const first = await store.mappedTerm(job.id, 0);
    expect(first?.term).toEqual(TERMS[0]);
    expect(first?.candidates.map((c) => c.concept_id)).toEqual([101, 102]);
    expect(first?.review).toEqual(review('approved', [102]));
    // the two terms without candidates are the ones a resumed runner maps, in index order
    expect((await store.pendingTerms(job.id, 10)).map((t) => t.index)).toEqual([1, 2]);
  });

  it('another key (or the anonymous browser) does not find the job, cannot list or delete it', async () => {
    const job = await store.createMappingJob(newJob('key-a'));
    expect(await store.mappingJob(job.id, 'key-b')).toBeUndefined();
    expect(await store.mappingJob(job.id, null)).toBeUndefined();
    expect(await store.listMappingJobs('key-b')).toEqual([]);
    expect(await store.deleteMappingJob(job.id, 'key-b')).toBe(false);
    expect((await store.listMappingJobs('key-a')).map((j) => j.id)).toEqual([job.id]);
    const anonymous = await store.createMappingJob(newJob(null));
    expect((await store.listMappingJobs(null)).map((j) => j.id)).toEqual([anonymous.id]);
    expect(await store.mappingJob(anonymous.id, 'key-a')).toBeUndefined();
  });

  it('a term is mapped once: saving it again changes neither it nor the count', async () => {
    const job = await store.createMappingJob(newJob('key-a'));
    await store.saveMappedTerms(job.id, [
      { index: 1, candidates: [candidate(201, 0.8)], review: review('unchecked', [201]) },
      { index: 2, candidates: [candidate(301, 0.7)], review: review('unchecked', [301]) },
    ]);
    await store.saveMappedTerms(job.id, [{ index: 1, candidates: [candidate(999, 0.1)], review: review('unchecked', [999]) }]);
    expect((await store.mappingJob(job.id, 'key-a'))?.mapped_terms).toBe(2);
    expect((await store.mappedTerm(job.id, 1))?.candidates.map((c) => c.concept_id)).toEqual([201]);
  });

  it('a review given at creation (an imported file) is kept when the term gets its candidates', async () => {
    const imported = review('approved', [4]);
    const job = await store.createMappingJob({ ...newJob('key-a'), reviews: [imported, undefined, undefined] });
    expect((await store.mappedTerm(job.id, 0))?.review).toEqual(imported);
    expect((await store.reviewProgress(job.id)).approved_terms).toBe(1);
    await store.saveMappedTerms(job.id, [
      { index: 0, candidates: [candidate(4, 0.9)], review: review('unchecked', [9]) },
      { index: 1, candidates: [candidate(5, 0.9)], review: review('unchecked', [5]) },
    ]);
    const first = await store.mappedTerm(job.id, 0);
    expect(first?.review).toEqual(imported);
    expect(first?.candidates.map((c) => c.concept_id)).toEqual([4]);
    expect((await store.mappedTerm(job.id, 1))?.review).toEqual(review('unchecked', [5]));
    expect((await store.mappedTerms(job.id, { offset: 0, limit: 5, status: 'approved' })).total).toBe(1);
  });

  it('pages terms by frequency (then index) or by index, filtered by status', async () => {
    const job = await store.createMappingJob(newJob('key-a'));
    const byFrequency = await store.mappedTerms(job.id, { offset: 0, limit: 2 });
    expect(byFrequency.total).toBe(3);
    expect(byFrequency.items.map((t) => t.term.source_name)).toEqual(['type 2 diabetes', 'aspirin 100 mg']);
    const second = await store.mappedTerms(job.id, { offset: 2, limit: 2, order: 'frequency' });
    expect(second.items.map((t) => t.term.index)).toEqual([0]);
    expect((await store.mappedTerms(job.id, { offset: 0, limit: 5, order: 'index' })).items.map((t) => t.term.index)).toEqual([0, 1, 2]);
    await store.updateReview(job.id, 2, review('approved', [7]));
    const approved = await store.mappedTerms(job.id, { offset: 0, limit: 5, status: 'approved' });
    expect(approved).toMatchObject({ total: 1 });
    expect(approved.items[0]?.term.source_name).toBe('aspirin 100 mg');
    expect((await store.mappedTerms(job.id, { offset: 0, limit: 5, status: 'unchecked', order: 'index' })).items.map((t) => t.term.index)).toEqual([0, 1]);
  });

  it('review progress counts terms and the frequency approved terms carry', async () => {
    const job = await store.createMappingJob(newJob('key-a'));
    await store.updateReview(job.id, 1, review('approved', [5]));
    await store.updateReview(job.id, 0, review('flagged', []));
    expect(await store.reviewProgress(job.id)).toEqual({
      total_terms: 3,
      reviewed_terms: 2,
      approved_terms: 1,
      total_frequency: 57,
      approved_frequency: 40,
      by_status: { unchecked: 1, approved: 1, flagged: 1, ignored: 0 },
    });
  });

  it('an unknown term or job answers undefined on review', async () => {
    const job = await store.createMappingJob(newJob('key-a'));
    expect(await store.updateReview(job.id, 3, review('approved', [1]))).toBeUndefined();
    expect(await store.updateReview('no-such-job', 0, review('approved', [1]))).toBeUndefined();
    expect(await store.mappedTerm(job.id, 3)).toBeUndefined();
  });

  it('a finished state is final, with its time; cancelled or completed jobs are not unfinished', async () => {
    const a = await store.createMappingJob(newJob('key-a'));
    const b = await store.createMappingJob(newJob('key-a'));
    const cancelled = await store.setMappingJobState(a.id, 'cancelled');
    expect(cancelled?.state).toBe('cancelled');
    expect(cancelled?.finished_at).not.toBeNull();
    expect((await store.setMappingJobState(a.id, 'completed'))?.state).toBe('cancelled');
    expect((await store.setMappingJobState(b.id, 'failed', 'release 2025.2 is gone'))).toMatchObject({ state: 'failed', error: 'release 2025.2 is gone' });
    expect(await store.unfinishedMappingJobs()).toEqual([]);
  });

  it('unfinished jobs come oldest first; a key lists its own newest first', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await store.createMappingJob(newJob('key-a'))).id);
    expect((await store.unfinishedMappingJobs()).map((j) => j.id)).toEqual(ids);
    expect((await store.listMappingJobs('key-a')).map((j) => j.id)).toEqual([...ids].reverse());
  });

  it('deleting a job removes it and its terms', async () => {
    const job = await store.createMappingJob(newJob('key-a'));
    expect(await store.deleteMappingJob(job.id, 'key-a')).toBe(true);
    expect(await store.mappingJob(job.id, 'key-a')).toBeUndefined();
    expect((await store.mappedTerms(job.id, { offset: 0, limit: 10 })).total).toBe(0);
    expect(await store.deleteMappingJob(job.id, 'key-a')).toBe(false);
  });

  it('refuses a job over the term bound and an owner over the job bound', async () => {
    const many = Array.from({ length: MAX_TERMS_PER_MAPPING_JOB + 1 }, (_, i) => term(i, `t${i}`, 1));
    await expect(store.createMappingJob(newJob('key-a', many))).rejects.toThrow(MappingJobLimitError);
    for (let i = 0; i < MAX_MAPPING_JOBS_PER_OWNER; i++) await store.createMappingJob(newJob('key-a', TERMS.slice(0, 1)));
    const refused = store.createMappingJob(newJob('key-a', TERMS.slice(0, 1)));
    await expect(refused).rejects.toMatchObject({ limit: 'jobs' });
    // another owner is not affected
    await expect(store.createMappingJob(newJob('key-b', TERMS.slice(0, 1)))).resolves.toMatchObject({ state: 'queued' });
  });
});
