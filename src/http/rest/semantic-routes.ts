/**
 * Meaning-based search (issue #12): thin adapters from HTTP to src/services/semantic, computed on a worker thread; a
 * release without usable vectors is a 503 semantic_unavailable that says what to run.
 */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { listField } from '../../services/list-field.js';
import { parseStandardConcept, type SearchFilters } from '../../services/search/search-filters.js';
import { CANDIDATE_K_CAP, KEYWORD_CANDIDATES } from '../../services/semantic/semantic-candidates.js';
import { SEMANTIC_BULK_MAX_SEARCHES, type SemanticBulkBody } from '../../services/semantic/semantic-bulk.js';
import { SEMANTIC_QUERY_MAX_LENGTH } from '../../services/semantic/semantic-query.js';
import {
  SEMANTIC_DEFAULT_PAGE_SIZE,
  SEMANTIC_DEFAULT_THRESHOLD,
  SEMANTIC_MAX_PAGE_SIZE,
  semanticSearchData,
} from '../../services/semantic/semantic-search.js';
import {
  HYBRID_WEIGHTS,
  SIMILAR_DEFAULT_ALGORITHM,
  SIMILAR_DEFAULT_PAGE_SIZE,
  SIMILAR_DEFAULT_THRESHOLD,
  SIMILAR_MAX_PAGE_SIZE,
  SIMILARITY_ALGORITHMS,
  type SimilarityAlgorithm,
} from '../../services/semantic/similar-concepts.js';
import { ok, okPage } from '../plumbing/envelope.js';
import { paginationMeta, readPage } from '../plumbing/pagination.js';
import { csvList } from '../plumbing/query-values.js';
import { computeHeavy } from '../plumbing/heavy-work.js';
import { ConceptBriefFields, Envelope, ErrorEnvelope, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

const SEMANTIC_ERRORS = { ...STANDARD_ERRORS, 503: ErrorEnvelope };

/** The path the deprecated alias points clients to. */
export const SEMANTIC_SEARCH_PATH = '/v1/search/semantic';
export const SEMANTIC_SEARCH_ALIAS_PATH = '/v1/concepts/semantic-search';

const HOW_IT_WORKS =
  'Candidates are the nearest standard and classification concepts in the release\'s vector index ' +
  `(up to ${CANDIDATE_K_CAP.toLocaleString('en')}), the first ${KEYWORD_CANDIDATES} keyword-search results for the same text and filters (and for the first letters of its longest words alone), ` +
  'exact name or synonym matches and the Maps to targets of non-standard ones; each is scored (0–1) against its best name or synonym (`matched_text`) by the shared candidate ranking ' +
  `(${HYBRID_WEIGHTS.meaning} × the embedding provider's similarity + ${HYBRID_WEIGHTS.lexical} × TF-IDF + ${HYBRID_WEIGHTS.coverage} × share of the query's words found + ${HYBRID_WEIGHTS.exact} × exact text). ` +
  'Licence rules apply (CPT4 only for validated keys; GPI and MedDRA never). ' +
  '503 semantic_unavailable when the release has no vectors or vectors of another embedding provider (run `omopterm embed --release X`).';

const SemanticResultSchema = Type.Object(
  {
    ...ConceptBriefFields,
    similarity_score: Type.Number({ minimum: 0, maximum: 1 }),
    matched_text: Type.String(),
  },
  { additionalProperties: true },
);

const QueryEnhancementSchema = Type.Object({
  original_query: Type.String(),
  enhanced_query: Type.String(),
  abbreviations_expanded: Type.Array(Type.String()),
  misspellings_corrected: Type.Array(Type.String()),
});

const threshold = (defaultValue: number, name: string) =>
  Type.Number({
    minimum: 0,
    maximum: 1,
    description: `Only results with ${name} ≥ this (0–1; default ${defaultValue}). Guidance: 0.7 strict, 0.5 default, 0.3 exploratory.`,
  });

const SemanticSearchQuery = Type.Object({
  query: Type.String({ minLength: 1, maxLength: SEMANTIC_QUERY_MAX_LENGTH, description: `Text to search by meaning (1–${SEMANTIC_QUERY_MAX_LENGTH} characters).` }),
  threshold: Type.Optional(threshold(SEMANTIC_DEFAULT_THRESHOLD, 'similarity_score')),
  vocabulary_ids: Type.Optional(Type.String({ description: 'Comma-separated vocabulary ids, e.g. SNOMED,LOINC.' })),
  vocabularies: Type.Optional(Type.String({ description: 'Alias of vocabulary_ids.' })),
  domain_ids: Type.Optional(Type.String({ description: 'Comma-separated domain ids, e.g. Condition,Drug.' })),
  standard_concept: Type.Optional(
    Type.String({ description: 'S (standard) or C (classification); a comma list is accepted. Default: both (the concepts the vector index holds).' }),
  ),
  concept_class_id: Type.Optional(Type.String({ description: 'Comma-separated concept class ids.' })),
  concept_class_ids: Type.Optional(Type.String({ description: 'Alias of concept_class_id.' })),
  page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page number, 1-based.' })),
  page_size: Type.Optional(
    Type.Integer({ minimum: 1, description: `Results per page (default ${SEMANTIC_DEFAULT_PAGE_SIZE}; values above ${SEMANTIC_MAX_PAGE_SIZE} are clamped).` }),
  ),
  ...ReleaseQuery,
});

type SemanticSearchQuerystring = {
  query: string;
  threshold?: number;
  vocabulary_ids?: string;
  vocabularies?: string;
  domain_ids?: string;
  standard_concept?: string;
  concept_class_id?: string;
  concept_class_ids?: string;
  page?: number;
  page_size?: number;
};

const StringList = Type.Union([Type.Array(Type.String()), Type.String()], { description: 'An array of ids or one comma-separated string.' });

const BulkFields = {
  threshold: Type.Optional(Type.Number({ description: `0–1 (default ${SEMANTIC_DEFAULT_THRESHOLD}); out of range fails that search only.` })),
  page_size: Type.Optional(Type.Integer({ description: `1–${SEMANTIC_MAX_PAGE_SIZE} (default 20); out of range fails that search only.` })),
  vocabulary_ids: Type.Optional(StringList),
  domain_ids: Type.Optional(StringList),
  standard_concept: Type.Optional(Type.String({ description: 'S or C (default both).' })),
  concept_class_id: Type.Optional(StringList),
};

const SimilarBody = Type.Object({
  concept_id: Type.Optional(Type.Integer({ description: 'Find concepts like this one (itself excluded).' })),
  concept_name: Type.Optional(Type.String({ description: 'Find concepts like this name.' })),
  query: Type.Optional(Type.String({ description: 'Find concepts like this free text.' })),
  algorithm: Type.Optional(
    Type.Union(
      SIMILARITY_ALGORITHMS.map((a) => Type.Literal(a)),
      {
        description:
          `semantic (meaning), lexical (TF-IDF over words and character trigrams: typo-tolerant) or hybrid (default: the ` +
          `shared candidate ranking of mapping jobs and semantic search, ${HYBRID_WEIGHTS.meaning} × meaning + ${HYBRID_WEIGHTS.lexical} × lexical + ` +
          `${HYBRID_WEIGHTS.coverage} × share of the query's words found + ${HYBRID_WEIGHTS.exact} × exact match).`,
      },
    ),
  ),
  similarity_threshold: Type.Optional(threshold(SIMILAR_DEFAULT_THRESHOLD, 'similarity_score')),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: SIMILAR_MAX_PAGE_SIZE, description: `At most this many results (default ${SIMILAR_DEFAULT_PAGE_SIZE}).` })),
  vocabulary_ids: Type.Optional(StringList),
  domain_ids: Type.Optional(StringList),
  concept_class_ids: Type.Optional(StringList),
  standard_concept: Type.Optional(Type.String({ description: 'S or C (default both); N adds non-standard concepts found by keyword search only.' })),
  include_invalid: Type.Optional(Type.Boolean({ description: 'Also consider invalid concepts found by keyword search (default false).' })),
  include_scores: Type.Optional(Type.Boolean({ description: 'Add scores {semantic, lexical, hybrid} of the matched text.' })),
  include_explanations: Type.Optional(Type.Boolean({ description: 'Add a sentence saying how the score was made.' })),
});

