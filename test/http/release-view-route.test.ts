/**
 * Issue 21 acceptance: a NEW route, registered here in a test app and written with no licence code
 * of its own, reads concepts through the request's release view, and still never returns a restricted
 * concept: CPT4 only for a key with a current validation, GPI and MedDRA for no key (docs/licences.md).
 * The app is the server's own (buildApp: the gate, error plumbing), driven with inject behind a
 * trusted TLS proxy; expected ids come from the fixture (test/http/fixture-vocabulary.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { registerFhirOperation } from '../../src/http/fhir/fhir-operation.js';
import { ok } from '../../src/http/plumbing/envelope.js';
import { loadRelease } from '../../src/importer/load-release.js';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import { searchConcepts } from '../../src/services/search/keyword-search.js';
import { SemanticIndexRegistry } from '../../src/services/semantic/semantic-index-registry.js';
import { stateStorePath } from '../../src/store/data-dir.js';
import { ReleaseRegistry } from '../../src/store/release-registry.js';
import { DEFAULT_RELEASE_STORE_KIND, releaseStoreOpener } from '../../src/store/openers/release-store-openers.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

const CPT4 = 2414397;
const GPI = 7000002;
const MEDDRA = 7000003;
/** The fixture's concepts of unrestricted vocabularies (SNOMED, ICD10CM, TESTVOC). */
const OPEN = [201820, 201826, 7000001, 7000004, 35206882];
const ALL = [...OPEN, CPT4, GPI, MEDDRA].sort((a, b) => a - b);

let dataDir: string;
let app: FastifyInstance;
let registry: ReleaseRegistry;
let state: EmbeddedStateStore;
let semanticIndexes: SemanticIndexRegistry;
let plainKey: string;
let validatedKey: string;
let expiredKey: string;

