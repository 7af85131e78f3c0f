/** `omopterm load` and `omopterm releases` as a user runs them (the real CLI through tsx). */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listReleaseBuilds, readDefaultLabel, releasesDir } from '../../src/store/data-dir.js';
import { REPO_ROOT, runCli } from '../helpers/cli.js';
import { CONCEPT_HEADER, conceptRow, makeTempDir, tab, writeLines, writeMinimalAthenaDir, writeSlowAthenaDir } from './loader-fixtures.js';

let goodDir: string;
let brokenDir: string;
let slowDir: string;
let dataDir: string;

beforeAll(() => {
  goodDir = writeMinimalAthenaDir();
  brokenDir = makeTempDir('omopterm-cli-broken-');
  writeLines(brokenDir, 'CONCEPT.csv', [tab(CONCEPT_HEADER), tab(conceptRow(1)), tab(conceptRow(2, 'x', { concept_id: 'two' }))]);
  slowDir = writeSlowAthenaDir();
  dataDir = makeTempDir('omopterm-cli-data-');
});
afterAll(() => {
  for (const dir of [goodDir, brokenDir, slowDir, dataDir]) rmSync(dir, { recursive: true, force: true });
});

const tempDirs = () => readdirSync(releasesDir(dataDir)).filter((n) => n.startsWith('.'));

describe('omopterm load', () => {
  it('loads a release: progress on stderr, summary on stdout', () => {
    const res = runCli(['load', goodDir, '--release', '2025.1'], { OMOPTERM_DATA_DIR: dataDir });
    expect(res.stderr).toContain('loading release 2025.1 from');
    expect(res.stderr).toMatch(/concept: reading CONCEPT\.csv \(TAB-separated \(Athena\)\)/);
    expect(res.stdout).toMatch(/^Release 2025\.1 loaded in [\d.]+ s \(default release\)/);
    expect(res.stdout).toMatch(/concept_relationship +2 rows +CONCEPT_RELATIONSHIP\.csv/);
    expect(res.stdout).toContain('anomalies: none');
    expect(res.status).toBe(0);
    expect(listReleaseBuilds(dataDir).map((b) => b.label)).toEqual(['2025.1']);
  });

  it('refuses to load an existing label without --replace', () => {
    const before = listReleaseBuilds(dataDir)[0]!.buildId;
    const res = runCli(['load', goodDir, '--release', '2025.1', '--data-dir', dataDir]);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/omopterm: release 2025\.1 is already loaded \(build \S+, loaded .*\); add --replace to load it again/);
    expect(res.stdout).toBe('');
    expect(listReleaseBuilds(dataDir)[0]!.buildId).toBe(before);
  });

  it('replaces with --replace and marks the default with --default', () => {
    const before = listReleaseBuilds(dataDir)[0]!.buildId;
    expect(runCli(['load', goodDir, '--release', '2025.1', '--data-dir', dataDir, '--replace']).status).toBe(0);
    expect(listReleaseBuilds(dataDir)[0]!.buildId).not.toBe(before);

    expect(runCli(['load', goodDir, '--release', '2025.2', '--data-dir', dataDir]).status).toBe(0);
    expect(readDefaultLabel(dataDir)).toBe('2025.1');
    const res = runCli(['load', goodDir, '--release', '2024.4', '--data-dir', dataDir, '--default']);
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/^Release 2024\.4 loaded in .* \(default release\)/);
    expect(readDefaultLabel(dataDir)).toBe('2024.4');
  });

  it('reports an unreadable row as FILE:LINE:COLUMN with a non-zero exit', () => {
    const res = runCli(['load', brokenDir, '--release', '2025.3', '--data-dir', dataDir]);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('omopterm: CONCEPT.csv:3:1: concept_id must be a whole number, found "two"');
    expect(tempDirs()).toEqual([]);
    expect(listReleaseBuilds(dataDir).map((b) => b.label)).not.toContain('2025.3');
  });

  it('rejects a bad label and a directory without CONCEPT', () => {
    const label = runCli(['load', goodDir, '--release', '25Q1', '--data-dir', dataDir]);
    expect(label.status).toBe(1);
    expect(label.stderr).toContain("release label '25Q1' is not of the form YYYY.Q");
    const empty = makeTempDir();
    const noConcept = runCli(['load', empty, '--release', '2025.3', '--data-dir', dataDir]);
    rmSync(empty, { recursive: true });
    expect(noConcept.status).toBe(1);
    expect(noConcept.stderr).toContain('no CONCEPT table in');
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s stops the load, removes the partial build and keeps the other releases', async (signal, exitCode) => {
    const before = listReleaseBuilds(dataDir).map((b) => [b.label, b.buildId]);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'load', slowDir, '--release', '2025.1', '--replace', '--data-dir', dataDir], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let sawTempDir = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('concept_relationship: reading') && !child.killed) {
        sawTempDir = tempDirs().length === 1;
        child.kill(signal);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(sawTempDir).toBe(true);
    expect(code).toBe(exitCode);
    expect(stderr).toContain(`omopterm: interrupted (${signal}): the load was stopped and its partial build removed`);
    expect(tempDirs()).toEqual([]);
    expect(listReleaseBuilds(dataDir).map((b) => [b.label, b.buildId])).toEqual(before);
  });

  it('a data directory that cannot be created (/proc/…, where mkdir loops between ENOENT and EEXIST) fails at once, naming it and why', () => {
    const started = Date.now();
    const res = runCli(['load', goodDir, '--release', '2025.1', '--data-dir', '/proc/omopterm-data'], {}, 30_000);
    expect(res.timedOut).toBe(false);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("cannot create directory '/proc/omopterm-data/releases'");
    expect(res.stderr).toContain("mkdir answers ENOENT although '/proc' exists");
    expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(res.stdout).toBe('');
  });

  it('has help that names the formats, atomicity and options', () => {
    const res = runCli(['load', '--help']);
    expect(res.status).toBe(0);
    for (const text of ['--release <label>', '--data-dir <dir>', 'OMOPTERM_DATA_DIR', '--default', '--replace', '.csv.gz', 'FILE:LINE:COLUMN', 'TAB-separated']) {
      expect(res.stdout).toContain(text);
    }
  });
});

