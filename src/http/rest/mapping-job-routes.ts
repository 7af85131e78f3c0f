/**
 * /v1/mapping-jobs (issue #24, the Usagi workflow over HTTP): submit a CSV/TSV of source terms, poll, page the results,
 * review, export; and POST /v1/mapping/candidates, one term's ranked candidates. Jobs belong to the key that made them.
 */
import type { FastifyInstance, FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import { pipeline, Transform } from 'node:stream';
import { Type } from 'typebox';
import { ServiceError, validationError } from '../../services/errors.js';
import type { ReleaseView } from '../../services/release-view.js';
import { MAPPING_STATUSES, type MappedTerm, type MappingOptions } from '../../services/source-mapping/mapping-types.js';
import { applyReviewChange } from '../../services/source-mapping/review.js';
import { reviewSummaryMarkdown, summarizeReview } from '../../services/source-mapping/review-summary.js';
import { sourceToConceptMapCsv, sourceToConceptMapRows } from '../../services/source-mapping/source-to-concept-map.js';
import { readUsagiCsv, termOfUsagiMapping, usagiMappingOf, writeUsagiCsv } from '../../services/source-mapping/usagi-csv.js';
import { COLUMN_ROLES, readSourceTerms, type ColumnRole, type SourceTermFile } from '../../services/source-mapping/source-term-reader.js';
import { checkMappingOptions } from '../../services/source-mapping/term-mapping.js';
import { MAX_RANKED_CANDIDATES } from '../../services/semantic/ranked-candidates.js';
import { MappingJobLimitError, MAX_MAPPING_JOBS_PER_OWNER, MAX_TERMS_PER_MAPPING_JOB, type MappingJobRecord, type NewMappingJob } from '../../state/mapping-job-store.js';
import type { StateStore } from '../../state/state-store.js';
import type { ReleaseRegistry } from '../../store/release-registry.js';
import type { MappingJobRunner } from '../mapping-jobs/mapping-job-runner.js';
import { ok, okPage } from '../plumbing/envelope.js';
import { computeHeavy } from '../plumbing/heavy-work.js';
import { paginationMeta, readPage } from '../plumbing/pagination.js';
import { csvList } from '../plumbing/query-values.js';
import { Envelope, ErrorEnvelope, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

/** Largest upload (CSV/TSV text, in a JSON body or as the body): 10,000 terms take well under 2 MiB. */
export const MAX_MAPPING_UPLOAD_BYTES = 8 * 1024 * 1024;
export const MAPPING_TERMS_DEFAULT_PAGE_SIZE = 50;
export const MAPPING_TERMS_MAX_PAGE_SIZE = 500;
/** Longest source name (or code) of the one-term candidates call. */
export const MAX_CANDIDATE_TEXT_CHARS = 1000;
/** Terms read from the state at a time for an export. */
const EXPORT_PAGE_TERMS = 5000;
export const EXPORT_FORMATS = ['usagi', 'stcm', 'summary', 'summary_json'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

const CSV_MEDIA_TYPES = ['text/csv', 'text/tab-separated-values', 'text/plain'];
/** Marks a body read by the text/csv parser (its options are in the query string). */
const CSV_UPLOAD = Symbol('csv upload');

export interface MappingJobRouteDependencies {
  state: StateStore;
  registry: ReleaseRegistry;
  runner: MappingJobRunner;
}

const ERRORS = { ...STANDARD_ERRORS, 404: ErrorEnvelope };

const StringList = Type.Union([Type.Array(Type.String()), Type.String()], { description: 'An array of ids or one comma-separated string.' });
const FiltersSchema = Type.Object(
  {
    domain_ids: Type.Optional(StringList),
    vocabulary_ids: Type.Optional(StringList),
    concept_class_ids: Type.Optional(StringList),
    standard_only: Type.Optional(Type.Boolean({ description: 'Only standard concepts (default true).' })),
    valid_only: Type.Optional(Type.Boolean({ description: 'Only valid concepts (default true).' })),
  },
  { additionalProperties: true, description: "Usagi's filters, applied to every term (a row's domain/vocabulary/class hints narrow them further)." },
);
const AutoApproveSchema = Type.Object(
  {
    exact_code: Type.Optional(Type.Boolean({ description: "Approve a term whose best candidate's code equals its source code." })),
    exact_name: Type.Optional(Type.Boolean({ description: "Approve a term whose best candidate's name or a synonym equals its source name." })),
    score_at_least: Type.Optional(Type.Number({ description: 'Approve a term whose best candidate scores at least this (0–1).' })),
  },
  { additionalProperties: true, description: 'Rules that approve a term automatically (marked as the rule\'s doing; a reviewer can undo them).' },
);
const ColumnsSchema = Type.Object(
  Object.fromEntries(COLUMN_ROLES.map((role) => [role, Type.Optional(Type.String({ description: `Header of the ${role.replace('_', ' ')} column.` }))])),
  { additionalProperties: true, description: 'Header name per column role; roles not named are guessed from the header.' },
);

const SubmitBody = Type.Object(
  {
    text: Type.String({ description: `The source terms: CSV or TSV text with a header line (at most ${MAX_MAPPING_UPLOAD_BYTES / 1024 / 1024} MiB, ${MAX_TERMS_PER_MAPPING_JOB.toLocaleString('en')} terms).` }),
    name: Type.Optional(Type.String({ maxLength: 200, description: 'A name for people (default: file_name, else "source terms").' })),
    file_name: Type.Optional(Type.String({ maxLength: 200, description: 'The uploaded file\'s name (used in bad-row messages).' })),
    k: Type.Optional(Type.Integer({ description: `Candidates per term, 1–${MAX_RANKED_CANDIDATES} (default 10).` })),
    filters: Type.Optional(FiltersSchema),
    auto_approve: Type.Optional(AutoApproveSchema),
    columns: Type.Optional(ColumnsSchema),
  },
  { additionalProperties: true },
);

/** Options of a text/csv upload, in the query string (a JSON body carries them itself). */
const SubmitQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 200, description: 'text/csv upload: a name for people.' })),
  k: Type.Optional(Type.Integer({ description: `text/csv upload: candidates per term, 1–${MAX_RANKED_CANDIDATES} (default 10).` })),
  domain_ids: Type.Optional(Type.String({ description: 'text/csv upload: comma-separated domain ids.' })),
  vocabulary_ids: Type.Optional(Type.String({ description: 'text/csv upload: comma-separated vocabulary ids.' })),
  concept_class_ids: Type.Optional(Type.String({ description: 'text/csv upload: comma-separated concept class ids.' })),
  standard_only: Type.Optional(Type.Boolean({ description: 'text/csv upload: only standard concepts (default true).' })),
  valid_only: Type.Optional(Type.Boolean({ description: 'text/csv upload: only valid concepts (default true).' })),
  auto_approve: Type.Optional(Type.String({ description: 'text/csv upload: comma-separated rules, exact_code and/or exact_name.' })),
  auto_approve_score: Type.Optional(Type.Number({ description: 'text/csv upload: approve when the best candidate scores at least this (0–1).' })),
  ...Object.fromEntries(COLUMN_ROLES.map((role) => [`${role}_column`, Type.Optional(Type.String({ description: `text/csv upload: header of the ${role.replace('_', ' ')} column.` }))])),
  ...ReleaseQuery,
});

const JobSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    state: Type.String({ description: 'queued, running, completed, cancelled or failed.' }),
    release: Type.String({ description: 'The release the candidates come from.' }),
    options: Type.Object({}, { additionalProperties: true }),
    columns: Type.Record(Type.String(), Type.String(), { description: 'Header name used per column role.' }),
    total_terms: Type.Integer(),
    mapped_terms: Type.Integer({ description: 'Terms whose candidates are computed.' }),
    error: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    updated_at: Type.String(),
    finished_at: Type.Union([Type.String(), Type.Null()]),
    review_progress: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Terms reviewed and approved, frequency covered, terms by status.' })),
  },
  { additionalProperties: true },
);
const MappedTermSchema = Type.Object({}, { additionalProperties: true, description: 'A term (index, line, code, name, frequency, additional_info), its candidates and its review.' });
const BadRowSchema = Type.Object({ line: Type.Integer(), column: Type.Optional(Type.Integer()), column_name: Type.Optional(Type.String()), message: Type.String() });

const JobParams = Type.Object({ job_id: Type.String({ minLength: 1, maxLength: 100, description: 'The job id (as answered by the submit).' }) });
const TermParams = Type.Object({
  job_id: JobParams.properties.job_id,
  index: Type.Integer({ minimum: 0, description: 'The term\'s 0-based index among the kept terms of the file.' }),
});

function ownerOf(request: FastifyRequest): string | null {
  return request.caller.key?.id ?? null;
}

function jobView(job: MappingJobRecord): Record<string, unknown> {
  const { owner_key_id: _owner, cpt4_validated_until: _licence, release_label, ...rest } = job;
  return { ...rest, release: release_label };
}

/** A term as answered: the candidates the caller's licence allows (the job's owner may since have lost CPT4). */
function termView(view: ReleaseView, t: MappedTerm): Record<string, unknown> {
  return { ...t.term, candidates: t.candidates.filter((c) => view.canSee(c.vocabulary_id)), review: t.review };
}

