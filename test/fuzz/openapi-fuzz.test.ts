/**
 * Property-based fuzz of every operation of the served /openapi.json (issue acceptance; Errors rules,
 * Common REST conventions, reading notes 9 and 12): no 5xx, every answer in the REST envelope or an
 * OperationOutcome, no data without a key outside the public routes, no licensed concept leaked.
 * OMOPTERM_FUZZ_RUNS (default 500) and OMOPTERM_FUZZ_SEED set the run; `npm run fuzz` runs 20,000.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { formatSummary, runFuzz, type FuzzTarget } from './fuzz-runner.js';
import { fuzzSettings, startFuzzServer } from './fuzz-server.js';

/** Bounded for `npm test` (a seeded random sample over every operation); long runs belong to `npm run fuzz`. */
const CI_RUNS = 500;

let server: Awaited<ReturnType<typeof startFuzzServer>>;
let target: FuzzTarget;
beforeAll(async () => {
  server = await startFuzzServer();
  target = server.target;
});
afterAll(async () => {
  await server?.close();
});

it('no request to any operation of /openapi.json breaks a response property', { timeout: 600_000 }, async () => {
  const { runs, seed } = fuzzSettings(CI_RUNS);
  const summary = await runFuzz(target, { runs, seed });
  const report = formatSummary(summary);
  if (summary.failures.length) console.error(report);
  expect(summary.operations).toBeGreaterThan(10);
  expect(summary.requests).toBeGreaterThanOrEqual(runs);
  // The licence property saw real concepts, not only errors.
  expect(summary.withConcepts).toBeGreaterThan(0);
  expect(summary.failures, report).toEqual([]);
});