/** The routes under test: no licence check in them, only reads through request.view / ctx.view. */
function registerNewRoutes(target: FastifyInstance): void {
  target.get('/v1/test-only/concepts/:concept_id', async (request) => {
    const id = Number((request.params as { concept_id: string }).concept_id);
    return ok(request, request.view.requireConcept(id));
  });
  target.get('/v1/test-only/maybe/:concept_id', async (request) => {
    const id = Number((request.params as { concept_id: string }).concept_id);
    return ok(request, { concept: request.view.concept(id) ?? null });
  });
  target.get('/v1/test-only/many', async (request) => {
    const ids = String((request.query as { ids?: string }).ids ?? '').split(',').map(Number);
    return ok(request, request.view.concepts(ids).map((c) => c.concept_id).sort((a, b) => a - b));
  });
  target.get('/v1/test-only/search', async (request) => {
    const query = String((request.query as { query?: string }).query ?? '');
    return ok(request, searchConcepts(request.view, { query, pageSize: 100 }).items.map((c) => c.concept_id).sort((a, b) => a - b));
  });
  target.get('/v1/test-only/release', async (request) =>
    ok(request, {
      label: request.view.label,
      build_id: request.view.buildId,
      manifest_label: request.view.manifest.label,
      build_dir: request.view.build?.dir ?? null,
      vocabularies: request.view.vocabularies().map((v) => v.vocabulary_id),
    }),
  );
  registerFhirOperation(target, {
    methods: ['GET'],
    path: '/TestOnly/:id',
    summary: 'test-only',
    description: 'A FHIR interaction added by the test.',
    handler: (ctx) => {
      const concept = ctx.view.requireConcept(Number((ctx.request.params as { id: string }).id));
      return { resourceType: 'Basic', id: String(concept.concept_id) };
    },
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omopterm-view-route-'));
  await loadRelease({ sourceDir: writeCoreFixture(), dataDir, label: '2025.2', makeDefault: true, replace: false, quiet: true });
  registry = new ReleaseRegistry({ dataDir, openStore: releaseStoreOpener(DEFAULT_RELEASE_STORE_KIND), rescanIntervalMs: 0 });
  state = new EmbeddedStateStore(stateStorePath(dataDir));
  semanticIndexes = new SemanticIndexRegistry({ choice: { kind: 'lexicon' }, openIndex: openSqliteSemanticIndex });
  const key = async (name: string, cpt4_validated_until: string | null) =>
    (await state.createKey({ name, rate_per_second: 100_000, monthly_quota: null, cpt4_validated_until })).secret;
  plainKey = await key('plain', null);
  validatedKey = await key('validated', '2999-12-31');
  expiredKey = await key('expired', '2000-01-01');
  app = await buildApp({ registry, state, version: 'test', semanticIndexes }, { trustProxy: ['127.0.0.1'] });
  registerNewRoutes(app);
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  registry?.close();
  await semanticIndexes?.close();
  await state?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function get(path: string, key: string) {
  const res = await app.inject({
    method: 'GET',
    url: path,
    remoteAddress: '127.0.0.1',
    headers: { authorization: `Bearer ${key}`, 'x-forwarded-proto': 'https', accept: 'application/json' },
  });
  return { status: res.statusCode, body: res.json() };
}

describe('a new route reading through the release view', () => {
  it('answers an unrestricted concept to every key', async () => {
    for (const key of [plainKey, validatedKey, expiredKey]) {
      const res = await get('/v1/test-only/concepts/201826', key);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ concept_id: 201826, vocabulary_id: 'SNOMED' });
    }
  });

  it('refuses CPT4 to a key without a current validation (403 vocabulary_restricted) and serves it to a validated key', async () => {
    for (const key of [plainKey, expiredKey]) {
      const res = await get(`/v1/test-only/concepts/${CPT4}`, key);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('vocabulary_restricted');
      expect(res.body.error.details.vocabulary_id).toBe('CPT4');
      expect(JSON.stringify(res.body)).not.toContain('Office or other outpatient visit');
    }
    const validated = await get(`/v1/test-only/concepts/${CPT4}`, validatedKey);
    expect(validated.status).toBe(200);
    expect(validated.body.data).toMatchObject({ concept_id: CPT4, vocabulary_id: 'CPT4' });
  });

  it('refuses GPI and MedDRA to every key, validated or not', async () => {
    for (const key of [plainKey, validatedKey, expiredKey]) {
      for (const [id, vocabulary] of [[GPI, 'GPI'], [MEDDRA, 'MedDRA']] as const) {
        const res = await get(`/v1/test-only/concepts/${id}`, key);
        expect(res.status).toBe(403);
        expect(res.body.error.details.vocabulary_id).toBe(vocabulary);
        const maybe = await get(`/v1/test-only/maybe/${id}`, key);
        expect(maybe.status).toBe(200);
        expect(maybe.body.data.concept).toBeNull();
      }
    }
  });

  it('leaves restricted concepts out of lists the route builds (ids and a service search)', async () => {
    const many = (key: string) => get(`/v1/test-only/many?ids=${ALL.join(',')}`, key);
    expect((await many(plainKey)).body.data).toEqual(OPEN);
    expect((await many(expiredKey)).body.data).toEqual(OPEN);
    expect((await many(validatedKey)).body.data).toEqual([...OPEN, CPT4].sort((a, b) => a - b));
    // Words of the CPT4, GPI and MedDRA names: found only where the key may see them.
    for (const [query, id] of [['outpatient visit', CPT4], ['GPI drug group', GPI], ['MedDRA term', MEDDRA]] as const) {
      expect((await get(`/v1/test-only/search?query=${encodeURIComponent(query)}`, plainKey)).body.data).not.toContain(id);
    }
    expect((await get('/v1/test-only/search?query=outpatient%20visit', validatedKey)).body.data).toContain(CPT4);
    expect((await get('/v1/test-only/search?query=MedDRA%20term', validatedKey)).body.data).not.toContain(MEDDRA);
  });

  it('reads release metadata from view members, and the vocabulary list through the view (restricted ones left out)', async () => {
    const selected = registry.select('2025.2');
    if (!selected.ok) throw new Error('the fixture release is not loaded');
    const plain = await get('/v1/test-only/release', plainKey);
    expect(plain.status).toBe(200);
    expect(plain.body.data).toMatchObject({ label: '2025.2', build_id: selected.release.buildId, manifest_label: '2025.2', build_dir: selected.release.build.dir });
    expect(plain.body.data.vocabularies).toContain('SNOMED');
    for (const hidden of ['CPT4', 'GPI', 'MedDRA']) expect(plain.body.data.vocabularies).not.toContain(hidden);
    const validated = (await get('/v1/test-only/release', validatedKey)).body.data.vocabularies;
    expect(validated).toContain('CPT4');
    expect(validated).not.toContain('GPI');
    expect(validated).not.toContain('MedDRA');
  });

  it('on a new FHIR interaction the refusal is an OperationOutcome forbidden', async () => {
    const refused = await get(`/fhir/r4/TestOnly/${CPT4}`, plainKey);
    expect(refused.status).toBe(403);
    expect(refused.body.resourceType).toBe('OperationOutcome');
    expect(refused.body.issue[0].code).toBe('forbidden');
    expect((await get(`/fhir/r4/TestOnly/${CPT4}`, validatedKey)).body).toEqual({ resourceType: 'Basic', id: String(CPT4) });
    expect((await get(`/fhir/r4/TestOnly/${MEDDRA}`, validatedKey)).status).toBe(403);
  });
});