type SimilarBodyType = {
  concept_id?: number;
  concept_name?: string;
  query?: string;
  algorithm?: SimilarityAlgorithm;
  similarity_threshold?: number;
  page_size?: number;
  vocabulary_ids?: string[] | string;
  domain_ids?: string[] | string;
  concept_class_ids?: string[] | string;
  standard_concept?: string;
  include_invalid?: boolean;
  include_scores?: boolean;
  include_explanations?: boolean;
};

function queryFilters(q: SemanticSearchQuerystring): SearchFilters {
  return {
    vocabularyIds: csvList(q.vocabulary_ids) ?? csvList(q.vocabularies),
    domainIds: csvList(q.domain_ids),
    conceptClassIds: csvList(q.concept_class_id) ?? csvList(q.concept_class_ids),
    standardConcepts: parseStandardConcept(q.standard_concept),
  };
}

export function registerSemanticRoutes(app: FastifyInstance): void {
  for (const path of [SEMANTIC_SEARCH_PATH, SEMANTIC_SEARCH_ALIAS_PATH]) {
    const alias = path === SEMANTIC_SEARCH_ALIAS_PATH;
    app.get<{ Querystring: SemanticSearchQuerystring }>(
      path,
      {
        schema: {
          tags: ['Search'],
          summary: alias ? 'Semantic search (deprecated alias of /v1/search/semantic)' : 'Semantic search',
          description: alias
            ? `Deprecated: the same as GET ${SEMANTIC_SEARCH_PATH}; answers carry \`Deprecation: true\` and \`Link: <${SEMANTIC_SEARCH_PATH}>; rel="successor-version"\`.`
            : `Concepts by meaning, best first, those with similarity_score ≥ threshold. ${HOW_IT_WORKS} ` +
              '`meta.pagination.total_items` is a lower bound (the results known above the threshold); page by `has_next`.',
          querystring: SemanticSearchQuery,
          response: {
            200: Envelope(
              Type.Object({
                query: Type.String(),
                results: Type.Array(SemanticResultSchema),
                search_metadata: Type.Object(
                  {
                    query: Type.String(),
                    threshold: Type.Number(),
                    total_candidates: Type.Integer(),
                    processing_time_ms: Type.Number(),
                    query_enhancement: QueryEnhancementSchema,
                  },
                  { additionalProperties: true },
                ),
              }),
            ),
            ...SEMANTIC_ERRORS,
          },
        },
      },
      async (request, reply) => {
        if (alias) reply.header('Deprecation', 'true').header('Link', `<${SEMANTIC_SEARCH_PATH}>; rel="successor-version"`);
        const q = request.query;
        const page = readPage(q, { defaultPageSize: SEMANTIC_DEFAULT_PAGE_SIZE, maxPageSize: SEMANTIC_MAX_PAGE_SIZE });
        const filters = queryFilters(q);
        const result = await computeHeavy(request, 'semanticSearch', request.view, { query: q.query, filters, threshold: q.threshold, page: page.page, pageSize: page.pageSize });
        return okPage(request, semanticSearchData(result), paginationMeta(page, result.totalAboveThreshold));
      },
    );
  }

  app.post<{ Body: SemanticBulkBody }>(
    '/v1/search/semantic-bulk',
    {
      schema: {
        tags: ['Search'],
        summary: 'Bulk semantic search',
        description:
          `1–${SEMANTIC_BULK_MAX_SEARCHES} semantic searches in one call (one call against the limits), each with its fields on top of \`defaults\`. ` +
          'Each search succeeds or fails alone: a blank or too long query, a threshold or page_size out of range, or a restricted vocabulary ' +
          `gives that search status failed with error and error_code. ${HOW_IT_WORKS}`,
        body: Type.Object({
          searches: Type.Array(
            Type.Object(
              {
                search_id: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
                query: Type.Optional(Type.String({ description: `1–${SEMANTIC_QUERY_MAX_LENGTH} characters.` })),
                ...BulkFields,
              },
              { additionalProperties: true },
            ),
            { minItems: 1, maxItems: SEMANTIC_BULK_MAX_SEARCHES },
          ),
          defaults: Type.Optional(Type.Object(BulkFields, { additionalProperties: true })),
        }),
        querystring: Type.Object(ReleaseQuery),
        response: {
          200: Envelope(
            Type.Object({
              results: Type.Array(
                Type.Object(
                  {
                    search_id: Type.String(),
                    query: Type.String(),
                    status: Type.Union([Type.Literal('completed'), Type.Literal('failed')]),
                    results: Type.Array(SemanticResultSchema),
                    error: Type.Optional(Type.String()),
                    error_code: Type.Optional(Type.String()),
                    similarity_threshold: Type.Optional(Type.Number()),
                    result_count: Type.Integer(),
                    duration: Type.Number(),
                    query_enhancement: Type.Optional(QueryEnhancementSchema),
                  },
                  { additionalProperties: true },
                ),
              ),
              total_searches: Type.Integer(),
              completed_count: Type.Integer(),
              failed_count: Type.Integer(),
              total_duration: Type.Number(),
            }),
          ),
          ...SEMANTIC_ERRORS,
        },
      },
    },
    async (request) => ok(request, await computeHeavy(request, 'semanticBulkSearch', request.view, request.body)),
  );

  app.post<{ Body: SimilarBodyType }>(
    '/v1/search/similar',
    {
      schema: {
        tags: ['Search'],
        summary: 'Similar concepts',
        description:
          'Concepts similar to a concept (`concept_id`, itself excluded), a `concept_name` or a free-text `query` — exactly one of the three (400 otherwise). ' +
          `Results with similarity_score ≥ similarity_threshold (default ${SIMILAR_DEFAULT_THRESHOLD}), best first, at most page_size; ` +
          `algorithm ${SIMILAR_DEFAULT_ALGORITHM} by default. Lexical and hybrid also take keyword-search candidates of the text with each long word cut to its first letters, so a misspelt word is still found. ${HOW_IT_WORKS} With algorithm semantic or lexical, candidates come from the vector index and keyword search only and are scored by that score alone.`,
        body: SimilarBody,
        querystring: Type.Object(ReleaseQuery),
        response: {
          200: Envelope(
            Type.Object({
              similar_concepts: Type.Array(
                Type.Intersect([
                  SemanticResultSchema,
                  Type.Object(
                    {
                      scores: Type.Optional(Type.Object({ semantic: Type.Number(), lexical: Type.Number(), hybrid: Type.Number() })),
                      explanation: Type.Optional(Type.String()),
                    },
                    { additionalProperties: true },
                  ),
                ]),
              ),
              search_metadata: Type.Object(
                {
                  original_query: Type.String(),
                  algorithm_used: Type.String(),
                  similarity_threshold: Type.Number(),
                  total_candidates: Type.Integer(),
                  results_returned: Type.Integer(),
                  processing_time_ms: Type.Number(),
                },
                { additionalProperties: true },
              ),
            }),
          ),
          404: ErrorEnvelope,
          ...SEMANTIC_ERRORS,
        },
      },
    },
    async (request) => {
      const b = request.body;
      const filters: SearchFilters = {
        vocabularyIds: listField(b.vocabulary_ids, 'vocabulary_ids'),
        domainIds: listField(b.domain_ids, 'domain_ids'),
        conceptClassIds: listField(b.concept_class_ids, 'concept_class_ids'),
        standardConcepts: parseStandardConcept(b.standard_concept),
        includeInvalid: b.include_invalid === true,
      };
      return ok(
        request,
        await computeHeavy(request, 'similarConcepts', request.view, {
          concept_id: b.concept_id,
          concept_name: b.concept_name,
          query: b.query,
          algorithm: b.algorithm,
          similarity_threshold: b.similarity_threshold,
          page_size: b.page_size,
          filters,
          include_scores: b.include_scores,
          include_explanations: b.include_explanations,
        }),
      );
    },
  );
}
