/**
 * `omopterm map FILE --out DIR`: candidates for a file of source codes on every core, journaled so that Ctrl-C keeps
 * them and the same command resumes, then Usagi's file, SOURCE_TO_CONCEPT_MAP and a review summary in DIR;
 * `omopterm map export --usagi FILE` turns a reviewed Usagi file into SOURCE_TO_CONCEPT_MAP.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { LoadInterruptedError } from '../../importer/load-error.js';
import { TerminalProgress } from '../../importer/terminal-progress.js';
import { LicenceRules } from '../../licences/licence-rules.js';
import { ServiceError } from '../../services/errors.js';
import { ReleaseView } from '../../services/release-view.js';
import type { MappedTerm, MappingOptions } from '../../services/source-mapping/mapping-types.js';
import { reviewSummaryMarkdown, summarizeReview } from '../../services/source-mapping/review-summary.js';
import { describeBadRow, readSourceTerms, type ColumnRole, type SourceTermFile } from '../../services/source-mapping/source-term-reader.js';
import { DEFAULT_STCM_VALID_END, DEFAULT_STCM_VALID_START, sourceToConceptMapCsv, sourceToConceptMapRows } from '../../services/source-mapping/source-to-concept-map.js';
import { checkMappingOptions, DEFAULT_CANDIDATES_PER_TERM } from '../../services/source-mapping/term-mapping.js';
import { readUsagiCsv, termOfUsagiMapping, usagiMappingOf, writeUsagiCsv } from '../../services/source-mapping/usagi-csv.js';
import { ReleaseRegistry } from '../../store/release-registry.js';
import { selectRelease } from './release-selection.js';
import { releaseStoreOpener } from '../../store/openers/release-store-openers.js';
import { mapTermsInPool } from '../../threads/mapping-pool.js';
import { runInterruptibleJob } from './interruptible-job.js';
import { openJournal, runHash } from './map-journal.js';
import { embeddingChoice, embeddingModelOption } from './embed.js';
import { dataDirOption, parseIsoDate, parseList, parsePositiveInteger } from './options.js';

/** The source_vocabulary_id of SOURCE_TO_CONCEPT_MAP rows when none is named. */
export const DEFAULT_SOURCE_VOCABULARY_ID = 'LOCAL';
/** Test hook: the run stops as if interrupted after this many batches (resumption tests). */
const STOP_AFTER_BATCHES_ENV = 'OMOPTERM_TEST_MAP_STOP_AFTER_BATCHES';

interface MapCliOptions {
  out: string;
  release?: string;
  dataDir: string;
  k?: number;
  domain?: string[];
  vocabulary?: string[];
  class?: string[];
  includeNonStandard?: boolean;
  includeInvalid?: boolean;
  autoApprove?: string[];
  autoApproveScore?: number;
  codeColumn?: string;
  nameColumn?: string;
  frequencyColumn?: string;
  domainColumn?: string;
  vocabularyColumn?: string;
  classColumn?: string;
  sourceVocabularyId: string;
  validStartDate: string;
  validEndDate: string;
  workers?: number;
  cpt4ValidatedUntil?: string;
  restart?: boolean;
  fromUsagi?: string;
  embeddingModel?: string;
}


function readInput(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
}


/** A service's 400/403 as the CLI's one-line error. */
function serviceMessage<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof ServiceError) throw new Error(err.message);
    throw err;
  }
}

function parseScore(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError(`--auto-approve-score must be a number from 0 to 1 (got '${value}')`);
  return n;
}

function parseRules(value: string): string[] {
  const rules = parseList(value).map((r) => r.toLowerCase().replace(/_/g, '-'));
  for (const r of rules) if (r !== 'exact-code' && r !== 'exact-name') throw new InvalidArgumentError(`--auto-approve takes exact-code and/or exact-name (got '${r}')`);
  return rules;
}

