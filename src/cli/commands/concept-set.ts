/**
 * `omopterm concept-set resolve FILE` and `concept-set diff FILE --from --to`: a concept-set expression file (ATLAS
 * JSON, OHDSI TAB JSON or the ATLAS CSV export) resolved against a loaded release of the data directory, or compared
 * between two, with the server's services; an invalid file is exit code 1 with the item and field named.
 */
import { Option, type Command } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LicenceRules } from '../../licences/licence-rules.js';
import { ReleaseView } from '../../services/release-view.js';
import { diffConceptSet } from '../../services/concept-sets/concept-set-diff.js';
import { resolveConceptSetPage } from '../../services/concept-sets/concept-set-operations.js';
import { readExpression, type ConceptSetExpression } from '../../services/concept-sets/expression-formats.js';
import { resolveExpression, type ConceptSetScope } from '../../services/concept-sets/resolve.js';
import { ReleaseRegistry, type OpenRelease } from '../../store/release-registry.js';
import { selectRelease } from './release-selection.js';
import { releaseStoreOpener } from '../../store/openers/release-store-openers.js';
import type { ConceptRecord } from '../../store/records.js';
import { dataDirOption } from './options.js';

interface ResolveCliOptions {
  dataDir: string;
  release?: string;
  format: 'ids' | 'csv' | 'json';
}

const CSV_COLUMNS = ['concept_id', 'concept_code', 'concept_name', 'domain_id', 'vocabulary_id', 'concept_class_id', 'standard_concept', 'invalid_reason'] as const;

const csvCell = (value: string | number | null) => {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/**
 * The CLI's view of a release: the data directory's operator, shown what a key without CPT4 validation sees (GPI and
 * MedDRA never, CPT4 not), as the server shows an ordinary key.
 */
function cliScope(release: OpenRelease): ConceptSetScope {
  return ReleaseView.ofRelease(release, new LicenceRules(null));
}

function readFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
}

