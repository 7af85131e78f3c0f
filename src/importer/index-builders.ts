/**
 * The steps run after the base tables are loaded and before the release is published, in order.
 * Append new builders (e.g. a search index) to this list; a builder that throws fails the load.
 */
import type { IndexBuilder } from './index-builder.js';
import { searchIndexBuilder } from './build-search-index.js';
import { secondaryIndexBuilder } from './secondary-indexes.js';
import { vocabularySummaryBuilder } from './vocabulary-summary.js';

export const INDEX_BUILDERS: IndexBuilder[] = [
  vocabularySummaryBuilder, // first: a plain scan of CONCEPT, before indexes tempt the planner
  secondaryIndexBuilder,
  searchIndexBuilder, // after the secondary indexes: it reads synonyms by concept
];
