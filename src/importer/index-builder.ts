/**
 * The IndexBuilder contract: a named step that derives indexes or tables from the loaded base tables, run by the
 * loader (in the order of ./index-builders.ts) inside the load, before the release is published.
 */

import type Database from 'better-sqlite3';

/**
 * A step that derives indexes or tables from the loaded base tables, run by the loader after all
 * source tables are in the store and before the release is published. Builders run in order, inside
 * the load, so a failure in any of them fails the whole load (and nothing becomes visible).
 */
export interface IndexBuildContext {
  db: Database.Database;
  /** One progress line for the terminal (no trailing newline). */
  log(line: string): void;
}

export interface IndexBuilder {
  /** Short name shown in progress output, e.g. `search index`. */
  name: string;
  build(ctx: IndexBuildContext): void;
}