function mappingOptionsOf(options: MapCliOptions, view: ReleaseView): MappingOptions {
  return serviceMessage(() =>
    checkMappingOptions(
      {
        k: options.k ?? DEFAULT_CANDIDATES_PER_TERM,
        filters: {
          domain_ids: options.domain,
          vocabulary_ids: options.vocabulary,
          concept_class_ids: options.class,
          standard_only: !options.includeNonStandard,
          valid_only: !options.includeInvalid,
        },
        auto_approve: {
          exact_code: options.autoApprove?.includes('exact-code') ?? false,
          exact_name: options.autoApprove?.includes('exact-name') ?? false,
          ...(options.autoApproveScore !== undefined ? { score_at_least: options.autoApproveScore } : {}),
        },
      },
      view,
    ),
  );
}

function printColumns(file: SourceTermFile, input: string): void {
  const roles = Object.entries(file.columns).map(([role, header]) => `${role} ← '${header}' (${file.column_choice[role as ColumnRole]})`);
  const delimiter = { ',': 'comma', '\t': 'tab', ';': 'semicolon' }[file.delimiter];
  process.stderr.write(`${input}: ${delimiter}-separated; columns: ${roles.join(', ')}\n`);
  const extra = file.header.filter((h) => !Object.values(file.columns).includes(h));
  if (extra.length) process.stderr.write(`  kept as additional info: ${extra.map((h) => `'${h}'`).join(', ')}\n`);
  for (const bad of file.bad_rows) process.stderr.write(`  skipped: ${describeBadRow(input, bad)}\n`);
  process.stderr.write(`  ${file.terms.length} source terms read${file.bad_rows.length ? `, ${file.bad_rows.length} bad rows skipped` : ''}\n`);
}

/** The outputs of a finished run: Usagi's file, SOURCE_TO_CONCEPT_MAP (when its widths allow) and the summary. */
function writeOutputs(outDir: string, view: ReleaseView, mapped: MappedTerm[], options: MapCliOptions): string | null {
  const label = (id: number) => view.concept(id);
  writeFileSync(join(outDir, 'usagi.csv'), writeUsagiCsv(mapped.map((m) => usagiMappingOf(m, label))));
  const summary = summarizeReview(mapped, label);
  writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(outDir, 'summary.md'), reviewSummaryMarkdown(summary));
  try {
    const rows = sourceToConceptMapRows(mapped, (id) => view.concept(id)?.vocabulary_id, {
      sourceVocabularyId: options.sourceVocabularyId,
      validStartDate: options.validStartDate,
      validEndDate: options.validEndDate,
    });
    writeFileSync(join(outDir, 'source_to_concept_map.csv'), sourceToConceptMapCsv(rows));
    return null;
  } catch (err) {
    if (err instanceof ServiceError) return err.message;
    throw err;
  }
}

