/**
 * Keyword search and its siblings (E4; client contract §1.2): thin adapters from HTTP to
 * src/services/search.
 *   GET  /v1/search/concepts            keyword search (data: Concept[]; meta.search, meta.pagination)
 *   GET  /v1/search/suggest             autocomplete ({query, suggestions:[{suggestion: Concept, …}]})
 *   GET  /v1/concepts/suggest           autocomplete, flat shape ({suggestions:[…], query})
 *   GET  /v1/search/facets              facet counts (also /v1/concepts/search/facets)
 *   POST /v1/search/bulk                1–50 searches (data: bare array)
 *   POST /v1/search/advanced            body filters + relationship_filters (also /v1/concepts/search/advanced)
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { advancedSearch, ADVANCED_MAX_PAGE_SIZE, type AdvancedSearchBody } from '../../services/search/advanced-search.js';
import type { BulkSearchPool } from '../../services/search/bulk-search-pool.js';
import type { RequestsInFlight } from '../plumbing/requests-in-flight.js';
import { bulkSearch, BULK_MAX_SEARCHES, type BulkSearchFields, type BulkSearchItem } from '../../services/search/bulk-search.js';
import { searchFacets } from '../../services/search/facets.js';
import { searchConcepts, type SortBy } from '../../services/search/keyword-search.js';
import { parseStandardConcept } from '../../services/search/search-filters.js';
import { suggestConcepts } from '../../services/search/suggest.js';
import { VOCABULARY_AUTHORITY } from '../../services/vocabularies/vocabulary-catalog.js';
import { ok, okPage } from '../plumbing/envelope.js';
import { paginationMeta, readPage } from '../plumbing/pagination.js';
import { csvList } from '../plumbing/query-values.js';
import { ConceptSchema, Envelope, PageQuery, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

const SearchConceptSchema = Type.Intersect([
  ConceptSchema,
  Type.Object(
    {
      match_score: Type.Number({ minimum: 0, maximum: 1 }),
      match_type: Type.Union([Type.Literal('exact'), Type.Literal('partial')]),
      synonyms: Type.Optional(Type.Array(Type.Object({ concept_synonym_name: Type.String(), language_concept_id: Type.Integer() }))),
    },
    { additionalProperties: true },
  ),
]);

const csv = (description: string) => Type.Optional(Type.String({ description }));

const FilterQuery = {
  vocabulary_ids: csv('Comma-separated vocabulary ids, e.g. SNOMED,ICD10CM.'),
  vocabularies: csv('Alias of vocabulary_ids.'),
  domain_ids: csv('Comma-separated domain ids, e.g. Condition,Drug. Naming Meas Value turns the demotion of non-clinical classes off.'),
  concept_class_ids: csv('Comma-separated concept class ids (names may contain spaces). Naming a demoted class turns the demotion off.'),
  standard_concept: Type.Optional(Type.String({ description: 'S (standard), C (classification), N (non-standard), or all. A comma list is accepted.' })),
  include_invalid: Type.Optional(Type.Boolean({ description: 'Also return deprecated or replaced concepts, ranked after every valid text match (default false).' })),
};

const SEARCH_DESCRIPTION = `Keyword search over concept names, every published synonym and codes (E4).

**Query**: 3–500 characters after trimming, or one of the whole-query abbreviations COPD, CHF, MI, T2DM, HTN, CKD (expanded only when they are the whole query). Other 1–2 character queries are rejected (400, too broad). Matching: every query word except stop words (a, an, the, of, in, on, at, to, for, by, and, or, as, is, with, due) must occur — as a word, a word prefix, or a substring inside a word (words of 3+ characters; a word part matches at most 64 distinct indexed words, the most frequent). No typo correction. Synonyms made only of stop words or punctuation are not searchable.

**Ranking** (highest first): (1) exact concept_id or code — for a bare code shaped like an ICD10CM, SNOMED or LOINC code the concept of that vocabulary (or of the first listed \`vocabulary_ids\` entry with that code) first, its valid standard \`Maps to\` targets second, other id/code matches after; (2) valid standard, (3) valid classification, (4) valid non-standard concepts; (5) non-clinical artifacts (classes Answer, Survey, Value, LOINC Component, LOINC System, LOINC Method, LOINC Property, LOINC Time, LOINC Scale, LOINC Document Type — not LOINC/SNOMED Qualifier Value), unless a demoted class is named in concept_class_ids or Meas Value in domain_ids, in which case they rank in their own evidence class; (6) invalid concepts (only with include_invalid=true). Inside each class: core domains (Condition, Drug, Procedure, Measurement, Device) first; then the text tier: exact name, exact synonym (or a synonym with the same word set as a multi-word query), name phrase, all words in the name, all words in name+synonyms, word prefixes in the name, anywhere, word fragments in the name, anywhere; then similarity (shorter names first, in length buckets 20 % apart); ties by vocabulary authority (${VOCABULARY_AUTHORITY.join(' > ')} > others), name length, concept_id.

**match_score** is 1.00 / 0.99 / 0.98 for rule-1 matches and 0.97 × (P − p)/P for text matches, p = (class-group × 9 + text tier) × 32 + length bucket, P = 2880 — non-increasing down the whole list, across pages. **match_type** is \`exact\` when the query equals the concept id, code, name or a published synonym (case-insensitive), otherwise \`partial\`. sort_by other than relevance re-sorts the best 10,000 results.`;

type SearchQuerystring = {
  query?: string;
  vocabulary_ids?: string;
  vocabularies?: string;
  domain_ids?: string;
  concept_class_ids?: string;
  standard_concept?: string;
  include_invalid?: boolean;
  include_synonyms?: boolean;
  exact_match?: boolean;
  min_score?: number;
  sort_by?: SortBy;
  sort_order?: 'asc' | 'desc';
  page?: number;
  page_size?: number;
};

function filtersOf(q: { vocabulary_ids?: string; vocabularies?: string; domain_ids?: string; domains?: string; concept_class_ids?: string; standard_concept?: string; include_invalid?: boolean }) {
  return {
    vocabularyIds: csvList(q.vocabulary_ids) ?? csvList(q.vocabularies),
    domainIds: csvList(q.domain_ids) ?? csvList(q.domains),
    conceptClassIds: csvList(q.concept_class_ids),
    standardConcepts: parseStandardConcept(q.standard_concept),
    includeInvalid: q.include_invalid === true,
  };
}

const FiltersBody = {
  vocabulary_ids: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  domain_ids: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  concept_class_ids: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
  standard_concept: Type.Optional(Type.String()),
  include_invalid: Type.Optional(Type.Boolean()),
  include_synonyms: Type.Optional(Type.Boolean()),
  exact_match: Type.Optional(Type.Boolean()),
  page_size: Type.Optional(Type.Integer()),
};

const BulkOnlyFields = {
  include_total: Type.Optional(Type.Boolean({ description: "Also count each search's total_results (default false; counting a common query costs more than its first page)." })),
};

export { SearchConceptSchema };

export interface SearchRouteOptions {
  /** Spreads bulk searches over helper threads when the server has nothing else to do. */
  bulkSearchPool?: BulkSearchPool;
  requestsInFlight?: RequestsInFlight;
}

