/**
 * Mapping jobs survive a restart: a job interrupted by closing the server completes on a new server over the same
 * data directory with every term mapped once, and a resumed job maps only its terms without candidates.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { startServer, type RunningServer } from '../../src/http/start-server.js';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import { stateStorePath } from '../../src/store/data-dir.js';
import { loadCachedRelease } from '../helpers/release-cache.js';
import { rawRequest } from '../helpers/test-server.js';

let dataDir: string;
let server: RunningServer | null = null;
let key: string;
let keyId: string;

const start = () => startServer({ dataDir, port: 0, rescanIntervalMs: 0, anonymousRatePerSecond: 1000 });
const call = (path: string, options: { method?: string; body?: unknown } = {}) =>
  rawRequest(`${server!.url}${path}`, { ...options, headers: { authorization: `Bearer ${key}` } });

const NAMES = ['asthma', 'pneumonia', 'heart failure', 'kidney disease', 'atrial fibrillation'];
const csv = (n: number) => `code,name,count\n${Array.from({ length: n }, (_, i) => `S${i},${NAMES[i % NAMES.length]} ${i},${i % 17}`).join('\n')}\n`;

async function finished(id: string): Promise<Record<string, any>> {
  for (let i = 0; i < 1200; i++) {
    const res = await call(`/v1/mapping-jobs/${id}`);
    expect(res.status, res.text).toBe(200);
    if (!['queued', 'running'].includes(res.body.data.job.state)) return res.body.data.job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

async function everyTerm(id: string): Promise<any[]> {
  const out = [];
  for (let page = 1; ; page++) {
    const res = await call(`/v1/mapping-jobs/${id}/terms?order=index&page_size=500&page=${page}`);
    out.push(...res.body.data.terms);
    if (!res.body.meta.pagination.has_next) return out;
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omopterm-mapping-restart-'));
  await loadCachedRelease(DEMO_VOCABULARY_DIR, dataDir, '2025.2', true);
  server = await start();
  const created = await server.state.createKey({ name: 'restart', rate_per_second: 100_000, monthly_quota: null, cpt4_validated_until: null });
  key = created.secret;
  keyId = created.record.id;
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('a job interrupted by a shutdown completes after the restart, every term mapped once', { timeout: 180_000 }, async () => {
  const submitted = await call('/v1/mapping-jobs', { method: 'POST', body: { text: csv(1000), k: 3 } });
  expect(submitted.status, submitted.text).toBe(202);
  const id = submitted.body.data.job.id;
  await server!.close();
  server = null;

  const interrupted = new EmbeddedStateStore(stateStorePath(dataDir), { flushIntervalMs: 0 });
  const left = await interrupted.mappingJob(id, keyId);
  await interrupted.close();
  expect(left!.state === 'queued' || left!.state === 'running').toBe(true);
  expect(left!.mapped_terms).toBeLessThan(1000);

  server = await start();
  const job = await finished(id);
  expect(job).toMatchObject({ state: 'completed', total_terms: 1000, mapped_terms: 1000 });
  const terms = await everyTerm(id);
  expect(terms.map((t) => t.index)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  expect(terms.filter((t) => t.candidates.length === 0).map((t) => t.source_code)).toEqual([]);
});

it('a resumed job maps only the terms without candidates', { timeout: 120_000 }, async () => {
  await server!.close();
  server = null;
  // A job left running by a server that stopped after its first batch: term 0 has (recognisable) candidates already.
  const state = new EmbeddedStateStore(stateStorePath(dataDir), { flushIntervalMs: 0 });
  const job = await state.createMappingJob({
    owner_key_id: keyId,
    name: 'half done',
    release_label: '2025.2',
    cpt4_validated_until: null,
    options: { k: 3, filters: { standard_only: true, valid_only: true }, auto_approve: {} },
    columns: { source_code: 'code', source_name: 'name' },
    terms: ['Asthma', 'Pneumonia', 'Heart failure'].map((name, index) => ({ index, line: index + 2, source_code: `T${index}`, source_name: name, source_frequency: 1, additional_info: {} })),
  });
  const sentinel = { concept_id: 317009, concept_name: 'Asthma', domain_id: 'Condition', vocabulary_id: 'SNOMED', concept_class_id: 'Clinical Finding', concept_code: '195967001', standard_concept: 'S', score: 0.1234, matched_text: 'saved before the stop', reasons: [] };
  await state.saveMappedTerms(job.id, [{ index: 0, candidates: [sentinel], review: { status: 'unchecked', equivalence: 'UNREVIEWED', concept_ids: [317009], comment: '', status_set_by: null, status_set_at: null, assigned_reviewer: '' } }]);
  await state.setMappingJobState(job.id, 'running');
  await state.close();

  server = await start();
  const done = await finished(job.id);
  expect(done).toMatchObject({ state: 'completed', total_terms: 3, mapped_terms: 3 });
  const [asthma, pneumonia, heartFailure] = await everyTerm(job.id);
  expect(asthma.candidates).toEqual([sentinel]);
  // Expected from examples/demo-vocabulary: 255848 Pneumonia, 316139 Heart failure.
  expect(pneumonia.candidates[0].concept_id).toBe(255848);
  expect(heartFailure.candidates[0].concept_id).toBe(316139);
});
