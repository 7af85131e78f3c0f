/**
 * What the mapping page remembers in the browser session (state store, session data key `mappingUploads`, beside the
 * concept-set builder's): the report of each recent upload (column roles used, bad rows), shown on the job's page.
 */
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../../services/errors.js';
import type { StateStore } from '../../state/state-store.js';

/** A row of the input file that was left out, and why. */
export interface BadRow {
  line: number;
  column: string | number | null;
  message: string;
}

export interface UploadReport {
  job_id: string;
  file_name: string;
  columns: Record<string, string>;
  /** The first MAX_REPORTED_BAD_ROWS bad rows; `bad_row_count` counts them all. */
  bad_rows: BadRow[];
  bad_row_count: number;
}

/** Bad rows kept per upload (the rest are counted): a session keeps page state of a few hundred kB at most. */
export const MAX_REPORTED_BAD_ROWS = 100;
/** Upload reports kept (the most recent). */
const MAX_REPORTS = 5;

const ended = () => new ServiceError(401, 'session_required', 'Your session has ended: sign in again with your API key.');

async function readAll(state: StateStore, sessionId: string): Promise<Record<string, unknown>> {
  const text = await state.readSessionData(sessionId);
  if (text === undefined) throw ended();
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const reportsOf = (all: Record<string, unknown>): UploadReport[] => (Array.isArray(all.mappingUploads) ? (all.mappingUploads as UploadReport[]) : []);

export async function rememberUpload(state: StateStore, request: FastifyRequest, report: UploadReport): Promise<void> {
  const sessionId = request.browserSession?.id;
  if (!sessionId) throw ended();
  const all = await readAll(state, sessionId);
  const kept: UploadReport = { ...report, bad_rows: report.bad_rows.slice(0, MAX_REPORTED_BAD_ROWS).map((r) => ({ ...r, message: r.message.slice(0, 300) })) };
  all.mappingUploads = [kept, ...reportsOf(all).filter((r) => r.job_id !== report.job_id)].slice(0, MAX_REPORTS);
  if (!(await state.writeSessionData(sessionId, JSON.stringify(all)))) throw ended();
}

/** The report of this job's upload, when it was made in this session. */
export async function uploadReportOf(state: StateStore, request: FastifyRequest, jobId: string): Promise<UploadReport | undefined> {
  const sessionId = request.browserSession?.id;
  if (!sessionId) return undefined;
  const all = await readAll(state, sessionId);
  const found = reportsOf(all).find((r) => r && typeof r === 'object' && r.job_id === jobId);
  return found && Array.isArray(found.bad_rows) && typeof found.columns === 'object' ? found : undefined;
}