async function mapFile(file: string, options: MapCliOptions): Promise<void> {
  const bytes = readInput(file);
  const named: Partial<Record<ColumnRole, string>> = {
    source_code: options.codeColumn,
    source_name: options.nameColumn,
    source_frequency: options.frequencyColumn,
    domain_hint: options.domainColumn,
    vocabulary_hint: options.vocabularyColumn,
    class_hint: options.classColumn,
  };
  for (const role of Object.keys(named) as ColumnRole[]) if (named[role] === undefined) delete named[role];
  const input = basename(file);
  const terms = serviceMessage(() => readSourceTerms(bytes, { columns: named, fileName: input }));
  printColumns(terms, input);
  const registry = new ReleaseRegistry({ dataDir: resolve(options.dataDir), openStore: releaseStoreOpener(), rescanIntervalMs: 0 });
  try {
    const release = selectRelease(registry, options.dataDir, options.release);
    const cpt4 = options.cpt4ValidatedUntil ?? null;
    const view = ReleaseView.ofRelease(release, new LicenceRules(cpt4));
    const mappingOptions = mappingOptionsOf(options, view);
    const outDir = resolve(options.out);
    mkdirSync(outDir, { recursive: true });
    const hash = runHash(bytes, { columns: terms.columns, options: mappingOptions, release: release.label, build: release.buildId, cpt4 });
    const journal = openJournal(outDir, { hash, started_at: new Date().toISOString(), total_terms: terms.terms.length, input: resolve(file) }, options.restart === true);
    const pending = terms.terms.filter((t) => !journal.done.has(t.index));
    if (journal.done.size) process.stderr.write(`resuming: ${journal.done.size} of ${terms.terms.length} terms already mapped in ${outDir}\n`);
    const progress = new TerminalProgress(process.stderr);
    const abort = new AbortController();
    const stopAfter = Number(process.env[STOP_AFTER_BATCHES_ENV] ?? 0);
    let batches = 0;
    const resumed = terms.terms.length - pending.length;
    const step = `mapping ${pending.length} terms on release ${release.label}${resumed ? ` (${resumed} mapped before)` : ''}`;
    let doneNow = 0;
    await runInterruptibleJob(
      progress,
      (signal) => abort.abort(signal),
      async () => {
        progress.handle({ type: 'step-start', step });
        const started = Date.now();
        const outcome = await mapTermsInPool({
          workers: options.workers ?? availableParallelism(),
          embeddings: embeddingChoice(options.embeddingModel),
          view,
          terms: pending,
          options: mappingOptions,
          now: new Date(journal.identity.started_at),
          signal: abort.signal,
          onBatch: (results) => {
            journal.append(results);
            doneNow += results.length;
            progress.handle({ type: 'step-progress', step, done: doneNow, total: pending.length, unit: 'terms' });
            if (stopAfter > 0 && ++batches >= stopAfter) abort.abort('SIGINT');
          },
        });
        if (outcome.cancelled) {
          const signal = String(abort.signal.reason ?? 'SIGINT');
          throw new LoadInterruptedError(
            `interrupted (${signal}): ${journal.done.size} of ${terms.terms.length} terms mapped and kept in ${outDir}; run the same command again to resume`,
          );
        }
        progress.handle({ type: 'step-done', step, elapsedMs: Date.now() - started });
        if (!outcome.semantic && pending.length) progress.handle({ type: 'note', message: `release ${release.label} has no usable vectors: candidates ranked by keywords and words only` });
        const mapped: MappedTerm[] = terms.terms.map((term) => {
          const r = journal.done.get(term.index)!;
          return { term, candidates: r.candidates, review: r.review };
        });
        return { mapped, problem: writeOutputs(outDir, view, mapped, options), outDir };
      },
      ({ mapped, problem, outDir: dir }) => {
        const summary = summarizeReview(mapped);
        const lines = [
          `${mapped.length} terms mapped (${summary.approved_terms} approved by rule, ${summary.terms_without_candidates} without candidates)`,
          `  ${join(dir, 'usagi.csv')}`,
          problem ? `  source_to_concept_map.csv not written: ${problem}` : `  ${join(dir, 'source_to_concept_map.csv')}`,
          `  ${join(dir, 'summary.json')}, ${join(dir, 'summary.md')}`,
        ];
        if (problem) process.exitCode = 1;
        return lines.join('\n');
      },
    );
  } finally {
    registry.close();
  }
}

