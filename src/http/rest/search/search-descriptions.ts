/**
 * The OpenAPI descriptions of the search routes, written from the constants that define the
 * behaviour (query lengths, stop words, abbreviations, demoted classes, score scale, windows), so
 * the reference cannot drift from the code.
 */
import { WHOLE_QUERY_ABBREVIATIONS } from '../../../services/search/abbreviations.js';
import { ADVANCED_FACET_WINDOW, ADVANCED_MAX_PAGE_SIZE, RELATIONSHIP_SCAN_LIMIT } from '../../../services/search/advanced-search.js';
import { BULK_DEFAULT_PAGE_SIZE, BULK_MAX_PAGE_SIZE, BULK_MAX_SEARCHES } from '../../../services/search/bulk-search.js';
import { FACET_WINDOW } from '../../../services/search/facets.js';
import { MAX_QUERY_LENGTH, MIN_QUERY_LENGTH } from '../../../services/search/query-parser.js';
import { SORT_WINDOW } from '../../../services/search/ranked-page.js';
import {
  CORE_DOMAINS,
  DEMOTED_CONCEPT_CLASSES,
  DEMOTION_OFF_DOMAIN,
  LENGTH_BUCKET_COUNT,
  MAX_GROUP_COUNT,
  TEXT_TIER_COUNT,
} from '../../../search-model/ranking.js';
import { STOP_WORDS } from '../../../search-model/stop-words.js';
import { SUGGEST_MAX_LENGTH, SUGGEST_MIN_LENGTH } from '../../../services/search/suggest.js';
import { MIN_FRAGMENT_LENGTH } from '../../../search-model/tier-plan.js';
import { VOCABULARY_AUTHORITY } from '../../../search-model/vocabulary-authority.js';

const n = (value: number) => value.toLocaleString('en-US');

export const SORT_BY_DESCRIPTION = `relevance (default) or a field; other than relevance re-sorts the best ${n(SORT_WINDOW)} results.`;

export const KEYWORD_SEARCH_DESCRIPTION = `Keyword search over concept names, every published synonym and codes (E4).

**Query**: ${MIN_QUERY_LENGTH}–${MAX_QUERY_LENGTH} characters after trimming, or one of the whole-query abbreviations ${Object.keys(WHOLE_QUERY_ABBREVIATIONS).join(', ')} (expanded only when they are the whole query). Other shorter queries are rejected (400, too broad). Matching: every query word except stop words (${[...STOP_WORDS].join(', ')}) must occur — as a word, a word prefix, or a substring inside a word (words of ${MIN_FRAGMENT_LENGTH}+ characters; a word part matches every indexed word that contains it, so results and total_items are complete). No typo correction. Synonyms made only of stop words or punctuation are not searchable.

**Ranking** (highest first): (1) exact concept_id or code — for a bare code shaped like an ICD10CM, SNOMED or LOINC code the concept of that vocabulary (or of the first listed \`vocabulary_ids\` entry with that code) first, its valid standard \`Maps to\` targets second, other id/code matches after; (2) valid standard, (3) valid classification, (4) valid non-standard concepts; (5) non-clinical artifacts (classes ${[...DEMOTED_CONCEPT_CLASSES].join(', ')} — not LOINC/SNOMED Qualifier Value), never excluded; (6) invalid concepts (only with include_invalid=true). Naming a demoted class in concept_class_ids or ${DEMOTION_OFF_DOMAIN} in domain_ids turns the demotion off and ranks on text relevance alone: after (1), every valid concept is ordered by text tier, similarity and the ties below, whatever its evidence class or domain, and invalid concepts follow. Inside each class: core domains (${[...CORE_DOMAINS].join(', ')}) first; then the text tier: exact name, exact synonym (or a synonym with the same word set as a multi-word query), name phrase, all words in the name, all words in name+synonyms, word prefixes in the name, anywhere, word fragments in the name, anywhere; then similarity (shorter names first, in length buckets 20 % apart); ties by vocabulary authority (${VOCABULARY_AUTHORITY.join(' > ')} > others), name length, concept_id.

**match_score** is 1.00 / 0.99 / 0.98 for rule-1 matches and 0.97 × (P − p)/P for text matches, p = (class-group × ${TEXT_TIER_COUNT} + text tier) × ${LENGTH_BUCKET_COUNT} + length bucket, P = ${MAX_GROUP_COUNT * TEXT_TIER_COUNT * LENGTH_BUCKET_COUNT} — non-increasing down the whole list, across pages. **match_type** is \`exact\` when the query equals the concept id, code, name or a published synonym (case-insensitive), otherwise \`partial\`. sort_by other than relevance re-sorts the best ${n(SORT_WINDOW)} results.`;

export const SUGGEST_QUERY_DESCRIPTION = `Beginning of a term, ${SUGGEST_MIN_LENGTH}–${SUGGEST_MAX_LENGTH} characters; the last word also matches as a prefix.`;

export const FACETS_DESCRIPTION =
  'Counts by vocabulary, domain, concept class and standard flag of the keyword-search results (same query rules and filters). ' +
  `The counts cover the best ${n(FACET_WINDOW)} results; \`complete\` says whether that is all of them.`;

export const BULK_SEARCH_DESCRIPTION =
  `1–${BULK_MAX_SEARCHES} searches in one call (one call for rate limiting and quota). Each search has its own filters on top of \`defaults\`; a failing search (bad query, restricted vocabulary) gives status \`failed\` with \`error\` and does not affect the others. \`page_size\` per search: 1–${BULK_MAX_PAGE_SIZE}, default ${BULK_DEFAULT_PAGE_SIZE}. ` +
  'Results are exactly those of the same searches made one by one. The searches share their index reads, and a request is computed on a worker thread, split over several when they are idle (`omopterm serve --threads`); ' +
  '`duration` is the milliseconds a search took, including its share of the shared reads.';

export const ADVANCED_SEARCH_DESCRIPTION =
  'Keyword search with filters in the body: vocabulary_ids, domain_ids, concept_class_ids (arrays or comma-separated), standard_concept, ' +
  'standard_concepts_only, include_invalid, relationship_filters [{relationship_id, target_concept_id?, direction: forward|reverse}] — a concept ' +
  `is kept when it has a valid relationship of that type (reverse: it is the target). page (1) and page_size (20, 1–${ADVANCED_MAX_PAGE_SIZE}); ` +
  `legacy limit/offset and vocabularies/domains/concept_classes are accepted. Relationship filters are applied to the best ${n(RELATIONSHIP_SCAN_LIMIT)} results; ` +
  `\`search_metadata.total_is_exact\` says whether the count is complete. Facets cover the best ${n(ADVANCED_FACET_WINDOW)} results.`;
