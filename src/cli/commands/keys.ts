/**
 * `omopterm keys create|list|revoke`: API keys in the state store (`--state`: the data directory's state.sqlite, or
 * PostgreSQL; stored only as SHA-256 hashes), each with its rate, monthly quota and CPT4 validation date.
 */

import { InvalidArgumentError, Option, type Command } from 'commander';
import { openStateStore } from '../../state/openers/open-state-store.js';
import { memoryRateLimiter } from '../../state/rate-limiter.js';
import type { StateStore } from '../../state/state-store.js';
import { dataDirOption, parseIsoDate, parsePositiveInteger, parsePositiveNumber, stateChoiceOf, stateOption } from './options.js';

/** The free-tier rate of the hosted service (spec Limits). */
export const DEFAULT_KEY_RATE = 2;

/** The options that say where the state is (every command that reads or writes keys or clients takes them). */
export interface StateCliOptions {
  dataDir: string;
  state?: string;
}

/**
 * Runs a CLI command's work on the chosen state store (usage is written at once, on close) and closes the store,
 * whatever happens. Key and client management takes no rate limit, so no rate-limit store is opened.
 */
export async function withState<T>(options: StateCliOptions, work: (state: StateStore) => Promise<T>): Promise<T> {
  const state = await openStateStore(stateChoiceOf({ ...options, rateLimitStore: 'memory' }), {
    flushIntervalMs: 0,
    rateLimiter: memoryRateLimiter(),
    onNotice: (line) => process.stderr.write(`${line}\n`),
  });
  try {
    return await work(state);
  } finally {
    await state.close();
  }
}

/** Writes a `list` command's rows: as JSON with --json, else `emptyHint` when there are none, else one `line` per row. */
export function writeListing<T>(rows: readonly T[], json: boolean | undefined, emptyHint: string, line: (row: T) => string): void {
  if (json) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  else if (!rows.length) process.stdout.write(`${emptyHint}\n`);
  else for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

/** `--cpt4-validated-until`: a YYYY-MM-DD date that is today (UTC) or later; a lapsed validation is refused. */
function parseValidationDate(value: string): string {
  const date = parseIsoDate(value);
  const today = new Date().toISOString().slice(0, 10);
  if (date < today) {
    throw new InvalidArgumentError(`${date} is in the past (today is ${today}, UTC): give the last day of a CPT4 licence validation that has not lapsed`);
  }
  return date;
}

export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description('Manage API keys (stored as SHA-256 hashes in the state: <data-dir>/state.sqlite, or --state postgres://…).');

  keys
    .command('create')
    .description('Create an API key and print it (only the key, on stdout: KEY=$(omopterm keys create --name me)). It is shown once.')
    .addOption(new Option('--name <name>', 'who or what the key is for (unique among active keys)').env('OMOPTERM_KEYS_CREATE_NAME').makeOptionMandatory())
    .addOption(dataDirOption())
    .addOption(stateOption())
    .addOption(
      new Option('--rate <r>', 'requests per second allowed (counted in windows of one second for a whole number; see docs/operations.md)')
        .env('OMOPTERM_KEYS_CREATE_RATE')
        .default(DEFAULT_KEY_RATE)
        .argParser(parsePositiveNumber('--rate')),
    )
    .addOption(
      new Option('--monthly-quota <n>', 'calls allowed per calendar month (UTC); unlimited when omitted')
        .env('OMOPTERM_KEYS_CREATE_MONTHLY_QUOTA')
        .argParser(parsePositiveInteger('--monthly-quota')),
    )
    .addOption(
      new Option(
        '--cpt4-validated-until <date>',
        'last day (YYYY-MM-DD, today or later) the owner\'s annual CPT4 licence validation is valid; CPT4 is refused without it',
      )
        .env('OMOPTERM_KEYS_CREATE_CPT4_VALIDATED_UNTIL')
        .argParser(parseValidationDate),
    )
    .action((options: StateCliOptions & { name: string; rate: number; monthlyQuota?: number; cpt4ValidatedUntil?: string }) =>
      withState(options, async (state) => {
        const { record, secret } = await state.createKey({
          name: options.name,
          rate_per_second: options.rate,
          monthly_quota: options.monthlyQuota ?? null,
          cpt4_validated_until: options.cpt4ValidatedUntil ?? null,
        });
        process.stdout.write(`${secret}\n`);
        process.stderr.write(`created key ${record.id} (${record.name}); store it now, it cannot be shown again\n`);
      }),
    );

  keys
    .command('list')
    .description('List API keys (never the secrets).')
    .addOption(dataDirOption())
    .addOption(stateOption())
    .addOption(new Option('--json', 'print JSON').env('OMOPTERM_KEYS_LIST_JSON'))
    .action((options: StateCliOptions & { json?: boolean }) =>
      withState(options, async (state) => {
        const month = new Date().toISOString().slice(0, 7);
        const rows = [];
        for (const k of await state.listKeys()) rows.push({ ...k, calls_this_month: await state.usageOf(k.id, month) });
        writeListing(
          rows,
          options.json,
          'no API keys yet: omopterm keys create --name <name>',
          (k) =>
            `${k.id}  ${k.name}  rate=${k.rate_per_second}/s  quota=${k.monthly_quota ?? 'unlimited'}  used=${k.calls_this_month}` +
            `  cpt4=${k.cpt4_validated_until ?? 'no'}  ${k.revoked_at ? `REVOKED ${k.revoked_at}` : 'active'}`,
        );
      }),
    );

  keys
    .command('revoke')
    .description('Revoke a key by id or by name (names are unique among active keys), with its OAuth clients and their tokens; servers refuse them from their next request on.')
    .argument('<id-or-name>', 'key id (from keys list) or name')
    .addOption(dataDirOption())
    .addOption(stateOption())
    .action((idOrName: string, options: StateCliOptions) =>
      withState(options, async (state) => {
        const revoked = await state.revokeKey(idOrName);
        if (!revoked) throw new Error(`no active key with id or name '${idOrName}'`);
        process.stdout.write(`revoked ${revoked.id} (${revoked.name})\n`);
      }),
    );
}
