/**
 * The `omopterm` command tree, built without parsing (main.ts parses it; tests walk it); every option can also be
 * set through an OMOPTERM_* environment variable (the naming rule is ENVIRONMENT_HELP below), and a usage error
 * prints commander's one-line message and a hint naming the command's help.
 */
import { Command } from 'commander';
import { VERSION } from '../version.js';
import { registerClientsCommand } from './commands/clients.js';
import { registerConceptSetCommand } from './commands/concept-set.js';
import { registerDemoCommand } from './commands/demo.js';
import { registerEmbedCommand } from './commands/embed.js';
import { registerKeysCommand } from './commands/keys.js';
import { registerLoadCommand } from './commands/load.js';
import { registerMapCommand } from './commands/map.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerReleasesCommand } from './commands/releases.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSynthCommand } from './commands/synth.js';

const ENVIRONMENT_HELP = `
Every option can also be set through an environment variable, shown as (env: …) in each
command's help: OMOPTERM_DATA_DIR, OMOPTERM_STATE and OMOPTERM_RATE_LIMIT_STORE for --data-dir,
--state and --rate-limit-store of every command; OMOPTERM_<OPTION> for the server options of
serve and demo (OMOPTERM_PORT, OMOPTERM_TLS_CERT, …); OMOPTERM_<COMMAND>_<OPTION> for the others
(OMOPTERM_LOAD_RELEASE, OMOPTERM_KEYS_CREATE_RATE, …). A flag is on when its variable is set.`;

export function buildProgram(): Command {
  const program = new Command()
    .name('omopterm')
    .description('Self-hostable terminology server for the OMOP standardized vocabularies (REST /v1 + FHIR /fhir/{r4,r4b,r5,r6}).')
    .version(VERSION);

  registerLoadCommand(program);
  registerEmbedCommand(program);
  registerReleasesCommand(program);
  registerServeCommand(program);
  registerSynthCommand(program);
  registerKeysCommand(program);
  registerClientsCommand(program);
  registerDemoCommand(program);
  registerConceptSetCommand(program);
  registerMapCommand(program);
  registerMcpCommand(program);

  program.addHelpText('after', ENVIRONMENT_HELP);
  for (const command of commandTree(program)) command.showHelpAfterError(`run '${commandPath(command)} --help' for its usage`);
  return program;
}

/** The command and all its subcommands, depth first. */
export function commandTree(command: Command): Command[] {
  return [command, ...command.commands.flatMap(commandTree)];
}

/** `omopterm keys create` for the `create` subcommand of `keys`. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
