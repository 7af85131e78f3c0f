/**
 * A local model end to end through the real CLI: `omopterm load --embedding-model DIR` embeds a
 * small release with a generated tiny model, `omopterm serve --embedding-model DIR` answers
 * GET /v1/search/semantic with the concepts the model places near the query, and a server with the
 * default provider refuses those vectors (503 naming both providers).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEXICON_PROVIDER_ID } from '../../src/search-model/semantic/embedding-provider.js';
import { writeAthenaFixture } from '../helpers/athena-fixture.js';
import { runCli, startCliServe, type CliServer } from '../helpers/cli.js';
import { rawRequest, type TestResponse } from '../helpers/test-server.js';
import { writeTinyEmbeddingModel } from '../helpers/tiny-embedding-model.js';
import { localModelPackageMissing } from '../helpers/local-model-package.js';
import { RANKING_WEIGHTS } from '../../src/search-model/candidate-ranking.js';

// Names built from the tiny model's vocabulary: each concept sits on one of its designed meanings.
const MYOCARDIAL_INFARCTION = { concept_id: 4329847, concept_name: 'Myocardial infarction' };
const HYPERTENSION = { concept_id: 320128, concept_name: 'Hypertension' };
const RENAL_FAILURE = { concept_id: 4030518, concept_name: 'Renal failure' };
const LIVER_NEOPLASM = { concept_id: 4246127, concept_name: 'Neoplasm of liver' };
const BONE_FRACTURE = { concept_id: 4129394, concept_name: 'Fracture of bone' };
const DIABETES = { concept_id: 201820, concept_name: 'Diabetes mellitus' };
const CONCEPTS = [MYOCARDIAL_INFARCTION, HYPERTENSION, RENAL_FAILURE, LIVER_NEOPLASM, BONE_FRACTURE, DIABETES];

const PACKAGE_MISSING = localModelPackageMissing();
const scratch = mkdtempSync(join(tmpdir(), 'omopterm-local-model-e2e-'));
const dataDir = join(scratch, 'data');
const model = writeTinyEmbeddingModel({ dir: join(scratch, 'models', 'tiny-bert') });
const modelProviderId = `local-model/tiny-bert@${createHash('sha256').update(readFileSync(model.modelFile)).digest('hex').slice(0, 12)}`;

let authorization = '';
let modelServer: CliServer | undefined;
let defaultServer: CliServer | undefined;

const search = (server: CliServer, query: string): Promise<TestResponse> =>
  rawRequest(`${server.url}/v1/search/semantic?query=${encodeURIComponent(query)}`, { headers: { authorization } });

beforeAll(async () => {
  const fixture = writeAthenaFixture({
    concepts: CONCEPTS,
    synonyms: [[RENAL_FAILURE.concept_id, 'Kidney failure']],
  });
  const loaded = runCli(['load', fixture, '--release', '2025.1', '--default', '--data-dir', dataDir, '--embedding-model', model.dir]);
  expect(loaded.status, loaded.stderr).toBe(0);
  const key = runCli(['keys', 'create', '--name', 'local-model-e2e', '--rate', '1000', '--data-dir', dataDir]);
  expect(key.status, key.stderr).toBe(0);
  authorization = `Bearer ${key.stdout.trim()}`;
  [modelServer, defaultServer] = await Promise.all([
    startCliServe(['--data-dir', dataDir, '--embedding-model', model.dir]),
    startCliServe(['--data-dir', dataDir]),
  ]);
});

afterAll(async () => {
  await Promise.all([modelServer?.stop(), defaultServer?.stop()]);
  rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(PACKAGE_MISSING)('semantic search with a local model, through the CLI', () => {
  it('finds the concept the model places nearest, though it shares no word with the query', async () => {
    const res = await search(modelServer!, 'heart attack');
    expect(res.status).toBe(200);
    const [best, ...rest] = res.body.data.results;
    expect(best).toMatchObject({ ...MYOCARDIAL_INFARCTION, matched_text: MYOCARDIAL_INFARCTION.concept_name });
    // the model places them at cosine > 0.9; sharing no word, the shared ranking scores the match by meaning alone:
    // its meaning weight × that cosine (docs/semantic-search.md, the candidate ranking model)
    expect(best.similarity_score).toBeGreaterThan(RANKING_WEIGHTS.meaning * 0.9);
    // the other concepts lie on other meanings of the model: below the default threshold (0.5)
    expect(rest).toEqual([]);
  });

  it('matches a synonym when it is the nearer text, and reports it as matched_text', async () => {
    const res = await search(modelServer!, 'kidney');
    expect(res.status).toBe(200);
    expect(res.body.data.results[0]).toMatchObject({ ...RENAL_FAILURE, matched_text: 'Kidney failure' });
  });

  it('ranks by meaning: "high blood pressure" finds Hypertension first', async () => {
    const res = await search(modelServer!, 'high blood pressure');
    expect(res.status).toBe(200);
    expect(res.body.data.results[0]).toMatchObject(HYPERTENSION);
  });

  it('a model directory without its tokenizer stops `serve` at start, naming the missing file', () => {
    const broken = writeTinyEmbeddingModel({ dir: join(scratch, 'models', 'no-tokenizer') });
    rmSync(join(broken.dir, 'tokenizer.json'));
    const served = runCli(['serve', '--port', '0', '--data-dir', dataDir, '--embedding-model', broken.dir]);
    expect(served.status).not.toBe(0);
    expect(served.stderr).toContain(`embedding model directory ${broken.dir} has no tokenizer.json`);
  });

  it('a server with the default provider refuses vectors built by the model: 503 naming both providers', async () => {
    const res = await search(defaultServer!, 'heart attack');
    expect(res.status).toBe(503);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('semantic_unavailable');
    expect(res.body.error.message).toContain(modelProviderId);
    expect(res.body.error.message).toContain(LEXICON_PROVIDER_ID);
    expect(res.headers['x-request-id']).toBe(res.body.meta.request_id);
  });
});
