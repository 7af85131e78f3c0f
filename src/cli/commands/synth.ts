/** `omopterm synth --out DIR`: a synthetic vocabulary in the Athena download format. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { conceptsForScale, DEFAULT_SEED, FULL_RELEASE, synthesize } from '../../synth/index.js';
import { formatQuantity } from '../../importer/format.js';
import { parsePositiveInteger } from './options.js';

interface SynthCliOptions {
  out: string;
  concepts?: number;
  scale?: number;
  seed: number;
  json?: boolean;
}

function parseScale(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1) throw new InvalidArgumentError(`--scale must be a number in (0, 1] (got '${value}')`);
  return n;
}

function parseSeed(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new InvalidArgumentError(`--seed must be a whole number 0–4294967295 (got '${value}')`);
  return n;
}

const HELP_AFTER = `
Writes CONCEPT.csv, CONCEPT_RELATIONSHIP.csv, CONCEPT_ANCESTOR.csv, CONCEPT_SYNONYM.csv,
DRUG_STRENGTH.csv, VOCABULARY.csv, DOMAIN.csv, CONCEPT_CLASS.csv and RELATIONSHIP.csv in the real
Athena download format (TAB-separated, no quoting, dates YYYYMMDD), shaped like the v5 release of
August 2025 scaled to the requested size: vocabulary mix, standard / classification /
non-standard / invalid proportions, relationships in both directions, CONCEPT_ANCESTOR equal to the
closure of the ancestry relationships, synonyms, drug strengths. Names are built from a medical
lexicon with Zipfian word frequencies. The same --concepts and --seed always give the same files.
Every text value fits its OMOP CDM v5.4 column (concept_name 255, concept_code 50, ids 20
characters, …), so the files also load into a CDM database. The data is synthetic: it contains
no real terminology content.

Full size (${FULL_RELEASE.concepts.toLocaleString('en-US')} concepts) writes about 4 GB.

Examples:
  omopterm synth --out ./synth-full
  omopterm synth --out /tmp/synth-1pct --scale 0.01 --seed 7
  omopterm load ./synth-full --release 2025.2`;

export function registerSynthCommand(program: Command): void {
  program
    .command('synth')
    .summary('generate a synthetic vocabulary in the Athena download format')
    .description('Generate a deterministic synthetic vocabulary in the Athena download format (for tests and benchmarks).')
    .addOption(new Option('--out <dir>', 'output directory (created if missing; files are overwritten)').env('OMOPTERM_SYNTH_OUT').makeOptionMandatory())
    .addOption(
      new Option('--concepts <n>', `number of concepts (default: full size, ${FULL_RELEASE.concepts})`)
        .env('OMOPTERM_SYNTH_CONCEPTS')
        .argParser(parsePositiveInteger('--concepts'))
        .conflicts('scale'),
    )
    .addOption(new Option('--scale <f>', 'size as a fraction of the full release, e.g. 0.01').env('OMOPTERM_SYNTH_SCALE').argParser(parseScale))
    .addOption(new Option('--seed <s>', 'random seed').env('OMOPTERM_SYNTH_SEED').default(DEFAULT_SEED).argParser(parseSeed))
    .addOption(new Option('--json', 'print the summary as JSON').env('OMOPTERM_SYNTH_JSON'))
    .addHelpText('after', HELP_AFTER)
    .action((options: SynthCliOptions) => {
      const concepts = options.concepts ?? (options.scale !== undefined ? conceptsForScale(options.scale) : FULL_RELEASE.concepts);
      const started = Date.now();
      const result = synthesize({
        outDir: resolve(options.out),
        concepts,
        seed: options.seed,
        onProgress: (line) => process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`),
      });
      const peakRss = process.resourceUsage().maxRSS * 1024;
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ ...result, peakRssBytes: peakRss }, null, 2)}\n`);
        return;
      }
      const lines = [
        `synthetic vocabulary written to ${result.outDir}`,
        `  concepts ${result.concepts.toLocaleString('en-US')}, seed ${result.seed}, ${(result.elapsedMs / 1000).toFixed(1)} s, peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB`,
        ...Object.entries(result.rows).map(([table, n]) => `  ${table.padEnd(22)} ${formatQuantity(n, 'row').padStart(17)}`),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}
