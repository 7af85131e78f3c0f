/**
 * Process-wide settings of keyword search, set once at start by the server (`omopterm serve`
 * options) and by each worker thread from what the server hands it. Services read no
 * environment variables; this is where a setting enters them.
 */
export interface SearchSettings {
  /** Keep the results of recent small searches (see ./result-cache.ts). Off to measure the uncached path. */
  resultCache: boolean;
}

let current: Readonly<SearchSettings> = { resultCache: true };

export function configureSearch(settings: Partial<SearchSettings>): void {
  current = { ...current, ...settings };
}

export function searchSettings(): Readonly<SearchSettings> {
  return current;
}
