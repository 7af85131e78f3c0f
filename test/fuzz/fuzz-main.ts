/**
 * `npm run fuzz`: the fuzz suite of ./openapi-fuzz.test.ts at a larger scale (20,000 requests by
 * default), printing a summary: requests, statuses, failures with a replayable counterexample.
 * --survey keeps going after a failure and lists one example of every kind of violation.
 */
import { formatSummary, runFuzz } from './fuzz-runner.js';
import { fuzzSettings, startFuzzServer } from './fuzz-server.js';

const NPM_FUZZ_RUNS = 20_000;

const { runs, seed } = fuzzSettings(NPM_FUZZ_RUNS);
const survey = process.argv.includes('--survey');
const server = await startFuzzServer();
try {
  const started = Date.now();
  const summary = await runFuzz(server.target, { runs, seed, survey });
  console.log(formatSummary(summary));
  console.log(`took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exitCode = summary.failures.length ? 1 : 0;
} finally {
  await server.close();
}
