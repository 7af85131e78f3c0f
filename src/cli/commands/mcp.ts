/**
 * `omopterm mcp`: the MCP server on stdin/stdout for a desktop agent, reading the data directory's releases directly
 * (read-only, as `serve` does) under an API key's licences, rate and quota; stdout carries only MCP messages, notices go
 * to stderr.
 */
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LicenceRules } from '../../licences/licence-rules.js';
import { createMcpServer } from '../../mcp/mcp-server.js';
import { quotaExceededError, rateLimitError, stateUnavailableError } from '../../services/admission-errors.js';
import { ServiceError } from '../../services/errors.js';
import { SemanticIndexRegistry } from '../../services/semantic/semantic-index-registry.js';
import { openStateStore } from '../../state/openers/open-state-store.js';
import { StateUnavailableError } from '../../state/state-errors.js';
import type { Admission } from '../../state/state-store.js';
import { releaseStoreOpener } from '../../store/openers/release-store-openers.js';
import { ReleaseRegistry } from '../../store/release-registry.js';
import { openSqliteSemanticIndex } from '../../store/sqlite/sqlite-semantic-index.js';
import { VERSION } from '../../version.js';
import { embeddingChoice, embeddingModelOption } from './embed.js';
import { dataDirOption, rateLimitStoreOption, stateChoiceOf, stateOption } from './options.js';

/** Also read for the key when --key and OMOPTERM_MCP_KEY are absent (the name agent configurations tend to use). */
export const API_KEY_ENV = 'OMOPTERM_API_KEY';
/** The client address the stdio server's calls are counted under (no network peer). */
const STDIO_CLIENT = 'stdio';

interface McpCliOptions {
  dataDir: string;
  state?: string;
  rateLimitStore?: string;
  key?: string;
  embeddingModel?: string;
}

const HELP_AFTER = `
Speaks the Model Context Protocol on stdin/stdout (nothing else is written to stdout; notices go to stderr).
Every tool call counts as one call of the key: its rate, monthly quota and licences (CPT4 only with a current
validation) apply as on the HTTP surfaces. Releases loaded or replaced while it runs are picked up.
A desktop agent starts it with, e.g.:
  {"command": "omopterm", "args": ["mcp", "--data-dir", "/srv/omopterm-data"], "env": {"${API_KEY_ENV}": "oh_…"}}
See docs/mcp.md for the tools, resources and prompts.`;

export async function runMcpStdio(options: McpCliOptions): Promise<void> {
  const secret = options.key ?? process.env[API_KEY_ENV];
  if (!secret) {
    throw new Error(`an API key is required: give --key, or set OMOPTERM_MCP_KEY or ${API_KEY_ENV} (create one with \`omopterm keys create\`)`);
  }
  const dataDir = resolve(options.dataDir);
  const notice = (line: string) => process.stderr.write(`omopterm mcp: ${line}\n`);
  const state = await openStateStore(stateChoiceOf(options), { onNotice: notice });
  const key = await state.authenticate(secret);
  if (!key) {
    await state.close();
    throw new Error('the API key is not valid or has been revoked');
  }
  const registry = new ReleaseRegistry({ dataDir, openStore: releaseStoreOpener(), onError: (message) => notice(`release skipped: ${message}`) });
  if (registry.labels().length === 0) notice(`no vocabulary release in ${dataDir} yet: load one with \`omopterm load\``);
  const semanticIndexes = new SemanticIndexRegistry({ choice: embeddingChoice(options.embeddingModel), openIndex: openSqliteSemanticIndex, onNotice: notice });
  await semanticIndexes.prepare();

  const server = createMcpServer({
    registry,
    semanticIndexes,
    version: VERSION,
    // Every call re-checks the key (it may have been revoked meanwhile), takes a token from its bucket and meters one call.
    admit: async () => {
      let admission: Admission;
      try {
        admission = await state.admit({ secret, clientAddress: STDIO_CLIENT, anonymousRatePerSecond: 1, meter: true });
      } catch (error) {
        throw error instanceof StateUnavailableError ? stateUnavailableError(error) : error;
      }
      if (!admission.key) throw new ServiceError(401, 'invalid_api_key', 'The API key is not valid or has been revoked.');
      if (!admission.rate.allowed) throw rateLimitError(admission.rate, true);
      if (admission.quota && !admission.quota.allowed) throw quotaExceededError(admission.quota);
      return new LicenceRules(admission.key.cpt4_validated_until);
    },
  });
  const transport = new StdioServerTransport();
  let closed = false;
  const shutdown = async () => {
    if (closed) return;
    closed = true;
    registry.close();
    await state.close();
    process.exit(0);
  };
  transport.onclose = () => void shutdown();
  process.stdin.on('end', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await server.connect(transport);
  notice(`serving MCP on stdio: releases ${registry.labels().join(', ') || '(none)'}; key '${key.name}'`);
}

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve the terminology tools to an LLM agent over the Model Context Protocol on stdin/stdout (the HTTP server serves the same at /mcp).')
    .addOption(dataDirOption())
    .addOption(stateOption())
    .addOption(rateLimitStoreOption())
    .addOption(new Option('--key <secret>', `API key whose licences, rate and quota the tool calls use (also read from ${API_KEY_ENV})`).env('OMOPTERM_MCP_KEY'))
    .addOption(
      embeddingModelOption('OMOPTERM_MCP_EMBEDDING_MODEL', 'embed semantic-search queries with the local ONNX model in this directory (default: the built-in provider)'),
    )
    .addHelpText('after', HELP_AFTER)
    .action(async (options: McpCliOptions) => {
      await runMcpStdio(options);
    });
}
