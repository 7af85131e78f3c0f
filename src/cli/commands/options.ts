/** Option helpers shared by the CLI commands (every option is also readable from OMOPTERM_*). */
import { InvalidArgumentError, Option } from 'commander';
import { resolve } from 'node:path';
import { checkRateLimitStoreValue, checkStateValue, stateChoice, type StateChoice } from '../../state/openers/open-state-store.js';
import { stateStorePath } from '../../store/data-dir.js';

export function dataDirOption(): Option {
  return new Option('--data-dir <dir>', 'data directory holding releases, keys and the TLS certificate')
    .env('OMOPTERM_DATA_DIR')
    .default('./omopterm-data');
}

/** `--state`: like --data-dir, one variable for every command (a deployment's state is one place). */
export function stateOption(): Option {
  return new Option('--state <sqlite|postgres://…>', "where keys, usage, OAuth clients, sessions and mapping jobs are kept: sqlite (the data directory's state.sqlite) or a PostgreSQL URL, e.g. postgres://user@host:5432/omopterm?schema=omopterm")
    .env('OMOPTERM_STATE')
    .default('sqlite')
    .argParser(invalidArgument(checkStateValue));
}

/** `--rate-limit-store`: where the rate-limit counters live (one variable for every command, like --state). */
export function rateLimitStoreOption(): Option {
  return new Option(
    '--rate-limit-store <memory|redis://…|postgres>',
    'where rate limits are counted: memory (per process; the default with --state sqlite), postgres (the --state database; the default with a PostgreSQL state) or a Redis URL, e.g. redis://host:6379',
  )
    .env('OMOPTERM_RATE_LIMIT_STORE')
    .argParser(invalidArgument(checkRateLimitStoreValue));
}

/** The state of a command's options (--data-dir, --state, --rate-limit-store); a bad combination is a usage error. */
export function stateChoiceOf(options: { dataDir: string; state?: string; rateLimitStore?: string }): StateChoice {
  return stateChoice({ sqliteFile: stateStorePath(resolve(options.dataDir)), state: options.state, rateLimitStore: options.rateLimitStore });
}

/** A checker that throws Error, as commander's argument parser (InvalidArgumentError: a one-line usage error). */
function invalidArgument(check: (value: string) => string) {
  return (value: string): string => {
    try {
      return check(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

export function parsePositiveNumber(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number (got '${value}')`);
    return n;
  };
}

function parseWholeNumber(name: string, min: number, what: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be ${what} (got '${value}')`);
    return n;
  };
}

export const parsePositiveInteger = (name: string) => parseWholeNumber(name, 1, 'a positive whole number');
export const parseNonNegativeInteger = (name: string) => parseWholeNumber(name, 0, 'a whole number ≥ 0');

export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`port must be 0–65535 (got '${value}')`);
  return n;
}

export function parseIsoDate(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const d = m ? new Date(`${value}T00:00:00Z`) : null;
  if (!m || !d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value) {
    throw new InvalidArgumentError(`expected a date YYYY-MM-DD (got '${value}')`);
  }
  return value;
}

/** on/off switches: on, true, 1 / off, false, 0 (any case). */
export function parseOnOff(name: string) {
  return (value: string): boolean => {
    const v = value.trim().toLowerCase();
    if (['on', 'true', '1'].includes(v)) return true;
    if (['off', 'false', '0'].includes(v)) return false;
    throw new InvalidArgumentError(`${name} must be on or off (got '${value}')`);
  };
}

export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
