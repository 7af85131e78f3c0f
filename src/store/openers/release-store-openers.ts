/**
 * Which store implementation opens a release: chosen here, and only here. The server injects the
 * chosen opener into the release registry, and passes its name to the bulk-search helper threads
 * (a function cannot cross a thread boundary; a name can), which look the same opener up here.
 * Services never import an implementation: they see ReleaseStore only.
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
