#!/usr/bin/env node
/**
 * The `omopterm` command. Each subcommand lives in ./commands and registers itself here.
 * Every option can also be given as an OMOPTERM_* environment variable (see each command's help).
 */
import { Command } from 'commander';
import { registerDemoCommand } from './commands/demo.js';
import { registerKeysCommand } from './commands/keys.js';
import { registerLoadCommand } from './commands/load.js';
import { registerReleasesCommand } from './commands/releases.js';
import { registerServeCommand } from './commands/serve.js';
import { VERSION } from '../version.js';
import { registerSynthCommand } from './commands/synth.js';

const program = new Command()
  .name('omopterm')
  .description('Self-hostable terminology server for the OMOP standardized vocabularies (REST /v1 + FHIR /fhir/{r4,r4b,r5,r6}).')
  .version(VERSION)
  .showHelpAfterError();

registerLoadCommand(program);
registerReleasesCommand(program);
registerServeCommand(program);
registerSynthCommand(program);
registerKeysCommand(program);
registerDemoCommand(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`omopterm: ${(err as Error).message}\n`);
  process.exit(1);
});
