/**
 * What a benchmark scenario is: one small file in bench/scenarios/ with a default export of this
 * shape. The harness discovers every file there, so adding a capability's benchmark means adding one
 * file (no registry to edit).
 */
import type Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BenchRequest {
  method?: 'GET' | 'POST';
  /** Path and query, e.g. `/v1/concepts/201826`. */
  path: string;
  /** JSON body for POST requests. */
  body?: string;
  headers?: Record<string, string>;
}

export interface BenchContext {
  /** The loaded release store, opened read-only (for picking realistic ids, codes, names). */
  store: Database.Database;
  /** Release label the server serves by default. */
  release: string;
  /** Seeded random in [0, 1): scenarios pick the same inputs on every run. */
  random(): number;
  /**
   * Headers of a signed-in browser (session cookie, Accept: text/html) for page scenarios: pass them as a request's
   * `headers`. Set by the harness after signing in with the bench key.
   */
  pageHeaders?: Record<string, string>;
  /** Headers of an initialized MCP session at /mcp (bench/lib/mcp-session.ts) for the MCP scenarios. */
  mcpHeaders?: Record<string, string>;
  /** Up to `n` rows (objects keyed by column name) of `sql`, sampled uniformly by reservoir over the whole result. */
  sample<T>(sql: string, n: number, ...params: unknown[]): T[];
}

export interface Scenario {
  /** Short id used on the command line and in the report (`--scenario concept-by-id`). */
  name: string;
  description: string;
  /** Statuses counted as success (default: 200 only). */
  okStatuses?: number[];
  /** Called once per run: returns the generator of requests to send (cycled by the load generator). */
  prepare(ctx: BenchContext): () => BenchRequest;
}

const SCENARIO_DIR = fileURLToPath(new URL('../scenarios/', import.meta.url));

/**
 * All scenarios in bench/scenarios, in file-name order. Files without a default-exported scenario
 * (stand-alone scripts) are skipped with a note.
 */
export async function loadScenarios(note: (line: string) => void = () => {}): Promise<Scenario[]> {
  const files = readdirSync(SCENARIO_DIR)
    .filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.endsWith('.d.ts'))
    .sort();
  const out: Scenario[] = [];
  for (const f of files) {
    const mod = (await import(pathToFileURL(`${SCENARIO_DIR}${f}`).href)) as { default?: Partial<Scenario> };
    const s = mod.default;
    if (!s || typeof s.name !== 'string' || typeof s.prepare !== 'function') {
      note(`bench/scenarios/${f}: no default-exported scenario ({ name, description, prepare }), skipped`);
      continue;
    }
    out.push(s as Scenario);
  }
  return out;
}

/** Round-robin over a prepared list, starting at a random offset. */
export function cycle<T>(items: readonly T[], random: () => number): () => T {
  if (!items.length) throw new Error('scenario has nothing to request (empty sample)');
  let i = Math.floor(random() * items.length);
  return () => {
    i = (i + 1) % items.length;
    return items[i]!;
  };
}
