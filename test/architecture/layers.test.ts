/**
 * The layering of src/ (issue 21): store/, importer/ and athena/ never import services/ or http/,
 * search-model/ and mapping-model/ stay below them; http/plumbing/ never imports http/fhir/; no two
 * folders import each other, directly or round a cycle; no adapter (src/http/, src/cli/, src/mcp/) reads a release store;
 * the MCP adapter (src/mcp/) is imported by no layer below it and imports neither the HTTP adapters nor the CLI.
 * Reads every import of every source file; a failure names the file and the import (or the store read).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { folderCycles, forbiddenImports, readImportGraph, type ForbiddenImport } from './import-graph.js';
import { adapterStoreReads } from './store-reads.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The layers below the services: what they are built from may not depend on what is built on them. */
const RULES: readonly ForbiddenImport[] = [
  ...['src/store', 'src/importer', 'src/athena'].flatMap((from) => [
    { from, to: 'src/services' },
    { from, to: 'src/http' },
  ]),
  // The search model is below the store and the importer (both are built from it).
  ...['src/services', 'src/http', 'src/store', 'src/importer'].map((to) => ({ from: 'src/search-model', to })),
  // The mapping model computes what the importer stores; only the store's record types are below it.
  ...['src/services', 'src/http', 'src/importer'].map((to) => ({ from: 'src/mapping-model', to })),
  // The licence rules are below everything that applies them (the store's filters, the importer, the services).
  ...['src/services', 'src/http', 'src/store', 'src/importer', 'src/threads'].map((to) => ({ from: 'src/licences', to })),
  { from: 'src/http/plumbing', to: 'src/http/fhir' },
  // The MCP server is an adapter like the HTTP surfaces: nothing below it imports it, and it speaks to the services,
  // never through the HTTP adapters or the CLI (both of which start it).
  ...['src/services', 'src/store', 'src/importer', 'src/athena', 'src/state', 'src/licences', 'src/threads'].map((from) => ({ from, to: 'src/mcp' })),
  { from: 'src/mcp', to: 'src/http' },
  { from: 'src/mcp', to: 'src/cli' },
];

describe('layers of src/', () => {
  const edges = readImportGraph(REPO_ROOT);

  it('reads the imports of the whole source tree', () => {
    // A sanity floor, so that a broken reader (no files, no imports) cannot pass the checks below.
    expect(new Set(edges.map((e) => e.from)).size).toBeGreaterThan(200);
    expect(edges.some((e) => e.from === 'src/store/sqlite/search/text-streams.ts' && e.to === 'src/search-model/tier-plan.ts')).toBe(true);
  });

  it('store/, importer/ and athena/ import neither services/ nor http/; the models stay below them; http/plumbing/ does not import http/fhir/; mcp/ is an adapter', () => {
    const broken = forbiddenImports(edges, RULES);
    expect(broken, `forbidden imports:\n${broken.join('\n')}`).toEqual([]);
  });

  it('has no circular imports between folders', () => {
    const cycles = folderCycles(edges);
    expect(cycles, cycles.join('\n\n')).toEqual([]);
  });

  it('no adapter (src/http/, src/cli/, src/mcp/) reads a release store: every read goes through the view or a service', () => {
    // The gate (src/http/plumbing/gatekeeper.ts) builds the view from the registry's release without reading its store either.
    const reads = adapterStoreReads(REPO_ROOT, ['src/http', 'src/cli', 'src/mcp']);
    expect(reads, `store reads in adapters (use a ReleaseView member or a service function):\n${reads.join('\n')}`).toEqual([]);
  });

  it('every relative import names a file that exists', () => {
    const missing = edges.filter((e) => !existsSync(join(REPO_ROOT, e.to)));
    expect(missing.map((e) => `${e.from} imports '${e.specifier}'`)).toEqual([]);
  });
});