describe('omopterm releases', () => {
  it('lists releases as a table and as JSON', () => {
    const table = runCli(['releases', '--data-dir', dataDir]);
    expect(table.status).toBe(0);
    const lines = table.stdout.split('\n');
    expect(lines[0]).toMatch(/^\s+RELEASE\s+SOURCE VERSION\s+RELEASED\s+CONCEPTS\s+RELATIONSHIPS\s+ANCESTORS\s+SYNONYMS\s+LOADED AT$/);
    expect(lines.find((l) => l.includes('2024.4'))).toMatch(/^\*\s+2024\.4\s+v5\.0 27-AUG-25\s+2025-08-27\s+3\s+2\s+0\s+0\s+\d{4}-/);
    expect(lines.find((l) => l.includes('2025.2'))).toMatch(/^\s+2025\.2\s/);

    const json = runCli(['releases', '--json'], { OMOPTERM_DATA_DIR: dataDir });
    expect(json.status).toBe(0);
    const listed = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(listed.map((r) => [r.label, r.default])).toEqual([
      ['2024.4', true],
      ['2025.1', false],
      ['2025.2', false],
    ]);
    expect(listed[0]).toMatchObject({
      source_vocabulary_version: 'v5.0 27-AUG-25',
      release_date: '2025-08-27',
      counts: { concepts: 3, relationships: 2, ancestors: 0, synonyms: 0 },
      loaded_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(existsSync(listed[0]!.store_path as string)).toBe(true);
  });

  it('says how to load when the data dir is empty', () => {
    const empty = makeTempDir();
    const res = runCli(['releases', '--data-dir', join(empty, 'none')]);
    rmSync(empty, { recursive: true });
    expect(res.status).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('no releases loaded in');
  });
});
