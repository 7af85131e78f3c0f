/**
 * Requests of the semantic-search scenarios (bench/scenarios/semantic-*.ts), built from the query
 * mixes of ./search-queries.ts. Not a scenario itself (no default export).
 */
import type { BenchRequest } from './scenario.js';

/** GET /v1/search/semantic for one query (default threshold 0.5, page_size 20). */
export const semanticSearchRequest = (query: string, extra = ''): BenchRequest => ({ path: `/v1/search/semantic?query=${encodeURIComponent(query)}${extra}` });

/** POST /v1/search/similar with this body. */
export const similarRequest = (body: Record<string, unknown>): BenchRequest => ({ method: 'POST', path: '/v1/search/similar', body: JSON.stringify(body) });

/** Seeded Fisher–Yates shuffle, in place. */
export function shuffled<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