/** `--from-usagi FILE`: a reviewed Usagi file's approved codes as SOURCE_TO_CONCEPT_MAP, with the summary, in DIR. */
async function exportUsagi(file: string, options: MapCliOptions): Promise<void> {
  const text = readInput(file).toString('utf8');
  const name = basename(file);
  const { mappings, bad_rows } = serviceMessage(() => readUsagiCsv(text, name));
  for (const bad of bad_rows) process.stderr.write(`  skipped: ${describeBadRow(name, bad)}\n`);
  const registry = new ReleaseRegistry({ dataDir: resolve(options.dataDir), openStore: releaseStoreOpener(), rescanIntervalMs: 0 });
  try {
    const release = selectRelease(registry, options.dataDir, options.release);
    const view = ReleaseView.ofRelease(release, new LicenceRules(options.cpt4ValidatedUntil ?? null));
    const terms = mappings.map((m, i) => termOfUsagiMapping(m, i));
    const rows = serviceMessage(() =>
      sourceToConceptMapRows(terms, (id) => view.concept(id)?.vocabulary_id, {
        sourceVocabularyId: options.sourceVocabularyId,
        validStartDate: options.validStartDate,
        validEndDate: options.validEndDate,
      }),
    );
    const outDir = resolve(options.out);
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, 'source_to_concept_map.csv'), sourceToConceptMapCsv(rows));
    const summary = summarizeReview(
      terms.map((t) => ({ ...t, candidates: [] })),
      (id) => view.concept(id),
    );
    summary.terms_without_candidates = 0; // a Usagi file does not carry the candidates
    writeFileSync(join(outDir, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
    writeFileSync(join(outDir, 'summary.md'), reviewSummaryMarkdown(summary));
    process.stdout.write(
      `${rows.length} SOURCE_TO_CONCEPT_MAP rows from ${summary.approved_terms} approved of ${mappings.length} source codes\n` +
        `  ${join(outDir, 'source_to_concept_map.csv')}\n  ${join(outDir, 'summary.json')}, ${join(outDir, 'summary.md')}\n`,
    );
  } finally {
    registry.close();
  }
}

const HELP_AFTER = `
The input is CSV or TSV (delimiter sniffed) with a header line. Column roles are guessed from the
header (sourceCode/code, sourceName/name/description, sourceFrequency/frequency/count, domain,
vocabulary, class) or named with the --*-column options; the other columns are kept and written
as Usagi's ADD_INFO columns. Bad rows are reported with their line and column and skipped.

Each term gets the top --k standard, valid concepts (unless --include-non-standard/--include-invalid)
with why each was proposed, the best pre-selected. --auto-approve exact-code,exact-name and
--auto-approve-score approve a term's best candidate; the approval is marked as the rule's
(statusSetBy rule:…) so a reviewer can tell and undo it.

Results are journaled in DIR as they come: Ctrl-C keeps them and the same command resumes
(a different input or options in the same DIR is an error unless --restart). At the end DIR holds
usagi.csv (Usagi's saved-file columns; open it in Usagi to review), source_to_concept_map.csv
(CDM v5.4, approved terms only), summary.json and summary.md. docs/mapping.md has the details.
With --from-usagi FILE instead of FILE, a reviewed Usagi file (ours or Usagi's own) becomes
DIR/source_to_concept_map.csv and the summary.

Licensed vocabularies are left out as for an API key without CPT4 validation, unless
--cpt4-validated-until names the date your CPT4 licence validation is valid until.

Examples:
  omopterm map local-codes.csv --release 2025.2 --out mapped/ --domain Condition --auto-approve exact-code
  omopterm map --from-usagi reviewed.csv --release 2025.2 --source-vocabulary-id MY_LAB --out final/`;

