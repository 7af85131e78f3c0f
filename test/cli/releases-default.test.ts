/**
 * `omopterm releases default <label>` marks a loaded release the default without reloading it: an unknown label is
 * refused with the loaded releases listed (exit 1, nothing changed), and a running server answers with the new
 * default within its rescan interval.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease } from '../../src/importer/load-release.js';
import { runCli, startCliServe, type CliServer } from '../helpers/cli.js';
import { rawRequest } from '../helpers/test-server.js';
import { makeTempDir, writeMinimalAthenaDir } from '../loader/loader-fixtures.js';

const athenaDir = writeMinimalAthenaDir();
const dataDir = makeTempDir('omopterm-releases-default-');
const emptyDataDir = makeTempDir('omopterm-releases-default-empty-');
let server: CliServer | undefined;

beforeAll(async () => {
  for (const [label, makeDefault] of [['2025.1', true], ['2025.2', false]] as const) {
    await loadRelease({ sourceDir: athenaDir, dataDir, label, makeDefault, quiet: true, embeddings: false });
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  for (const dir of [athenaDir, dataDir, emptyDataDir]) rmSync(dir, { recursive: true, force: true });
});

/** The default release as `omopterm releases --json` reports it. */
function listedDefault(): string | undefined {
  const res = runCli(['releases', '--json', '--data-dir', dataDir]);
  expect(res.status, res.stderr).toBe(0);
  return (JSON.parse(res.stdout) as Array<{ label: string; default: boolean }>).find((r) => r.default)?.label;
}

describe('omopterm releases default', () => {
  it('refuses a label that is not loaded, listing the loaded releases, and changes nothing', () => {
    const res = runCli(['releases', 'default', '2025.3', '--data-dir', dataDir]);
    expect(res.status).toBe(1);
    expect(res.stderr).toBe(`omopterm: release '2025.3' is not loaded in ${dataDir}; loaded releases: 2025.1, 2025.2\n`);
    expect(res.stdout).toBe('');
    expect(listedDefault()).toBe('2025.1');
  });

  it('refuses any label in a data directory with no release, saying how to load one', () => {
    const res = runCli(['releases', 'default', '2025.1', '--data-dir', emptyDataDir]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`no releases loaded in ${emptyDataDir}`);
    expect(res.stderr).toContain('omopterm load <athena-dir> --release YYYY.Q');
  });

  it('takes --data-dir before or after the subcommand, and says what --help shows', () => {
    const res = runCli(['releases', '--data-dir', dataDir, 'default', '2025.1']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toBe(`default release of ${dataDir} is now 2025.1 (it already was); running servers pick it up within a few seconds\n`);
    const help = runCli(['releases', 'default', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: omopterm releases default [options] <label>');
    expect(help.stdout).toContain('--data-dir <dir>');
    expect(runCli(['releases', '--help']).stdout).toMatch(/default <label>\s+set the default release/);
  });

  it('a running server answers with the new default, without a reload or restart', async () => {
    const key = runCli(['keys', 'create', '--name', 'default-test', '--data-dir', dataDir]).stdout.trim();
    server = await startCliServe(['--data-dir', dataDir]);
    const releaseOfUnnamedRequest = async () => {
      const res = await rawRequest(`${server!.url}/v1/vocabularies/releases`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      return { answered: res.body.meta.vocab_release as string, listed: res.body.data.default_release as string };
    };
    expect(await releaseOfUnnamedRequest()).toEqual({ answered: '2025.1', listed: '2025.1' });

    const res = runCli(['releases', 'default', '2025v2', '--json', '--data-dir', dataDir]);
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ default_release: '2025.2', previous_default: '2025.1' });
    expect(listedDefault()).toBe('2025.2');

    // The registry rescans the data directory every 2 s.
    const deadline = Date.now() + 15_000;
    let seen = await releaseOfUnnamedRequest();
    while (seen.answered !== '2025.2' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      seen = await releaseOfUnnamedRequest();
    }
    expect(seen).toEqual({ answered: '2025.2', listed: '2025.2' });
    const health = await rawRequest(`${server.url}/health`);
    expect(health.body.default_release).toBe('2025.2');
  }, 60_000);
});