async function ownedJob(state: StateStore, request: FastifyRequest, id: string): Promise<MappingJobRecord> {
  const job = await state.mappingJob(id, ownerOf(request));
  if (!job) throw new ServiceError(404, 'mapping_job_not_found', `No mapping job '${id}' for this key.`, { job_id: id });
  return job;
}

/** The options of a text/csv upload from the query string, as the JSON body would carry them. */
function queryOptions(q: Record<string, unknown>): Record<string, unknown> {
  const filters: Record<string, unknown> = {};
  for (const key of ['domain_ids', 'vocabulary_ids', 'concept_class_ids'] as const) if (q[key] !== undefined) filters[key] = csvList(q[key] as string);
  for (const key of ['standard_only', 'valid_only'] as const) if (q[key] !== undefined) filters[key] = q[key];
  const autoApprove: Record<string, unknown> = {};
  for (const rule of csvList(q.auto_approve as string | undefined) ?? []) {
    if (rule !== 'exact_code' && rule !== 'exact_name') {
      throw validationError(`Invalid query parameter 'auto_approve': must list exact_code and/or exact_name (got '${rule}').`, { parameter: 'auto_approve' });
    }
    autoApprove[rule] = true;
  }
  if (q.auto_approve_score !== undefined) autoApprove.score_at_least = q.auto_approve_score;
  const columns: Record<string, unknown> = {};
  for (const role of COLUMN_ROLES) if (q[`${role}_column`] !== undefined) columns[role] = q[`${role}_column`];
  return { name: q.name, k: q.k, filters, auto_approve: autoApprove, columns };
}

interface Submission {
  file: SourceTermFile;
  name: string;
  options: MappingOptions;
}

/** Reads an upload (JSON body, or text/csv with its options in the query): the options checked, the terms read. */
function readSubmission(request: FastifyRequest, body: Record<string, unknown>, csvUpload: boolean): Submission {
  const query = request.query as Record<string, unknown>;
  if (!csvUpload) {
    const stray = Object.keys(query).find((k) => k !== 'vocab_release' && query[k] !== undefined);
    if (stray) throw validationError(`Query parameter '${stray}' is for text/csv uploads: with a JSON body, send it as a body field.`, { parameter: stray });
  }
  const raw = csvUpload ? { ...queryOptions(query), text: body.text } : body;
  const options = checkMappingOptions({ k: raw.k, filters: raw.filters, auto_approve: raw.auto_approve }, request.view);
  const columns = (raw.columns ?? {}) as Record<string, unknown>;
  for (const [role, header] of Object.entries(columns)) {
    if (!(COLUMN_ROLES as readonly string[]).includes(role)) throw validationError(`Unknown column role 'columns.${role}' (expected one of ${COLUMN_ROLES.join(', ')}).`, { parameter: `columns.${role}` });
    if (typeof header !== 'string' || header.trim() === '') throw validationError(`'columns.${role}' must be a header name.`, { parameter: `columns.${role}` });
  }
  const fileName = typeof raw.file_name === 'string' && raw.file_name.trim() !== '' ? raw.file_name.trim() : 'upload';
  const file = readSourceTerms(String(raw.text ?? ''), {
    fileName,
    columns: columns as Partial<Record<ColumnRole, string>>,
    maxTerms: MAX_TERMS_PER_MAPPING_JOB,
    maxBytes: MAX_MAPPING_UPLOAD_BYTES,
  });
  if (file.terms.length === 0) {
    throw new ServiceError(400, 'validation_error', `${fileName} holds no usable source term (${file.bad_rows.length} bad rows).`, { parameter: 'text', bad_rows: file.bad_rows.slice(0, 100) });
  }
  const name = typeof raw.name === 'string' && raw.name.trim() !== '' ? raw.name.trim() : fileName === 'upload' ? 'source terms' : fileName;
  return { file, name, options };
}

function limitError(error: MappingJobLimitError): ServiceError {
  return error.limit === 'terms'
    ? new ServiceError(413, 'payload_too_large', error.message, { max_terms: MAX_TERMS_PER_MAPPING_JOB })
    : new ServiceError(409, 'too_many_mapping_jobs', error.message, { max_jobs: MAX_MAPPING_JOBS_PER_OWNER });
}

function uploadTooLarge(bytes: string): ServiceError {
  return new ServiceError(
    413,
    'payload_too_large',
    `The upload is ${bytes} bytes; a mapping job accepts at most ${MAX_MAPPING_UPLOAD_BYTES.toLocaleString('en')} bytes (${MAX_TERMS_PER_MAPPING_JOB.toLocaleString('en')} terms): split the file.`,
    { max_bytes: MAX_MAPPING_UPLOAD_BYTES },
  );
}

