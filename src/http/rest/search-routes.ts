/**
 * Keyword search and its siblings (E4; client contract §1.2): thin adapters from HTTP to
 * src/services/search, one file per endpoint group in ./search/:
 *   GET  /v1/search/concepts            keyword search (data: Concept[]; meta.search, meta.pagination)   keyword-search-routes.ts
 *   GET  /v1/search/suggest             autocomplete ({query, suggestions:[{suggestion: Concept, …}]})  suggest-routes.ts
 *   GET  /v1/concepts/suggest           autocomplete, flat shape ({suggestions:[…], query})              suggest-routes.ts
 *   GET  /v1/search/facets              facet counts (also /v1/concepts/search/facets)                   facet-routes.ts
 *   POST /v1/search/bulk                1–50 searches (data: bare array)                                 bulk-search-routes.ts
 *   POST /v1/search/advanced            body filters + relationship_filters (also /v1/concepts/search/advanced)  advanced-search-routes.ts
 * Shared schemas are in ./search/search-schemas.ts, the descriptions (built from the service constants) in ./search/search-descriptions.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { BulkSearchPool } from '../../threads/bulk-search-pool.js';
import { registerAdvancedSearchRoutes } from './search/advanced-search-routes.js';
import { registerBulkSearchRoute } from './search/bulk-search-routes.js';
import { registerFacetRoutes } from './search/facet-routes.js';
import { registerKeywordSearchRoute } from './search/keyword-search-routes.js';
import { registerSuggestRoutes } from './search/suggest-routes.js';

interface SearchRouteOptions {
  /** Spreads bulk searches over helper threads when the server has nothing else to do. */
  bulkSearchPool?: BulkSearchPool;
}

export function registerSearchRoutes(app: FastifyInstance, { bulkSearchPool }: SearchRouteOptions = {}): void {
  registerKeywordSearchRoute(app);
  registerSuggestRoutes(app);
  registerFacetRoutes(app);
  registerBulkSearchRoute(app, bulkSearchPool);
  registerAdvancedSearchRoutes(app);
}
