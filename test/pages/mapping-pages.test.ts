/**
 * The mapping review pages (issue 24, "Review") on the demo vocabulary: a CSV uploaded through the form (multipart,
 * CSRF token), its column roles and bad rows, the job's terms by frequency with candidates, approving a candidate,
 * searching for another concept and approving it, the review progress, the Usagi export; CSRF on every POST, hostile
 * source names escaped, another key's job not found, CPT4 never shown to a key without CPT4 validation.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { pageClient, signIn, type PageClient } from '../helpers/page-client.js';
import { mappedJob as mappedJobOf, uploadMappingFile } from '../helpers/mapping-upload.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** Demo vocabulary concepts (examples/demo-vocabulary/CONCEPT.csv). */
const TYPE_2 = { id: 201826, name: 'Type 2 diabetes mellitus' };
const HYPERTENSION = { id: 320128, name: 'Essential hypertension' };
const ASTHMA = { id: 317009, name: 'Asthma' };
/** A standard CPT4 concept: only a key with CPT4 validation may see it. */
const CPT4 = { id: 2110315, code: '59510', name: 'Routine obstetric care including antepartum care, cesarean delivery, and postpartum care' };
const HOSTILE = '<script>alert(1)</script> & "quoted" <b>bold</b>';

/** The uploaded file: line 1 the header; line 5 has a frequency that is not a number (a bad row, column 3). */
const CSV = [
  'source_code,source_name,frequency,ward',
  `T2,${TYPE_2.name},500,north`,
  `HT,Essential hypertension,900,south`,
  `CP,"${CPT4.name}",300,east`,
  `BAD,Asthma,lots,west`,
  `HX,"${HOSTILE.replace(/"/g, '""')}",5,"<i>ward</i>"`,
  `AS,Asthmatic bronchitis,40,west`,
].join('\n');
/** Kept terms by frequency, highest first (the bad row is left out). */
const BY_FREQUENCY = ['Essential hypertension', TYPE_2.name, CPT4.name, 'Asthmatic bronchitis', HOSTILE];
const TOTAL_FREQUENCY = 900 + 500 + 300 + 40 + 5;

const upload = (t: TestServer, client: PageClient, csv: string, fields: Record<string, string> = {}, csrf = true) => uploadMappingFile(t, client, csv, fields, csrf);
const mappedJob = (t: TestServer, client: PageClient, csv = CSV) => mappedJobOf(t, client, csv);

/** The article of one term (by its source name) in a page. */
function termBlock(html: string, sourceName: string): { index: number; html: string } {
  for (const m of html.matchAll(/<article class="term[^"]*" id="term-(\d+)"[\s\S]*?<\/article>/g)) {
    if (m[0].includes(`>${sourceName}</h`)) return { index: Number(m[1]), html: m[0] };
  }
  throw new Error(`no term named ${sourceName}`);
}

/** Text of HTML as a browser reads it (the entities the pages write). */
const decodeHtml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

let t: TestServer;
let browser: PageClient;
let jobPath: string;
beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
  browser = await signIn(t);
  jobPath = await mappedJob(t, browser);
}, 180_000);
afterAll(async () => t?.close());

