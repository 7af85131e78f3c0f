/**
 * Builds src/ into .test-build/ once per run (esbuild, file by file: the transform tsx applies at run time), so tests that
 * spawn the CLI start plain JavaScript instead of paying tsx's loader per process; rebuilt only when src/ changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** A direct child of the repository root, as dist/ is: the code finds ../package.json and ../../../examples from there. */
export const CLI_BUILD_DIR = join(REPO_ROOT, '.test-build');
const STAMP = '.source-hash';
/** Fixture releases loaded by this src/, one directory per src hash (test/helpers/release-cache.ts). */
export const RELEASE_CACHE_ROOT = join(REPO_ROOT, '.test-output', 'release-cache');

/** Builds (or reuses) the JavaScript of src/: the CLI entry (null when esbuild is unavailable) and the hash of src/. */
export async function buildCli(): Promise<{ entry: string | null; sourceHash: string }> {
  const srcDir = join(REPO_ROOT, 'src');
  const sources = readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .sort();
  const hash = createHash('sha256');
  for (const file of sources) hash.update(file).update('\0').update(readFileSync(join(srcDir, file))).update('\0');
  // The shipped word vectors shape every loaded release's vectors, so cached fixture releases depend on them too.
  const assetsDir = join(REPO_ROOT, 'assets');
  for (const file of readdirSync(assetsDir, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(assetsDir, file);
    if (statSync(path).isFile()) hash.update(`assets/${file}`).update('\0').update(readFileSync(path)).update('\0');
  }
  const digest = hash.digest('hex');
  const entry = join(CLI_BUILD_DIR, 'cli', 'main.js');
  const stampFile = join(CLI_BUILD_DIR, STAMP);
  if (existsSync(entry) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) return { entry, sourceHash: digest };

  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return { entry: null, sourceHash: digest }; // the CLI tests then run src/ through tsx
  }
  const staging = `${CLI_BUILD_DIR}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: sources.map((f) => join(srcDir, f)),
    outdir: staging,
    outbase: srcDir,
    bundle: false,
    platform: 'node',
    format: 'esm',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    target: 'node20',
    logLevel: 'warning',
  });
  writeFileSync(join(staging, STAMP), digest);
  rmSync(CLI_BUILD_DIR, { recursive: true, force: true });
  renameSync(staging, CLI_BUILD_DIR);
  return { entry, sourceHash: digest };
}