/** The expression of a file: a .json file is JSON whatever it starts with; anything else is JSON when it looks like it, else the ATLAS CSV. */
function readExpressionFile(file: string): ConceptSetExpression {
  const text = readFile(file);
  let input: unknown = text;
  if (/\.json$/i.test(file)) {
    try {
      input = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
    }
  }
  try {
    return readExpression(input, 'expression');
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}


async function resolveFile(file: string, options: ResolveCliOptions): Promise<void> {
  const expression = readExpressionFile(file);
  const registry = new ReleaseRegistry({ dataDir: resolve(options.dataDir), openStore: releaseStoreOpener(), rescanIntervalMs: 0 });
  try {
    const release = selectRelease(registry, options.dataDir, options.release);
    const scope = cliScope(release);
    const warn = (problems: Array<{ index: number; concept_id: number }>, what: string) => {
      for (const p of problems) process.stderr.write(`omopterm: item ${p.index} (concept ${p.concept_id}) ${what}\n`);
    };
    if (options.format === 'ids') {
      const { ids, items } = await resolveExpression(scope, expression);
      const listed = (status: string) => items.filter((o) => o.status === status).map((o) => ({ index: o.index, concept_id: o.item.conceptId }));
      warn(listed('unknown'), `is not in release ${scope.label}`);
      warn(listed('restricted'), 'is of a licensed vocabulary and was left out');
      process.stdout.write(ids.length ? `${Array.from(ids).join('\n')}\n` : '');
      return;
    }
    const { timing: _timing, ...resolved } = await resolveConceptSetPage(scope, expression, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    warn(resolved.unknown_concepts, `is not in release ${scope.label}`);
    warn(resolved.restricted_items, 'is of a licensed vocabulary and was left out');
    if (options.format === 'json') {
      process.stdout.write(`${JSON.stringify({ release: scope.label, name: expression.name ?? null, ...resolved }, null, 2)}\n`);
      return;
    }
    const lines = [CSV_COLUMNS.join(','), ...resolved.concepts.map((c: ConceptRecord) => CSV_COLUMNS.map((k) => csvCell(c[k])).join(','))];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    registry.close();
  }
}

interface DiffCliOptions {
  dataDir: string;
  from: string;
  to: string;
  json?: boolean;
}

async function diffFile(file: string, options: DiffCliOptions): Promise<void> {
  const expression = readExpressionFile(file);
  const registry = new ReleaseRegistry({ dataDir: resolve(options.dataDir), openStore: releaseStoreOpener(), rescanIntervalMs: 0 });
  try {
    const from = selectRelease(registry, options.dataDir, options.from);
    const to = selectRelease(registry, options.dataDir, options.to);
    const diff = await diffConceptSet(cliScope(from), cliScope(to), expression, { offset: 0, limit: Number.MAX_SAFE_INTEGER });
    if (options.json) {
      process.stdout.write(`${JSON.stringify(diff, null, 2)}\n`);
      return;
    }
    const s = diff.summary;
    const lines = [
      `${diff.from_release} → ${diff.to_release}: ${s.from_total} → ${s.to_total} concepts, +${s.gained} −${s.lost}, ${s.unchanged} unchanged`,
      ...diff.gained.map((g) => `+ ${g.concept.concept_id}\t${g.concept.vocabulary_id} ${g.concept.concept_code}\t${g.concept.concept_name}\t${g.reason}: ${g.detail}`),
      ...diff.lost.map((l) => `- ${l.concept.concept_id}\t${l.concept.vocabulary_id} ${l.concept.concept_code}\t${l.concept.concept_name}\t${l.reason}: ${l.detail}`),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    registry.close();
  }
}

export function registerConceptSetCommand(program: Command): void {
  const group = program.command('concept-set').summary('work with OHDSI concept-set expressions').description('Work with OHDSI concept-set expressions.');
  group
    .command('resolve')
    .summary('resolve a concept-set expression file against a loaded release')
    .description(
      "Resolve a concept-set expression with the server's resolver (circe's rules: the item itself, its valid descendants, " +
        "the sources of valid 'Maps to' rows into them; included minus excluded) against a loaded release. FILE is ATLAS JSON " +
        '(bare, {"expression":…} or a whole concept set), the OHDSI TAB draft, or the ATLAS CSV export. Licensed vocabularies are ' +
        'left out as for an API key without CPT4 validation. Unknown or left-out items are reported on stderr. Exit code 0 when ' +
        'resolved, 1 on a usage error or an invalid expression (the message names the item and field, or the CSV line and column).',
    )
    .argument('<file>', 'the expression file (.json or .csv)')
    .addOption(new Option('--release <label>', 'label of a loaded release (default: the default release)').env('OMOPTERM_CONCEPT_SET_RESOLVE_RELEASE'))
    .addOption(
      new Option('--format <format>', 'ids: one concept id a line; csv: the concepts as CSV; json: concepts, summary and problems')
        .choices(['ids', 'csv', 'json'])
        .default('ids')
        .env('OMOPTERM_CONCEPT_SET_RESOLVE_FORMAT'),
    )
    .addOption(dataDirOption())
    .action(async (file: string, options: ResolveCliOptions) => resolveFile(file, options));
  group
    .command('diff')
    .summary('what a concept set gains and loses between two loaded releases')
    .description(
      'Resolve a concept-set expression file in two loaded releases and list the concepts gained (+) and lost (−), each with its reason ' +
        '(new or removed concept, deprecated or replaced, new descendant or moved out of the hierarchy, remapped, newly or no longer excluded). ' +
        'Exit code 0 when compared, 1 on a usage error, an unknown release or an invalid expression.',
    )
    .argument('<file>', 'the expression file (.json or .csv)')
    .addOption(new Option('--from <label>', 'the release compared from').env('OMOPTERM_CONCEPT_SET_DIFF_FROM').makeOptionMandatory())
    .addOption(new Option('--to <label>', 'the release compared to').env('OMOPTERM_CONCEPT_SET_DIFF_TO').makeOptionMandatory())
    .addOption(new Option('--json', 'print the diff as JSON').env('OMOPTERM_CONCEPT_SET_DIFF_JSON'))
    .addOption(dataDirOption())
    .action(async (file: string, options: DiffCliOptions) => diffFile(file, options));
}
