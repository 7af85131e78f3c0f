/**
 * Mapping jobs over HTTP on the demo release: submit (JSON or text/csv) → poll → page → review; bad rows with line and
 * column; bounds; cancel; jobs private to their key; CPT4 never a candidate for an unvalidated key; one-term candidates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { startTestServer, type TestResponse, type TestServer } from '../helpers/test-server.js';

let t: TestServer;
let cpt4Key: string;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
  cpt4Key = await t.createKey({ cpt4_validated_until: '2999-12-31' });
});
afterAll(async () => {
  await t?.close();
});

// Expected targets from examples/demo-vocabulary: 201826 Type 2 diabetes mellitus (SNOMED, standard), 1567956 its
// ICD10CM code E11 (Maps to 201826), 313217 Atrial fibrillation, 2110307 a CPT4 procedure with code 59400.
const CSV = [
  'source_code,source_name,frequency,ward',
  'E11,Type 2 diabetes mellitus,120,north',
  'AF,Atrial fibrillation,300,south',
  'X1,,5,east',
  'X2,Heart failure,many,west',
  '59400,Routine obstetric care including antepartum care,40,maternity',
].join('\n');

async function submit(body: unknown, options: { key?: string; query?: string; headers?: Record<string, string> } = {}): Promise<TestResponse> {
  return t.request(`/v1/mapping-jobs${options.query ?? ''}`, { method: 'POST', body, key: options.key, headers: options.headers });
}

async function finished(id: string, key?: string): Promise<Record<string, any>> {
  for (let i = 0; i < 600; i++) {
    const res = await t.request(`/v1/mapping-jobs/${id}`, { key });
    expect(res.status).toBe(200);
    if (!['queued', 'running'].includes(res.body.data.job.state)) return res.body.data.job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

async function allTerms(id: string, key?: string): Promise<any[]> {
  const res = await t.request(`/v1/mapping-jobs/${id}/terms?order=index&page_size=500`, { key });
  expect(res.status).toBe(200);
  return res.body.data.terms;
}

describe('POST /v1/mapping-jobs → poll → terms → review', () => {
  let jobId: string;

  it('answers 202 with the queued job, the column roles and the bad rows with line and column', async () => {
    const res = await submit({ text: CSV, file_name: 'ward.csv', k: 5, auto_approve: { exact_name: true } });
    expect(res.status, res.text).toBe(202);
    const data = res.body.data;
    jobId = data.job.id;
    expect(res.headers.location).toBe(`/v1/mapping-jobs/${jobId}`);
    expect(data.job).toMatchObject({ name: 'ward.csv', release: '2025.2', total_terms: 3 });
    expect(['queued', 'running', 'completed']).toContain(data.job.state);
    expect(data.columns).toMatchObject({ source_code: 'source_code', source_name: 'source_name', source_frequency: 'frequency' });
    // line 4: empty name (column 2); line 5: a frequency that is not a number (column 3)
    expect(data.bad_rows.map((b: { line: number; column?: number }) => [b.line, b.column])).toEqual([
      [4, 2],
      [5, 3],
    ]);
  });

  it('completes with every kept term mapped once, the extra column kept', async () => {
    const job = await finished(jobId);
    expect(job).toMatchObject({ state: 'completed', total_terms: 3, mapped_terms: 3, error: null });
    expect(job.finished_at).not.toBeNull();
    const terms = await allTerms(jobId);
    expect(terms.map((x) => [x.index, x.line, x.source_code, x.source_frequency])).toEqual([
      [0, 2, 'E11', 120],
      [1, 3, 'AF', 300],
      [2, 6, '59400', 40],
    ]);
    expect(terms[0].additional_info).toEqual({ ward: 'north' });
  });

  it('proposes the standard target first, with reasons; exact-name terms are approved by the rule', async () => {
    const [diabetes, af] = await allTerms(jobId);
    expect(diabetes.candidates[0]).toMatchObject({ concept_id: 201826, vocabulary_id: 'SNOMED', standard_concept: 'S' });
    expect(diabetes.candidates[0].reasons).toEqual(expect.arrayContaining(['exact_name', 'maps_to']));
    expect(diabetes.candidates.length).toBeLessThanOrEqual(5);
    expect(diabetes.candidates.every((c: { standard_concept: string }) => c.standard_concept === 'S')).toBe(true);
    expect(diabetes.review).toMatchObject({ status: 'approved', concept_ids: [201826], status_set_by: { kind: 'rule', rule: 'exact_name' } });
    expect(af.candidates[0].concept_id).toBe(313217);
  });

  it('pages by frequency (default), and filters by status', async () => {
    const first = await t.request(`/v1/mapping-jobs/${jobId}/terms?page_size=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.terms.map((x: { source_code: string }) => x.source_code)).toEqual(['AF', 'E11']);
    expect(first.body.meta.pagination).toMatchObject({ page: 1, page_size: 2, total_items: 3, total_pages: 2, has_next: true });
    const approved = await t.request(`/v1/mapping-jobs/${jobId}/terms?status=approved`);
    expect(approved.body.data.terms.map((x: { source_code: string }) => x.source_code)).toEqual(['AF', 'E11']);
    const bad = await t.request(`/v1/mapping-jobs/${jobId}/terms?status=done`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('status');
  });

  it('a reviewer approves another concept, undoes a rule and sees the progress', async () => {
    const approve = await t.request(`/v1/mapping-jobs/${jobId}/terms/2`, {
      method: 'PATCH',
      body: { status: 'approved', equivalence: 'WIDER', concept_ids: [4299535], reviewer: 'ana', comment: 'not in CPT4 here' },
    });
    // 4299535 is not in the demo release: a target must be a concept of the job's release
    expect(approve.status).toBe(400);
    expect(approve.body.error.message).toContain('4299535');
    const ok = await t.request(`/v1/mapping-jobs/${jobId}/terms/2`, {
      method: 'PATCH',
      body: { status: 'flagged', concept_ids: [201820], reviewer: 'ana', comment: 'check' },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.term.review).toMatchObject({ status: 'flagged', concept_ids: [201820], comment: 'check', status_set_by: { kind: 'reviewer', reviewer: 'ana' } });
    const undo = await t.request(`/v1/mapping-jobs/${jobId}/terms/0`, { method: 'PATCH', body: { status: 'unchecked' } });
    expect(undo.status).toBe(200);
    expect(undo.body.data.term.review).toMatchObject({ status: 'unchecked', status_set_by: null, concept_ids: [201826] });
    const again = await t.request(`/v1/mapping-jobs/${jobId}/terms/2`);
    expect(again.body.data.term.review.status).toBe('flagged');
    const job = (await t.request(`/v1/mapping-jobs/${jobId}`)).body.data.job;
    // AF (300) stays approved by the rule; E11 undone; 59400 flagged
    expect(job.review_progress).toEqual({
      total_terms: 3,
      reviewed_terms: 2,
      approved_terms: 1,
      total_frequency: 460,
      approved_frequency: 300,
      by_status: { unchecked: 1, approved: 1, flagged: 1, ignored: 0 },
    });
  });

  it('a term out of range is 404; a review field of the wrong kind is 400 naming it', async () => {
    expect((await t.request(`/v1/mapping-jobs/${jobId}/terms/3`)).status).toBe(404);
    const res = await t.request(`/v1/mapping-jobs/${jobId}/terms/0`, { method: 'PATCH', body: { status: 'approved', reviewer: 'ana', equivalence: 'SAME' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('equivalence');
  });

  it('exports Usagi\'s saved file with its columns, as a download', async () => {
    const res = await t.request(`/v1/mapping-jobs/${jobId}/export?format=usagi`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="ward.usagi.csv"');
    const [header, ...lines] = res.text.trim().split('\n');
    // the columns of Usagi's WriteCodeMapsToFile (OHDSI/Usagi), ADD_INFO: before the mapping columns
    expect(header).toBe(
      'sourceCode,sourceName,sourceFrequency,sourceAutoAssignedConceptIds,ADD_INFO:ward,matchScore,mappingStatus,equivalence,statusSetBy,' +
        'statusSetOn,conceptId,conceptName,domainId,mappingType,comment,createdBy,createdOn,assignedReviewer',
    );
    const af = lines.find((l) => l.startsWith('AF,'))!;
    expect(af.split(',').slice(6, 8)).toEqual(['APPROVED', 'UNREVIEWED']);
    expect(af).toContain(',313217,Atrial fibrillation,Condition,MAPS_TO,');
    expect(lines.find((l) => l.startsWith('59400,'))).toContain(',FLAGGED,');
  });

  it('exports SOURCE_TO_CONCEPT_MAP (approved terms only) and the review summary', async () => {
    const res = await t.request(`/v1/mapping-jobs/${jobId}/export?format=stcm&source_vocabulary_id=WARD`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="ward.source_to_concept_map.csv"');
    expect(res.text.trim().split('\n')).toEqual([
      // CDM v5.4 SOURCE_TO_CONCEPT_MAP, its 9 columns in order
      'source_code,source_concept_id,source_vocabulary_id,source_code_description,target_concept_id,target_vocabulary_id,valid_start_date,valid_end_date,invalid_reason',
      'AF,0,WARD,Atrial fibrillation,313217,SNOMED,1970-01-01,2099-12-31,',
    ]);
    const missing = await t.request(`/v1/mapping-jobs/${jobId}/export?format=stcm`);
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.parameter).toBe('source_vocabulary_id');
    const wrongFormat = await t.request(`/v1/mapping-jobs/${jobId}/export?format=xlsx`);
    expect(wrongFormat.status).toBe(400);
    const summary = await t.request(`/v1/mapping-jobs/${jobId}/export?format=summary`);
    expect(summary.status).toBe(200);
    expect(summary.headers['content-type']).toMatch(/^text\/markdown/);
    expect(summary.text).toContain('ward.csv');
    const json = await t.request(`/v1/mapping-jobs/${jobId}/export?format=summary_json`);
    expect(json.body).toMatchObject({ total_terms: 3, approved_terms: 1, approved_frequency: 300 });
  });

  it('imports its Usagi export back as a job with the same terms and reviews', async () => {
    const usagi = (await t.request(`/v1/mapping-jobs/${jobId}/export?format=usagi`)).text;
    const res = await t.request('/v1/mapping-jobs/import', { method: 'POST', body: { text: usagi, file_name: 'ward.usagi.csv', k: 5 } });
    expect(res.status, res.text).toBe(202);
    expect(res.body.data.bad_rows).toEqual([]);
    const copy = await finished(res.body.data.job.id);
    expect(copy).toMatchObject({ state: 'completed', total_terms: 3, mapped_terms: 3, name: 'ward.usagi.csv' });
    const original = await allTerms(jobId);
    const imported = await allTerms(copy.id);
    const essentials = (x: any) => [x.source_code, x.source_name, x.source_frequency, x.additional_info, x.review];
    expect(imported.map(essentials)).toEqual(original.map(essentials));
    // candidates are computed for the imported terms, the reviews kept
    expect(imported[1].candidates[0].concept_id).toBe(313217);
    const bad = await t.request('/v1/mapping-jobs/import', { method: 'POST', body: { text: 'a,b\n1,2\n' } });
    expect(bad.status).toBe(400);
  });

  it('lists the job among the key\'s jobs', async () => {
    const res = await t.request('/v1/mapping-jobs');
    expect(res.status).toBe(200);
    expect(res.body.data.jobs.map((j: { id: string }) => j.id)).toContain(jobId);
  });
});

describe('uploads', () => {
  it('takes the file as a text/csv body with its options in the query string', async () => {
    const res = await submit('code\tname\tcount\nI48\tAtrial fibrillation\t7\n', {
      headers: { 'content-type': 'text/tab-separated-values' },
      query: '?name=tsv%20upload&k=3&domain_ids=Condition&auto_approve=exact_name',
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body.data).toMatchObject({ delimiter: 'tab', columns: { source_code: 'code', source_name: 'name', source_frequency: 'count' }, bad_rows: [] });
    expect(res.body.data.job).toMatchObject({ name: 'tsv upload', options: { k: 3, filters: { domain_ids: ['Condition'] }, auto_approve: { exact_name: true } } });
    await finished(res.body.data.job.id);
    const [term] = await allTerms(res.body.data.job.id);
    expect(term.candidates.length).toBeLessThanOrEqual(3);
    expect(term.candidates.every((c: { domain_id: string }) => c.domain_id === 'Condition')).toBe(true);
    expect(term.review).toMatchObject({ status: 'approved', concept_ids: [313217] });
  });

  it('names the column roles the caller chose', async () => {
    const res = await submit({ text: 'a,b\nE11,diabetes type 2\n', columns: { source_code: 'a', source_name: 'b' } });
    expect(res.status, res.text).toBe(202);
    expect(res.body.data.columns).toEqual({ source_code: 'a', source_name: 'b' });
    expect(res.body.data.column_choice).toEqual({ source_code: 'named', source_name: 'named' });
  });

  it('refuses bad options with a 400 naming them, and a restricted vocabulary with a 403', async () => {
    const k = await submit({ text: CSV, k: 26 });
    expect(k.status).toBe(400);
    expect(k.body.error.message).toContain("'k'");
    const role = await submit({ text: CSV, columns: { source_label: 'x' } });
    expect(role.status).toBe(400);
    expect(role.body.error.message).toContain('columns.source_label');
    const stray = await submit({ text: CSV }, { query: '?k=3' });
    expect(stray.status).toBe(400);
    expect(stray.body.error.details.parameter).toBe('k');
    const noText = await submit({ name: 'x' });
    expect(noText.status).toBe(400);
    expect(noText.body.error.message).toContain('text');
    const cpt4 = await submit({ text: CSV, filters: { vocabulary_ids: ['CPT4'] } });
    expect(cpt4.status).toBe(403);
  });

  it('refuses a file without a usable term, and a file without a name column, saying why', async () => {
    const empty = await submit({ text: 'source_code,source_name\nA,\n' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details.bad_rows[0]).toMatchObject({ line: 2 });
    const noName = await submit({ text: 'x,y\n1,2\n' });
    expect(noName.status).toBe(400);
  });

  it('refuses an upload over the size bound with 413 and the bound in the message', async () => {
    const line = 'C1,some source term with a long enough name to fill the file quickly,1\n';
    const text = `code,name,count\n${line.repeat(Math.ceil((8 * 1024 * 1024) / line.length) + 10)}`;
    const res = await submit({ text });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
    expect(res.body.error.message).toContain('8,388,608');
    // with its length declared, it is refused before it is read, the length named
    const body = JSON.stringify({ text });
    const declared = await submit(body, { headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } });
    expect(declared.status).toBe(413);
    expect(declared.body.error.message).toContain(Buffer.byteLength(body).toLocaleString('en'));
  });
});

describe('ownership and licences', () => {
  it('another key gets 404 for every operation on the job and does not list it', async () => {
    const res = await submit({ text: CSV });
    const id = res.body.data.job.id;
    const other = await t.createKey();
    for (const [method, path] of [
      ['GET', `/v1/mapping-jobs/${id}`],
      ['GET', `/v1/mapping-jobs/${id}/terms`],
      ['GET', `/v1/mapping-jobs/${id}/terms/0`],
      ['POST', `/v1/mapping-jobs/${id}/cancel`],
      ['DELETE', `/v1/mapping-jobs/${id}`],
    ] as const) {
      const answer = await t.request(path, { method, key: other });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.error.code).toBe('mapping_job_not_found');
    }
    const patch = await t.request(`/v1/mapping-jobs/${id}/terms/0`, { method: 'PATCH', key: other, body: { comment: 'x' } });
    expect(patch.status).toBe(404);
    expect((await t.request('/v1/mapping-jobs', { key: other })).body.data.jobs).toEqual([]);
    expect((await t.request(`/v1/mapping-jobs/${id}`)).status).toBe(200);
    const anonymous = await t.request(`/v1/mapping-jobs/${id}`, { anonymous: true });
    expect(anonymous.status).toBe(401);
  });

  it('a CPT4 concept is never a candidate for an unvalidated key, even by exact code; a validated key gets it', async () => {
    const plain = await submit({ text: CSV, k: 25, filters: { standard_only: false } });
    await finished(plain.body.data.job.id);
    const plainTerms = await allTerms(plain.body.data.job.id);
    expect(plainTerms.flatMap((x) => x.candidates).some((c: { vocabulary_id: string }) => c.vocabulary_id === 'CPT4')).toBe(false);
    expect(plainTerms.flatMap((x) => x.review.concept_ids)).not.toContain(2110307);

    const validated = await submit({ text: CSV, k: 25 }, { key: cpt4Key });
    await finished(validated.body.data.job.id, cpt4Key);
    const obstetric = (await allTerms(validated.body.data.job.id, cpt4Key))[2];
    expect(obstetric.candidates[0]).toMatchObject({ concept_id: 2110307, vocabulary_id: 'CPT4' });
    expect(obstetric.candidates[0].reasons).toContain('exact_code');
  });

  it('one-term candidates: ranked with score and reasons, CPT4 only for a validated key', async () => {
    const res = await t.request('/v1/mapping/candidates', { method: 'POST', body: { source_name: 'Type 2 diabetes mellitus', source_code: 'E11', k: 3 } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.candidates[0]).toMatchObject({ concept_id: 201826 });
    expect(res.body.data.candidates[0].score).toBeGreaterThan(res.body.data.candidates[1].score);
    expect(res.body.data.candidates[0].reasons).toEqual(expect.arrayContaining(['exact_name']));
    expect(res.body.data.selected_concept_ids).toEqual([201826]);
    expect(res.body.data.candidates.length).toBeLessThanOrEqual(3);

    const body = { source_name: 'Routine obstetric care', source_code: '59400', k: 25, filters: { standard_only: false } };
    const plain = await t.request('/v1/mapping/candidates', { method: 'POST', body });
    expect(plain.body.data.candidates.some((c: { vocabulary_id: string }) => c.vocabulary_id === 'CPT4')).toBe(false);
    const validated = await t.request('/v1/mapping/candidates', { method: 'POST', body, key: cpt4Key });
    expect(validated.body.data.candidates[0].concept_id).toBe(2110307);

    const blank = await t.request('/v1/mapping/candidates', { method: 'POST', body: { source_name: '  ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toContain('source_name');
    const k = await t.request('/v1/mapping/candidates', { method: 'POST', body: { source_name: 'asthma', k: 0 } });
    expect(k.status).toBe(400);
  });
});

describe('cancel and delete', () => {
  it('cancel stops a running job between batches; its mapped terms stay readable', async () => {
    const rows = Array.from({ length: 4000 }, (_, i) => `S${i},${['asthma', 'pneumonia', 'heart failure', 'kidney disease'][i % 4]} ${i},${i}`);
    const res = await submit({ text: `code,name,count\n${rows.join('\n')}` });
    expect(res.status).toBe(202);
    const id = res.body.data.job.id;
    const cancel = await t.request(`/v1/mapping-jobs/${id}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(200);
    expect(cancel.body.data.job.state).toBe('cancelled');
    await t.server.app.mappingJobs.idle();
    const job = (await t.request(`/v1/mapping-jobs/${id}`)).body.data.job;
    expect(job.state).toBe('cancelled');
    expect(job.mapped_terms).toBeLessThan(4000);
    const mapped = await t.request(`/v1/mapping-jobs/${id}/terms?order=index&page_size=1`);
    expect(mapped.body.meta.pagination.total_items).toBe(4000);
    // cancelling a finished job answers it as it is
    const again = await t.request(`/v1/mapping-jobs/${id}/cancel`, { method: 'POST' });
    expect(again.body.data.job).toMatchObject({ state: 'cancelled', mapped_terms: job.mapped_terms });
  });

  it('the server answers other requests while a job runs (the terms are mapped off the request thread)', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `R${i},${['asthma', 'pneumonia', 'heart failure'][i % 3]} ${i},1`);
    const id = (await submit({ text: `code,name,count\n${rows.join('\n')}` })).body.data.job.id;
    let job = (await t.request(`/v1/mapping-jobs/${id}`)).body.data.job;
    for (let i = 0; i < 2000 && job.mapped_terms === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      job = (await t.request(`/v1/mapping-jobs/${id}`)).body.data.job;
    }
    expect(job.state).toBe('running');
    const concept = await t.request('/v1/concepts/201826');
    expect(concept.status).toBe(200);
    expect(concept.body.data.concept_name).toBe('Type 2 diabetes mellitus');
    // answered before the job was done, not after it
    const after = (await t.request(`/v1/mapping-jobs/${id}`)).body.data.job;
    expect(after.state).toBe('running');
    expect(after.mapped_terms).toBeLessThan(3000);
    await t.request(`/v1/mapping-jobs/${id}/cancel`, { method: 'POST' });
    await t.server.app.mappingJobs.idle();
  });

  it('delete removes the job', async () => {
    const res = await submit({ text: CSV });
    const id = res.body.data.job.id;
    const del = await t.request(`/v1/mapping-jobs/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ deleted: true, job_id: id });
    expect((await t.request(`/v1/mapping-jobs/${id}`)).status).toBe(404);
    await t.server.app.mappingJobs.idle();
  });
});
