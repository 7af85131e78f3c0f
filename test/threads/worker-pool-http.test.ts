/**
 * Heavy requests on worker threads (issue #26), over HTTPS on the server-core fixture (a standard CPT4 concept, GPI and
 * MedDRA): the heavy routes run on the pool and answer exactly as a server without threads does, cheap ones stay on the
 * event loop; licences hold through the pool; an error raised in a thread is the same HTTP error; a full queue is a 503
 * with Retry-After; a crashed thread is replaced; threads follow the releases loaded and removed while serving; and a
 * concept lookup is answered while a heavy request is still being computed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OMOP_CONCEPT_SYSTEM } from '../../src/services/fhir/code-system-uris.js';
import type { WorkerPool } from '../../src/threads/worker-pool.js';
import { writeCoreFixture } from '../http/fixture-vocabulary.js';
import { startTestServer, type RequestOptions, type TestResponse, type TestServer } from '../helpers/test-server.js';
import { conceptIdsIn } from '../helpers/concept-ids-in.js';
import { readSourceConcepts } from '../metadata/concept-file.js';

let fixture: string;
let pooled: TestServer;
let inline: TestServer;
let cpt4: { concept_id: number; concept_name: string };
let neverServed: number[];

beforeAll(async () => {
  fixture = writeCoreFixture();
  const concepts = readSourceConcepts(fixture);
  cpt4 = concepts.find((c) => c.vocabulary_id === 'CPT4' && c.standard_concept === 'S')!;
  neverServed = concepts.filter((c) => c.vocabulary_id === 'GPI' || c.vocabulary_id === 'MedDRA').map((c) => c.concept_id);
  const releases = [
    { dir: fixture, label: '2025.1' },
    { dir: fixture, label: '2025.2', makeDefault: true },
  ];
  [pooled, inline] = await Promise.all([startTestServer({ releases, threads: 2 }), startTestServer({ releases, threads: 0 })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([pooled?.close(), inline?.close()]);
});

const poolOf = (t: TestServer): WorkerPool => t.server.app.workerPool;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `ready()` holds (a thread started, a message handled): no time is asserted, only the state reached. */
async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await ready()) return;
    await sleep(25);
  }
  throw new Error(`never happened: ${what}`);
}

/** A pool whose threads have all started (a request before that waits in the queue, which is fine, but the tests count). */
const started = (t: TestServer) => until(() => poolOf(t).idle === poolOf(t).size && poolOf(t).size > 0, 'threads ready');

/** The answer without what differs from one computation to the next (timings, request ids). */
function stable(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body), (key, value) =>
    ['processing_time_ms', 'duration', 'total_duration', 'timing', 'request_id', 'timestamp'].includes(key) ? undefined : value,
  );
}

type Call = [path: string, options?: RequestOptions];

const post = (path: string, body: unknown): Call => [path, { method: 'POST', body }];

/** One request of every heavy route (descendants make the concept set a thread's work). */
const HEAVY: Record<string, Call> = {
  'semantic search': ['/v1/search/semantic?query=diabetes&threshold=0'],
  'semantic bulk': post('/v1/search/semantic-bulk', { searches: [{ query: 'diabetes' }, { query: 'outpatient visit', threshold: 0 }] }),
  similar: post('/v1/search/similar', { concept_id: 201826, similarity_threshold: 0 }),
  'display resolution': post('/v1/fhir/resolve', { display: 'type two diabetes', resource_type: 'Condition', on_unmapped: 'sentinel' }),
  'E6 relationship batch': post('/v1/concepts/relationships/batch', {
    queries: [
      { query_id: 'r', concept_id: 201826, operation: 'relationships' },
      { query_id: 't', concept_id: 201820, operation: 'traverse' },
    ],
  }),
  'whole-system $diff page': [`/fhir/r4/CodeSystem/$diff?system=${encodeURIComponent(OMOP_CONCEPT_SYSTEM)}&fromVersion=2025.1&toVersion=2025.2`],
  'concept set with descendants': post('/v1/concept-sets/resolve', { expression: { items: [{ concept: { CONCEPT_ID: 201820 }, includeDescendants: true }] } }),
  'mapping candidates': post('/v1/mapping/candidates', { source_name: 'type 2 diabetes' }),
  'bulk search': post('/v1/search/bulk', { searches: ['diabetes', 'mellitus', 'type 2', 'visit', 'office', 'outpatient', 'code', 'slash'].map((query) => ({ query })) }),
};

