/**
 * `omopterm releases`: the releases of a data directory, as a table or JSON; `releases default <label>` marks
 * one of them the default by rewriting `<data-dir>/default-release` atomically (running servers rescan it).
 */
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { formatCount } from '../../importer/format.js';
import { effectiveDefaultLabel, listReleaseBuilds, writeDefaultLabel, type ReleaseBuild } from '../../store/data-dir.js';
import { normaliseReleaseSelector } from '../../store/release-registry.js';
import { dataDirOption } from './options.js';

interface ReleasesCliOptions {
  dataDir: string;
  json?: boolean;
}

export interface ReleaseListing {
  label: string;
  default: boolean;
  build_id: string;
  source_vocabulary_version: string | null;
  release_date: string | null;
  loaded_at: string;
  counts: { concepts: number; relationships: number; ancestors: number; synonyms: number };
  anomaly_kinds: number;
  store_path: string;
}

export function describeReleases(dataDir: string): ReleaseListing[] {
  const builds = listReleaseBuilds(dataDir);
  const defaultLabel = effectiveDefaultLabel(dataDir, builds);
  return builds.map((build) => toListing(build, build.label === defaultLabel));
}

function toListing(build: ReleaseBuild, isDefault: boolean): ReleaseListing {
  const m = build.manifest;
  const rows = (table: string) => m.tables?.[table]?.rows_stored ?? 0;
  return {
    label: build.label,
    default: isDefault,
    build_id: build.buildId,
    source_vocabulary_version: m.source_vocabulary_version ?? null,
    release_date: m.release_date ?? null,
    loaded_at: m.loaded_at,
    counts: {
      concepts: rows('concept'),
      relationships: rows('concept_relationship'),
      ancestors: rows('concept_ancestor'),
      synonyms: rows('concept_synonym'),
    },
    anomaly_kinds: m.anomalies?.length ?? 0,
    store_path: build.storePath,
  };
}

function formatTable(listings: ReleaseListing[]): string {
  const header = ['', 'RELEASE', 'SOURCE VERSION', 'RELEASED', 'CONCEPTS', 'RELATIONSHIPS', 'ANCESTORS', 'SYNONYMS', 'LOADED AT'];
  const rows = listings.map((l) => [
    l.default ? '*' : '',
    l.label,
    l.source_vocabulary_version ?? '-',
    l.release_date ?? '-',
    formatCount(l.counts.concepts),
    formatCount(l.counts.relationships),
    formatCount(l.counts.ancestors),
    formatCount(l.counts.synonyms),
    l.loaded_at,
  ]);
  const numeric = new Set([4, 5, 6, 7]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const render = (cells: string[]) =>
    cells
      .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [render(header), ...rows.map(render), '', '* = default release (served when a request names none)'].join('\n');
}

/**
 * Makes `wanted` (a loaded label, or its YYYYvQ alias) the default release of `dataDir`; returns the label and the
 * previous default. Throws, listing the loaded releases, when `wanted` is not one of them.
 */
export function setDefaultRelease(dataDir: string, wanted: string): { label: string; previous: string | null } {
  const builds = listReleaseBuilds(dataDir);
  if (builds.length === 0) {
    throw new Error(`no releases loaded in ${dataDir}, so '${wanted}' cannot be the default; load one with: omopterm load <athena-dir> --release YYYY.Q --data-dir ${dataDir}`);
  }
  const label = normaliseReleaseSelector(wanted);
  if (!builds.some((b) => b.label === label)) {
    throw new Error(`release '${wanted}' is not loaded in ${dataDir}; loaded releases: ${builds.map((b) => b.label).join(', ')}`);
  }
  const previous = effectiveDefaultLabel(dataDir, builds);
  writeDefaultLabel(dataDir, label);
  return { label, previous };
}

export function registerReleasesCommand(program: Command): void {
  const releases = program
    .command('releases')
    .summary('list the loaded vocabulary releases')
    .description(
      'List the vocabulary releases loaded into the data directory: label, source vocabulary version and release date ' +
        '(from the VOCABULARY "None" row), row counts, load time, and which one is the default. ' +
        '`omopterm releases default <label>` changes the default.',
    )
    .addOption(dataDirOption())
    .addOption(new Option('--json', 'print a JSON array instead of a table').env('OMOPTERM_RELEASES_JSON'))
    .action((options: ReleasesCliOptions) => {
      const dataDir = resolve(options.dataDir);
      const listings = describeReleases(dataDir);
      if (options.json) {
        process.stdout.write(`${JSON.stringify(listings, null, 2)}\n`);
        return;
      }
      if (listings.length === 0) {
        process.stderr.write(`no releases loaded in ${dataDir}; load one with: omopterm load <athena-dir> --release YYYY.Q --data-dir ${dataDir}\n`);
        return;
      }
      process.stdout.write(`${formatTable(listings)}\n`);
    });

  // --data-dir is the option of `releases` (commander gives it to the parent wherever it is written).
  releases
    .command('default')
    .summary('set the default release (served when a request names none)')
    .description(
      'Make a loaded release the default one, without reloading anything: the release a request gets when it names none ' +
        '(and what latest/default/current mean). The label must be loaded (see `omopterm releases`); the YYYYvQ alias is accepted. ' +
        'The change is one atomic rename of <data-dir>/default-release; running servers pick it up within a few seconds. ' +
        'With --json, prints {default_release, previous_default}.',
    )
    .argument('<label>', 'label of a loaded release, e.g. 2025.2 or demo')
    .configureHelp({ showGlobalOptions: true })
    .action((wanted: string) => {
      const options = releases.opts() as ReleasesCliOptions;
      const dataDir = resolve(options.dataDir);
      const { label, previous } = setDefaultRelease(dataDir, wanted);
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ default_release: label, previous_default: previous }, null, 2)}\n`);
        return;
      }
      const was = previous === label ? 'it already was' : previous ? `was ${previous}` : 'there was none';
      process.stdout.write(`default release of ${dataDir} is now ${label} (${was}); running servers pick it up within a few seconds\n`);
    });
}
