/**
 * Which store implementation opens a release, chosen here and only here: the server injects the opener into the
 * release registry and passes its name (a name can cross a thread boundary, a function cannot) to the worker
 * threads (src/threads/worker-pool.ts), which look the same opener up here.
 */
import type { ReleaseStoreOpener } from '../release-store.js';
import { openSqliteRelease } from '../sqlite/open-sqlite-release.js';

/** Every store implementation, by name. */
export const RELEASE_STORE_OPENERS = { sqlite: openSqliteRelease } as const satisfies Record<string, ReleaseStoreOpener>;

export type ReleaseStoreKind = keyof typeof RELEASE_STORE_OPENERS;

/** The implementation the server uses (the SQLite files written by `omopterm load`). */
export const DEFAULT_RELEASE_STORE_KIND: ReleaseStoreKind = 'sqlite';

/** The opener of a store implementation; throws for a name that is not one. */
export function releaseStoreOpener(kind: string = DEFAULT_RELEASE_STORE_KIND): ReleaseStoreOpener {
  if (!Object.hasOwn(RELEASE_STORE_OPENERS, kind)) {
    throw new Error(`unknown release store implementation '${kind}' (known: ${Object.keys(RELEASE_STORE_OPENERS).join(', ')})`);
  }
  return RELEASE_STORE_OPENERS[kind as ReleaseStoreKind];
}