/** Cheap requests: a hand-over would cost more than they do. */
const CHEAP: Record<string, Call> = {
  'concept by id': ['/v1/concepts/201826'],
  $lookup: [`/fhir/r4/CodeSystem/$lookup?system=${encodeURIComponent(OMOP_CONCEPT_SYSTEM)}&code=201826`],
  'structured resolution': post('/v1/fhir/resolve', { vocabulary_id: 'ICD10CM', code: 'E11.9' }),
  'concept set of plain items': post('/v1/concept-sets/resolve', { expression: { items: [{ concept: { CONCEPT_ID: 201826 } }, { concept: { CONCEPT_ID: 201820 } }] } }),
};

describe('heavy requests on worker threads', () => {
  it('every heavy route runs on a thread and answers as the server without threads does', async () => {
    await started(pooled);
    for (const [name, [path, options]] of Object.entries(HEAVY)) {
      const before = poolOf(pooled).stats.threadTasks;
      const [onThread, here] = await Promise.all([pooled.request(path, options), inline.request(path, options)]);
      expect(onThread.status, `${name}: ${onThread.text.slice(0, 300)}`).toBe(200);
      expect(poolOf(pooled).stats.threadTasks, name).toBeGreaterThan(before);
      expect(stable(onThread.body.data ?? onThread.body), name).toEqual(stable(here.body.data ?? here.body));
      // the headers every answer carries, whether its JSON was written here or on the thread
      if (onThread.body.meta) expect(onThread.headers['x-request-id'], name).toBe(onThread.body.meta.request_id);
      expect(onThread.headers['x-ratelimit-limit'], name).toBeDefined();
      expect(onThread.headers['content-type'], name).toBe(here.headers['content-type']);
    }
    expect(poolOf(inline).stats.threadTasks).toBe(0);
  });

  it('answers the fixture: semantic search finds Type 2 diabetes mellitus by its synonym, display resolution maps to it', async () => {
    const search = await pooled.request(`/v1/search/semantic?query=${encodeURIComponent('Type II diabetes mellitus')}`);
    expect(search.status).toBe(200);
    expect(search.body.data.results[0]).toMatchObject({ concept_id: 201826, concept_name: 'Type 2 diabetes mellitus', matched_text: 'Type II diabetes mellitus' });
    const resolved = await pooled.request('/v1/fhir/resolve', { method: 'POST', body: { display: 'Type II diabetes mellitus' } });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data.resolution).toMatchObject({ mapping_type: 'semantic_match', standard_concept: { concept_id: 201826 } });
    const before = poolOf(pooled).stats.threadTasks;
    const set = await pooled.request('/v1/concept-sets/resolve?ids_only=true', { method: 'POST', body: { expression: { items: [{ concept: { CONCEPT_ID: 201820 }, includeDescendants: true }] } } });
    expect(poolOf(pooled).stats.threadTasks).toBe(before + 1);
    expect(set.body.data.concept_ids).toEqual([201820, 201826]); // the fixture's CONCEPT_ANCESTOR rows of 201820
    // its JSON, written on the thread, has the fields the schema-serialised answer of the same set (two plain items, on the event loop) has
    const plain = await pooled.request('/v1/concept-sets/resolve?ids_only=true', { method: 'POST', body: { expression: { items: [{ concept: { CONCEPT_ID: 201820 } }, { concept: { CONCEPT_ID: 201826 } }] } } });
    expect(poolOf(pooled).stats.threadTasks).toBe(before + 1);
    expect(stable(set.body)).toEqual(stable(plain.body));
    expect(set.headers['content-type']).toBe(plain.headers['content-type']);
  });

  it('cheap requests stay on the event loop', async () => {
    for (const [name, [path, options]] of Object.entries(CHEAP)) {
      const before = poolOf(pooled).stats.threadTasks;
      const res = await pooled.request(path, options);
      expect(res.status, `${name}: ${res.text.slice(0, 300)}`).toBe(200);
      expect(poolOf(pooled).stats.threadTasks, name).toBe(before);
    }
  });

  it('licences hold through the pool: no CPT4 concept for a key without validation, CPT4 for one with it; GPI and MedDRA never', async () => {
    const validated = await pooled.createKey({ cpt4_validated_until: '2999-12-31' });
    const name = cpt4.concept_name;
    const ask = (key?: string) =>
      Promise.all([
        pooled.request('/v1/search/similar', { method: 'POST', key, body: { concept_name: name, similarity_threshold: 0, page_size: 1000 } }),
        pooled.request('/v1/fhir/resolve', { method: 'POST', key, body: { display: name, include_recommendations: true, on_unmapped: 'sentinel' } }),
        pooled.request('/v1/mapping/candidates', { method: 'POST', key, body: { source_name: name, k: 25 } }),
        pooled.request('/v1/concept-sets/resolve', { method: 'POST', key, body: { expression: { items: [{ concept: { CONCEPT_ID: cpt4.concept_id }, includeDescendants: true }] } } }),
        pooled.request('/v1/concepts/relationships/batch', { method: 'POST', key, body: { queries: [{ query_id: 'q', concept_id: cpt4.concept_id, operation: 'relationships' }] } }),
      ]);
    const before = poolOf(pooled).stats.threadTasks;
    const without = await ask();
    const withValidation = await ask(validated);
    expect(poolOf(pooled).stats.threadTasks - before).toBeGreaterThanOrEqual(10);
    for (const res of without) expect(res.status, res.text.slice(0, 300)).toBe(200);
    const [similar, resolved, candidates, set, batch] = without;
    for (const res of [similar, resolved, candidates]) {
      expect(conceptIdsIn(res.body.data).filter((id) => id === cpt4.concept_id || neverServed.includes(id))).toEqual([]);
    }
    // the set and the batch name the CPT4 concept only to say it is restricted
    expect(set.body.data.concepts).toEqual([]);
    expect(set.body.data.restricted_items).toEqual([expect.objectContaining({ concept_id: cpt4.concept_id })]);
    expect(batch.body.data[0]).toMatchObject({ success: false, data: null, error_code: 'vocabulary_restricted' });
    for (const res of withValidation) {
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(conceptIdsIn(res.body.data)).toContain(cpt4.concept_id);
      for (const id of neverServed) expect(conceptIdsIn(res.body.data)).not.toContain(id);
    }
  });

  it('an error raised in a thread is the same HTTP error as without threads', async () => {
    const failing: Record<string, Call> = {
      'a never-served vocabulary (403)': ['/v1/search/semantic?query=drug&vocabulary_ids=GPI'],
      'an unknown concept (404)': post('/v1/search/similar', { concept_id: 999_999_999 }),
      'a page size out of range (400, OperationOutcome)': [`/fhir/r4/CodeSystem/$diff?system=${encodeURIComponent(OMOP_CONCEPT_SYSTEM)}&fromVersion=2025.1&count=5000`],
    };
    const expected: Record<string, [number, string | RegExp]> = {
      'a never-served vocabulary (403)': [403, 'vocabulary_restricted'],
      'an unknown concept (404)': [404, /not_found/],
      'a page size out of range (400, OperationOutcome)': [400, 'invalid'],
    };
    for (const [name, [path, options]] of Object.entries(failing)) {
      const before = poolOf(pooled).stats.threadTasks;
      const [onThread, here] = await Promise.all([pooled.request(path, options), inline.request(path, options)]);
      expect(poolOf(pooled).stats.threadTasks, `${name} reached a thread`).toBeGreaterThan(before);
      const [status, code] = expected[name]!;
      expect(onThread.status, name).toBe(status);
      const codeOf = (r: TestResponse) => (r.body.resourceType === 'OperationOutcome' ? r.body.issue[0].code : r.body.error.code);
      expect(codeOf(onThread), name).toMatch(code);
      expect(stable(onThread.body), name).toEqual(stable(here.body));
    }
  });
});

