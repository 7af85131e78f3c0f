#!/usr/bin/env node
// `npm run fuzz [-- --survey]`: runs test/fuzz/fuzz-main.ts (20,000 fuzz requests unless
// OMOPTERM_FUZZ_RUNS says otherwise; OMOPTERM_FUZZ_SEED replays a run).
import { spawnSync } from 'node:child_process';

const run = spawnSync(process.execPath, ['--import', 'tsx', 'test/fuzz/fuzz-main.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
