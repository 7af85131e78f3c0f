/**
 * The steps run after the base tables are loaded and before the release is published, in order.
 * Append new builders (e.g. a search index) to this list; a builder that throws fails the load.
 */
import type { IndexBuilder } from './index-builder.js';
import { conceptSummaryBuilder } from './concept-summary.js';
import { domainConceptOrderBuilder } from './domain-concept-order.js';
import { hierarchyIndexBuilder } from './hierarchy-index.js';
import { licensedRelationshipCountsBuilder } from './licensed-relationship-counts.js';
import { searchIndexBuilder } from './build-search-index.js';
import { mappingQualityBuilder } from './mapping-quality-summary.js';
import { secondaryIndexBuilder } from './secondary-indexes.js';
import { statisticsSummaryBuilder } from './statistics-summary.js';
import { vocabularySummaryBuilder } from './vocabulary-summary.js';

export const INDEX_BUILDERS: IndexBuilder[] = [
  conceptSummaryBuilder, // first: a plain scan of CONCEPT, before indexes tempt the planner
  vocabularySummaryBuilder, // from concept_summary
  domainConceptOrderBuilder, // a scan of CONCEPT too
  secondaryIndexBuilder,
  searchIndexBuilder, // after the secondary indexes: it reads synonyms by concept
  mappingQualityBuilder, // one pass over CONCEPT with its mapping rows (concept_relationship primary key)
  hierarchyIndexBuilder, // ancestor_by_level, then descendant counts of large ancestors (CONCEPT by primary key)
  statisticsSummaryBuilder, // after the secondary indexes: depth by descendant, codes by vocabulary, synonyms by concept
  licensedRelationshipCountsBuilder, // after the secondary indexes: reads relationship_by_concept_2
];