export function registerSearchRoutes(app: FastifyInstance, { bulkSearchPool, requestsInFlight }: SearchRouteOptions = {}): void {
  app.get<{ Querystring: SearchQuerystring }>(
    '/v1/search/concepts',
    {
      schema: {
        tags: ['Search'],
        summary: 'Keyword search',
        description: SEARCH_DESCRIPTION,
        querystring: Type.Object({
          query: Type.Optional(Type.String({ description: 'Text, code or concept_id to search for (required).' })),
          ...FilterQuery,
          include_synonyms: Type.Optional(Type.Boolean({ description: "Add each result's synonyms (synonyms are searched regardless)." })),
          exact_match: Type.Optional(Type.Boolean({ description: 'Only concepts whose id, code, name or a published synonym equals the query (case-insensitive).' })),
          min_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Only results with match_score ≥ this.' })),
          sort_by: Type.Optional(
            Type.Union(['relevance', 'name', 'concept_name', 'code', 'concept_code', 'date', 'vocabulary_id', 'concept_id'].map((v) => Type.Literal(v)), {
              description: 'relevance (default) or a field; other than relevance re-sorts the best 10,000 results.',
            }),
          ),
          sort_order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
          ...PageQuery,
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(Type.Array(SearchConceptSchema)), ...STANDARD_ERRORS },
      },
    },
    async (request) => {
      const q = request.query;
      const page = readPage(q);
      const result = searchConcepts(request.release.store, request.caller.policy, {
        query: q.query,
        filters: filtersOf(q),
        page: page.page,
        pageSize: page.pageSize,
        includeSynonyms: q.include_synonyms,
        exactMatch: q.exact_match,
        minScore: q.min_score,
        sortBy: q.sort_by,
        sortOrder: q.sort_order,
      });
      const total = result.total ?? 0;
      return okPage(request, result.items, paginationMeta(page, total), {
        search: { query: result.query.text, total_results: total, filters_applied: result.filtersApplied },
      });
    },
  );

  const SuggestQuery = Type.Object({
    query: Type.Optional(Type.String({ description: 'Beginning of a term, 2–100 characters; the last word also matches as a prefix.' })),
    vocabulary_ids: csv('Comma-separated vocabulary ids.'),
    vocabularies: csv('Alias of vocabulary_ids.'),
    domains: csv('Comma-separated domain ids.'),
    domain_ids: csv('Alias of domains.'),
    concept_class_ids: csv('Comma-separated concept class ids.'),
    standard_concept: Type.Optional(Type.String({ description: 'S, C, N or all.' })),
    ...PageQuery,
    ...ReleaseQuery,
  });
  type SuggestQuerystring = { query?: string; vocabulary_ids?: string; vocabularies?: string; domains?: string; domain_ids?: string; concept_class_ids?: string; standard_concept?: string; page?: number; page_size?: number };

  const runSuggest = (request: { query: SuggestQuerystring; release: { store: import('../../store/release-store.js').ReleaseStore }; caller: { policy: import('../../services/access-policy.js').AccessPolicy } }) => {
    const page = readPage(request.query, { defaultPageSize: 10, maxPageSize: 100 });
    const result = suggestConcepts(request.release.store, request.caller.policy, {
      query: request.query.query,
      filters: filtersOf(request.query),
      page: page.page,
      pageSize: page.pageSize,
    });
    const seen = page.offset + result.items.length + (result.hasNext ? 1 : 0);
    return { page, result, pagination: paginationMeta(page, seen) };
  };

  app.get<{ Querystring: SuggestQuerystring }>(
    '/v1/search/suggest',
    {
      schema: {
        tags: ['Search'],
        summary: 'Autocomplete',
        description: 'Ranked like keyword search; `data.suggestions[].suggestion` is the concept. Pagination reports has_next without counting every match.',
        querystring: SuggestQuery,
        response: {
          200: Envelope(
            Type.Object({
              query: Type.String(),
              suggestions: Type.Array(Type.Object({ suggestion: SearchConceptSchema, match_score: Type.Number(), match_type: Type.String() })),
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const { result, pagination } = runSuggest(request);
      return okPage(
        request,
        { query: result.query, suggestions: result.items.map((c) => ({ suggestion: c, match_score: c.match_score, match_type: c.match_type })) },
        pagination,
      );
    },
  );

  app.get<{ Querystring: SuggestQuerystring }>(
    '/v1/concepts/suggest',
    {
      schema: {
        tags: ['Search'],
        summary: 'Concept suggestions (flat shape)',
        description: 'Same ranking as /v1/search/suggest; each suggestion carries the concept fields and `suggestion` (the concept name).',
        querystring: SuggestQuery,
        response: {
          200: Envelope(
            Type.Object({
              suggestions: Type.Array(
                Type.Object(
                  {
                    concept_id: Type.Integer(),
                    concept_name: Type.String(),
                    concept_code: Type.String(),
                    vocabulary_id: Type.String(),
                    domain_id: Type.String(),
                    suggestion: Type.String(),
                    match_type: Type.String(),
                    match_score: Type.Number(),
                  },
                  { additionalProperties: true },
                ),
              ),
              query: Type.String(),
            }),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) => {
      const { result, pagination } = runSuggest(request);
      return okPage(request, { suggestions: result.items.map((c) => ({ ...c, suggestion: c.concept_name })), query: result.query }, pagination);
    },
  );

  const FacetValueSchema = Type.Object({ value: Type.String(), count: Type.Integer(), label: Type.Optional(Type.String()) }, { additionalProperties: true });
  for (const path of ['/v1/search/facets', '/v1/concepts/search/facets']) {
    app.get<{ Querystring: SearchQuerystring & { domains?: string } }>(
      path,
      {
        schema: {
          tags: ['Search'],
          summary: path === '/v1/search/facets' ? 'Facet counts of a keyword search' : 'Facet counts (legacy path)',
          description:
            'Counts by vocabulary, domain, concept class and standard flag of the keyword-search results (same query rules and filters). ' +
            'The counts cover the best 5,000 results; `complete` says whether that is all of them.',
          querystring: Type.Object({ query: Type.Optional(Type.String()), ...FilterQuery, domains: csv('Alias of domain_ids.'), ...ReleaseQuery }),
          response: {
            200: Envelope(
              Type.Object({
                query: Type.String(),
                facets: Type.Object({
                  vocabularies: Type.Array(FacetValueSchema),
                  domains: Type.Array(FacetValueSchema),
                  concept_classes: Type.Array(FacetValueSchema),
                  standard_concepts: Type.Array(FacetValueSchema),
                }),
                total_results: Type.Integer(),
                counted_results: Type.Integer(),
                complete: Type.Boolean(),
              }),
            ),
            ...STANDARD_ERRORS,
          },
        },
      },
      async (request) => ok(request, searchFacets(request.release.store, request.caller.policy, { query: request.query.query, filters: filtersOf(request.query) })),
    );
  }

  app.post<{ Body: { searches: BulkSearchItem[]; defaults?: BulkSearchFields } }>(
    '/v1/search/bulk',
    {
      schema: {
        tags: ['Search'],
        summary: 'Bulk keyword search',
        description:
          `1–${BULK_MAX_SEARCHES} searches in one call (one call for rate limiting and quota). Each search has its own filters on top of \`defaults\`; a failing search (bad query, restricted vocabulary) gives status \`failed\` with \`error\` and does not affect the others. \`page_size\` per search: 1–200, default 20. ` +
          'Results are exactly those of the same searches made one by one. The searches share their index reads, and when the server is otherwise idle a request is split over spare cores (`omopterm serve --bulk-threads`); ' +
          "`duration` is the milliseconds a search took, including its share of the shared reads.",
        body: Type.Object({
          searches: Type.Array(
            Type.Object(
              { search_id: Type.Optional(Type.Union([Type.String(), Type.Integer()])), query: Type.Optional(Type.String()), ...FiltersBody, ...BulkOnlyFields },
              { additionalProperties: true },
            ),
            { minItems: 1, maxItems: BULK_MAX_SEARCHES },
          ),
          defaults: Type.Optional(Type.Object({ ...FiltersBody, ...BulkOnlyFields }, { additionalProperties: true })),
        }),
        querystring: Type.Object(ReleaseQuery),
        response: {
          200: Envelope(
            Type.Array(
              Type.Object(
                {
                  search_id: Type.String(),
                  query: Type.String(),
                  status: Type.Union([Type.Literal('completed'), Type.Literal('failed')]),
                  results: Type.Array(SearchConceptSchema),
                  total_results: Type.Optional(Type.Integer()),
                  error: Type.Optional(Type.String()),
                  error_code: Type.Optional(Type.String()),
                  duration: Type.Number(),
                },
                { additionalProperties: true },
              ),
            ),
          ),
          ...STANDARD_ERRORS,
        },
      },
    },
    async (request) =>
      ok(
        request,
        bulkSearchPool
          ? bulkSearchPool.run(request.release, request.caller.policy, request.body, { otherRequests: (requestsInFlight?.() ?? 1) - 1 })
          : bulkSearch(request.release.store, request.caller.policy, request.body),
      ),
  );

  for (const path of ['/v1/search/advanced', '/v1/concepts/search/advanced']) {
    app.post<{ Body: AdvancedSearchBody }>(
      path,
      {
        schema: {
          tags: ['Search'],
          summary: path === '/v1/search/advanced' ? 'Advanced search' : 'Advanced search (legacy path)',
          description:
            'Keyword search with filters in the body: vocabulary_ids, domain_ids, concept_class_ids (arrays or comma-separated), standard_concept, ' +
            'standard_concepts_only, include_invalid, relationship_filters [{relationship_id, target_concept_id?, direction: forward|reverse}] — a concept ' +
            `is kept when it has a valid relationship of that type (reverse: it is the target). page (1) and page_size (20, 1–${ADVANCED_MAX_PAGE_SIZE}); ` +
            'legacy limit/offset and vocabularies/domains/concept_classes are accepted. Relationship filters are applied to the best 20,000 results; ' +
            '`search_metadata.total_is_exact` says whether the count is complete. Facets cover the best 1,000 results.',
          body: Type.Object(
            {
              query: Type.Optional(Type.String()),
              ...FiltersBody,
              standard_concepts_only: Type.Optional(Type.Boolean()),
              relationship_filters: Type.Optional(
                Type.Array(
                  Type.Object(
                    {
                      relationship_id: Type.String(),
                      target_concept_id: Type.Optional(Type.Integer()),
                      direction: Type.Optional(Type.String()),
                    },
                    { additionalProperties: true },
                  ),
                ),
              ),
              page: Type.Optional(Type.Integer({ minimum: 1 })),
              limit: Type.Optional(Type.Integer({ minimum: 1 })),
              offset: Type.Optional(Type.Integer({ minimum: 0 })),
              vocabularies: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
              domains: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
              concept_classes: Type.Optional(Type.Union([Type.Array(Type.String()), Type.String()])),
            },
            { additionalProperties: true },
          ),
          querystring: Type.Object(ReleaseQuery),
          response: {
            200: Envelope(
              Type.Object(
                {
                  concepts: Type.Array(SearchConceptSchema),
                  facets: Type.Object({}, { additionalProperties: true }),
                  search_metadata: Type.Object({}, { additionalProperties: true }),
                },
                { additionalProperties: true },
              ),
            ),
            ...STANDARD_ERRORS,
          },
        },
      },
      async (request) => {
        const result = advancedSearch(request.release.store, request.caller.policy, request.body ?? {});
        const page = { page: result.page, pageSize: result.pageSize, offset: (result.page - 1) * result.pageSize };
        return okPage(
          request,
          { concepts: result.concepts, facets: result.facets, search_metadata: result.search_metadata },
          paginationMeta(page, result.search_metadata.total_results),
          { search: { query: result.search_metadata.query, total_results: result.search_metadata.total_results, filters_applied: result.search_metadata.filters_applied } },
        );
      },
    );
  }
}

