/**
 * A mapping job and an outage of the state backend (issue 26, "service resumes by itself"): when the state cannot be
 * reached mid-job, the job is not failed and the server does not stop; the runner looks again later and finishes the
 * job, each term mapped once. The state here is the embedded store behind a switch that makes every call fail with
 * StateUnavailableError, as an unreachable PostgreSQL does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import { MappingJobRunner } from '../../src/http/mapping-jobs/mapping-job-runner.js';
import { EmbeddedStateStore } from '../../src/state/embedded-state-store.js';
import { uncheckedReview } from '../../src/state/mapping-job-rows.js';
import { StateUnavailableError } from '../../src/state/state-errors.js';
import type { StateStore } from '../../src/state/state-store.js';
import type { ReleaseRegistry } from '../../src/store/release-registry.js';

const dir = mkdtempSync(join(tmpdir(), 'omopterm-runner-outage-'));
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

it('an outage mid-job pauses the job (still running, not failed) and the runner finishes it once the state is back', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  const inner = new EmbeddedStateStore(join(dir, 'state.sqlite'), { flushIntervalMs: 0 });
  let down = false;
  const state = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => (down ? Promise.reject(new StateUnavailableError('postgres')) : value.apply(target, args));
    },
  }) as StateStore;
  const terms = Array.from({ length: 6 }, (_, i) => ({ index: i, line: i + 2, source_code: `S${i}`, source_name: `term ${i}`, source_frequency: 1, additional_info: {} }));
  const job = await state.createMappingJob({
    owner_key_id: 'k',
    name: 'f.csv',
    release_label: '2025.2',
    cpt4_validated_until: null,
    options: { k: 3, filters: {}, auto_approve: {} },
    columns: {},
    terms,
  });
  const notices: string[] = [];
  let batches = 0;
  const runner = new MappingJobRunner({
    state,
    registry: { select: (label: string) => ({ ok: true, release: { label } }) } as unknown as ReleaseRegistry,
    // Two terms a batch; the state goes away after the first batch is saved.
    mapTerms: async ({ terms: handed, onBatch }) => {
      for (let at = 0; at < handed.length; at += 2) {
        await onBatch(handed.slice(at, at + 2).map((t) => ({ index: t.index, candidates: [], review: uncheckedReview() })));
        if (++batches === 1) down = true;
      }
    },
    onNotice: (line) => notices.push(line),
  } as ConstructorParameters<typeof MappingJobRunner>[0]);

  runner.kick();
  await runner.idle();
  expect(notices.some((line) => line.startsWith('mapping jobs paused: the postgres state backend is unavailable'))).toBe(true);
  down = false;
  expect(await state.mappingJob(job.id, 'k')).toMatchObject({ state: 'running', mapped_terms: 2 });

  // The runner looks again by itself.
  await vi.advanceTimersByTimeAsync(5000);
  await runner.idle();
  expect(await state.mappingJob(job.id, 'k')).toMatchObject({ state: 'completed', mapped_terms: 6, error: null });
  expect(notices.some((line) => line.includes('failed'))).toBe(false);
  await runner.close();
  await inner.close();
});
