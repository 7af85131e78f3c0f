/**
 * Numbers in requests are finite integers written in decimal digits (Errors: 400 for invalid
 * parameters; Common REST conventions 3): on every paginated route — taken from the server's own
 * OpenAPI document, so a new route is covered the day it is added — `page`/`page_size` values like
 * Infinity, 1e309, -Infinity, 1.5, 0x10 or 1e3 are a 400 validation_error naming the parameter,
 * never a 500 and never silently read as another number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ releases: [{ dir: writeCoreFixture(), label: '2025.2', makeDefault: true }] });
  // the mapping-job routes need a job of the caller's to answer 200
  const job = await t.request('/v1/mapping-jobs', { method: 'POST', body: { text: 'source_name\nType 2 diabetes mellitus' } });
  expect(job.status, job.text).toBe(202);
  SAMPLE_VALUES.job_id = job.body.data.job.id;
});
afterAll(async () => {
  await t?.close();
});

const BAD_NUMBERS = ['Infinity', '-Infinity', '1e309', '-1e309', '1.5', '0x10', '1e3', 'NaN', '2abc', ' ', '0b11'];
/** Values for path parameters and required query parameters, so that only the number is wrong. */
const SAMPLE_VALUES: Record<string, string> = { concept_id: '201826', vocabulary_id: 'SNOMED', concept_code: 'E11.9', query: 'diabetes', q: 'diabetes' };

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
}

async function paginatedGetRoutes(): Promise<Array<{ path: string; query: string }>> {
  const doc = (await t.request('/openapi.json', { anonymous: true })).body as {
    paths: Record<string, { get?: { parameters?: OpenApiParameter[] } }>;
  };
  const routes = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const params = item.get?.parameters ?? [];
    if (!params.some((p) => p.in === 'query' && p.name === 'page')) continue;
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(SAMPLE_VALUES[name] ?? 'x'));
    const query = params
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => `${p.name}=${encodeURIComponent(SAMPLE_VALUES[p.name] ?? 'x')}`)
      .join('&');
    routes.push({ path, query });
  }
  return routes;
}

describe('page and page_size are finite decimal integers on every paginated route', () => {
  it('finds the paginated routes', async () => {
    const paths = (await paginatedGetRoutes()).map((r) => r.path);
    expect(paths).toEqual(expect.arrayContaining(['/v1/vocabularies', '/v1/search/concepts', '/v1/vocabularies/SNOMED/concepts']));
  });

  it('each bad value is a 400 validation_error naming the parameter', async () => {
    for (const route of await paginatedGetRoutes()) {
      const ok = await t.request(`${route.path}?${[route.query, 'page=1&page_size=2'].filter(Boolean).join('&')}`);
      expect(ok.status, `${route.path}: ${ok.text}`).toBe(200);
      for (const parameter of ['page', 'page_size']) {
        for (const value of BAD_NUMBERS) {
          const url = `${route.path}?${[route.query, `${parameter}=${encodeURIComponent(value)}`].filter(Boolean).join('&')}`;
          const res = await t.request(url);
          expect(res.status, `${url}: ${res.text}`).toBe(400);
          expect(res.body.error.code).toBe('validation_error');
          expect(res.body.error.details.parameter).toBe(parameter);
          expect(res.body.error.message).toContain(`'${parameter}'`);
        }
      }
    }
  });

  it('a plain decimal page still works, including a leading +', async () => {
    const res = await t.request('/v1/vocabularies?page=+1&page_size=1');
    expect(res.status).toBe(200);
    expect(res.body.meta.pagination).toMatchObject({ page: 1, page_size: 1 });
  });
});

describe('other numbers', () => {
  it('concept_id must be written in decimal digits (1e3, 0x10, Infinity are 400)', async () => {
    for (const value of ['1e3', '0x10', 'Infinity', '201826.0', '9'.repeat(20)]) {
      const res = await t.request(`/v1/concepts/${value}`);
      expect(res.status, value).toBe(400);
      expect(res.body.error.details).toMatchObject({ parameter: 'concept_id', location: 'params' });
    }
  });

  it('JSON bodies: 1e309 (parsed as Infinity) is a 400 naming the field', async () => {
    const res = await t.request('/v1/search/advanced', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query":"diabetes","page_size":1e309}',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toMatchObject({ parameter: 'page_size', location: 'body' });
  });

  it('JSON bodies: each item of a list of ids is checked too ("Infinity", 1e309, 1.5 → 400 naming the field)', async () => {
    for (const ids of ['"Infinity"', '["Infinity"]', '[201826, 1e309]', '[1.5]', '["0x10"]']) {
      const res = await t.request('/v1/concepts/batch', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"concept_ids":${ids}}`,
      });
      expect(res.status, ids).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.details, ids).toMatchObject({ location: 'body' });
      expect(res.body.error.details.parameter, ids).toMatch(/^concept_ids(\.\d+)?$/);
    }
  });
});