/** A declared length over the upload bound is refused before the body is read, with the bound in the message. */
async function refuseLargeUpload(request: FastifyRequest): Promise<void> {
  const length = Number(request.headers['content-length'] ?? 0);
  if (length > MAX_MAPPING_UPLOAD_BYTES) throw uploadTooLarge(length.toLocaleString('en'));
}

/** A chunked upload is counted as it arrives: past the bound it fails with the same message (not the generic 413). */
const countUpload: preParsingAsyncHookHandler = async (_request, _reply, payload) => {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > MAX_MAPPING_UPLOAD_BYTES) callback(uploadTooLarge(`over ${MAX_MAPPING_UPLOAD_BYTES.toLocaleString('en')}`));
      else callback(null, chunk);
    },
  });
  pipeline(payload, counter, () => {});
  return counter;
};

/** Every term of a job, in index order, with the candidates the caller's licence allows. */
async function everyTerm(state: StateStore, jobId: string, view: ReleaseView): Promise<MappedTerm[]> {
  const out: MappedTerm[] = [];
  for (let offset = 0; ; offset += EXPORT_PAGE_TERMS) {
    const page = await state.mappedTerms(jobId, { offset, limit: EXPORT_PAGE_TERMS, order: 'index' });
    for (const t of page.items) out.push({ ...t, candidates: t.candidates.filter((c) => view.canSee(c.vocabulary_id)) });
    if (page.items.length < EXPORT_PAGE_TERMS) return out;
  }
}

/** The job's name as a file name (letters, digits, dot, dash, underscore), without a .csv/.tsv ending. */
function fileBase(name: string): string {
  const base = name.replace(/\.(csv|tsv|txt)$/i, '').replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 100);
  return base || 'mapping';
}

/** The job's release seen with the caller's licence; 409 when the server no longer has it loaded. */
function jobReleaseView(registry: ReleaseRegistry, request: FastifyRequest, job: MappingJobRecord): ReleaseView {
  const selection = registry.select(job.release_label);
  if (!selection.ok || selection.release.label !== job.release_label) {
    throw new ServiceError(409, 'release_not_loaded', `The job's release ${job.release_label} is no longer loaded on this server: load it again to review or export the job.`, {
      release: job.release_label,
    });
  }
  return request.view.onRelease(selection.release);
}

