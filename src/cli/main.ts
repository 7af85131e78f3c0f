#!/usr/bin/env node
/**
 * The `omopterm` command: builds the command tree (program.ts) and runs it. Errors thrown by a
 * command's action are printed as one `omopterm: …` line with exit code 1.
 */
import { buildProgram } from './program.js';

buildProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    process.stderr.write(`omopterm: ${(err as Error).message}\n`);
    process.exit(1);
  });