describe('starting a job', () => {
  it('offers a multipart upload form with the CSRF token, k, filters and auto-approval rules', async () => {
    const res = await browser.get('/mapping');
    expect(res.status).toBe(200);
    const form = /<form[^>]*id="mapping-upload"[\s\S]*?<\/form>/.exec(res.text)?.[0] ?? '';
    expect(form).toContain('enctype="multipart/form-data"');
    for (const name of ['_csrf', 'file', 'k', 'domain', 'vocabulary', 'concept_class', 'standard_only', 'valid_only', 'auto_exact_code', 'auto_exact_name', 'auto_score']) {
      expect(form, name).toContain(`name="${name}"`);
    }
  });

  it('lists the job with its release, state and progress', async () => {
    const res = await browser.get('/mapping');
    const row = new RegExp(`<tr><td><a href="${jobPath}">terms.csv</a></td><td>2025.2</td><td><span class="badge job-completed">completed</span></td><td class="num">5 of 5`).test(res.text);
    expect(row, res.text.slice(res.text.indexOf('mapping-jobs'), res.text.indexOf('mapping-jobs') + 800)).toBe(true);
  });

  it('shows the column roles used and the bad row with its line and column', async () => {
    const res = await browser.get(jobPath);
    expect(res.status).toBe(200);
    const roles = /<table class="data" id="column-roles">[\s\S]*?<\/table>/.exec(res.text)?.[0] ?? '';
    for (const header of ['source_code', 'source_name', 'frequency']) expect(roles).toContain(`<code>${header}</code>`);
    const bad = /<table class="data" id="bad-rows">[\s\S]*?<\/table>/.exec(res.text)?.[0] ?? '';
    const rows = [...bad.matchAll(/<tr><td class="num">(\d+)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)];
    expect(rows.map((r) => r[1])).toEqual(['5']);
    expect(rows[0]![2]).toMatch(/3|frequency/);
  });

  it('refuses an upload without the CSRF token (403) and stores nothing', async () => {
    const before = (await browser.get('/mapping')).text.match(/<tr><td><a href="\/mapping\//g)?.length ?? 0;
    const res = await upload(t, browser, CSV, {}, false);
    expect(res.status).toBe(403);
    const after = (await browser.get('/mapping')).text.match(/<tr><td><a href="\/mapping\//g)?.length ?? 0;
    expect(after).toBe(before);
  });

  it('refuses a file over the upload bound (413) before mapping anything', async () => {
    const huge = `code,name,frequency\n${'X,a long source name repeated to fill the file,1\n'.repeat(200_000)}`;
    const res = await upload(t, browser, huge);
    expect(res.status).toBe(413);
    expect(res.text).toContain('larger than 8388608 bytes');
  });

  it('a file without a name column comes back to the form with the reason (400)', async () => {
    const res = await upload(t, browser, 'alpha,beta\n1,2\n');
    expect(res.status).toBe(400);
    expect(res.text).toContain('id="upload-error"');
    expect(res.text).toContain('id="mapping-upload"');
  });
});

describe('reviewing', () => {
  it('lists the terms by frequency, each with its candidates and the best pre-selected', async () => {
    const res = await browser.get(jobPath);
    const names = [...res.text.matchAll(/<h3 id="term-\d+-name" class="term-name">([^<]*)<\/h3>/g)].map((m) => decodeHtml(m[1]!));
    expect(names).toEqual(BY_FREQUENCY);
    const t2 = termBlock(res.text, TYPE_2.name).html;
    // The exact name is a candidate, with its reason, and it is the chosen one.
    expect(t2).toMatch(new RegExp(`<input type="radio" name="concept_id" value="${TYPE_2.id}" checked`));
    expect(t2).toContain('exact name');
    expect(t2).toContain('<td>Condition</td><td>SNOMED</td><td>Disorder</td>');
  });

  it('approves the chosen candidate, and the review progress counts it with its frequency', async () => {
    const page = await browser.get(jobPath);
    const { index } = termBlock(page.text, TYPE_2.name);
    const res = await browser.post(`${jobPath}/terms/${index}/review`, { action: 'approve', concept_id: String(TYPE_2.id), equivalence: 'EQUAL', comment: 'checked', return_to: jobPath });
    expect(res.status).toBe(303);
    expect(String(res.headers.location)).toBe(`${jobPath}#term-${index}`);
    const after = await browser.get(jobPath);
    const block = termBlock(after.text, TYPE_2.name).html;
    expect(block).toContain('class="badge status-approved"');
    expect(block).toContain('value="checked"');
    expect(/id="reviewed-terms">(\d+)</.exec(after.text)?.[1]).toBe('1');
    expect(/id="approved-terms">(\d+)</.exec(after.text)?.[1]).toBe('1');
    const covered = ((100 * 500) / TOTAL_FREQUENCY).toFixed(2).replace(/\.?0+$/, '');
    expect(/id="frequency-covered">([^<]*)</.exec(after.text)?.[1]).toBe(`${covered} %`);
    // Filtering by status lists only that term.
    const approved = await browser.get(`${jobPath}?status=approved`);
    expect([...approved.text.matchAll(/<h3 id="term-\d+-name" class="term-name">([^<]*)<\/h3>/g)].map((m) => m[1])).toEqual([TYPE_2.name]);
  });

  it('searches for another concept and approves it', async () => {
    const page = await browser.get(jobPath);
    const { index } = termBlock(page.text, 'Asthmatic bronchitis');
    const found = await browser.get(`${jobPath}/terms/${index}?q=${encodeURIComponent('asthma')}`);
    expect(found.status).toBe(200);
    const results = /<div id="term-\d+-search"[\s\S]*?<\/div>/.exec(found.text)?.[0] ?? '';
    expect(results).toContain(`<a href="/concepts/${ASTHMA.id}">${ASTHMA.name}</a>`);
    const res = await browser.post(`${jobPath}/terms/${index}/review`, { action: 'approve', concept_id: String(ASTHMA.id), equivalence: 'WIDER', return_to: jobPath });
    expect(res.status).toBe(303);
    const after = termBlock((await browser.get(jobPath)).text, 'Asthmatic bronchitis').html;
    expect(after).toContain('class="badge status-approved"');
    expect(after).toMatch(new RegExp(`value="${ASTHMA.id}" checked`));
    expect(after).toMatch(/<option value="WIDER" selected/);
  });

  it('flags, ignores and resets a term', async () => {
    const { index } = termBlock((await browser.get(jobPath)).text, HYPERTENSION.name);
    const status = async () => /class="badge status-([a-z]+)"/.exec(termBlock((await browser.get(jobPath)).text, HYPERTENSION.name).html)?.[1];
    expect((await browser.post(`${jobPath}/terms/${index}/review`, { action: 'flag' })).status).toBe(303);
    expect(await status()).toBe('flagged');
    expect((await browser.post(`${jobPath}/terms/${index}/review`, { action: 'ignore' })).status).toBe(303);
    expect(await status()).toBe('ignored');
    expect((await browser.post(`${jobPath}/terms/${index}/review`, { action: 'reset' })).status).toBe(303);
    expect(await status()).toBe('unchecked');
  });

  it('refuses a review without the CSRF token, or with a bad action or concept (400 naming the field)', async () => {
    const { index } = termBlock((await browser.get(jobPath)).text, HYPERTENSION.name);
    expect((await browser.post(`${jobPath}/terms/${index}/review`, { action: 'approve', _csrf: 'forged' })).status).toBe(403);
    const bad = await browser.post(`${jobPath}/terms/${index}/review`, { action: 'destroy' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('action');
    const unknown = await browser.post(`${jobPath}/terms/${index}/review`, { action: 'approve', concept_id: '999999999' });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('concept 999999999 is not in release 2025.2');
    expect((await browser.post(`${jobPath}/cancel`, { _csrf: 'forged' })).status).toBe(403);
    expect((await browser.post(`${jobPath}/delete`, { _csrf: 'forged' })).status).toBe(403);
  });

  it('exports the reviews as Usagi CSV', async () => {
    const res = await browser.get(`${jobPath}/export?format=usagi`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/csv/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Usagi's dialect escapes a quote with a backslash.
    const rows = parse(res.text, { columns: true, escape: '\\' }) as Record<string, string>[];
    const t2 = rows.find((r) => r.sourceName === TYPE_2.name)!;
    expect(t2.sourceCode).toBe('T2');
    expect(t2.sourceFrequency).toBe('500');
    expect(t2.mappingStatus).toBe('APPROVED');
    expect(t2.conceptId).toBe(String(TYPE_2.id));
    expect(new Set(rows.map((r) => r.sourceName))).toEqual(new Set(BY_FREQUENCY));
  });

  it('exports SOURCE_TO_CONCEPT_MAP (approved terms, the chosen source vocabulary) and the summary', async () => {
    const res = await browser.get(`${jobPath}/export?format=stcm&source_vocabulary_id=WARD_CODES`);
    expect(res.status).toBe(200);
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      'source_code',
      'source_concept_id',
      'source_vocabulary_id',
      'source_code_description',
      'target_concept_id',
      'target_vocabulary_id',
      'valid_start_date',
      'valid_end_date',
      'invalid_reason',
    ]);
    const approved = rows.map((r) => [r.source_code, r.source_vocabulary_id, r.target_concept_id, r.target_vocabulary_id]);
    expect(approved).toContainEqual(['T2', 'WARD_CODES', String(TYPE_2.id), 'SNOMED']);
    expect(approved).toContainEqual(['AS', 'WARD_CODES', String(ASTHMA.id), 'SNOMED']);
    expect(rows.map((r) => r.source_code)).not.toContain('HT');
    const summary = await browser.get(`${jobPath}/export?format=summary`);
    expect(summary.status).toBe(200);
    expect(String(summary.headers['content-type'])).toMatch(/^text\/markdown/);
    expect((await browser.get(`${jobPath}/export?format=xlsx`)).status).toBe(400);
  });
});

describe('cancelling and deleting', () => {
  it('cancels a running job: it stays cancelled with the terms mapped so far', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `C${i},${[TYPE_2.name, HYPERTENSION.name, ASTHMA.name][i % 3]} variant ${i},${i}`);
    const res = await upload(t, browser, ['code,name,frequency', ...rows].join('\n'));
    expect(res.status).toBe(303);
    const path = String(res.headers.location);
    const page = await browser.get(path);
    expect(page.text).toMatch(/id="job-state">(queued|running)</);
    expect(page.text).toContain(`action="${path}/cancel"`);
    expect((await browser.post(`${path}/cancel`, {})).status).toBe(303);
    await new Promise((r) => setTimeout(r, 500));
    const after = await browser.get(`${path}/progress`);
    expect(/id="job-state">([a-z]+)</.exec(after.text)?.[1]).toBe('cancelled');
    const mapped = Number(/id="job-mapped">([\d,]+) of/.exec(after.text)?.[1]?.replace(/,/g, ''));
    expect(mapped).toBeLessThan(3000);
    expect(after.text).not.toContain('/cancel');
  });


  it('deletes a job with its reviews: gone from the list, its page a 404', async () => {
    const doomed = await mappedJob(t, browser, `code,name,frequency\nX,${TYPE_2.name},1\n`);
    const res = await browser.post(`${doomed}/delete`, {});
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/mapping');
    expect((await browser.get(doomed)).status).toBe(404);
    expect((await browser.get('/mapping')).text).not.toContain(doomed);
    expect((await browser.get(jobPath)).status).toBe(200);
  });
});

describe('browsing without a key (--browse-without-key)', () => {
  let open: TestServer;
  beforeAll(async () => {
    open = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }], browseWithoutKey: true });
  }, 120_000);
  afterAll(async () => open?.close());

  it('has no jobs and no upload form: jobs belong to a key (403 on a post)', async () => {
    const first = await pageClient(open).get('/mapping');
    expect(first.status).toBe(200);
    expect(first.text).not.toContain('id="mapping-upload"');
    expect(first.text).toContain('sign in with your key');
    const session = /omopterm_session=([^;]+)/.exec(([] as string[]).concat(first.headers['set-cookie'] ?? []).join('\n'))![1]!;
    const visitor = pageClient(open, `omopterm_session=${session}`);
    expect((await uploadMappingFile(open, visitor, CSV)).status).toBe(403);
    expect((await visitor.get(jobPath)).status).toBe(403);
  });
});

