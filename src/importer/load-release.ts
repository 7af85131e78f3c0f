/**
 * Loads one Athena download into a new, immutable release store in a temp dir and publishes it by one atomic
 * rename; usable without the CLI (tests, benchmarks, `omopterm demo`).
 */
import Database from 'better-sqlite3';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { listAthenaSourceFiles } from '../athena/source-files.js';
import { ATHENA_TABLE_SPECS } from '../athena/table-specs.js';
import { listReleaseBuilds, newBuildId, readDefaultLabel, resolveDataDir, supersededBuildDirs, writeDefaultLabel } from '../store/data-dir.js';
import type { EmbeddingProviderChoice } from '../search-model/semantic/embedding-provider.js';
import type { ReleaseManifest, TableLoadStats } from '../store/release-manifest.js';
import { MANIFEST_FILE_NAME, STORE_FILE_NAME, STORE_SCHEMA_VERSION, TABLE_DDL } from '../store/schema.js';
import { publishedEmbeddingFiles } from '../store/semantic-dir.js';
import { AnomalyCollector } from './anomaly-collector.js';
import { cleanStaleWorkspaces, createBuildWorkspace, discardBuildWorkspace, publishBuildWorkspace, type BuildWorkspace } from './build-workspace.js';
import { loadLocalModelProvider } from '../search-model/semantic/local-model-provider.js';
import { ConceptIdSet } from './concept-id-set.js';
import { embedBuild, type EmbedResult } from './embed-release.js';
import type { IndexBuilder } from './index-builder.js';
import { INDEX_BUILDERS } from './index-builders.js';
import { LoadError, throwIfAborted } from './load-error.js';
import { formatLoadSummary } from './load-summary.js';
import { cpuStopwatch, type LoadProgressEvent, type LoadProgressListener } from './progress-events.js';
import { releaseDateFromVersion } from './release-date.js';
import { demoReleaseLabelProblem, releaseLabelProblem } from './release-label.js';
import { writeStoreMeta } from './store-meta.js';
import { importTable, type ReferenceIds } from './table-import.js';
import { TABLE_IMPORTS } from './table-import-order.js';
import { TerminalProgress } from './terminal-progress.js';

export interface LoadReleaseOptions {
  /** Directory holding the Athena files (CONCEPT.csv, …; `.csv` or `.csv.gz`, any case). */
  sourceDir: string;
  /** Data directory (default: OMOPTERM_DATA_DIR, then ./omopterm-data). */
  dataDir?: string;
  /** Release label, YYYY.Q with Q 1–4 (e.g. 2025.2; see release-label.ts), or `demo` when `demo` is set. */
  label: string;
  /** The bundled demo vocabulary is being loaded (`omopterm demo`): the label must be `demo`, which is refused otherwise. */
  demo?: boolean;
  /** Make this the default release (the first release loaded becomes the default anyway). */
  makeDefault?: boolean;
  /** Replace an already loaded build of the same label (otherwise loading it again fails). */
  replace?: boolean;
  /** No progress or summary on stderr. Ignored when onProgress is given. */
  quiet?: boolean;
  /** Receives progress events instead of the terminal renderer. */
  onProgress?: LoadProgressListener;
  /** Aborting stops the load at the next row batch or step; nothing is published. */
  signal?: AbortSignal;
  /** Build id to use (default: a new one); lets a supervising process know the temp dir. */
  buildId?: string;
  /** Pid of the process supervising this load (the CLI parent of a child load): once it is gone, the load counts as abandoned. */
  supervisorPid?: number;
  /** Steps run after the tables are loaded (default: INDEX_BUILDERS). */
  indexBuilders?: readonly IndexBuilder[];
  /** SQLite page cache for the build, MiB (default 768; the sorter adds up to two 512 MiB buffers). */
  cacheSizeMiB?: number;
  /**
   * Cores the load may keep busy (default: the machine's). With 2 or more, each TAB-separated table file is parsed on a
   * thread of its own while its rows are stored, the vectors are embedded on two helper threads and grouped into lists on two cores; 1 does
   * everything on one core. The store is the same either way (test/loader/load-threads.test.ts).
   */
  threads?: number;
  /**
   * The vectors of semantic search, computed in the build before it is published: the provider to
   * compute them with (default: the built-in default provider), or false for none
   * (`--skip-embeddings`; `omopterm embed --release X` adds them later).
   */
  embeddings?: EmbeddingProviderChoice | false;
}

export interface LoadResult {
  label: string;
  buildId: string;
  /** The published build directory, releases/<label>__<buildId>. */
  releaseDir: string;
  storePath: string;
  manifest: ReleaseManifest;
  storeSizeBytes: number;
  /** Files of the source directory that are not vocabulary tables (not read). */
  ignoredFiles: string[];
  /** Athena tables without a file (loaded as empty). */
  missingTables: string[];
  /** Whether this release is now marked as the default. */
  madeDefault: boolean;
  /** Older builds of the label removed after publishing. */
  removedBuilds: string[];
  /** Temp dirs of dead loads removed before starting. */
  removedStaleTempDirs: string[];
  /** The vectors computed for semantic search, or null when skipped. */
  embedding: EmbedResult | null;
}

