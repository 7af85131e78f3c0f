/**
 * `omopterm embed` on a served release: the previous vectors keep serving until the new ones are
 * published (one rename + an atomic current.json), then the registry switches; an aborted run
 * leaves the previous vectors and no temp dir.
 */
import { existsSync, readFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedBuild, embedRelease } from '../../src/importer/embed-release.js';
import { loadRelease, type LoadResult } from '../../src/importer/load-release.js';
import type { LoadProgressEvent } from '../../src/importer/progress-events.js';
import { SemanticIndexRegistry, type SemanticIndexLookup } from '../../src/services/semantic/semantic-index-registry.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import type { OpenRelease } from '../../src/store/release-registry.js';
import { readCurrentEmbedding, semanticDir } from '../../src/store/semantic-dir.js';
import { openSqliteSemanticIndex } from '../../src/store/sqlite/sqlite-semantic-index.js';
import { storedEntries } from '../helpers/stored-entries.js';
import { unitMean } from '../helpers/unit-mean.js';

/** A demo-vocabulary concept with synonyms (SNOMED 22298006). */
const MYOCARDIAL_INFARCTION = 4329847;
import { DEMO_VOCABULARY_DIR } from '../metadata/concept-file.js';

let dataDir: string;
let loaded: LoadResult;
let release: OpenRelease;
let registry: SemanticIndexRegistry;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'omopterm-reembed-'));
  loaded = await loadRelease({ sourceDir: DEMO_VOCABULARY_DIR, dataDir, label: '2025.2', quiet: true });
  const build = listReleaseBuilds(dataDir)[0]!;
  // The registry reads only the build (its directory); no store is needed for these checks.
  release = { label: build.label, buildId: build.buildId, build, store: undefined as never };
  registry = new SemanticIndexRegistry({ choice: { kind: 'lexicon' }, openIndex: openSqliteSemanticIndex, recheckIntervalMs: 0, retireDelayMs: 60_000 });
});
afterAll(async () => {
  await registry?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const embeddingIdOf = (lookup: SemanticIndexLookup) => (lookup.ok ? lookup.index.meta.embeddingId : null);
const tempDirs = () => readdirSync(semanticDir(loaded.releaseDir)).filter((n) => n.startsWith('.tmp-'));

/** The concept's own vector is found (k = every concept: the stored vectors are what is tested, not the search). */
async function searchWorks(lookup: SemanticIndexLookup): Promise<void> {
  if (!lookup.ok) throw new Error(lookup.message);
  const texts = lookup.index.entriesOfConcepts([MYOCARDIAL_INFARCTION]).map((e) => e.text);
  expect(texts.length).toBeGreaterThan(0);
  const found = lookup.index.nearest(unitMean(await lookup.provider.embed(texts)), lookup.index.meta.conceptCount);
  expect(found.map((n) => n.conceptId)).toContain(MYOCARDIAL_INFARCTION);
}

describe('re-embedding a served release', () => {
  it('keeps serving the old vectors until the new ones are published, then switches', async () => {
    const first = await registry.get(release);
    const oldId = loaded.embedding!.embeddingId;
    expect(embeddingIdOf(first)).toBe(oldId);

    const seenDuringRun: Array<string | null> = [];
    let checks: Promise<void> = Promise.resolve();
    const result = await embedRelease({
      dataDir,
      label: '2025.2',
      choice: { kind: 'lexicon' },
      onProgress: (event: LoadProgressEvent) => {
        // the saving step publishes without waiting: a check it starts runs after the switch
        if ((event.type !== 'step-start' && event.type !== 'step-progress') || event.step === 'embeddings: saving') return;
        checks = checks.then(async () => {
          const during = await registry.get(release);
          seenDuringRun.push(embeddingIdOf(during));
          await searchWorks(during);
        });
      },
    });
    await checks;
    expect(seenDuringRun.length).toBeGreaterThan(3);
    expect(new Set(seenDuringRun)).toEqual(new Set([oldId]));

    expect(result.embeddingId).not.toBe(oldId);
    expect(readCurrentEmbedding(loaded.releaseDir)?.embeddingId).toBe(result.embeddingId);
    const after = await registry.get(release);
    expect(embeddingIdOf(after)).toBe(result.embeddingId);
    await searchWorks(after);
    // The old set's files are gone from the directory, but the index opened on them still answers.
    expect(existsSync(join(semanticDir(loaded.releaseDir), oldId))).toBe(false);
    await searchWorks(first);
    expect(tempDirs()).toEqual([]);
  });

  it('embedding in the helper threads (large releases) gives the vectors the served provider computes (one mean per concept), the same bytes as on this thread', async () => {
    const inThisThread = await embedBuild({ label: '2025.2', buildDir: loaded.releaseDir, storePath: loaded.storePath, choice: { kind: 'lexicon' }, threadFrom: Number.MAX_SAFE_INTEGER });
    const inThisThreadBytes = readFileSync(inThisThread.files.vectorsPath);
    const result = await embedBuild({ label: '2025.2', buildDir: loaded.releaseDir, storePath: loaded.storePath, choice: { kind: 'lexicon' }, threadFrom: 0 });
    expect(result.embeddingId).not.toBe(inThisThread.embeddingId);
    expect(readFileSync(result.files.vectorsPath).equals(inThisThreadBytes)).toBe(true);
    expect(result.entryCount).toBe(loaded.embedding!.entryCount);
    const lookup = await registry.get(release);
    expect(embeddingIdOf(lookup)).toBe(result.embeddingId);
    if (!lookup.ok) throw new Error(lookup.message);
    const names = storedEntries(result.files.entriesPath).filter((e) => !e.is_synonym);
    const sampled = names.filter((_, i) => i % 10 === 0);
    const missed: string[] = [];
    for (const name of sampled) {
      const texts = lookup.index.entriesOfConcepts([name.concept_id]).map((e) => e.text);
      const self = lookup.index.nearest(unitMean(await lookup.provider.embed(texts)), lookup.index.meta.conceptCount).find((n) => n.conceptId === name.concept_id);
      if (self) expect(self.similarity, name.text).toBeGreaterThan(0.98);
      else missed.push(name.text);
    }
    // a release this small is one vector list, searched exactly: every concept is reached
    expect(missed, 'not reached').toEqual([]);
  });

  it('an aborted run leaves the previous vectors serving and no temp dir', async () => {
    const before = readCurrentEmbedding(loaded.releaseDir)!;
    const abort = new AbortController();
    let sawTempDir = false;
    await expect(
      embedRelease({
        dataDir,
        label: '2025.2',
        choice: { kind: 'lexicon' },
        signal: abort.signal,
        onProgress: (event) => {
          if (event.type === 'step-progress' && event.unit === 'vectors') {
            sawTempDir = tempDirs().length === 1;
            abort.abort(new Error('stopped by the test'));
          }
        },
      }),
    ).rejects.toThrow('stopped by the test');
    expect(sawTempDir).toBe(true);
    expect(tempDirs()).toEqual([]);
    expect(readCurrentEmbedding(loaded.releaseDir)).toEqual(before);
    const lookup = await registry.get(release);
    expect(embeddingIdOf(lookup)).toBe(before.embeddingId);
    await searchWorks(lookup);
  });
});
