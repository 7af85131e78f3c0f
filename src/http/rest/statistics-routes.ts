/** GET /v1/domains/{domain_id}/statistics (E2) and GET /v1/vocabularies/{vocabulary_id}/statistics (E5). */
import type { FastifyInstance } from 'fastify';
import { performance } from 'node:perf_hooks';
import { Type } from 'typebox';
import { domainStatistics } from '../../services/statistics/domain-statistics.js';
import { STATISTICS_DEFINITIONS } from '../../services/statistics/statistics-definitions.js';
import { vocabularyStatistics, type VocabularyStatisticsOptions } from '../../services/statistics/vocabulary-statistics.js';
import type { ReleaseRegistry } from '../../store/release-registry.js';
import { ok } from '../plumbing/envelope.js';
import { Envelope, ErrorEnvelope, Nullable, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

const Obj = (properties: Parameters<typeof Type.Object>[0]) => Type.Object(properties, { additionalProperties: true });
const Percentage = Type.Number({ minimum: 0, maximum: 100 });
const Notes = Type.Array(Type.String(), { description: 'Why a figure is 0 or null, and what was left out for this key.' });

const DomainStatisticsSchema = Obj({
  domain_id: Type.String(),
  statistics: Obj({
    domain_id: Type.String(),
    domain_name: Type.String(),
    total_concepts: Type.Integer(),
    standard_concepts: Type.Integer(),
    classification_concepts: Type.Integer(),
    non_standard_concepts: Type.Integer(),
    invalid_concepts: Type.Integer(),
    vocabulary_breakdown: Type.Array(Obj({ vocabulary_id: Type.String(), vocabulary_name: Type.String(), concept_count: Type.Integer() })),
    concept_class_breakdown: Type.Array(Obj({ concept_class_id: Type.String(), concept_class_name: Type.String(), concept_count: Type.Integer() })),
    creation_date_range: Obj({ earliest: Nullable(Type.String()), latest: Nullable(Type.String()) }),
  }),
  notes: Notes,
});

const VocabularyStatisticsSchema = Obj({
  vocabulary_id: Type.String(),
  vocabulary_name: Type.String(),
  vocabulary_version: Nullable(Type.String()),
  analysis_date: Type.String(),
  vocab_release: Type.String(),
  concept_statistics: Obj({
    total_concepts: Type.Integer(),
    standard_concepts: Type.Integer(),
    classification_concepts: Type.Integer(),
    non_standard_concepts: Type.Integer(),
    invalid_concepts: Type.Integer(),
    concept_growth_rate: Nullable(Type.Number({ description: STATISTICS_DEFINITIONS.concept_growth_rate })),
  }),
  hierarchy_statistics: Type.Optional(
    Obj({
      hierarchy_concepts: Type.Integer(),
      max_hierarchy_depth: Type.Integer(),
      average_depth: Type.Number(),
      root_concepts: Type.Integer(),
      leaf_concepts: Type.Integer(),
      depth_distribution: Type.Array(Obj({ depth: Type.Integer(), concept_count: Type.Integer() })),
    }),
  ),
  domain_statistics: Type.Optional(
    Obj({
      domains_covered: Type.Integer(),
      domain_distribution: Type.Array(Obj({ domain_id: Type.String(), domain_name: Type.String(), concept_count: Type.Integer(), percentage: Percentage })),
    }),
  ),
  concept_class_statistics: Obj({
    total_concept_classes: Type.Integer(),
    class_distribution: Type.Array(
      Obj({ concept_class_id: Type.String(), concept_class_name: Type.String(), concept_count: Type.Integer(), percentage: Percentage }),
    ),
  }),
  relationship_statistics: Obj({
    total_relationships: Type.Integer(),
    unique_relationship_types: Type.Integer(),
    relationship_type_distribution: Type.Array(
      Obj({ relationship_id: Type.String(), relationship_name: Type.String(), count: Type.Integer(), percentage: Percentage }),
    ),
  }),
  mapping_statistics: Type.Optional(
    Obj({
      mapped_concepts: Type.Integer(),
      unmapped_concepts: Type.Integer(),
      mapping_coverage_percentage: Percentage,
      target_vocabularies: Type.Array(
        Obj({ target_vocabulary_id: Type.String(), mapping_count: Type.Integer(), mapped_concepts: Type.Integer(), coverage_percentage: Percentage }),
      ),
    }),
  ),
  language_statistics: Obj({
    supported_languages: Type.Array(Type.String()),
    primary_language: Type.String({ description: STATISTICS_DEFINITIONS.languages }),
    multilingual_concepts: Type.Integer(),
    concepts_with_synonyms: Type.Integer(),
    languages: Type.Array(
      Obj({ language_concept_id: Type.Integer(), language_name: Nullable(Type.String()), synonym_count: Type.Integer(), concept_count: Type.Integer() }),
    ),
  }),
  quality_metrics: Obj({
    completeness_score: Type.Number({ minimum: 0, maximum: 1 }),
    consistency_score: Type.Number({ minimum: 0, maximum: 1 }),
    accuracy_indicators: Obj({ orphaned_concepts: Type.Integer(), duplicate_codes: Type.Integer(), missing_descriptions: Type.Integer() }),
    definitions: Type.Record(Type.String(), Type.String()),
  }),
  trend_data: Type.Optional(
    Type.Array(
      Obj({
        period: Type.String(),
        total_concepts: Type.Integer(),
        concepts_added: Type.Integer(),
        concepts_modified: Type.Integer(),
        concepts_deprecated: Type.Integer(),
      }),
    ),
  ),
  release_trend: Type.Optional(
    Type.Array(
      Obj({
        vocab_release: Type.String(),
        release_date: Nullable(Type.String()),
        total_concepts: Type.Integer(),
        standard_concepts: Type.Integer(),
        classification_concepts: Type.Integer(),
        invalid_concepts: Type.Integer(),
        change_from_previous: Nullable(Type.Integer()),
      }),
    ),
  ),
  notes: Notes,
});

const flag = (description: string) => Type.Optional(Type.Boolean({ default: false, description }));

const VOCABULARY_STATISTICS_DESCRIPTION =
  'Always present: concept_statistics, concept_class_statistics, relationship_statistics, language_statistics, quality_metrics ' +
  '(with the written definitions of its scores) and notes (why a figure is 0 or null). The other sections only with their flag. ' +
  'Computed at load time, so a request reads a few small rows; `meta.computation_time_ms` is the time this request took to assemble ' +
  'them. Percentages are 0–100, scores 0–1. Unknown vocabulary: 404 vocabulary_not_found; GPI/MedDRA, and CPT4 for a key without ' +
  `validation: 403 vocabulary_restricted. Definitions: hierarchy: ${STATISTICS_DEFINITIONS.hierarchy} Relationships: ` +
  `${STATISTICS_DEFINITIONS.relationships} Mappings: ${STATISTICS_DEFINITIONS.mapping} Languages: ${STATISTICS_DEFINITIONS.languages} ` +
  `Trend: ${STATISTICS_DEFINITIONS.trend_data} Release trend: ${STATISTICS_DEFINITIONS.release_trend}`;

const elapsedMs = (started: number) => Math.round((performance.now() - started) * 1000) / 1000;

export function registerStatisticsRoutes(app: FastifyInstance, registry: ReleaseRegistry): void {
  app.get<{ Params: { domain_id: string } }>(
    '/v1/domains/:domain_id/statistics',
    {
      schema: {
        tags: ['Domains'],
        summary: 'Domain statistics (E2)',
        description:
          "Concept counts of one domain in the selected release, over the vocabularies this key may see (totals equal the sums of the " +
          'breakdowns; total = standard + classification + non-standard). A domain the release knows (its DOMAIN table, the domains the ' +
          'specification names, or one its concepts use) without concepts gives zeros, a null date range and a note; any other domain ' +
          'id is 404 not_found. `creation_date_range` is the earliest and latest valid_start_date.',
        params: Type.Object({ domain_id: Type.String({ minLength: 1, description: 'Domain id, e.g. Condition' }) }),
        querystring: Type.Object({ ...ReleaseQuery }),
        response: { 200: Envelope(DomainStatisticsSchema), ...STANDARD_ERRORS, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const started = performance.now();
      const data = domainStatistics(request.view, request.params.domain_id);
      return ok(request, data, { computation_time_ms: elapsedMs(started) });
    },
  );

  app.get<{ Params: { vocabulary_id: string }; Querystring: VocabularyStatisticsOptions }>(
    '/v1/vocabularies/:vocabulary_id/statistics',
    {
      schema: {
        tags: ['Vocabularies'],
        summary: 'Vocabulary statistics (E5)',
        description: VOCABULARY_STATISTICS_DESCRIPTION,
        params: Type.Object({ vocabulary_id: Type.String({ minLength: 1, description: 'Vocabulary id, e.g. SNOMED' }) }),
        querystring: Type.Object({
          include_hierarchy_stats: flag('Add hierarchy_statistics (depths, roots, leaves).'),
          include_domain_breakdown: flag('Add domain_statistics.'),
          include_mapping_stats: flag("Add mapping_statistics ('Maps to' coverage per target vocabulary)."),
          include_trend_data: flag('Add trend_data (per year of the valid dates) and release_trend (per loaded release).'),
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(VocabularyStatisticsSchema), ...STANDARD_ERRORS, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const started = performance.now();
      const releases = registry.all().map((r) => request.view.onRelease(r));
      const data = vocabularyStatistics(request.view, request.params.vocabulary_id, request.query, releases);
      return ok(request, data, { computation_time_ms: elapsedMs(started) });
    },
  );
}