// Page cache 768 MiB + at most two 512 MiB sorter buffers (threads = 1) + Node ≈ 2.3 GB peak at full scale.
const DEFAULT_CACHE_MIB = 768;
const STAGING_SCHEMA = 'staging';

export async function loadRelease(options: LoadReleaseOptions): Promise<LoadResult> {
  const started = Date.now();
  const label = options.label;
  const labelProblem = options.demo ? demoReleaseLabelProblem(label) : releaseLabelProblem(label);
  if (labelProblem !== null) throw new LoadError(labelProblem);
  const dataDir = resolveDataDir(options.dataDir);
  const sourceDir = resolve(options.sourceDir);
  const listing = listAthenaSourceFiles(sourceDir);
  if (!listing.files.has('CONCEPT')) {
    const found = [...listing.files.values()].map((f) => f.displayName).concat(listing.ignored);
    throw new LoadError(
      `no CONCEPT table in ${sourceDir}: expected CONCEPT.csv or CONCEPT.csv.gz (any case)` +
        (found.length ? `; the directory holds ${found.join(', ')}` : '; the directory is empty'),
    );
  }

  const embeddings = options.embeddings ?? { kind: 'lexicon' };
  const threads = options.threads ?? availableParallelism();
  if (!Number.isInteger(threads) || threads < 1) throw new LoadError(`threads must be a whole number of at least 1 (got ${threads})`);
  // A local model that cannot load stops the load before its tables, not after.
  const localModel = embeddings !== false && embeddings.kind === 'local-model' ? await loadLocalModelProvider(embeddings.modelDir) : undefined;

  const stale = cleanStaleWorkspaces(dataDir, label);
  if (stale.liveLoadOfLabel) {
    throw new LoadError(
      `another load of release ${label} is running (process ${stale.liveLoadOfLabel.pid}, building ${stale.liveLoadOfLabel.dir}); wait for it to finish`,
    );
  }
  const buildsBefore = listReleaseBuilds(dataDir);
  const existing = buildsBefore.find((b) => b.label === label);
  if (existing && !options.replace) throw alreadyLoaded(label, existing.manifest);

  const terminal = options.onProgress || options.quiet ? null : new TerminalProgress(process.stderr);
  const progress: LoadProgressListener = options.onProgress ?? (terminal ? (e) => terminal.handle(e) : () => {});

  const buildId = options.buildId ?? newBuildId();
  const workspace = createBuildWorkspace(dataDir, label, buildId, options.supervisorPid);
  progress({ type: 'load-start', label, sourceDir, storeDir: workspace.dir, ignoredFiles: listing.ignored });
  let published: string | null = null;
  let manifest: ReleaseManifest;
  let embedding: EmbedResult | null = null;
  try {
    manifest = await buildStore(workspace, {
      label,
      buildId,
      sourceDir,
      listing,
      started,
      progress,
      signal: options.signal,
      indexBuilders: options.indexBuilders ?? INDEX_BUILDERS,
      cacheSizeMiB: options.cacheSizeMiB ?? DEFAULT_CACHE_MIB,
      threads,
    });
    if (embeddings !== false) {
      embedding = await embedBuild({
        label,
        buildDir: workspace.dir,
        storePath: workspace.storePath,
        choice: embeddings,
        localModel,
        threads,
        onProgress: progress,
        signal: options.signal,
      });
      manifest.elapsed_ms = Date.now() - started;
    }
    writeFileSync(join(workspace.dir, MANIFEST_FILE_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
    if (!options.replace) {
      const raced = listReleaseBuilds(dataDir).find((b) => b.label === label);
      if (raced) throw alreadyLoaded(label, raced.manifest);
    }
    throwIfAborted(options.signal);
    published = publishBuildWorkspace(dataDir, workspace);
  } catch (err) {
    terminal?.finish();
    throw err;
  } finally {
    if (published === null) discardBuildWorkspace(workspace);
    await localModel?.close?.();
  }

  // The vectors moved with the build directory.
  if (embedding) embedding = { ...embedding, files: publishedEmbeddingFiles(published, embedding.embeddingId) };
  const removedBuilds = supersededBuildDirs(dataDir, label, buildId);
  for (const dir of removedBuilds) rmSync(dir, { recursive: true, force: true });
  const firstRelease = readDefaultLabel(dataDir) === null && !buildsBefore.some((b) => b.label !== label);
  const madeDefault = Boolean(options.makeDefault) || firstRelease;
  if (madeDefault) writeDefaultLabel(dataDir, label);

  const storePath = join(published, STORE_FILE_NAME);
  const result: LoadResult = {
    label,
    buildId,
    releaseDir: published,
    storePath,
    manifest,
    storeSizeBytes: statSync(storePath).size,
    ignoredFiles: listing.ignored,
    missingTables: ATHENA_TABLE_SPECS.filter((s) => !listing.files.has(s.name)).map((s) => s.name),
    madeDefault,
    removedBuilds,
    removedStaleTempDirs: stale.removed,
    embedding,
  };
  if (terminal) {
    terminal.finish();
    process.stderr.write(`${formatLoadSummary(result)}\n`);
  }
  return result;
}

interface BuildStoreInput {
  label: string;
  buildId: string;
  sourceDir: string;
  listing: ReturnType<typeof listAthenaSourceFiles>;
  started: number;
  progress: LoadProgressListener;
  signal: AbortSignal | undefined;
  indexBuilders: readonly IndexBuilder[];
  cacheSizeMiB: number;
  threads: number;
}

/** Fills the store in the workspace and returns its manifest (not yet written). */
async function buildStore(workspace: BuildWorkspace, input: BuildStoreInput): Promise<ReleaseManifest> {
  const { progress, signal } = input;
  const db = new Database(workspace.storePath);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma(`cache_size = ${-input.cacheSizeMiB * 1024}`);
    db.pragma('threads = 1'); // one sorter helper thread: two sort buffers in memory at most (RSS bound)
    db.exec(TABLE_DDL);
    db.prepare(`ATTACH DATABASE ? AS ${STAGING_SCHEMA}`).run(workspace.stagingPath);
    db.pragma(`${STAGING_SCHEMA}.journal_mode = OFF`);
    db.pragma(`${STAGING_SCHEMA}.synchronous = OFF`);
    db.pragma(`${STAGING_SCHEMA}.cache_size = -65536`);

    const anomalies = new AnomalyCollector();
    const referenceIds: ReferenceIds = { vocabularies: new Set(), domains: new Set(), conceptClasses: new Set(), relationships: new Set() };
    const context = { db, stagingSchema: STAGING_SCHEMA, anomalies, conceptIds: new ConceptIdSet(), referenceIds, progress, parseInThread: input.threads > 1 };
    const tables: Record<string, TableLoadStats> = {};
    for (const definition of TABLE_IMPORTS) {
      const file = input.listing.files.get(definition.spec.name);
      if (!file) {
        progress({ type: 'table-missing', table: definition.spec.storeTable });
        tables[definition.spec.storeTable] = { rows_read: 0, rows_stored: 0, file: null, elapsed_ms: 0 };
        continue;
      }
      const stats = await importTable(definition, file, context, signal);
      if (definition.spec.name === 'CONCEPT' && stats.rows_read === 0) {
        throw new LoadError(`${file.displayName} has no concept rows (only a header, or nothing): a release needs concepts`);
      }
      tables[definition.spec.storeTable] = stats;
      throwIfAborted(signal);
    }
    db.exec(`DETACH DATABASE ${STAGING_SCHEMA}`);
    rmSync(workspace.stagingPath, { force: true });

    for (const builder of input.indexBuilders) {
      await runStep(progress, builder.name, () =>
        builder.build({ db, log: (line) => progress({ type: 'note', message: `${builder.name}: ${line}` }) }),
      );
      throwIfAborted(signal);
    }

    const noneRow = db.prepare("SELECT vocabulary_version FROM vocabulary WHERE vocabulary_id = 'None'").get() as
      | { vocabulary_version: string | null }
      | undefined;
    const sourceVersion = noneRow?.vocabulary_version ?? null;
    const manifest: ReleaseManifest = {
      schema_version: STORE_SCHEMA_VERSION,
      label: input.label,
      build_id: input.buildId,
      source_vocabulary_version: sourceVersion,
      release_date: releaseDateFromVersion(sourceVersion),
      loaded_at: new Date().toISOString(),
      source_dir: input.sourceDir,
      elapsed_ms: 0,
      tables,
      anomalies: anomalies.summaries(),
    };
    writeStoreMeta(db, manifest);
    await runStep(progress, 'statistics (ANALYZE)', () => {
      db.pragma('analysis_limit = 1000');
      db.exec('ANALYZE');
    });
    db.close();
    manifest.elapsed_ms = Date.now() - input.started;
    return manifest;
  } finally {
    if (db.open) db.close();
  }
}

async function runStep(progress: LoadProgressListener, step: string, work: () => void): Promise<void> {
  const started = Date.now();
  const cpu = cpuStopwatch();
  progress({ type: 'step-start', step });
  // Let a supervising process see the step start before a long synchronous SQLite call.
  await new Promise<void>((resolveTick) => setImmediate(resolveTick));
  work();
  progress({ type: 'step-done', step, elapsedMs: Date.now() - started, cpuMs: cpu() } satisfies LoadProgressEvent);
}

function alreadyLoaded(label: string, manifest: ReleaseManifest): LoadError {
  return new LoadError(
    `release ${label} is already loaded (build ${manifest.build_id}, loaded ${manifest.loaded_at} from ${manifest.source_dir}); ` +
      'add --replace to load it again (the current build keeps serving until the new one is complete)',
  );
}
