import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, whose test process then
    // leaves the second core idle while it waits on its in-process server. Two files at a time use both.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
