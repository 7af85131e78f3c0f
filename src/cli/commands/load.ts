/** `omopterm load <dir> --release YYYY.Q`: an Athena download → a new immutable release store. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { runInterruptibleJob } from './interruptible-job.js';
import { startLoadInChildProcess } from '../../importer/load-in-child-process.js';
import { formatLoadSummary } from '../../importer/load-summary.js';
import { releaseLabelProblem } from '../../importer/release-label.js';
import { TerminalProgress } from '../../importer/terminal-progress.js';
import { dataDirOption, parsePositiveInteger } from './options.js';
import { embeddingChoice, embeddingModelOption } from './embed.js';

interface LoadCliOptions {
  release: string;
  dataDir: string;
  default?: boolean;
  replace?: boolean;
  skipEmbeddings?: boolean;
  embeddingModel?: string;
  threads?: number;
}

function parseReleaseLabel(value: string): string {
  const problem = releaseLabelProblem(value);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return value;
}

const HELP_AFTER = `
Input: the unzipped Athena download. Tables read (file names in any case, .csv or .csv.gz):
  CONCEPT (required), CONCEPT_RELATIONSHIP, CONCEPT_ANCESTOR, CONCEPT_SYNONYM, VOCABULARY,
  DOMAIN, CONCEPT_CLASS, RELATIONSHIP, DRUG_STRENGTH. A missing or header-only table other than
  CONCEPT loads as empty; other files (e.g. SOURCE_TO_CONCEPT_MAP) are listed and ignored.
  Each file's header decides its format: TAB-separated without quoting (Athena), or
  comma-separated CSV with "quoting". Columns are matched by name; dates may be YYYYMMDD or
  YYYY-MM-DD.

Dirty data is kept and summarised (duplicate ids keep the first row; rows pointing at concepts
missing from CONCEPT are kept and counted once each; values longer than their OMOP CDM column,
e.g. a domain_id over 20 characters, are kept; odd flags become NULL), with the first examples
as FILE:LINE. A row that cannot be read stops the load with FILE:LINE:COLUMN and an explanation.

--release takes the canonical label YYYY.Q with Q 1–4. The alias 2025v2, which the server
accepts when a request selects a release, is refused here: load it as 2025.2.

The release is built in <data-dir>/releases/.tmp-<label>-<build>/ and published by one rename to
<data-dir>/releases/<label>__<build>/ when complete. A failed or interrupted (Ctrl-C) load removes
its partial build; so does killing omopterm outright (kill -9): its load process stops with it, and
a new load can start at once. Existing releases keep serving, and running servers pick up the new
release within seconds. Progress goes to stderr, the final summary to stdout.

After the tables and indexes, the load computes the release's vectors for semantic search with the
built-in provider (several minutes for a full release), or with the local ONNX model named by
--embedding-model; --skip-embeddings leaves them out (semantic search then answers 503 for the
release until \`omopterm embed --release <label>\` adds them). See \`omopterm embed --help\`.

Examples:
  omopterm load ~/athena/vocabulary_download_v5 --release 2025.2 --default
  OMOPTERM_DATA_DIR=/srv/omopterm omopterm load ./athena --release 2025.2 --replace
  OMOPTERM_LOAD_RELEASE=2025.2 omopterm load ./athena`;

export function registerLoadCommand(program: Command): void {
  program
    .command('load')
    .summary('load an Athena vocabulary download as a release')
    .description('Load an Athena vocabulary download (the unzipped directory) as release YYYY.Q into the data directory.')
    .argument('<dir>', 'directory holding the Athena files (CONCEPT.csv, CONCEPT_RELATIONSHIP.csv, …)')
    .addOption(
      new Option('--release <label>', 'release label YYYY.Q with Q 1–4, e.g. 2025.2 for the second release of 2025 (the alias form 2025v2 is refused)')
        .env('OMOPTERM_LOAD_RELEASE')
        .argParser(parseReleaseLabel)
        .makeOptionMandatory(),
    )
    .addOption(dataDirOption())
    .addOption(new Option('--default', 'make this the default release (the first release loaded becomes the default anyway)').env('OMOPTERM_LOAD_DEFAULT'))
    .addOption(
      new Option('--replace', 'load a label that is already loaded again; the old build serves until the new one is published, then is removed').env(
        'OMOPTERM_LOAD_REPLACE',
      ),
    )
    .addOption(
      new Option('--skip-embeddings', 'do not compute the vectors of semantic search (add them later with `omopterm embed`)')
        .env('OMOPTERM_LOAD_SKIP_EMBEDDINGS')
        .conflicts('embeddingModel'),
    )
    .addOption(
      new Option(
        '--threads <n>',
        'cores the load keeps busy (default: every core): with 2 or more, table files are parsed on a thread of their own while rows are stored, the vectors are embedded on two helper threads and grouped into lists on two cores; 1 loads on one core. The store is the same either way',
      )
        .env('OMOPTERM_LOAD_THREADS')
        .argParser(parsePositiveInteger('--threads')),
    )
    .addOption(
      embeddingModelOption('OMOPTERM_LOAD_EMBEDDING_MODEL', 'compute the vectors with the local ONNX sentence-embedding model in this directory (default: the built-in provider)'),
    )
    .addHelpText('after', HELP_AFTER)
    .action(async (dir: string, options: LoadCliOptions) => {
      const progress = new TerminalProgress(process.stderr);
      const load = startLoadInChildProcess(
        {
          sourceDir: resolve(dir),
          dataDir: resolve(options.dataDir),
          label: options.release,
          makeDefault: Boolean(options.default),
          replace: Boolean(options.replace),
          embeddings: options.skipEmbeddings ? false : embeddingChoice(options.embeddingModel),
          threads: options.threads,
        },
        (event) => progress.handle(event),
      );
      await runInterruptibleJob(progress, (signal) => load.interrupt(`interrupted (${signal})`), () => load.result, formatLoadSummary);
    });
}
