/**
 * Starts a mapping job the way the browser's upload form does (multipart/form-data with the session's CSRF token),
 * and waits for it through the page's own progress fragment.
 */
import type { PageClient } from './page-client.js';
import { rawRequest, type TestResponse, type TestServer } from './test-server.js';

export function multipartBody(fields: Record<string, string>, file: { name: string; content: string }): { body: string; type: string } {
  const boundary = '----omopterm-test-boundary-7d1f';
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.content}\r\n`);
  return { body: `${parts.join('')}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

/** Posts the upload form; `csrf: false` leaves the token out. Fields default to k 5, standard and valid only. */
export async function uploadMappingFile(t: TestServer, client: PageClient, csv: string, fields: Record<string, string> = {}, csrf = true): Promise<TestResponse> {
  const form = multipartBody({ ...(csrf ? { _csrf: await client.csrfToken() } : {}), k: '5', standard_only: 'true', valid_only: 'true', ...fields }, { name: 'terms.csv', content: csv });
  return rawRequest(`${t.url}/mapping`, { method: 'POST', body: form.body, headers: { accept: 'text/html', 'content-type': form.type, origin: t.url, cookie: client.cookie } });
}

/** Uploads and waits until the job's progress says completed; resolves to the job page's path. */
export async function mappedJob(t: TestServer, client: PageClient, csv: string, fields: Record<string, string> = {}): Promise<string> {
  const res = await uploadMappingFile(t, client, csv, fields);
  if (res.status !== 303) throw new Error(`upload answered ${res.status}: ${res.text.slice(0, 500)}`);
  const path = String(res.headers.location).split('?')[0]!;
  for (let i = 0; i < 1200; i++) {
    const progress = await client.get(`${path}/progress`);
    const state = /id="job-state">([a-z]+)</.exec(progress.text)?.[1];
    if (state === 'completed') return path;
    if (state !== 'queued' && state !== 'running') throw new Error(`job ${path}: ${progress.status} ${state ?? progress.text.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${path} did not complete`);
}
