/**
 * Results of recent keyword searches per release. A release never changes once loaded, so a result
 * stays valid for the life of the process; only small pages are kept (at most RESULT_CACHE_ENTRIES
 * per release). Switched off by the search setting `resultCache` (see ./search-settings.ts).
 */
import { LruCache, stringBytes } from '../../lru-cache.js';
import type { SearchStore } from '../../store/search-store.js';
import type { KeywordSearchResult } from './keyword-search.js';
import { searchSettings } from './search-settings.js';

const RESULT_CACHE_ENTRIES = 4000;
const RESULT_CACHE_MAX_ITEMS = 50;
/** Estimated bytes the results of one release may hold (an item: its record's fields and strings, and any synonyms). */
export const RESULT_CACHE_BYTES = 16 * 2 ** 20;
const resultBytes = (result: KeywordSearchResult, key: string): number =>
  stringBytes(key) +
  256 +
  result.items.reduce(
    (n, item) =>
      n +
      320 +
      stringBytes(item.concept_name) +
      stringBytes(item.concept_code) +
      (item.synonyms ?? []).reduce((m, s) => m + 64 + stringBytes(s.concept_synonym_name), 0),
    0,
  );
const resultCaches = new WeakMap<SearchStore, LruCache<KeywordSearchResult>>();

/** Results are copied in and out of the cache, so callers may change what they get. */
const copyOf = (result: KeywordSearchResult): KeywordSearchResult => ({ ...result, items: result.items.map((i) => ({ ...i })) });

/** Whether results are cached (the `resultCache` search setting). */
export function resultCacheEnabled(): boolean {
  return searchSettings().resultCache;
}

export function cachedResult(search: SearchStore, key: string): KeywordSearchResult | undefined {
  const hit = resultCaches.get(search)?.get(key);
  return hit && copyOf(hit);
}

export function rememberResult(search: SearchStore, key: string, result: KeywordSearchResult): void {
  if (result.items.length > RESULT_CACHE_MAX_ITEMS) return;
  let cache = resultCaches.get(search);
  if (!cache) resultCaches.set(search, (cache = new LruCache(RESULT_CACHE_ENTRIES, { maxBytes: RESULT_CACHE_BYTES, sizeOf: resultBytes })));
  cache.set(key, copyOf(result));
}