export function registerMapCommand(program: Command): void {
  const E = 'OMOPTERM_MAP';
  program
    .command('map')
    .summary('map a file of source codes to standard concepts (Usagi workflow)')
    .description(
      "Propose ranked standard concepts for each source term of a CSV/TSV file, resumably, and write Usagi's file, SOURCE_TO_CONCEPT_MAP and a " +
        'review summary; or (--from-usagi) turn a reviewed Usagi file into SOURCE_TO_CONCEPT_MAP.',
    )
    .argument('[file]', 'the source terms (CSV or TSV with a header line)')
    .addOption(new Option('--out <dir>', 'directory for the journal and the output files').env(`${E}_OUT`).makeOptionMandatory())
    .addOption(new Option('--from-usagi <file>', 'instead of FILE: a reviewed Usagi saved file to export as SOURCE_TO_CONCEPT_MAP').env(`${E}_FROM_USAGI`))
    .addOption(new Option('--release <label>', 'label of a loaded release (default: the default release)').env(`${E}_RELEASE`))
    .addOption(dataDirOption())
    .addOption(new Option('--k <n>', `candidates per term, 1–25 (default ${DEFAULT_CANDIDATES_PER_TERM})`).env(`${E}_K`).argParser(parsePositiveInteger('--k')))
    .addOption(new Option('--domain <ids>', 'only concepts of these domains (comma list)').env(`${E}_DOMAIN`).argParser(parseList))
    .addOption(new Option('--vocabulary <ids>', 'only concepts of these vocabularies (comma list)').env(`${E}_VOCABULARY`).argParser(parseList))
    .addOption(new Option('--class <ids>', 'only concepts of these concept classes (comma list)').env(`${E}_CLASS`).argParser(parseList))
    .addOption(new Option('--include-non-standard', 'propose non-standard and classification concepts too').env(`${E}_INCLUDE_NON_STANDARD`))
    .addOption(new Option('--include-invalid', 'propose deprecated and replaced concepts too').env(`${E}_INCLUDE_INVALID`))
    .addOption(new Option('--auto-approve <rules>', 'approve an exact match: exact-code, exact-name (comma list)').env(`${E}_AUTO_APPROVE`).argParser(parseRules))
    .addOption(new Option('--auto-approve-score <x>', 'approve the best candidate when its score is at least x (0–1)').env(`${E}_AUTO_APPROVE_SCORE`).argParser(parseScore))
    .addOption(new Option('--code-column <name>', 'header of the source code column (default: guessed)').env(`${E}_CODE_COLUMN`))
    .addOption(new Option('--name-column <name>', 'header of the source name column (default: guessed)').env(`${E}_NAME_COLUMN`))
    .addOption(new Option('--frequency-column <name>', 'header of the frequency column (default: guessed)').env(`${E}_FREQUENCY_COLUMN`))
    .addOption(new Option('--domain-column <name>', 'header of a per-row domain filter column (default: guessed)').env(`${E}_DOMAIN_COLUMN`))
    .addOption(new Option('--vocabulary-column <name>', 'header of a per-row vocabulary filter column (default: guessed)').env(`${E}_VOCABULARY_COLUMN`))
    .addOption(new Option('--class-column <name>', 'header of a per-row concept class filter column (default: guessed)').env(`${E}_CLASS_COLUMN`))
    .addOption(new Option('--source-vocabulary-id <id>', 'source_vocabulary_id of the SOURCE_TO_CONCEPT_MAP rows (≤ 20 characters)').env(`${E}_SOURCE_VOCABULARY_ID`).default(DEFAULT_SOURCE_VOCABULARY_ID))
    .addOption(new Option('--valid-start-date <date>', 'valid_start_date of the rows').env(`${E}_VALID_START_DATE`).argParser(parseIsoDate).default(DEFAULT_STCM_VALID_START))
    .addOption(new Option('--valid-end-date <date>', 'valid_end_date of the rows').env(`${E}_VALID_END_DATE`).argParser(parseIsoDate).default(DEFAULT_STCM_VALID_END))
    .addOption(new Option('--cpt4-validated-until <date>', 'last day of your CPT4 licence validation (default: CPT4 concepts are left out)').env(`${E}_CPT4_VALIDATED_UNTIL`).argParser(parseIsoDate))
    .addOption(embeddingModelOption(`${E}_EMBEDDING_MODEL`, 'the local ONNX model the release was embedded with (default: the built-in provider)'))
    .addOption(new Option('--workers <n>', 'worker threads (default: the number of cores)').env(`${E}_WORKERS`).argParser(parsePositiveInteger('--workers')))
    .addOption(new Option('--restart', 'discard a journal of another input or other options in --out').env(`${E}_RESTART`))
    .addHelpText('after', HELP_AFTER)
    .action(async (file: string | undefined, options: MapCliOptions) => {
      if (options.fromUsagi !== undefined) {
        if (file) throw new Error('give either FILE (source terms to map) or --from-usagi FILE (a reviewed Usagi file to export), not both');
        await exportUsagi(options.fromUsagi, options);
        return;
      }
      if (!file) throw new Error('map needs a FILE of source terms (or --from-usagi FILE)');
      await mapFile(file, options);
    });
}
