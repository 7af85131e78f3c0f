/** `omopterm embed --release X`: (re)compute a loaded release's vectors for semantic search. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { embedRelease } from '../../importer/embed-release.js';
import { formatEmbedSummary } from '../../importer/embed-summary.js';
import { LoadInterruptedError } from '../../importer/load-error.js';
import { TerminalProgress } from '../../importer/terminal-progress.js';
import type { EmbeddingProviderChoice } from '../../search-model/semantic/embedding-provider.js';
import { runInterruptibleJob } from './interruptible-job.js';
import { dataDirOption } from './options.js';

interface EmbedCliOptions {
  release: string;
  dataDir: string;
  embeddingModel?: string;
}

/** `--embedding-model DIR` (a directory that exists), read from `env` too. */
export function embeddingModelOption(env: string, description: string): Option {
  return new Option('--embedding-model <dir>', description).env(env).argParser((value: string) => {
    const dir = resolve(value);
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      // reported below
    }
    if (!isDir) throw new InvalidArgumentError(`no model directory at ${dir}`);
    return dir;
  });
}

/** The provider an `--embedding-model` value asks for (none: the built-in default). */
export function embeddingChoice(modelDir: string | undefined): EmbeddingProviderChoice {
  return modelDir === undefined ? { kind: 'lexicon' } : { kind: 'local-model', modelDir };
}

const HELP_AFTER = `
Semantic search (/v1/search/semantic, /v1/search/similar, …) compares a query's vector with vectors
computed per release. \`omopterm load\` computes them by default; run this command after
\`load --skip-embeddings\`, or to switch a release to another provider. The texts embedded are the
names and synonyms of the release's valid standard and classification concepts; the index holds
one vector per concept (the mean of its texts' vectors).

Providers:
  (default)               built in, nothing downloaded: the release's own word statistics and the
                          word equivalences it teaches (synonyms, names on both ends of Maps to),
                          pretrained English word vectors shipped on npm, and character trigrams
  --embedding-model DIR   a sentence-embedding model in ONNX format in DIR, loaded locally
                          (never from the network)

A server embeds queries with one provider (\`serve --embedding-model DIR\`, or the default) and only
searches vectors built by that same provider; other releases answer 503 semantic_unavailable.

The new vectors are written beside the release and published atomically: a running server keeps
searching the previous ones until the new ones are complete, then switches within seconds. A
failed or interrupted (Ctrl-C) run leaves the previous vectors in place. At full scale (4.9M
names and synonyms of 3.2M concepts) the default provider takes about 3 minutes; progress goes to
stderr, the summary to stdout.

Examples:
  omopterm embed --release 2025.2
  omopterm embed --release 2025.2 --embedding-model /models/all-MiniLM-L6-v2`;

export function registerEmbedCommand(program: Command): void {
  program
    .command('embed')
    .summary("compute a loaded release's vectors for semantic search")
    .description('Compute the vectors of semantic search for a loaded release (again), with the default provider or a local model.')
    .addOption(new Option('--release <label>', 'label of a loaded release, e.g. 2025.2').env('OMOPTERM_EMBED_RELEASE').makeOptionMandatory())
    .addOption(dataDirOption())
    .addOption(
      embeddingModelOption('OMOPTERM_EMBED_EMBEDDING_MODEL', 'directory of a local ONNX sentence-embedding model (default: the built-in provider)'),
    )
    .addHelpText('after', HELP_AFTER)
    .action(async (options: EmbedCliOptions) => {
      const progress = new TerminalProgress(process.stderr);
      const abort = new AbortController();
      await runInterruptibleJob(
        progress,
        (signal) => abort.abort(new LoadInterruptedError(`interrupted (${signal}): nothing was published; the previous vectors (if any) are untouched`)),
        () =>
          embedRelease({
            dataDir: resolve(options.dataDir),
            label: options.release,
            choice: embeddingChoice(options.embeddingModel),
            onProgress: (event) => progress.handle(event),
            signal: abort.signal,
          }),
        (result) => `Release ${result.label}: ${formatEmbedSummary(result)}`,
      );
    });
}
