/**
 * Mapping source codes in the browser (issue 24, "Review"): `/mapping` lists the key's mapping jobs and starts one
 * from an uploaded CSV/TSV; `/mapping/{id}` shows its progress, then its terms by frequency with their candidates to
 * review, the search for another concept, the review progress and the exports. Jobs, reviews and files come from
 * the same state store and source-mapping services as `/v1/mapping-jobs`; every control is a plain form (POST, then
 * a redirect back), which htmx turns into in-place swaps.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { ServiceError, validationError } from '../../services/errors.js';
import type { ReleaseView } from '../../services/release-view.js';
import { MAX_RANKED_CANDIDATES } from '../../services/semantic/ranked-candidates.js';
import { applyReviewChange, type ReviewChange } from '../../services/source-mapping/review.js';
import { reviewSummaryMarkdown, summarizeReview } from '../../services/source-mapping/review-summary.js';
import { sourceToConceptMapCsv, sourceToConceptMapRows } from '../../services/source-mapping/source-to-concept-map.js';
import { readSourceTerms, type ColumnRole } from '../../services/source-mapping/source-term-reader.js';
import { checkMappingOptions } from '../../services/source-mapping/term-mapping.js';
import { usagiMappingOf, writeUsagiCsv } from '../../services/source-mapping/usagi-csv.js';
import {
  EQUIVALENCES,
  MAPPING_STATUSES,
  type AutoApprovalRules,
  type Equivalence,
  type MappedTerm,
  type MappingFilters,
  type MappingOptions,
  type MappingStatus,
  type TermCandidate,
  type TermReview,
} from '../../services/source-mapping/mapping-types.js';
import { MappingJobLimitError, MAX_MAPPING_JOBS_PER_OWNER, MAX_TERMS_PER_MAPPING_JOB, type MappingJobRecord, type ReviewProgress } from '../../state/mapping-job-store.js';
import type { StateStore } from '../../state/state-store.js';
import { localReturnPath } from '../plumbing/gatekeeper.js';
import { computeHeavy } from '../plumbing/heavy-work.js';
import { resolveRelease } from '../plumbing/release-resolution.js';
import { MAX_MAPPING_UPLOAD_BYTES } from '../rest/mapping-job-routes.js';
import { CsrfField, pageHeaders, sendFragment, sendPage } from './layout.js';
import { jobPath, MAPPING_PATH, Reasons, StatusBadge, statusWord, TermBlock, termPath, visibleCandidates } from './mapping-controls.js';
import { rememberUpload, uploadReportOf, type BadRow, type UploadReport } from './mapping-session.js';
import { isUploadedFile } from './multipart-form.js';
import { badField, checkbox, formOf, textField, type Form } from './form-fields.js';
import { pageContext, type PageContext, type PagesOptions } from './page-context.js';
import { formatNumber as number, formatPercent, formatScore, plural } from './page-parts.js';

/** Terms the review list shows a page, and candidates per term there (the term's own page lists all k): a page of
 * 10 terms × 5 candidates is about 60 kB of HTML, within the 150 kB page budget with the stylesheet and scripts. */
export const TERMS_PAGE_SIZE = 10;
export const CANDIDATES_SHOWN = 5;
const MAX_TERMS_PAGE = 10_000;
/** Concepts the "search for another concept" lists. */
export const SEARCH_RESULTS = 10;
/** Seconds between two progress polls (htmx) while a job runs. */
export const PROGRESS_POLL_SECONDS = 2;
const MAX_QUERY = 200;
/** Largest source-term file the upload form takes: the REST upload's bound. */
export const MAX_UPLOAD_BYTES = MAX_MAPPING_UPLOAD_BYTES;

type Jobs = StateStore;





/** A comma-separated list of ids (domains, vocabularies, classes); empty entries dropped. */
function idList(form: Form, name: string): string[] | undefined {
  const text = textField(form, name, 500);
  if (text === undefined) return undefined;
  const ids = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const id of ids) {
    // eslint-disable-next-line no-control-regex
    if (id.length > 20 || /[\u0000-\u001f\u007f]/.test(id)) throw badField(name, `${JSON.stringify(id.slice(0, 30))} is not an id (1 to 20 characters, no control characters).`);
  }
  return ids.length ? ids : undefined;
}

function integerField(form: Form, name: string, min: number, max: number, fallback: number): number {
  const text = textField(form, name, 10)?.trim();
  if (text === undefined || text === '') return fallback;
  const n = /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw badField(name, `must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}.`);
  return n;
}

function queryText(request: FastifyRequest, name: string, maxLength: number): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw validationError(`Invalid query parameter '${name}': give it once.`, { parameter: name });
  if (value.length > maxLength) throw validationError(`Invalid query parameter '${name}': at most ${maxLength} characters.`, { parameter: name });
  return value;
}

function pageNumber(request: FastifyRequest): number {
  const text = queryText(request, 'page', 12);
  const page = text === undefined || text === '' ? 1 : /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(page) || page < 1 || page > MAX_TERMS_PAGE) {
    throw validationError(`Invalid query parameter 'page': must be an integer from 1 to ${MAX_TERMS_PAGE}, got ${JSON.stringify(text)}.`, { parameter: 'page' });
  }
  return page;
}

