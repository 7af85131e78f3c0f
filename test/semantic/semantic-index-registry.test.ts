/**
 * The serving side of stored vectors: a server searches a release's vectors only with the provider
 * that built them (same id and dimension) — vectors of another provider, or none, are a 503
 * semantic_unavailable that says what to run; indexes of retired builds are closed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { LEXICON_PROVIDER_ID } from '../../src/search-model/semantic/embedding-provider.js';
import { SemanticIndexRegistry } from '../../src/services/semantic/semantic-index-registry.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import type { OpenRelease } from '../../src/store/release-registry.js';
import type { SemanticIndex } from '../../src/store/semantic-index.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { TINY_MODEL_DIMENSION, writeTinyEmbeddingModel } from '../helpers/tiny-embedding-model.js';
import { DEMO_VOCABULARY_DIR } from '../metadata/concept-file.js';

/** A demo-vocabulary concept (SNOMED 22298006). */
const MYOCARDIAL_INFARCTION = 4329847;

let dataDir: string;
let modelDir: string;
const releases = new Map<string, OpenRelease>();
const registries: SemanticIndexRegistry[] = [];

function registry(
  choice: ConstructorParameters<typeof SemanticIndexRegistry>[0]['choice'],
  opened: SemanticIndex[] = [],
  recheckIntervalMs?: number,
): SemanticIndexRegistry {
  const r = new SemanticIndexRegistry({
    recheckIntervalMs,
    choice,
    openIndex: (files) => {
      const index = openSqliteSemanticIndex(files);
      opened.push(index);
      return index;
    },
    retireDelayMs: 0,
  });
  registries.push(r);
  return r;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omopterm-semantic-registry-'));
  modelDir = writeTinyEmbeddingModel().dir;
  await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: '2025.1', quiet: true }); // default provider
  await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: '2025.2', quiet: true, embeddings: { kind: 'local-model', modelDir } });
  await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: '2025.3', quiet: true, embeddings: false });
  for (const build of listReleaseBuilds(dataDir)) releases.set(build.label, { label: build.label, buildId: build.buildId, build, store: undefined as never });
});
afterAll(async () => {
  for (const r of registries) await r.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SemanticIndexRegistry', () => {
  it('serves vectors built by its own provider: the default provider with the release lexicon', async () => {
    const found = await registry({ kind: 'lexicon' }).get(releases.get('2025.1')!);
    if (!found.ok) throw new Error(found.message);
    expect(found.provider.id).toBe(LEXICON_PROVIDER_ID);
    expect(found.index.meta).toMatchObject({ provider: LEXICON_PROVIDER_ID, dimension: 128 });
    expect(found.idf).not.toBeNull();
  });

  it('serves vectors built by its own local model', async () => {
    const found = await registry({ kind: 'local-model', modelDir }).get(releases.get('2025.2')!);
    if (!found.ok) throw new Error(found.message);
    expect(found.provider.id).toMatch(/^local-model\/tiny-bert@[0-9a-f]{12}$/);
    expect(found.index.meta).toMatchObject({ provider: found.provider.id, dimension: TINY_MODEL_DIMENSION });
    expect(found.idf).toBeNull();
  });

  it('refuses vectors of a local model on a server with the default provider (no mixing)', async () => {
    const found = await registry({ kind: 'lexicon' }).get(releases.get('2025.2')!);
    expect(found.ok).toBe(false);
    if (found.ok) return;
    expect(found).toMatchObject({ status: 503, code: 'semantic_unavailable' });
    expect(found.message).toMatch(
      new RegExp(
        `^vectors of release 2025\\.2 were built by local-model/tiny-bert@[0-9a-f]{12} \\(dim ${TINY_MODEL_DIMENSION}\\); ` +
          `this server embeds queries with omopterm-lexicon/1 \\(dim 128\\): run \`omopterm embed --release 2025\\.2\` ` +
          'or start the server with --embedding-model pointing at the model directory tiny-bert that built them$',
      ),
    );
  });

  it('refuses vectors of the default provider on a server with a local model, naming the command with the model', async () => {
    const found = await registry({ kind: 'local-model', modelDir }).get(releases.get('2025.1')!);
    expect(found.ok).toBe(false);
    if (found.ok) return;
    expect(found.status).toBe(503);
    expect(found.message).toContain('vectors of release 2025.1 were built by omopterm-lexicon/1 (dim 128); this server embeds queries with local-model/tiny-bert@');
    expect(found.message).toContain(`run \`omopterm embed --release 2025.1 --embedding-model …/${basename(modelDir)}\` or start the server without --embedding-model`);
    expect(found.message).not.toContain(modelDir); // a client never learns the server's paths
  });

  it('a release without vectors is a 503 that names the command', async () => {
    const found = await registry({ kind: 'lexicon' }).get(releases.get('2025.3')!);
    expect(found).toEqual({
      ok: false,
      status: 503,
      code: 'semantic_unavailable',
      message: 'release 2025.3 has no vectors for semantic search: run `omopterm embed --release 2025.3`',
    });
  });

  it('opens an index once per embedding set, and closes it when its build is retired', async () => {
    const opened: SemanticIndex[] = [];
    const r = registry({ kind: 'lexicon' }, opened);
    const release = releases.get('2025.1')!;
    const a = await r.get(release);
    const b = await r.get(release);
    expect(a).toBe(b);
    expect(opened).toHaveLength(1);
    r.retain([releases.get('2025.2')!.build]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(() => opened[0]!.entriesOfConcepts([MYOCARDIAL_INFARCTION])).toThrow(/not open/);
    const c = await r.get(release);
    expect(c).not.toBe(a);
    expect(opened).toHaveLength(2);
  });

  it('a replaced build removed from disk keeps answering from its open index until the release registry retires it', async () => {
    const release = releases.get('2025.1')!;
    const r = registry({ kind: 'lexicon' }, [], 0);
    const before = await r.get(release);
    if (!before.ok) throw new Error(before.message);
    rmSync(release.build.dir, { recursive: true, force: true }); // as `load --replace` does once the new build is published
    const after = await r.get(release);
    expect(after).toBe(before);
    const [entry] = before.index.entriesOfConcepts([MYOCARDIAL_INFARCTION]).filter((e) => !e.is_synonym);
    const [vector] = await before.provider.embed([entry!.text]);
    expect(before.index.nearest(vector!, 5).map((n) => n.conceptId)).toContain(MYOCARDIAL_INFARCTION);
  });

  it('a server whose model directory is unusable does not start', async () => {
    const r = registry({ kind: 'local-model', modelDir: dataDir });
    await expect(r.prepare()).rejects.toThrow(/config\.json/);
  });
});

describe('over HTTPS', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.1', makeDefault: true }] });
    await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir: t.dataDir, label: '2025.2', quiet: true, embeddings: { kind: 'local-model', modelDir } });
    t.server.registry.rescan();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a release embedded by another provider answers 503 semantic_unavailable in the envelope, naming both providers', async () => {
    const r = await t.request('/v1/search/semantic?query=heart+attack&vocab_release=2025.2');
    expect(r.status).toBe(503);
    expect(r.body).toMatchObject({ success: false, error: { code: 'semantic_unavailable' }, meta: { vocab_release: '2025.2' } });
    expect(r.body.error.message).toMatch(/built by local-model\/tiny-bert@[0-9a-f]{12} \(dim 16\); this server embeds queries with omopterm-lexicon\/1 \(dim 128\)/);
    expect(r.headers['x-request-id']).toBe(r.body.meta.request_id);
    expect(r.headers['x-ratelimit-limit']).toBeDefined();
    const own = await t.request('/v1/search/semantic?query=heart+attack&vocab_release=2025.1');
    expect(own.status).toBe(200);
  });
});
