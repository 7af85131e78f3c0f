/**
 * `omopterm embed --release X`: adds vectors to a release loaded with --skip-embeddings; clear
 * errors and a non-zero exit for an unknown release or a missing model directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRelease, type LoadResult } from '../../src/importer/load-release.js';
import { readCurrentEmbedding } from '../../src/store/semantic-dir.js';
import { runCli } from '../helpers/cli.js';
import { DEMO_VOCABULARY_DIR } from '../metadata/concept-file.js';

let dataDir: string;
let loaded: LoadResult;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omopterm-embed-cli-'));
  loaded = await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: '2025.2', quiet: true, embeddings: false });
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('omopterm embed', () => {
  it('on an unknown release exits non-zero and lists the loaded ones', () => {
    const r = runCli(['embed', '--release', '2031.1', '--data-dir', dataDir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`omopterm: release 2031.1 is not loaded in ${dataDir} (loaded: 2025.2)`);
    expect(r.stdout).toBe('');
  });

  it('with a model directory that does not exist exits non-zero naming it', () => {
    const missing = join(dataDir, 'no-such-model');
    const r = runCli(['embed', '--release', '2025.2', '--data-dir', dataDir, '--embedding-model', missing]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`no model directory at ${missing}`);
    expect(readCurrentEmbedding(loaded.releaseDir)).toBeNull();
  });

  it('with a directory that holds no model exits non-zero naming the expected files, before any work', () => {
    const r = runCli(['embed', '--release', '2025.2', '--data-dir', dataDir, '--embedding-model', dataDir]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/config\.json.*tokenizer\.json/);
    expect(r.stderr).not.toMatch(/texts to embed/);
    expect(readCurrentEmbedding(loaded.releaseDir)).toBeNull();
  });

  it('adds vectors to a release loaded without them, with progress on stderr and the summary on stdout', () => {
    expect(readCurrentEmbedding(loaded.releaseDir)).toBeNull();
    const r = runCli(['embed', '--release', '2025.2', '--data-dir', dataDir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/embeddings: vectors \(omopterm-lexicon\/1, 128 dimensions\): done in/);
    const current = readCurrentEmbedding(loaded.releaseDir);
    expect(current).toMatchObject({ provider: 'omopterm-lexicon/1', dimension: 128 });
    expect(r.stdout).toContain(
      `Release 2025.2: ${current!.conceptCount.toLocaleString('en-US')} concept vectors from ${current!.entryCount.toLocaleString('en-US')} names and synonyms (omopterm-lexicon/1, 128 dimensions)`,
    );
  });
});