describe('one thread, a queue of one', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ releases: [{ dir: fixture, label: '2025.2', makeDefault: true }], threads: 1, threadQueue: 1 });
    await started(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const heavy = () => t.request('/v1/search/semantic?query=diabetes');
  /** Sends a heavy request and waits until the pool holds it: `running` on the thread and `waiting` in the queue. */
  async function sendHeavy(state: { running: number; waiting: number }): Promise<{ response: Promise<TestResponse> }> {
    const pool = poolOf(t);
    const response = heavy();
    await until(() => pool.size - pool.idle === state.running && pool.waiting === state.waiting, 'the request reached the pool');
    return { response }; // wrapped: an async function would wait for a promise it returns
  }

  it('answers a concept lookup while a heavy request is still being computed', async () => {
    const release = poolOf(t).holdForTest();
    let heavyDone = false;
    const running = (await sendHeavy({ running: 1, waiting: 0 })).response.then((r) => ((heavyDone = true), r));
    try {
      const lookup = await t.request('/v1/concepts/201826');
      expect(lookup.status).toBe(200);
      expect(lookup.body.data.concept_name).toBe('Type 2 diabetes mellitus');
      expect(heavyDone).toBe(false);
    } finally {
      release();
    }
    const answered = await running;
    expect(answered.status).toBe(200);
    expect(answered.body.data.results[0]).toMatchObject({ concept_id: 201820, concept_name: 'Diabetes mellitus' });
  });

  it('refuses a heavy request beyond the queue bound with 503 and Retry-After; those admitted are answered', async () => {
    const release = poolOf(t).holdForTest();
    let first: Promise<TestResponse>;
    let second: Promise<TestResponse>;
    try {
      first = (await sendHeavy({ running: 1, waiting: 0 })).response;
      second = (await sendHeavy({ running: 1, waiting: 1 })).response;
      const refused = await heavy();
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body.error.code).toBe('service_unavailable');
      expect(refused.body.error.message).toMatch(/busy/);
      expect(poolOf(t).stats.refused).toBe(1);
    } finally {
      release();
    }
    for (const res of await Promise.all([first!, second!])) expect(res.status).toBe(200);
  });

  it('replaces a thread that dies: the request it was computing fails with a 500, the next ones are answered', async () => {
    const pool = poolOf(t);
    const release = pool.holdForTest();
    const restarts = pool.stats.restarts;
    const doomed = (await sendHeavy({ running: 1, waiting: 0 })).response;
    await pool.workersForTest[0]!.terminate();
    release();
    const failed = await doomed;
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe('internal_server_error');
    await until(() => pool.stats.restarts === restarts + 1, 'a thread started in its place');
    await started(t);
    expect(pool.size).toBe(1);
    const again = await heavy();
    expect(again.status).toBe(200);
    expect(again.body.data.results[0]).toMatchObject({ concept_id: 201820, concept_name: 'Diabetes mellitus' });
  });
});

