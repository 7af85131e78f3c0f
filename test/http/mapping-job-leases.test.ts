/**
 * Mapping jobs with several runners on one state (issue 26: "a mapping job is visible from every node", and jobs
 * survive a node that stops): each job is mapped by one runner at a time, every term handed to a mapper once; a job
 * whose runner died is taken over by another runner once its lease expires; a runner that lost its lease stops. The
 * runners here are MappingJobRunner instances, each on its own instance of the state (embedded, and PostgreSQL when
 * it runs), as on separate nodes; the mapper is a stand-in that records what it was handed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MappingJobRunner, type TermMapper } from '../../src/http/mapping-jobs/mapping-job-runner.js';
import type { SourceTerm } from '../../src/services/source-mapping/mapping-types.js';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import { uncheckedReview } from '../../src/state/mapping-job-rows.js';
import type { NewMappingJob } from '../../src/state/mapping-job-store.js';
import { openStateStore, stateChoice } from '../../src/state/openers/open-state-store.js';
import type { StateStore } from '../../src/state/state-store.js';
import type { ReleaseRegistry } from '../../src/store/release-registry.js';
import { freshPostgresSchema, postgresMissing } from '../helpers/state-backends.js';

interface Backend {
  open(): Promise<StateStore>;
  destroy(): Promise<void>;
}

function embedded(): Backend {
  const dir = mkdtempSync(join(tmpdir(), 'omopterm-job-leases-'));
  return {
    open: async () => new EmbeddedStateStore(join(dir, 'state.sqlite'), { flushIntervalMs: 0 }),
    destroy: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgres(): Backend {
  const schema = freshPostgresSchema();
  return {
    open: () => openStateStore(stateChoice({ sqliteFile: '/nonexistent/state.sqlite', state: schema.url }), { flushIntervalMs: 0 }),
    destroy: () => schema.drop(),
  };
}

const BACKENDS: [string, () => Backend][] = [['embedded', embedded]];
if (!(await postgresMissing())) BACKENDS.push(['PostgreSQL', postgres]);
else console.warn('mapping-job-leases: PostgreSQL is not reachable on 127.0.0.1:5432; only the embedded state is tested');

const registry = { select: (label: string) => ({ ok: true, release: { label } }) } as unknown as ReleaseRegistry;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function newJob(name: string, size: number): NewMappingJob {
  const terms: SourceTerm[] = Array.from({ length: size }, (_, i) => ({
    index: i,
    line: i + 2,
    source_code: `S${i}`,
    source_name: `${name} term ${i}`,
    source_frequency: 1,
    additional_info: {},
  }));
  return { owner_key_id: 'k', name, release_label: '2025.2', cpt4_validated_until: null, options: { k: 3, filters: {}, auto_approve: {} }, columns: {}, terms };
}

/** A mapper that records each (job name, term) it is handed, mapping two terms per batch with a pause between. */
function recordingMapper(handed: string[], pauseMs = 2): TermMapper {
  return async ({ terms, signal, onBatch }) => {
    for (let at = 0; at < terms.length && !signal.aborted; at += 2) {
      const batch = terms.slice(at, at + 2);
      handed.push(...batch.map((t) => t.source_name));
      await sleep(pauseMs);
      await onBatch(batch.map((t) => ({ index: t.index, candidates: [], review: uncheckedReview() })));
    }
  };
}

