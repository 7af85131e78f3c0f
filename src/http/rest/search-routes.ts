/**
 * Keyword search and its siblings (E4): thin adapters from HTTP to src/services/search, one file per endpoint
 * group in ./search/.
 */
import type { FastifyInstance } from 'fastify';
import { registerAdvancedSearchRoutes } from './search/advanced-search-routes.js';
import { registerBulkSearchRoute } from './search/bulk-search-routes.js';
import { registerFacetRoutes } from './search/facet-routes.js';
import { registerKeywordSearchRoute } from './search/keyword-search-routes.js';
import { registerSuggestRoutes } from './search/suggest-routes.js';

export function registerSearchRoutes(app: FastifyInstance): void {
  registerKeywordSearchRoute(app);
  registerSuggestRoutes(app);
  registerFacetRoutes(app);
  registerBulkSearchRoute(app);
  registerAdvancedSearchRoutes(app);
}