describe('threads follow the release registry', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ releases: [{ dir: fixture, label: '2025.1', makeDefault: true }], threads: 1 });
    await started(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const dirsOf = (label: string) => t.server.registry.all().filter((r) => r.label === label).map((r) => r.build.dir);
  const openInThreads = async () => (await poolOf(t).openBuildsForTest()).flat();

  it('opens a release loaded while serving and closes a build that was replaced', async () => {
    const first = dirsOf('2025.1');
    await until(async () => (await openInThreads()).includes(first[0]!), 'the first release open');
    expect(await openInThreads()).toEqual(first);

    await t.load(fixture, '2025.2');
    const second = dirsOf('2025.2');
    expect(second).toHaveLength(1);
    await until(async () => (await openInThreads()).includes(second[0]!), 'the loaded release open in the thread');
    const onNew = await t.request('/v1/search/semantic?query=diabetes&vocab_release=2025.2');
    expect(onNew.status).toBe(200);
    expect(onNew.body.meta.vocab_release).toBe('2025.2');

    await t.load(fixture, '2025.1', { replace: true });
    const replaced = dirsOf('2025.1');
    expect(replaced).not.toEqual(first);
    await until(async () => !(await openInThreads()).includes(first[0]!), 'the replaced build closed in the thread');
    expect((await openInThreads()).sort()).toEqual([...replaced, ...second].sort());
    const onReplaced = await t.request('/v1/search/semantic?query=diabetes&vocab_release=2025.1');
    expect(onReplaced.status).toBe(200);
  });
});