describe.each(BACKENDS)('mapping job leases: %s state', (_name, makeBackend) => {
  let backend: Backend;
  const opened: StateStore[] = [];
  const runners: MappingJobRunner[] = [];
  const open = async () => {
    const store = await backend.open();
    opened.push(store);
    return store;
  };
  const runner = (state: StateStore, mapTerms: TermMapper, options: { leaseMs?: number; pollMs?: number; onNotice?: (line: string) => void } = {}) => {
    const r = new MappingJobRunner({ state, registry, mapTerms, chunkTerms: 4, ...options });
    runners.push(r);
    return r;
  };

  afterEach(async () => {
    for (const r of runners.splice(0)) await r.close();
    for (const s of opened.splice(0)) await s.close();
    await backend.destroy();
  });

  it('two runners on separate instances map three jobs together, each term handed to a mapper once', async () => {
    backend = makeBackend();
    const [a, b] = [await open(), await open()];
    const jobs = [];
    for (const name of ['one', 'two', 'three']) jobs.push(await a.createMappingJob(newJob(name, 10)));
    const handed: string[] = [];
    const [first, second] = [runner(a, recordingMapper(handed)), runner(b, recordingMapper(handed))];
    first.kick();
    second.kick();
    await Promise.all([first.idle(), second.idle()]);
    for (const job of jobs) expect(await b.mappingJob(job.id, 'k')).toMatchObject({ state: 'completed', mapped_terms: 10 });
    expect(handed).toHaveLength(30);
    expect(new Set(handed).size).toBe(30);
  });

  it('a job leased by a runner that died is taken over by another once the lease expires, not before', async () => {
    backend = makeBackend();
    const [a, b] = [await open(), await open()];
    const job = await a.createMappingJob(newJob('orphan', 6));
    // The dead runner took the job and mapped two terms, then stopped renewing its lease.
    expect((await a.claimMappingJob('dead-runner', Date.now() + 600))?.id).toBe(job.id);
    await a.setMappingJobState(job.id, 'running');
    await a.saveMappedTerms(job.id, [0, 1].map((index) => ({ index, candidates: [], review: uncheckedReview() })));
    const handed: string[] = [];
    const survivor = runner(b, recordingMapper(handed), { pollMs: 100 });
    survivor.kick();
    await survivor.idle();
    expect(handed).toEqual([]);
    expect(await b.mappingJob(job.id, 'k')).toMatchObject({ state: 'running', mapped_terms: 2 });
    // Its poll finds the job once the lease has run out, and maps only the terms left.
    for (let waited = 0; waited < 10_000 && (await b.mappingJob(job.id, 'k'))?.state !== 'completed'; waited += 100) await sleep(100);
    expect(await b.mappingJob(job.id, 'k')).toMatchObject({ state: 'completed', mapped_terms: 6 });
    expect(handed).toEqual(['orphan term 2', 'orphan term 3', 'orphan term 4', 'orphan term 5']);
  });

  it('a runner under the name of one that died (a replaced worker process) takes its job back at once', async () => {
    backend = makeBackend();
    const [a, b] = [await open(), await open()];
    const job = await a.createMappingJob(newJob('replaced', 4));
    expect((await a.claimMappingJob('host:1234:jobs', Date.now() + 60_000))?.id).toBe(job.id);
    const handed: string[] = [];
    const stranger = runner(b, recordingMapper(handed));
    stranger.kick();
    await stranger.idle();
    expect(handed).toEqual([]);
    const replacement = new MappingJobRunner({ state: b, registry, mapTerms: recordingMapper(handed), runnerId: 'host:1234:jobs' });
    runners.push(replacement);
    replacement.kick();
    await replacement.idle();
    expect(await b.mappingJob(job.id, 'k')).toMatchObject({ state: 'completed', mapped_terms: 4 });
    expect(handed).toHaveLength(4);
  });

  it('a runner that lost its lease to another stops mapping and leaves the job to the new holder', async () => {
    backend = makeBackend();
    const [a, b] = [await open(), await open()];
    const job = await a.createMappingJob(newJob('slow', 8));
    const notices: string[] = [];
    const handed: string[] = [];
    // Its lease lasts 200 ms, and its first batch takes 1.5 s: meanwhile another runner may claim the job.
    const slow = runner(a, recordingMapper(handed, 1500), { leaseMs: 200, onNotice: (line) => notices.push(line) });
    slow.kick();
    while (handed.length === 0) await sleep(10);
    await sleep(300);
    expect((await b.claimMappingJob('new-holder', Date.now() + 60_000))?.id).toBe(job.id);
    await slow.idle();
    expect(notices).toContain(`mapping job ${job.id}: another runner took it over (this one did not renew its lease in time); stopping here`);
    // It saved the batch it had mapped, handed the mapper no more terms, and did not finish or fail the job.
    expect(handed).toEqual(['slow term 0', 'slow term 1']);
    expect(await b.mappingJob(job.id, 'k')).toMatchObject({ state: 'running', mapped_terms: 2, error: null });
    expect(await b.renewMappingJobLease(job.id, 'new-holder', Date.now() + 60_000)).toBe(true);
  });
});