export async function registerMappingJobRoutes(app: FastifyInstance, deps: MappingJobRouteDependencies): Promise<void> {
  const { state, runner } = deps;

  /** Stores a new job for the caller (its key's licence, the selected release) and wakes the runner. */
  const submitJob = async (request: FastifyRequest, job: Pick<NewMappingJob, 'name' | 'options' | 'columns' | 'terms' | 'reviews'>): Promise<MappingJobRecord> => {
    let created: MappingJobRecord;
    try {
      created = await state.createMappingJob({
        ...job,
        owner_key_id: ownerOf(request),
        release_label: request.view.label,
        cpt4_validated_until: request.caller.key?.cpt4_validated_until ?? null,
      });
    } catch (error) {
      if (error instanceof MappingJobLimitError) throw limitError(error);
      throw error;
    }
    runner.kick();
    return created;
  };

  await app.register(async (scope) => {
    // A CSV/TSV upload sent as the body itself arrives as `{ text }`, so both kinds of upload share one schema.
    scope.addContentTypeParser(CSV_MEDIA_TYPES, { parseAs: 'string', bodyLimit: MAX_MAPPING_UPLOAD_BYTES }, (_request, body, done) => done(null, { text: body, [CSV_UPLOAD]: true }));

    scope.post<{ Body: Record<string, unknown> }>(
      '/v1/mapping-jobs',
      {
        bodyLimit: MAX_MAPPING_UPLOAD_BYTES,
        onRequest: refuseLargeUpload,
        preParsing: countUpload,
        schema: {
          tags: ['Source mapping'],
          summary: 'Submit source terms for mapping (asynchronous)',
          description:
            'Reads the source terms (CSV or TSV with a header: source code, source name, frequency, optional domain/vocabulary/class hints, other ' +
            'columns kept as additional info), either as `text` in a JSON body or as the body itself (Content-Type text/csv, text/tab-separated-values ' +
            'or text/plain, options in the query string). Column roles are named by `columns` or guessed from the header, and answered. ' +
            'Bad rows are answered with line and column, the rest kept. Answers 202 with the queued job; poll GET /v1/mapping-jobs/{job_id}. ' +
            `Bounds: ${MAX_MAPPING_UPLOAD_BYTES / 1024 / 1024} MiB (413), ${MAX_TERMS_PER_MAPPING_JOB.toLocaleString('en')} terms (413), ` +
            `${MAX_MAPPING_JOBS_PER_OWNER} jobs per key (409 too_many_mapping_jobs: delete one). Candidates are computed with this key's licence.`,
          consumes: ['application/json', ...CSV_MEDIA_TYPES],
          body: SubmitBody,
          querystring: SubmitQuery,
          response: {
            202: Envelope(
              Type.Object({
                job: JobSchema,
                columns: Type.Record(Type.String(), Type.String()),
                column_choice: Type.Record(Type.String(), Type.String({ description: 'named or guessed' })),
                delimiter: Type.String(),
                bad_rows: Type.Array(BadRowSchema),
              }),
            ),
            ...ERRORS,
            409: ErrorEnvelope,
            413: ErrorEnvelope,
          },
        },
      },
      async (request, reply) => {
        const csvUpload = (request.body as Record<symbol, unknown>)[CSV_UPLOAD] === true;
        const { file, name, options } = readSubmission(request, request.body, csvUpload);
        const job = await submitJob(request, { name, options, columns: file.columns as Record<string, string>, terms: file.terms });
        reply.code(202).header('Location', `/v1/mapping-jobs/${job.id}`);
        return ok(request, { job: jobView(job), columns: file.columns, column_choice: file.column_choice, delimiter: file.delimiter === '\t' ? 'tab' : file.delimiter, bad_rows: file.bad_rows });
      },
    );

    scope.post<{ Body: Record<string, unknown>; Querystring: { name?: string; vocab_release?: string } }>(
      '/v1/mapping-jobs/import',
      {
        bodyLimit: MAX_MAPPING_UPLOAD_BYTES,
        onRequest: refuseLargeUpload,
        preParsing: countUpload,
        schema: {
          tags: ['Source mapping'],
          summary: 'Import a Usagi mapping file as a job',
          description:
            "Reads a file saved by Usagi (or exported here with format=usagi): each source code with its additional info, status, equivalence, " +
            'targets, comment and reviewer becomes a term of a new job whose reviews are kept as they are; the job then computes each term\'s ' +
            'candidates like a submitted one (answer 202). Lines that cannot be read are answered with line and column. Same bounds as the submit.',
          consumes: ['application/json', ...CSV_MEDIA_TYPES],
          body: Type.Object(
            {
              text: Type.String({ description: 'The Usagi file\'s text.' }),
              name: Type.Optional(Type.String({ maxLength: 200, description: 'A name for people (default: file_name).' })),
              file_name: Type.Optional(Type.String({ maxLength: 200, description: 'The file\'s name (used in messages).' })),
              k: Type.Optional(Type.Integer({ description: `Candidates per term, 1–${MAX_RANKED_CANDIDATES} (default 10).` })),
              filters: Type.Optional(FiltersSchema),
            },
            { additionalProperties: true },
          ),
          querystring: Type.Object({ name: Type.Optional(Type.String({ maxLength: 200, description: 'text/csv upload: a name for people.' })), ...ReleaseQuery }),
          response: {
            202: Envelope(Type.Object({ job: JobSchema, bad_rows: Type.Array(BadRowSchema) })),
            ...ERRORS,
            409: ErrorEnvelope,
            413: ErrorEnvelope,
          },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const csvUpload = (body as Record<symbol, unknown>)[CSV_UPLOAD] === true;
        if (!csvUpload && request.query.name !== undefined) {
          throw validationError(`Query parameter 'name' is for text/csv uploads: with a JSON body, send it as a body field.`, { parameter: 'name' });
        }
        const fileName = typeof body.file_name === 'string' && body.file_name.trim() !== '' ? body.file_name.trim() : 'usagi.csv';
        const options = checkMappingOptions({ k: body.k, filters: body.filters }, request.view);
        const { mappings, bad_rows } = readUsagiCsv(String(body.text ?? ''), fileName);
        if (mappings.length === 0) {
          throw new ServiceError(400, 'validation_error', `${fileName} holds no source code (${bad_rows.length} bad rows).`, { parameter: 'text', bad_rows: bad_rows.slice(0, 100) });
        }
        const imported = mappings.map((m, i) => termOfUsagiMapping(m, i));
        const name = [csvUpload ? request.query.name : body.name].find((n): n is string => typeof n === 'string' && n.trim() !== '')?.trim() ?? fileName;
        const job = await submitJob(request, {
          name,
          options,
          columns: { source_code: 'sourceCode', source_name: 'sourceName', source_frequency: 'sourceFrequency' },
          terms: imported.map((x) => x.term),
          reviews: imported.map((x) => x.review),
        });
        reply.code(202).header('Location', `/v1/mapping-jobs/${job.id}`);
        return ok(request, { job: jobView(job), bad_rows });
      },
    );
  });

  app.get(
    '/v1/mapping-jobs',
    {
      schema: {
        tags: ['Source mapping'],
        summary: "The caller's mapping jobs",
        description: `The jobs this key submitted, newest first (at most ${MAX_MAPPING_JOBS_PER_OWNER}).`,
        querystring: Type.Object(ReleaseQuery),
        response: { 200: Envelope(Type.Object({ jobs: Type.Array(JobSchema) })), ...ERRORS },
      },
    },
    async (request) => ok(request, { jobs: (await state.listMappingJobs(ownerOf(request))).map(jobView) }),
  );

  app.get<{ Params: { job_id: string } }>(
    '/v1/mapping-jobs/:job_id',
    {
      schema: {
        tags: ['Source mapping'],
        summary: 'A mapping job: state, progress, review progress',
        description: "404 mapping_job_not_found for an unknown job or another key's job.",
        params: JobParams,
        querystring: Type.Object(ReleaseQuery),
        response: { 200: Envelope(Type.Object({ job: JobSchema })), ...ERRORS },
      },
    },
    async (request) => {
      const job = await ownedJob(state, request, request.params.job_id);
      return ok(request, { job: { ...jobView(job), review_progress: await state.reviewProgress(job.id) } });
    },
  );

  app.get<{ Params: { job_id: string }; Querystring: { page?: number; page_size?: number; order?: 'frequency' | 'index'; status?: (typeof MAPPING_STATUSES)[number] } }>(
    '/v1/mapping-jobs/:job_id/terms',
    {
      schema: {
        tags: ['Source mapping'],
        summary: "A page of a job's terms with their candidates and reviews",
        description:
          'Terms by frequency (highest first, then file order) or by index, optionally only those with one review status. A term not mapped yet has no ' +
          "candidates. Candidates carry score (0–1) and reasons (exact_code, exact_name, exact_synonym, keyword, meaning, maps_to); the review's " +
          'concept_ids are the chosen targets (the best candidate pre-selected).',
        params: JobParams,
        querystring: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page number, 1-based.' })),
          page_size: Type.Optional(
            Type.Integer({ minimum: 1, description: `Terms per page (default ${MAPPING_TERMS_DEFAULT_PAGE_SIZE}; values above ${MAPPING_TERMS_MAX_PAGE_SIZE} are clamped).` }),
          ),
          order: Type.Optional(Type.Union([Type.Literal('frequency'), Type.Literal('index')], { description: 'frequency (default) or index.' })),
          status: Type.Optional(Type.Union(MAPPING_STATUSES.map((s) => Type.Literal(s)), { description: `Only terms with this review status: ${MAPPING_STATUSES.join(', ')}.` })),
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Object({ terms: Type.Array(MappedTermSchema) })), ...ERRORS },
      },
    },
    async (request) => {
      const job = await ownedJob(state, request, request.params.job_id);
      const page = readPage(request.query, { defaultPageSize: MAPPING_TERMS_DEFAULT_PAGE_SIZE, maxPageSize: MAPPING_TERMS_MAX_PAGE_SIZE });
      const result = await state.mappedTerms(job.id, { offset: page.offset, limit: page.pageSize, order: request.query.order, status: request.query.status });
      return okPage(request, { terms: result.items.map((t) => termView(request.view, t)) }, paginationMeta(page, result.total));
    },
  );

  const termRoute = async (request: FastifyRequest<{ Params: { job_id: string; index: number } }>) => {
    const job = await ownedJob(state, request, request.params.job_id);
    const term = await state.mappedTerm(job.id, request.params.index);
    if (!term) throw new ServiceError(404, 'mapping_term_not_found', `Mapping job '${job.id}' has no term ${request.params.index} (it has ${job.total_terms}).`, { index: request.params.index });
    return { job, term };
  };

  app.get<{ Params: { job_id: string; index: number } }>(
    '/v1/mapping-jobs/:job_id/terms/:index',
    {
      schema: {
        tags: ['Source mapping'],
        summary: 'One term of a job with its candidates and review',
        params: TermParams,
        querystring: Type.Object(ReleaseQuery),
        response: { 200: Envelope(Type.Object({ term: MappedTermSchema })), ...ERRORS },
      },
    },
    async (request) => ok(request, { term: termView(request.view, (await termRoute(request)).term) }),
  );

  app.patch<{ Params: { job_id: string; index: number }; Body: Record<string, unknown> }>(
    '/v1/mapping-jobs/:job_id/terms/:index',
    {
      schema: {
        tags: ['Source mapping'],
        summary: "Review a term: status, equivalence, targets, comment",
        description:
          'Fields left out stay as they are. Setting a status other than unchecked needs `reviewer` and records who and when; `unchecked` undoes ' +
          'a review or an automatic approval. `concept_ids` may name any valid concept of the job\'s release this key may see, not only candidates ' +
          '(changing the targets of an approved term without restating the status returns it to unchecked).',
        params: TermParams,
        querystring: Type.Object(ReleaseQuery),
        body: Type.Object(
          {
            status: Type.Optional(Type.Union(MAPPING_STATUSES.map((s) => Type.Literal(s)), { description: MAPPING_STATUSES.join(', ') })),
            equivalence: Type.Optional(Type.String({ description: "Usagi's: EQUAL, EQUIVALENT, WIDER, NARROWER, INEXACT, UNMATCHED, UNREVIEWED." })),
            concept_ids: Type.Optional(Type.Array(Type.Integer(), { description: 'The chosen target concepts (empty: none).' })),
            comment: Type.Optional(Type.String()),
            reviewer: Type.Optional(Type.String({ description: 'Who reviews (required with a status).' })),
            assigned_reviewer: Type.Optional(Type.String()),
          },
          { additionalProperties: true },
        ),
        response: { 200: Envelope(Type.Object({ term: MappedTermSchema })), ...ERRORS, 409: ErrorEnvelope },
      },
    },
    async (request) => {
      const { job, term } = await termRoute(request);
      const view = jobReleaseView(deps.registry, request, job);
      const review = applyReviewChange(view, term.review, request.body);
      const updated = await state.updateReview(job.id, term.term.index, review);
      if (!updated) throw new ServiceError(404, 'mapping_job_not_found', `Mapping job '${job.id}' was deleted meanwhile.`);
      return ok(request, { term: termView(request.view, updated) });
    },
  );

  app.post<{ Params: { job_id: string } }>(
    '/v1/mapping-jobs/:job_id/cancel',
    {
      schema: {
        tags: ['Source mapping'],
        summary: 'Cancel a queued or running job',
        description: 'The job stops between batches; terms already mapped stay readable and exportable. A finished job is answered as it is.',
        params: JobParams,
        querystring: Type.Object(ReleaseQuery),
        response: { 200: Envelope(Type.Object({ job: JobSchema })), ...ERRORS },
      },
    },
    async (request) => {
      const job = await ownedJob(state, request, request.params.job_id);
      const now = (await state.setMappingJobState(job.id, 'cancelled')) ?? job;
      runner.cancel(job.id);
      return ok(request, { job: jobView(now) });
    },
  );

  app.delete<{ Params: { job_id: string } }>(
    '/v1/mapping-jobs/:job_id',
    {
      schema: {
        tags: ['Source mapping'],
        summary: 'Delete a job with its terms and reviews',
        params: JobParams,
        querystring: Type.Object(ReleaseQuery),
        response: { 200: Envelope(Type.Object({ deleted: Type.Boolean(), job_id: Type.String() })), ...ERRORS },
      },
    },
    async (request) => {
      const job = await ownedJob(state, request, request.params.job_id);
      await state.setMappingJobState(job.id, 'cancelled');
      runner.cancel(job.id);
      await state.deleteMappingJob(job.id, ownerOf(request));
      return ok(request, { deleted: true, job_id: job.id });
    },
  );

  app.get<{
    Params: { job_id: string };
    Querystring: { format: ExportFormat; source_vocabulary_id?: string; valid_start_date?: string; valid_end_date?: string };
  }>(
    '/v1/mapping-jobs/:job_id/export',
    {
      schema: {
        tags: ['Source mapping'],
        summary: 'Download the mapping: Usagi file, SOURCE_TO_CONCEPT_MAP or review summary',
        description:
          "format=usagi: Usagi's saved mapping file (its exact columns, ADD_INFO: columns for the additional info; opens in Usagi and imports back " +
          'here). format=stcm: CDM v5.4 SOURCE_TO_CONCEPT_MAP of the approved terms (its 9 columns; a code or name too long for its column is a 400 ' +
          'naming the term), needs source_vocabulary_id. format=summary: the review summary in Markdown; summary_json: the same as JSON. ' +
          'Answered as a file (Content-Disposition: attachment), not in the envelope; errors are envelopes.',
        params: JobParams,
        querystring: Type.Object({
          format: Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f)), { description: EXPORT_FORMATS.join(', ') }),
          source_vocabulary_id: Type.Optional(Type.String({ description: 'format=stcm: the source_vocabulary_id of every row (1–20 characters).' })),
          valid_start_date: Type.Optional(Type.String({ description: 'format=stcm: YYYY-MM-DD (default 1970-01-01).' })),
          valid_end_date: Type.Optional(Type.String({ description: 'format=stcm: YYYY-MM-DD (default 2099-12-31).' })),
          ...ReleaseQuery,
        }),
        response: { ...ERRORS, 409: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      const job = await ownedJob(state, request, request.params.job_id);
      const q = request.query;
      if (q.format !== 'stcm') {
        const stray = (['source_vocabulary_id', 'valid_start_date', 'valid_end_date'] as const).find((p) => q[p] !== undefined);
        if (stray) throw validationError(`Query parameter '${stray}' is for format=stcm.`, { parameter: stray });
      } else if (q.source_vocabulary_id === undefined) {
        throw validationError(`Missing required query parameter 'source_vocabulary_id' (format=stcm): the source_vocabulary_id of every row.`, { parameter: 'source_vocabulary_id' });
      }
      const view = jobReleaseView(deps.registry, request, job);
      const terms = await everyTerm(state, job.id, view);
      const base = fileBase(job.name);
      let file: { name: string; type: string; text: string };
      if (q.format === 'usagi') {
        file = { name: `${base}.usagi.csv`, type: 'text/csv; charset=utf-8', text: writeUsagiCsv(terms.map((t) => usagiMappingOf(t, (id) => view.concept(id)))) };
      } else if (q.format === 'stcm') {
        const rows = sourceToConceptMapRows(terms, (id) => view.concept(id)?.vocabulary_id, {
          sourceVocabularyId: q.source_vocabulary_id!,
          validStartDate: q.valid_start_date,
          validEndDate: q.valid_end_date,
        });
        file = { name: `${base}.source_to_concept_map.csv`, type: 'text/csv; charset=utf-8', text: sourceToConceptMapCsv(rows) };
      } else {
        const summary = summarizeReview(terms, (id) => view.concept(id));
        file =
          q.format === 'summary'
            ? { name: `${base}.summary.md`, type: 'text/markdown; charset=utf-8', text: reviewSummaryMarkdown(summary, `Mapping review: ${job.name}`) }
            : { name: `${base}.summary.json`, type: 'application/json; charset=utf-8', text: `${JSON.stringify(summary, null, 2)}\n` };
      }
      return reply.header('Content-Disposition', `attachment; filename="${file.name}"`).type(file.type).send(file.text);
    },
  );

  app.post<{ Body: { source_name: string; source_code?: string; k?: number; filters?: unknown } }>(
    '/v1/mapping/candidates',
    {
      schema: {
        tags: ['Source mapping'],
        summary: "One source term's ranked candidates",
        description:
          'The candidates a mapping job would compute for one term (the call the review page makes): the top k standard concepts (by default), ' +
          'each with score (0–1) and why it was proposed (exact_code, exact_name, exact_synonym, keyword, meaning, maps_to), and the best one ' +
          'pre-selected. Meaning-based candidates need the release\'s vectors; without them the ranking is lexical. Licence rules apply.',
        body: Type.Object(
          {
            source_name: Type.String({ minLength: 1, maxLength: MAX_CANDIDATE_TEXT_CHARS, description: 'The source term\'s name (or any text).' }),
            source_code: Type.Optional(Type.String({ maxLength: MAX_CANDIDATE_TEXT_CHARS, description: 'Its source code: concepts with this code are candidates (exact_code).' })),
            k: Type.Optional(Type.Integer({ description: `Candidates, 1–${MAX_RANKED_CANDIDATES} (default 10).` })),
            filters: Type.Optional(FiltersSchema),
          },
          { additionalProperties: true },
        ),
        querystring: Type.Object(ReleaseQuery),
        response: {
          200: Envelope(
            Type.Object({
              candidates: Type.Array(Type.Object({}, { additionalProperties: true })),
              selected_concept_ids: Type.Array(Type.Integer()),
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const body = request.body;
      if (body.source_name.trim() === '') throw validationError(`Invalid body field 'source_name': must not be blank.`, { parameter: 'source_name' });
      const options = checkMappingOptions({ k: body.k, filters: body.filters }, request.view);
      const term = { index: 0, line: 0, source_code: body.source_code ?? '', source_name: body.source_name, source_frequency: 0, additional_info: {} };
      const result = await computeHeavy(request, 'termCandidates', request.view, { term, options });
      return ok(request, { candidates: result.candidates, selected_concept_ids: result.review.concept_ids });
    },
  );
}