describe('safety', () => {
  it('shows a hostile source name and extra column as text', async () => {
    const res = await browser.get(jobPath);
    expect(res.text).not.toContain('<script>alert(1)</script>');
    expect(res.text).not.toContain('<b>bold</b>');
    expect(res.text).not.toContain('<i>ward</i>');
    const heading = [...res.text.matchAll(/<h3 id="term-\d+-name" class="term-name">([^<]*)<\/h3>/g)].map((m) => m[1]!).find((h) => h.includes('alert'));
    expect(decodeHtml(heading ?? '')).toBe(HOSTILE);
    expect(res.text).toContain('ward: &lt;i>ward&lt;/i>');
  });

  it("another key's session cannot open, review or export the job (404)", async () => {
    const other = await signIn(t, await t.createKey({ name: 'other-reviewer' }));
    expect((await other.get(jobPath)).status).toBe(404);
    expect((await other.get(`${jobPath}/terms/0`)).status).toBe(404);
    expect((await other.get(`${jobPath}/export?format=usagi`)).status).toBe(404);
    expect((await other.post(`${jobPath}/terms/0/review`, { action: 'approve' })).status).toBe(404);
    expect((await other.get('/mapping')).text).not.toContain(jobPath);
  });

  it('never shows a CPT4 candidate or search result to a key without CPT4 validation; a validated key sees it', async () => {
    const page = await browser.get(jobPath);
    const block = termBlock(page.text, CPT4.name);
    expect(page.text).not.toContain(`/concepts/${CPT4.id}`);
    expect(block.html).not.toContain('<td>CPT4</td>');
    const search = await browser.get(`${jobPath}/terms/${block.index}?q=${encodeURIComponent('cesarean delivery')}`);
    expect(search.status).toBe(200);
    expect(search.text).not.toContain(`/concepts/${CPT4.id}`);
    expect((await browser.post(`${jobPath}/terms/${block.index}/review`, { action: 'approve', concept_id: String(CPT4.id) })).status).toBe(403);

    const validated = await signIn(t, await t.createKey({ name: 'cpt4-reviewer', cpt4_validated_until: '2999-12-31' }));
    const theirs = await mappedJob(t, validated);
    const theirPage = await validated.get(theirs);
    expect(termBlock(theirPage.text, CPT4.name).html).toContain(`/concepts/${CPT4.id}`);
  });
});
