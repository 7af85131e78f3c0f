/**
 * The command line's contract: every option of every command can be set through an OMOPTERM_*
 * variable named by one rule (src/cli/program.ts) and shown in its help; a usage error is one line
 * plus a hint, never the whole help; `load --release` takes only canonical YYYY.Q labels.
 */
import type { Command, Option } from 'commander';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProgram, commandPath, commandTree } from '../../src/cli/program.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir, writeMinimalAthenaDir } from '../loader/loader-fixtures.js';

/** The naming rule, written out independently of the code: docs/operations.md "Command line". */
function expectedEnvName(command: Command, option: Option): string {
  const name = option.long!.replace(/^--/, '').toUpperCase().replace(/-/g, '_');
  // Where a deployment keeps its data and state is one setting for every command.
  if (option.long === '--data-dir') return 'OMOPTERM_DATA_DIR';
  if (option.long === '--state') return 'OMOPTERM_STATE';
  if (option.long === '--rate-limit-store') return 'OMOPTERM_RATE_LIMIT_STORE';
  const path = commandPath(command).split(' ').slice(1);
  if (path[0] === 'serve' || path[0] === 'demo') return `OMOPTERM_${name}`;
  return `OMOPTERM_${path.join('_').toUpperCase().replace(/-/g, '_')}_${name}`;
}

const program = buildProgram();
const subcommands = commandTree(program).filter((c) => c !== program);
const optionsOf = (command: Command) => command.options.map((option) => [commandPath(command), option.long!, command, option] as const);

describe('the data directory', () => {
  it('defaults to ./omopterm-data in the working directory for every command that takes one (docs/architecture.md "Data directory")', () => {
    const withDataDir = subcommands.filter((c) => c.options.some((o) => o.long === '--data-dir'));
    expect(withDataDir.length).toBeGreaterThan(5);
    for (const command of withDataDir) {
      expect(command.options.find((o) => o.long === '--data-dir')!.defaultValue, commandPath(command)).toBe('./omopterm-data');
    }
  });
});

describe('environment variables (docs/operations.md "Command line")', () => {
  it('covers every command of the program, nested ones included', () => {
    expect(subcommands.map(commandPath).sort()).toEqual(
      ['clients', 'clients create', 'clients list', 'clients revoke', 'concept-set', 'concept-set diff', 'concept-set resolve', 'demo', 'embed', 'keys', 'keys create', 'keys list', 'keys revoke', 'load', 'map', 'mcp', 'releases', 'releases default', 'serve', 'synth'].map((c) => `omopterm ${c}`).sort(),
    );
    // The root has only --version (and --help), which are not settings.
    expect(program.options.map((o) => o.long)).toEqual(['--version']);
  });

  it.each(subcommands.flatMap(optionsOf))('%s %s has its OMOPTERM_* variable, shown in --help', (_path, _long, command, option) => {
    expect(option.envVar).toBe(expectedEnvName(command, option));
    expect(command.helpInformation({ error: false }).replace(/\s+/g, ' ')).toContain(`env: ${option.envVar})`);
  });

  it('names no variable twice within a command', () => {
    for (const command of subcommands) {
      const names = command.options.map((o) => o.envVar);
      expect(new Set(names).size, commandPath(command)).toBe(names.length);
    }
  });
});

describe('usage errors: one line and a hint', () => {
  const athenaDir = writeMinimalAthenaDir();
  const dataDir = makeTempDir('omopterm-cli-options-');
  afterAll(() => {
    rmSync(athenaDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a missing required option names it and points at the command help', () => {
    const res = runCli(['load', athenaDir, '--data-dir', dataDir]);
    expect(res.status).toBe(1);
    expect(res.stderr).toBe("error: required option '--release <label>' not specified\nrun 'omopterm load --help' for its usage\n");
    expect(res.stdout).toBe('');
  });

  it('an unknown option of a nested command names the nested command', () => {
    const res = runCli(['keys', 'create', '--name', 'x', '--colour', 'red', '--data-dir', dataDir]);
    expect(res.status).toBe(1);
    expect(res.stderr).toBe("error: unknown option '--colour'\nrun 'omopterm keys create --help' for its usage\n");
  });

  it.each([
    ['2025.5', "release label '2025.5' is not of the form YYYY.Q with Q 1–4"],
    ['2025.0', "release label '2025.0' is not of the form YYYY.Q with Q 1–4"],
    ['25.2', "release label '25.2' is not of the form YYYY.Q with Q 1–4"],
    ['2025v2', "release label '2025v2' is the alias form; load it as 2025.2 (YYYY.Q, Q 1–4)"],
  ])('load --release %s is refused with the accepted form', (label, message) => {
    const res = runCli(['load', athenaDir, '--release', label, '--data-dir', dataDir]);
    expect(res.status).toBe(1);
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`error: option '--release <label>' argument '${label}' is invalid. ${message}${label === '2025v2' ? '' : ' (a year and its release number, e.g. 2025.2)'}`);
    expect(lines[1]).toBe("run 'omopterm load --help' for its usage");
    expect(listReleaseBuilds(dataDir)).toEqual([]);
  });

  it.each(['demo', 'DEMO'])('load --release %s is refused: the label is reserved for the bundled demo vocabulary', (label) => {
    const res = runCli(['load', athenaDir, '--release', label, '--data-dir', dataDir]);
    expect(res.status).toBe(1);
    expect(res.stderr.trimEnd().split('\n')).toEqual([
      `error: option '--release <label>' argument '${label}' is invalid. release label '${label}' is reserved for the bundled demo vocabulary (omopterm demo loads it); load a real release as YYYY.Q with Q 1–4 (e.g. 2025.2)`,
      "run 'omopterm load --help' for its usage",
    ]);
    expect(listReleaseBuilds(dataDir)).toEqual([]);
  });

  it('OMOPTERM_LOAD_RELEASE sets --release', () => {
    const res = runCli(['load', athenaDir], { OMOPTERM_DATA_DIR: dataDir, OMOPTERM_LOAD_RELEASE: '2024.3' });
    expect(res.stderr).not.toContain('error:');
    expect(res.status).toBe(0);
    expect(listReleaseBuilds(dataDir).map((b) => b.label)).toEqual(['2024.3']);
  });
});