function statusFilter(request: FastifyRequest): MappingStatus | undefined {
  const text = queryText(request, 'status', 20);
  if (text === undefined || text === '' || text === 'all') return undefined;
  if (!(MAPPING_STATUSES as readonly string[]).includes(text)) {
    throw validationError(`Invalid query parameter 'status': must be one of ${MAPPING_STATUSES.join(', ')} or all, got ${JSON.stringify(text.slice(0, 40))}.`, { parameter: 'status' });
  }
  return text as MappingStatus;
}

/** The caller's key id: jobs belong to a key, so an anonymous visitor cannot have any. */
function ownerOf(request: FastifyRequest): string {
  const key = request.caller?.key;
  if (!key) throw new ServiceError(403, 'key_required', 'Mapping jobs belong to an API key: sign in with your key to map source codes.');
  return key.id;
}

/** The job if the signed-in key owns it; 404 otherwise (another key's job is not found). */
async function ownedJob(jobs: Jobs, request: FastifyRequest, id: string): Promise<MappingJobRecord> {
  const job = id.length <= 100 ? await jobs.mappingJob(id, ownerOf(request)) : undefined;
  if (!job) throw new ServiceError(404, 'not_found', `No mapping job ${JSON.stringify(id.slice(0, 100))} for your key.`);
  return job;
}

function termIndex(text: string): number {
  const index = /^\d{1,7}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(index)) throw validationError(`Invalid path parameter 'index': must be a term number (an integer from 0), got ${JSON.stringify(text.slice(0, 40))}.`, { parameter: 'index' });
  return index;
}

async function ownedTerm(jobs: Jobs, job: MappingJobRecord, index: number): Promise<MappedTerm> {
  const term = await jobs.mappedTerm(job.id, index);
  if (!term) throw new ServiceError(404, 'not_found', `Mapping job ${job.id} has no term ${index}.`);
  return term;
}

/** The view of the release the job was mapped on, with the caller's licences. */
function jobView(options: PagesOptions, request: FastifyRequest, job: MappingJobRecord): ReleaseView {
  if (request.view.label === job.release_label) return request.view;
  return request.view.onRelease(resolveRelease(options.registry, job.release_label, { surface: 'page', parameter: 'vocab_release' }));
}

/** The job's release if it is still loaded, else the request's (the stored candidates are flat copies and still show). */
function jobViewIfLoaded(options: PagesOptions, request: FastifyRequest, job: MappingJobRecord): ReleaseView {
  try {
    return jobView(options, request, job);
  } catch (error) {
    if (error instanceof ServiceError) return request.view;
    throw error;
  }
}

const finished = (job: MappingJobRecord) => job.state === 'completed' || job.state === 'cancelled' || job.state === 'failed';
const percent = (part: number, whole: number) => (whole > 0 ? (100 * part) / whole : null);

// --- the list of jobs and the upload form ------------------------------------------------------------------------

