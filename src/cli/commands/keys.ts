import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { EmbeddedStateStore } from '../../state/embedded-state-store.js';
import { stateStorePath } from '../../store/data-dir.js';
import { dataDirOption, parseIsoDate, parsePositiveInteger, parsePositiveNumber } from '../options.js';

/** The free-tier rate of the hosted service (spec Limits). */
export const DEFAULT_KEY_RATE = 2;

function openState(dataDir: string): EmbeddedStateStore {
  return new EmbeddedStateStore(stateStorePath(resolve(dataDir)), { flushIntervalMs: 0 });
}

export function registerKeysCommand(program: Command): void {
  const keys = program.command('keys').description('Manage API keys (stored as SHA-256 hashes in <data-dir>/state.sqlite).');

  keys
    .command('create')
    .description('Create an API key and print it (only the key, on stdout: KEY=$(omopterm keys create --name me)). It is shown once.')
    .requiredOption('--name <name>', 'who or what the key is for')
    .addOption(dataDirOption())
    .addOption(
      new Option('--rate <r>', 'requests per second allowed (token bucket; burst of one second)')
        .default(DEFAULT_KEY_RATE)
        .argParser(parsePositiveNumber('--rate')),
    )
    .addOption(new Option('--monthly-quota <n>', 'calls allowed per calendar month (UTC); unlimited when omitted').argParser(parsePositiveInteger('--monthly-quota')))
    .addOption(
      new Option('--cpt4-validated-until <date>', 'last day (YYYY-MM-DD) the owner\'s annual CPT4 licence validation is valid; CPT4 is refused without it').argParser(
        parseIsoDate,
      ),
    )
    .action((options: { name: string; dataDir: string; rate: number; monthlyQuota?: number; cpt4ValidatedUntil?: string }) => {
      const state = openState(options.dataDir);
      try {
        const { record, secret } = state.createKey({
          name: options.name,
          rate_per_second: options.rate,
          monthly_quota: options.monthlyQuota ?? null,
          cpt4_validated_until: options.cpt4ValidatedUntil ?? null,
        });
        process.stdout.write(`${secret}\n`);
        process.stderr.write(`created key ${record.id} (${record.name}); store it now, it cannot be shown again\n`);
      } finally {
        state.close();
      }
    });

  keys
    .command('list')
    .description('List API keys (never the secrets).')
    .addOption(dataDirOption())
    .option('--json', 'print JSON')
    .action((options: { dataDir: string; json?: boolean }) => {
      const state = openState(options.dataDir);
      try {
        const month = new Date().toISOString().slice(0, 7);
        const rows = state.listKeys().map((k) => ({ ...k, calls_this_month: state.usageOf(k.id, month) }));
        if (options.json) {
          process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
          return;
        }
        if (!rows.length) {
          process.stdout.write('no API keys yet: omopterm keys create --name <name>\n');
          return;
        }
        for (const k of rows) {
          process.stdout.write(
            `${k.id}  ${k.name}  rate=${k.rate_per_second}/s  quota=${k.monthly_quota ?? 'unlimited'}  used=${k.calls_this_month}` +
              `  cpt4=${k.cpt4_validated_until ?? 'no'}  ${k.revoked_at ? `REVOKED ${k.revoked_at}` : 'active'}\n`,
          );
        }
      } finally {
        state.close();
      }
    });

  keys
    .command('revoke')
    .description('Revoke a key by id or name; servers refuse it from their next request on.')
    .argument('<id-or-name>', 'key id (from keys list) or name')
    .addOption(dataDirOption())
    .action((idOrName: string, options: { dataDir: string }) => {
      const state = openState(options.dataDir);
      try {
        const revoked = state.revokeKey(idOrName);
        if (!revoked.length) throw new Error(`no active key with id or name '${idOrName}'`);
        for (const k of revoked) process.stdout.write(`revoked ${k.id} (${k.name})\n`);
      } finally {
        state.close();
      }
    });
}
