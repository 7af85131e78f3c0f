/**
 * Where a release build keeps its vectors (`<build dir>/semantic/<embeddingId>/`, the set in use named by
 * `semantic/current.json`) and the steps that publish a new set atomically, so that the previous vectors serve
 * until a run publishes; the layout and the steps are in docs/internals.md.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newBuildId } from './data-dir.js';
import { makeDirectory } from './make-directory.js';

export const SEMANTIC_DIR_NAME = 'semantic';
export const SEMANTIC_ENTRIES_FILE = 'entries.sqlite';
/** The vectors as inverted lists (src/store/vector-lists.ts; layout format 4). */
export const SEMANTIC_VECTORS_FILE = 'vectors.ivf';
/** The vectors of sets embedded before format 4 (a usearch HNSW graph), still read. */
export const SEMANTIC_GRAPH_VECTORS_FILE = 'vectors.usearch';
const CURRENT_FILE = 'current.json';
const TEMP_PREFIX = '.tmp-';

/** What current.json says about the vectors in use. */
export interface CurrentEmbedding {
  embeddingId: string;
  /** EmbeddingProvider.id of the provider that built them. */
  provider: string;
  dimension: number;
  entryCount: number;
  conceptCount: number;
  builtAt: string;
  /** Wall time of the embedding run. */
  elapsedMs: number;
}

/** The files of one embedding set. */
export interface EmbeddingFiles {
  dir: string;
  entriesPath: string;
  vectorsPath: string;
}

export function semanticDir(buildDir: string): string {
  return join(buildDir, SEMANTIC_DIR_NAME);
}

export function embeddingFiles(dir: string): EmbeddingFiles {
  const graph = join(dir, SEMANTIC_GRAPH_VECTORS_FILE);
  const vectorsPath = existsSync(graph) && !existsSync(join(dir, SEMANTIC_VECTORS_FILE)) ? graph : join(dir, SEMANTIC_VECTORS_FILE);
  return { dir, entriesPath: join(dir, SEMANTIC_ENTRIES_FILE), vectorsPath };
}

/** The published files of an embedding set of a build. */
export function publishedEmbeddingFiles(buildDir: string, embeddingId: string): EmbeddingFiles {
  return embeddingFiles(join(semanticDir(buildDir), embeddingId));
}

/** A sortable, unique embedding id (UTC timestamp plus pid, like build ids). */
export function newEmbeddingId(now = new Date()): string {
  return newBuildId(now);
}

/** current.json of a build, or null when the build has no (readable) vectors. */
export function readCurrentEmbedding(buildDir: string): CurrentEmbedding | null {
  const file = join(semanticDir(buildDir), CURRENT_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = JSON.parse(text) as CurrentEmbedding;
    return typeof parsed.embeddingId === 'string' && typeof parsed.provider === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** Creates the temp dir of a new embedding run (and removes temp dirs of dead runs). */
export function createEmbeddingWorkspace(buildDir: string, embeddingId: string): EmbeddingFiles {
  const root = semanticDir(buildDir);
  makeDirectory(root);
  removeStaleEmbeddingWorkspaces(buildDir);
  const dir = join(root, `${TEMP_PREFIX}${embeddingId}`);
  mkdirSync(dir);
  return embeddingFiles(dir);
}

/** Removes a run's temp dir (after a failure or abort). Never throws. */
export function discardEmbeddingWorkspace(workspace: EmbeddingFiles): void {
  try {
    rmSync(workspace.dir, { recursive: true, force: true });
  } catch {
    // best effort: the next run removes stale temp dirs
  }
}

/**
 * Publishes a finished run: rename its temp dir into place, replace current.json atomically, then
 * remove the older embedding sets of the build (a server still reading one keeps its open files).
 */
export function publishEmbedding(buildDir: string, workspace: EmbeddingFiles, current: CurrentEmbedding): EmbeddingFiles {
  const root = semanticDir(buildDir);
  const dir = join(root, current.embeddingId);
  renameSync(workspace.dir, dir);
  const published = embeddingFiles(dir); // after the rename: the vector file's name is the one found there
  const file = join(root, CURRENT_FILE);
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(current, null, 2)}\n`);
  renameSync(tmp, file);
  for (const name of readdirSync(root)) {
    if (name === current.embeddingId || name === CURRENT_FILE || name.startsWith(TEMP_PREFIX) || name.startsWith(`${CURRENT_FILE}.tmp-`)) continue;
    rmSync(join(root, name), { recursive: true, force: true });
  }
  return published;
}

/** Temp dirs whose run (pid in the embedding id, `…p<pid>`) is no longer alive. */
function removeStaleEmbeddingWorkspaces(buildDir: string): void {
  const root = semanticDir(buildDir);
  if (!existsSync(root)) return;
  for (const name of readdirSync(root)) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const pid = Number(/p(\d+)$/.exec(name)?.[1]);
    // A run of this process, or of another live process, is still going.
    if (pid === process.pid || (Number.isInteger(pid) && isAlive(pid))) continue;
    rmSync(join(root, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