function JobsTable({ ctx, jobs }: { ctx: PageContext; jobs: MappingJobRecord[] }): VNode {
  if (jobs.length === 0) return <p id="no-jobs">No mapping jobs yet: start one below.</p>;
  return (
    <table class="data" id="mapping-jobs">
      <caption class="visually-hidden">Your mapping jobs, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Release</th>
          <th scope="col">State</th>
          <th scope="col" class="num">
            Terms mapped
          </th>
          <th scope="col">Started</th>
        </tr>
      </thead>
      <tbody>
        {jobs.map((job) => (
          <tr>
            <td>
              <a href={ctx.link(jobPath(job.id))}>{job.name}</a>
            </td>
            <td>{job.release_label}</td>
            <td>
              <span class={`badge job-${job.state}`}>{job.state}</span>
            </td>
            <td class="num">
              {number(job.mapped_terms)} of {number(job.total_terms)} ({formatPercent(percent(job.mapped_terms, job.total_terms))})
            </td>
            <td>{job.created_at.slice(0, 16).replace('T', ' ')} UTC</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function UploadForm({ ctx }: { ctx: PageContext }): VNode {
  return (
    <form method="post" action={ctx.link(MAPPING_PATH)} enctype="multipart/form-data" class="stack wide" id="mapping-upload">
      <CsrfField ctx={ctx} />
      <label for="mapping-file">Source terms: a CSV or TSV file with a header (source code, source name, frequency; other columns are kept)</label>
      <input type="file" id="mapping-file" name="file" accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain" required />
      <label for="mapping-name">Name (the file's name when empty)</label>
      <input type="text" id="mapping-name" name="name" maxLength={200} />
      <label for="mapping-k">Candidates per term (1 to {MAX_RANKED_CANDIDATES})</label>
      <input type="number" id="mapping-k" name="k" min={1} max={MAX_RANKED_CANDIDATES} value="10" />
      <fieldset>
        <legend>Filters (comma-separated ids; empty for all)</legend>
        <div class="fields">
          <label for="mapping-domain">Domains</label>
          <input type="text" id="mapping-domain" name="domain" placeholder="Condition, Drug" />
          <label for="mapping-vocabulary">Vocabularies</label>
          <input type="text" id="mapping-vocabulary" name="vocabulary" placeholder="SNOMED, RxNorm" />
          <label for="mapping-class">Concept classes</label>
          <input type="text" id="mapping-class" name="concept_class" placeholder="Clinical Finding" />
        </div>
        <span class="row">
          <input type="checkbox" id="mapping-standard" name="standard_only" value="true" checked />
          <label for="mapping-standard">standard concepts only</label>
          <input type="checkbox" id="mapping-valid" name="valid_only" value="true" checked />
          <label for="mapping-valid">valid concepts only</label>
        </span>
      </fieldset>
      <fieldset>
        <legend>Approve automatically (a reviewer can undo it)</legend>
        <span class="row">
          <input type="checkbox" id="mapping-auto-code" name="auto_exact_code" value="true" />
          <label for="mapping-auto-code">exact code</label>
          <input type="checkbox" id="mapping-auto-name" name="auto_exact_name" value="true" />
          <label for="mapping-auto-name">exact name or synonym</label>
          <label for="mapping-auto-score">score at least</label>
          <input type="number" id="mapping-auto-score" name="auto_score" min="0" max="1" step="0.01" />
        </span>
      </fieldset>
      <details>
        <summary>Column roles (guessed from the header when empty)</summary>
        <div class="fields">
          <label for="mapping-code-column">Source code column</label>
          <input type="text" id="mapping-code-column" name="code_column" maxLength={100} />
          <label for="mapping-name-column">Source name column</label>
          <input type="text" id="mapping-name-column" name="name_column" maxLength={100} />
          <label for="mapping-frequency-column">Frequency column</label>
          <input type="text" id="mapping-frequency-column" name="frequency_column" maxLength={100} />
        </div>
      </details>
      <p class="hint">
        Candidates come from release <strong>{ctx.view!.label}</strong> (change it with the release switcher above), with your key's licences.
      </p>
      <span>
        <button type="submit" class="primary">
          Start mapping
        </button>
      </span>
    </form>
  );
}

async function sendJobsPage(reply: FastifyReply, ctx: PageContext, jobs: MappingJobRecord[], canMap: boolean, error?: ServiceError): Promise<FastifyReply> {
  return sendPage(reply, ctx, {
    title: 'Mapping source codes',
    section: 'mapping',
    status: error?.status,
    body: [
      <h1>Mapping source codes</h1>,
      <p class="hint">
        Upload your source terms, get ranked candidate concepts for each, review them by frequency, and export Usagi's CSV or SOURCE_TO_CONCEPT_MAP.
      </p>,
      <section aria-labelledby="jobs-heading">
        <h2 id="jobs-heading">Your mapping jobs</h2>
        <JobsTable ctx={ctx} jobs={jobs} />
      </section>,
      <section aria-labelledby="start-heading">
        <h2 id="start-heading">Start a mapping job</h2>
        {error ? (
          <p role="alert" class="error" id="upload-error">
            {error.message}
          </p>
        ) : null}
        {canMap ? <UploadForm ctx={ctx} /> : <p>Mapping jobs belong to an API key: sign in with your key to start one.</p>}
      </section>,
    ],
  });
}

// --- one job --------------------------------------------------------------------------------------------------------

function JobProgress({ ctx, job }: { ctx: PageContext; job: MappingJobRecord }): VNode {
  const running = !finished(job);
  const poll = running
    ? { 'hx-get': ctx.link(`${jobPath(job.id)}/progress`), 'hx-trigger': `every ${PROGRESS_POLL_SECONDS}s`, 'hx-swap': 'outerHTML' }
    : {};
  return (
    <section id="job-progress" aria-labelledby="job-progress-heading" {...poll}>
      <h2 id="job-progress-heading">Progress</h2>
      <p>
        <span class={`badge job-${job.state}`} id="job-state">
          {job.state}
        </span>{' '}
        <span id="job-mapped">
          {number(job.mapped_terms)} of {plural(job.total_terms, 'term')}
        </span>{' '}
        mapped ({formatPercent(percent(job.mapped_terms, job.total_terms))}).
        {job.error ? <span class="error"> {job.error}</span> : null}
      </p>
      <progress max={Math.max(1, job.total_terms)} value={job.mapped_terms} aria-labelledby="job-progress-heading">
        {formatPercent(percent(job.mapped_terms, job.total_terms))}
      </progress>
      {running ? (
        <div class="row">
          <a href={ctx.link(jobPath(job.id))}>Refresh</a>
          <form method="post" action={ctx.link(`${jobPath(job.id)}/cancel`)}>
            <CsrfField ctx={ctx} />
            <button type="submit">Cancel the job</button>
          </form>
        </div>
      ) : null}
    </section>
  );
}

function ReviewProgressSection({ ctx, job, progress, status }: { ctx: PageContext; job: MappingJobRecord; progress: ReviewProgress; status?: MappingStatus }): VNode {
  const filter = (s: MappingStatus | undefined, label: string, count: number) => (
    <li>
      <a href={ctx.link(jobPath(job.id), { status: s })} aria-current={s === status ? 'page' : undefined}>
        {label}
      </a>{' '}
      <span class="count">{number(count)}</span>
    </li>
  );
  return (
    <section id="review-progress" aria-labelledby="review-progress-heading">
      <h2 id="review-progress-heading">Review</h2>
      <p>
        <strong id="reviewed-terms">{number(progress.reviewed_terms)}</strong> of {plural(progress.total_terms, 'term')} reviewed,{' '}
        <strong id="approved-terms">{number(progress.approved_terms)}</strong> approved; the approved terms cover{' '}
        <strong id="frequency-covered">{formatPercent(percent(progress.approved_frequency, progress.total_frequency))}</strong> of the source frequency (
        {number(progress.approved_frequency)} of {number(progress.total_frequency)}).
      </p>
      <progress max={Math.max(1, progress.total_frequency)} value={progress.approved_frequency} aria-label="Source frequency covered by approved terms">
        {formatPercent(percent(progress.approved_frequency, progress.total_frequency))}
      </progress>
      <nav aria-label="Filter the terms by status">
        <ul class="status-filter">
          {filter(undefined, 'All', progress.total_terms)}
          {MAPPING_STATUSES.map((s) => filter(s, statusWord(s), progress.by_status[s] ?? 0))}
        </ul>
      </nav>
    </section>
  );
}

function ExportLinks({ ctx, job }: { ctx: PageContext; job: MappingJobRecord }): VNode {
  const link = (format: string) => ctx.link(`${jobPath(job.id)}/export`, { format });
  return (
    <section aria-labelledby="export-heading">
      <h2 id="export-heading">Export</h2>
      <ul id="export-links">
        <li>
          <a href={link('usagi')} download="">
            Usagi CSV
          </a>{' '}
          (opens in Usagi; every term with its review)
        </li>
        <li>
          <form method="get" action={`${jobPath(job.id)}/export`} class="row">
            {ctx.chosenRelease ? <input type="hidden" name="vocab_release" value={ctx.chosenRelease} /> : null}
            <input type="hidden" name="format" value="stcm" />
            <a href={link('stcm')} download="">
              SOURCE_TO_CONCEPT_MAP
            </a>
            <span class="hint">(CDM v5.4; approved terms only), with</span>
            <label for="stcm-vocabulary">source_vocabulary_id</label>
            <input type="text" id="stcm-vocabulary" name="source_vocabulary_id" value={DEFAULT_SOURCE_VOCABULARY} maxLength={20} required />
            <button type="submit" class="small">Download</button>
          </form>
        </li>
        <li>
          <a href={link('summary')} download="">
            Review summary
          </a>
        </li>
      </ul>
    </section>
  );
}

function UploadReportSection({ report }: { report: UploadReport }): VNode {
  return (
    <section aria-labelledby="upload-heading" id="upload-report">
      <h2 id="upload-heading">The uploaded file</h2>
      <table class="data" id="column-roles">
        <caption>Column roles used for {report.file_name}</caption>
        <thead>
          <tr>
            <th scope="col">Role</th>
            <th scope="col">Column</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(report.columns).map(([role, column]) => (
            <tr>
              <th scope="row">{role.replace(/_/g, ' ')}</th>
              <td>
                <code>{column}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {report.bad_row_count === 0 ? (
        <p id="bad-rows-none">Every row was read.</p>
      ) : (
        <table class="data" id="bad-rows">
          <caption>
            {plural(report.bad_row_count, 'row')} left out
            {report.bad_row_count > report.bad_rows.length ? ` (the first ${number(report.bad_rows.length)} listed)` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                Line
              </th>
              <th scope="col">Column</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {report.bad_rows.map((r) => (
              <tr>
                <td class="num">{String(r.line)}</td>
                <td>{r.column === null ? '' : String(r.column)}</td>
                <td>{r.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function JobFacts({ job }: { job: MappingJobRecord }): VNode {
  const f = job.options.filters;
  const rules = [job.options.auto_approve.exact_code ? 'exact code' : '', job.options.auto_approve.exact_name ? 'exact name or synonym' : '', job.options.auto_approve.score_at_least !== undefined ? `score ≥ ${job.options.auto_approve.score_at_least}` : '']
    .filter(Boolean)
    .join(', ');
  return (
    <dl class="fields" id="job-facts">
      <dt>Release</dt>
      <dd>{job.release_label}</dd>
      <dt>Candidates per term</dt>
      <dd>{String(job.options.k)}</dd>
      <dt>Filters</dt>
      <dd>
        {[
          f.domain_ids?.length ? `domains ${f.domain_ids.join(', ')}` : '',
          f.vocabulary_ids?.length ? `vocabularies ${f.vocabulary_ids.join(', ')}` : '',
          f.concept_class_ids?.length ? `classes ${f.concept_class_ids.join(', ')}` : '',
          f.standard_only === false ? 'standard or not' : 'standard only',
          f.valid_only === false ? 'valid or not' : 'valid only',
        ]
          .filter(Boolean)
          .join('; ')}
      </dd>
      <dt>Approved automatically</dt>
      <dd>{rules || 'never'}</dd>
      <dt>Columns</dt>
      <dd>
        {Object.entries(job.columns)
          .map(([role, column]) => `${role.replace(/_/g, ' ')}: ${column}`)
          .join('; ')}
      </dd>
      <dt>Started</dt>
      <dd>{job.created_at.slice(0, 19).replace('T', ' ')} UTC</dd>
    </dl>
  );
}

// --- search for another concept ---------------------------------------------------------------------------------

/** Candidates for a text typed by the reviewer: the job's own term mapping (ranking, filters, licence), k = SEARCH_RESULTS. */
async function searchConceptsFor(request: FastifyRequest, view: ReleaseView, job: MappingJobRecord, term: MappedTerm, text: string): Promise<TermCandidate[]> {
  const asked = { ...term.term, source_code: '', source_name: text };
  const result = await computeHeavy(request, 'termCandidates', view, { term: asked, options: { k: SEARCH_RESULTS, filters: job.options.filters, auto_approve: {} } });
  return result.candidates;
}

function SearchResults({ ctx, job, term, query, results, returnTo }: { ctx: PageContext; job: MappingJobRecord; term: MappedTerm; query: string; results: TermCandidate[]; returnTo: string }): VNode {
  const id = `term-${term.term.index}`;
  const action = ctx.link(`${termPath(job.id, term.term.index)}/review`);
  return (
    <div id={`${id}-search`} aria-live="polite" class="term-search-results">
      {results.length === 0 ? (
        <p>No concept found for “{query}”.</p>
      ) : (
        <table class="data">
          <caption>
            Concepts for “{query}”, best first ({job.release_label})
          </caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                Score
              </th>
              <th scope="col">Concept</th>
              <th scope="col">Why</th>
              <th scope="col">Domain</th>
              <th scope="col">Vocabulary</th>
              <th scope="col">Class</th>
              <th scope="col">Approve</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr>
                <td class="num">{formatScore(r.score)}</td>
                <td>
                  <a href={ctx.link(`/concepts/${r.concept_id}`)}>{r.concept_name}</a> <span class="hint">{String(r.concept_id)}</span>
                </td>
                <td>
                  <Reasons reasons={r.reasons} via={r.via_concept_ids} />
                </td>
                <td>{r.domain_id}</td>
                <td>{r.vocabulary_id}</td>
                <td>{r.concept_class_id}</td>
                <td>
                  <form method="post" action={action} hx-post={action} hx-target={`#${id}`} hx-select={`#${id}`} hx-swap="outerHTML" hx-select-oob="#review-progress">
                    <CsrfField ctx={ctx} />
                    <input type="hidden" name="return_to" value={returnTo} />
                    <input type="hidden" name="concept_id" value={String(r.concept_id)} />
                    <input type="hidden" name="equivalence" value="EQUAL" />
                    <input type="hidden" name="comment" value={term.review.comment} />
                    <button type="submit" name="action" value="approve" class="small" aria-label={`Approve ${r.concept_name} (${r.concept_id}) for ${term.term.source_name}`}>
                      Approve
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

// --- reviews ----------------------------------------------------------------------------------------------------

const REVIEW_ACTIONS = ['approve', 'flag', 'ignore', 'reset'] as const;
type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** The review change a form asks for: the action, the chosen concept (a candidate or any concept found by search), equivalence, comment. */
function reviewChangeOf(form: Form, view: ReleaseView, term: MappedTerm): ReviewChange {
  const action = textField(form, 'action', 10);
  if (!action || !(REVIEW_ACTIONS as readonly string[]).includes(action)) throw badField('action', `must be one of ${REVIEW_ACTIONS.join(', ')}.`);
  const equivalence = textField(form, 'equivalence', 20);
  if (equivalence !== undefined && !(EQUIVALENCES as readonly string[]).includes(equivalence)) throw badField('equivalence', `must be one of ${EQUIVALENCES.join(', ')}.`);
  const comment = textField(form, 'comment', 4000);
  const conceptText = textField(form, 'concept_id', 12)?.trim();
  let chosen: number[] | undefined;
  if (conceptText !== undefined && conceptText !== '') {
    const id = /^\d{1,10}$/.test(conceptText) ? Number(conceptText) : NaN;
    if (!Number.isSafeInteger(id) || id > 0x7fffffff) throw badField('concept_id', `must be a concept id, got ${JSON.stringify(conceptText)}.`);
    chosen = [id];
  }
  const kind = action as ReviewAction;
  if (kind === 'reset') {
    // Back to the job's proposal: unchecked, unreviewed, the best candidate the key may see (undoes an automatic approval too).
    const best = term.candidates.find((c) => view.canSee(c.vocabulary_id));
    return { status: 'unchecked', equivalence: 'UNREVIEWED', concept_ids: best ? [best.concept_id] : [], ...(comment !== undefined ? { comment } : {}) };
  }
  const status: MappingStatus = kind === 'approve' ? 'approved' : kind === 'flag' ? 'flagged' : 'ignored';
  if (status === 'approved' && !chosen && term.review.concept_ids.length === 0) throw badField('concept_id', 'choose a concept to approve (a candidate, or one found by search).');
  const current = (equivalence as Equivalence | undefined) ?? term.review.equivalence;
  return {
    status,
    ...(chosen ? { concept_ids: chosen } : {}),
    // An approval says how the concept fits; left unreviewed, it is taken as equal (Usagi's default on approval).
    equivalence: status === 'approved' && current === 'UNREVIEWED' ? 'EQUAL' : current,
    ...(comment !== undefined ? { comment } : {}),
  };
}

// --- uploads ----------------------------------------------------------------------------------------------------

interface ReadUpload {
  name: string;
  fileName: string;
  text: Buffer;
  options: MappingOptions;
  columns: Partial<Record<ColumnRole, string>>;
}

/** The upload form's fields: the file, the name, and the options as the REST body names them (checked by the same function). */
function readUploadForm(form: Form, view: ReleaseView): ReadUpload {
  const file = form.file;
  if (!isUploadedFile(file) || file.data.length === 0) throw badField('file', 'choose a CSV or TSV file of source terms.');
  const fileName = file.filename.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) || 'source terms';
  const name = textField(form, 'name', 200)?.trim() || fileName;
  const scoreText = textField(form, 'auto_score', 10)?.trim();
  let score: number | undefined;
  if (scoreText) {
    score = /^(\d+(\.\d*)?|\.\d+)$/.test(scoreText) ? Number(scoreText) : NaN;
    if (!Number.isFinite(score) || score < 0 || score > 1) throw badField('auto_score', `must be a score from 0 to 1, got ${JSON.stringify(scoreText)}.`);
  }
  const options = checkMappingOptions(
    {
      k: integerField(form, 'k', 1, MAX_RANKED_CANDIDATES, 10),
      filters: {
        domain_ids: idList(form, 'domain'),
        vocabulary_ids: idList(form, 'vocabulary'),
        concept_class_ids: idList(form, 'concept_class'),
        standard_only: checkbox(form, 'standard_only'),
        valid_only: checkbox(form, 'valid_only'),
      },
      auto_approve: { exact_code: checkbox(form, 'auto_exact_code'), exact_name: checkbox(form, 'auto_exact_name'), score_at_least: score },
    },
    view,
  );
  const columns: Partial<Record<ColumnRole, string>> = {};
  for (const [role, field] of [['source_code', 'code_column'], ['source_name', 'name_column'], ['source_frequency', 'frequency_column']] as const) {
    const header = textField(form, field, 100)?.trim();
    if (header) columns[role] = header;
  }
  return { name, fileName, text: file.data, options, columns };
}

/** Reads the file (bad rows kept aside), stores the job and wakes the runner: what POST /v1/mapping-jobs does. */
async function startJob(state: StateStore, request: FastifyRequest, owner: string, upload: ReadUpload): Promise<{ job: MappingJobRecord; badRows: BadRow[] }> {
  const file = readSourceTerms(upload.text, { fileName: upload.fileName, columns: upload.columns, maxTerms: MAX_TERMS_PER_MAPPING_JOB, maxBytes: MAX_MAPPING_UPLOAD_BYTES });
  if (file.terms.length === 0) {
    throw new ServiceError(400, 'validation_error', `${upload.fileName} holds no usable source term (${plural(file.bad_rows.length, 'bad row')}${file.bad_rows[0] ? `; line ${file.bad_rows[0].line}: ${file.bad_rows[0].message}` : ''}).`, { parameter: 'file' });
  }
  let job: MappingJobRecord;
  try {
    job = await state.createMappingJob({
      owner_key_id: owner,
      name: upload.name,
      release_label: request.view.label,
      cpt4_validated_until: request.caller.key?.cpt4_validated_until ?? null,
      options: upload.options,
      columns: file.columns as Record<string, string>,
      terms: file.terms,
    });
  } catch (error) {
    if (!(error instanceof MappingJobLimitError)) throw error;
    throw error.limit === 'terms'
      ? new ServiceError(413, 'payload_too_large', error.message, { max_terms: MAX_TERMS_PER_MAPPING_JOB })
      : new ServiceError(409, 'too_many_mapping_jobs', `${error.message} (at most ${MAX_MAPPING_JOBS_PER_OWNER}: delete one)`);
  }
  request.server.mappingJobs.kick();
  return { job, badRows: file.bad_rows.map((r) => ({ line: r.line, column: r.column_name ?? r.column ?? null, message: r.message })) };
}

/** Stops a job: its state first (the runner checks it), then the runner's batch in progress, as POST /v1/mapping-jobs/{id}/cancel does. */
async function cancelJob(state: StateStore, request: FastifyRequest, jobId: string): Promise<void> {
  await state.setMappingJobState(jobId, 'cancelled');
  request.server.mappingJobs.cancel(jobId);
}

/** Source vocabulary id the SOURCE_TO_CONCEPT_MAP form proposes. */
const DEFAULT_SOURCE_VOCABULARY = 'LOCAL';

/**
 * The export file of a job, from the source-mapping writers (Usagi CSV, SOURCE_TO_CONCEPT_MAP, summary). Candidates
 * and targets the viewer may not see (a CPT4 validation that lapsed since the job ran) are left out first.
 */
function exportFileOf(view: ReleaseView, job: MappingJobRecord, all: MappedTerm[], format: 'usagi' | 'stcm' | 'summary', sourceVocabularyId: string): { body: string; type: string; file: string } {
  const terms = all.map((t) => ({
    ...t,
    candidates: visibleCandidates(view, t.candidates),
    review: { ...t.review, concept_ids: t.review.concept_ids.filter((id) => view.concept(id) !== undefined || t.candidates.some((c) => c.concept_id === id && view.canSee(c.vocabulary_id))) },
  }));
  const concept = (id: number) => view.concept(id);
  const base = job.name.replace(/\.(csv|tsv|txt)$/i, '');
  if (format === 'usagi') return { body: writeUsagiCsv(terms.map((t) => usagiMappingOf(t, concept))), type: 'text/csv; charset=utf-8', file: `${base}-usagi.csv` };
  if (format === 'stcm') {
    const rows = sourceToConceptMapRows(terms, (id) => concept(id)?.vocabulary_id, { sourceVocabularyId });
    return { body: sourceToConceptMapCsv(rows), type: 'text/csv; charset=utf-8', file: `${base}-source_to_concept_map.csv` };
  }
  return { body: reviewSummaryMarkdown(summarizeReview(terms, concept), `Mapping review: ${job.name}`), type: 'text/markdown; charset=utf-8', file: `${base}-summary.md` };
}

export function registerMappingPages(app: FastifyInstance, options: PagesOptions & { state: StateStore }): void {
  const jobs = options.state;
  const signedIn = { config: { page: 'signed-in' }, schema: { hide: true } } as const;
  const reviewerOf = (request: FastifyRequest) => request.caller?.key?.name ?? 'anonymous';

  app.get(MAPPING_PATH, signedIn, async (request, reply) => {
    const ctx = pageContext(request, options);
    const key = request.caller?.key;
    const list = key ? await jobs.listMappingJobs(key.id) : [];
    return sendJobsPage(reply, ctx, list, key !== null && key !== undefined);
  });

  app.post(MAPPING_PATH, signedIn, async (request, reply) => {
    const owner = ownerOf(request);
    const ctx = pageContext(request, options);
    let started: { job: MappingJobRecord; badRows: BadRow[] };
    let upload: ReadUpload;
    try {
      upload = readUploadForm(formOf(request), request.view);
      started = await startJob(options.state, request, owner, upload);
    } catch (error) {
      // A file that cannot be read at all (no name column, too large, bad options): the form again, with the reason.
      if (error instanceof ServiceError && error.status >= 400 && error.status < 500 && error.status !== 403) {
        return sendJobsPage(reply, ctx, await jobs.listMappingJobs(owner), true, error);
      }
      throw error;
    }
    await rememberUpload(options.state, request, {
      job_id: started.job.id,
      file_name: upload.fileName,
      columns: started.job.columns,
      bad_rows: started.badRows,
      bad_row_count: started.badRows.length,
    });
    return reply.redirect(ctx.link(jobPath(started.job.id)), 303);
  });

  app.get<{ Params: { id: string } }>(`${MAPPING_PATH}/:id`, signedIn, async (request, reply) => {
    const job = await ownedJob(jobs, request, request.params.id);
    const ctx = pageContext(request, options);
    const page = pageNumber(request);
    const status = statusFilter(request);
    const view = jobViewIfLoaded(options, request, job);
    const [progress, terms, report] = await Promise.all([
      jobs.reviewProgress(job.id),
      jobs.mappedTerms(job.id, { offset: (page - 1) * TERMS_PAGE_SIZE, limit: TERMS_PAGE_SIZE, order: 'frequency', status }),
      uploadReportOf(options.state, request, job.id),
    ]);
    const pages = Math.max(1, Math.ceil(terms.total / TERMS_PAGE_SIZE));
    if (page > pages) throw validationError(`Invalid query parameter 'page': there ${pages === 1 ? 'is 1 page' : `are ${number(pages)} pages`}.`, { parameter: 'page' });
    const here = ctx.link(jobPath(job.id), { page: page > 1 ? page : undefined, status });
    const first = (page - 1) * TERMS_PAGE_SIZE;
    const pageLink = (p: number) => ctx.link(jobPath(job.id), { page: p > 1 ? p : undefined, status });
    return sendPage(reply, ctx, {
      title: `Mapping: ${job.name}`,
      section: 'mapping',
      body: [
        <p class="hint">
          <a href={ctx.link(MAPPING_PATH)}>Mapping jobs</a> › {job.name}
        </p>,
        <h1>{job.name}</h1>,
        <JobFacts job={job} />,
        report ? <UploadReportSection report={report} /> : null,
        <JobProgress ctx={ctx} job={job} />,
        <ReviewProgressSection ctx={ctx} job={job} progress={progress} status={status} />,
        <ExportLinks ctx={ctx} job={job} />,
        <section id="terms" aria-labelledby="terms-heading">
          <h2 id="terms-heading">
            Terms by frequency{status ? `: ${statusWord(status).toLowerCase()}` : ''} ({number(terms.total)})
          </h2>
          {terms.items.length === 0 ? (
            <p>{status ? `No ${statusWord(status).toLowerCase()} terms.` : 'No terms yet.'}</p>
          ) : (
            <>
              <p class="hint">
                Terms {number(first + 1)}–{number(first + terms.items.length)} of {number(terms.total)}, most frequent first. Choose a candidate (the best is pre-selected), then approve, flag or
                ignore; or search for another concept.
              </p>
              {terms.items.map((term) => (
                <TermBlock ctx={ctx} view={view} jobId={job.id} term={term} returnTo={here} limit={CANDIDATES_SHOWN} />
              ))}
            </>
          )}
          {pages > 1 ? (
            <nav class="pager" aria-label="Pages of terms">
              {page > 1 ? (
                <a href={pageLink(page - 1)} rel="prev">
                  Previous terms
                </a>
              ) : null}
              <span>
                Page {number(page)} of {number(pages)}
              </span>
              {page < pages ? (
                <a href={pageLink(page + 1)} rel="next">
                  Next terms
                </a>
              ) : null}
            </nav>
          ) : null}
        </section>,
        <section aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete</h2>
          <form method="post" action={ctx.link(`${jobPath(job.id)}/delete`)}>
            <CsrfField ctx={ctx} />
            <button type="submit">Delete this job and its reviews</button>
          </form>
        </section>,
      ],
    });
  });

  // The progress section alone (htmx polls it while the job runs); once the job is over, the whole page reloads.
  app.get<{ Params: { id: string } }>(`${MAPPING_PATH}/:id/progress`, signedIn, async (request, reply) => {
    const job = await ownedJob(jobs, request, request.params.id);
    const ctx = pageContext(request, options);
    if (finished(job) && request.headers['hx-request'] === 'true') reply.header('HX-Refresh', 'true');
    return sendFragment(reply, <JobProgress ctx={ctx} job={job} />);
  });

  app.get<{ Params: { id: string; index: string } }>(`${MAPPING_PATH}/:id/terms/:index`, signedIn, async (request, reply) => {
    const job = await ownedJob(jobs, request, request.params.id);
    const term = await ownedTerm(jobs, job, termIndex(request.params.index));
    const ctx = pageContext(request, options);
    const query = queryText(request, 'q', MAX_QUERY)?.trim() ?? '';
    const view = jobView(options, request, job);
    const here = ctx.link(termPath(job.id, term.term.index), { q: query || undefined });
    const results = query ? await searchConceptsFor(request, view, job, term, query) : null;
    const progress = await jobs.reviewProgress(job.id);
    return sendPage(reply, ctx, {
      title: `${term.term.source_name} · ${job.name}`,
      section: 'mapping',
      body: [
        <p class="hint">
          <a href={ctx.link(MAPPING_PATH)}>Mapping jobs</a> › <a href={ctx.link(jobPath(job.id))}>{job.name}</a> › term {String(term.term.index + 1)}
        </p>,
        <TermBlock
          ctx={ctx}
          view={view}
          jobId={job.id}
          term={term}
          returnTo={here}
          heading="h1"
          searchQuery={query}
          search={results ? <SearchResults ctx={ctx} job={job} term={term} query={query} results={results} returnTo={here} /> : null}
        />,
        <ReviewProgressSection ctx={ctx} job={job} progress={progress} />,
      ],
    });
  });

  app.post<{ Params: { id: string; index: string } }>(`${MAPPING_PATH}/:id/terms/:index/review`, signedIn, async (request, reply) => {
    const job = await ownedJob(jobs, request, request.params.id);
    const term = await ownedTerm(jobs, job, termIndex(request.params.index));
    const form = formOf(request);
    const back = textField(form, 'return_to', 2000);
    const view = jobView(options, request, job);
    const review = applyReviewChange(view, term.review, reviewChangeOf(form, view, term), { reviewer: reviewerOf(request) });
    await jobs.updateReview(job.id, term.term.index, review);
    const to = back && /^[\x21-\x7e]+$/.test(back) ? localReturnPath(back) : pageContext(request, options).link(jobPath(job.id));
    return reply.redirect(`${to.split('#')[0]}#term-${term.term.index}`, 303);
  });

  app.post<{ Params: { id: string } }>(`${MAPPING_PATH}/:id/cancel`, signedIn, async (request, reply) => {
    const job = await ownedJob(jobs, request, request.params.id);
    if (!finished(job)) await cancelJob(jobs, request, job.id);
    return reply.redirect(pageContext(request, options).link(jobPath(job.id)), 303);
  });

  app.post<{ Params: { id: string } }>(`${MAPPING_PATH}/:id/delete`, signedIn, async (request, reply) => {
    const job = await ownedJob(jobs, request, request.params.id);
    if (!finished(job)) await cancelJob(jobs, request, job.id);
    await jobs.deleteMappingJob(job.id, ownerOf(request));
    return reply.redirect(pageContext(request, options).link(MAPPING_PATH), 303);
  });

  app.get<{ Params: { id: string } }>(`${MAPPING_PATH}/:id/export`, signedIn, async (request, reply) => {
    const job = await ownedJob(jobs, request, request.params.id);
    const format = queryText(request, 'format', 20);
    if (format !== 'usagi' && format !== 'stcm' && format !== 'summary') {
      throw validationError(`Invalid query parameter 'format': must be usagi, stcm or summary, got ${JSON.stringify(format?.slice(0, 40) ?? null)}.`, { parameter: 'format' });
    }
    const { total } = await jobs.mappedTerms(job.id, { offset: 0, limit: 1, order: 'index' });
    const { items } = await jobs.mappedTerms(job.id, { offset: 0, limit: Math.max(1, total), order: 'index' });
    const sourceVocabulary = queryText(request, 'source_vocabulary_id', 20)?.trim() || DEFAULT_SOURCE_VOCABULARY;
    const file = exportFileOf(jobView(options, request, job), job, items, format, sourceVocabulary);
    pageHeaders(reply);
    return reply
      .type(file.type)
      .header('Content-Disposition', `attachment; filename="${file.file.replace(/[^\w.-]/g, '_')}"`)
      .header('Cache-Control', 'no-store')
      .send(file.body);
  });
}
