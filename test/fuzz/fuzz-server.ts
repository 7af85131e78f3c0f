/**
 * The server the fuzz suite attacks: the server-core fixture vocabulary (codes with dots, slashes
 * and spaces; CPT4, GPI and MedDRA concepts), keys with a huge rate limit (one plain, one with CPT4
 * validation), and an anonymous rate high enough never to throttle the fuzz.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeCoreFixture } from '../http/fixture-vocabulary.js';
import { startTestServer } from '../helpers/test-server.js';
import type { FuzzTarget } from './fuzz-runner.js';

const HUGE_RATE = 1_000_000_000;

/** concept_ids of the fixture by vocabulary, read back from its CONCEPT file. */
function conceptIdsOf(dir: string, vocabularies: readonly string[]): number[] {
  const [header, ...rows] = readFileSync(join(dir, 'CONCEPT.csv'), 'utf8').trim().split('\n').map((l) => l.split('\t'));
  const id = header!.indexOf('concept_id');
  const vocabulary = header!.indexOf('vocabulary_id');
  return rows.filter((r) => vocabularies.includes(r[vocabulary]!)).map((r) => Number(r[id]));
}

export async function startFuzzServer(): Promise<{ target: FuzzTarget; close(): Promise<void> }> {
  const dir = writeCoreFixture();
  const server = await startTestServer({ releases: [{ dir, label: '2025.2', makeDefault: true }], anonymousRatePerSecond: HUGE_RATE });
  const target: FuzzTarget = {
    port: server.port,
    keys: {
      key: await server.createKey({ name: 'fuzz', rate_per_second: HUGE_RATE }),
      cpt4_key: await server.createKey({ name: 'fuzz-cpt4', rate_per_second: HUGE_RATE, cpt4_validated_until: '2999-12-31' }),
      unknown_key: 'oh_this-key-was-never-issued',
    },
    licensed: { cpt4: conceptIdsOf(dir, ['CPT4']), neverServed: conceptIdsOf(dir, ['GPI', 'MedDRA']) },
  };
  if (target.licensed.cpt4.length === 0 || target.licensed.neverServed.length === 0) throw new Error('fuzz fixture lost its licensed concepts');
  return { target, close: () => server.close() };
}

/** Runs and seed from the environment (OMOPTERM_FUZZ_RUNS, OMOPTERM_FUZZ_SEED). */
export function fuzzSettings(defaultRuns: number): { runs: number; seed: number } {
  const runs = Number(process.env.OMOPTERM_FUZZ_RUNS ?? defaultRuns);
  const seed = process.env.OMOPTERM_FUZZ_SEED !== undefined ? Number(process.env.OMOPTERM_FUZZ_SEED) : Date.now() % 2 ** 31;
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`OMOPTERM_FUZZ_RUNS must be a positive integer, not ${process.env.OMOPTERM_FUZZ_RUNS}`);
  if (!Number.isInteger(seed)) throw new Error(`OMOPTERM_FUZZ_SEED must be an integer, not ${process.env.OMOPTERM_FUZZ_SEED}`);
  return { runs, seed };
}
