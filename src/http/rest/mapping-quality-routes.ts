/** GET /v1/mappings/quality/{source_vocabulary}/{target_vocabulary} (E10) and GET /v1/mappings/coverage. */
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { CONFIDENCE_CALCULATION_METHOD } from '../../mapping-model/mapping-confidence.js';
import { mappingCoverage } from '../../services/mapping-quality/coverage-report.js';
import { mappingQualityReport, type QualityReportOptions } from '../../services/mapping-quality/quality-report.js';
import { ok } from '../plumbing/envelope.js';
import { csvList } from '../plumbing/query-values.js';
import { ConceptSchema, Envelope, ErrorEnvelope, Nullable, ReleaseQuery, STANDARD_ERRORS } from '../plumbing/schemas.js';

const VocabularyParam = (what: string) => Type.String({ minLength: 1, maxLength: 20, description: `${what} vocabulary id, e.g. ICD10CM` });
const Section = Type.Object({}, { additionalProperties: true });

const QualityResultSchema = Type.Object(
  {
    source_vocabulary: Type.String(),
    target_vocabulary: Type.String(),
    quality_overview: Section,
    quality_by_vocabulary_pair: Section,
    quality_by_domain: Section,
    quality_metrics: Section,
    quality_outliers: Type.Optional(Section),
    quality_trends: Type.Optional(Section),
    recommendations: Type.Optional(Type.Array(Section)),
    notes: Type.Array(Type.String()),
  },
  { additionalProperties: true },
);

const CoverageSchema = Type.Object(
  {
    source_vocabulary: Type.String(),
    target_vocabulary: Type.String(),
    domain_coverage: Type.Array(
      Type.Object({
        domain_id: Type.String(),
        domain_name: Type.String(),
        source_concepts: Type.Integer(),
        mapped_concepts: Type.Integer(),
        coverage_percentage: Nullable(Type.Number()),
      }),
    ),
    total_source_concepts: Type.Integer(),
    total_mapped_concepts: Type.Integer(),
    overall_coverage: Nullable(Type.Number()),
    unmapped_concepts: Type.Array(ConceptSchema),
    definitions: Section,
  },
  { additionalProperties: true },
);

const flag = (description: string) => Type.Optional(Type.Boolean({ default: false, description }));

export function registerMappingQualityRoutes(app: FastifyInstance): void {
  app.get<{ Params: { source_vocabulary: string; target_vocabulary: string }; Querystring: QualityReportOptions }>(
    '/v1/mappings/quality/:source_vocabulary/:target_vocabulary',
    {
      schema: {
        tags: ['Mappings'],
        summary: 'Mapping quality analysis of a vocabulary pair',
        description:
          "Every valid 'Maps to' and 'Maps to value' row from the source vocabulary into the target vocabulary, scored by a " +
          `documented heuristic (aggregates computed when the release is loaded). ${CONFIDENCE_CALCULATION_METHOD} ` +
          'Figures the release cannot support (validation, disputes, mapping sources other than official) are null with a `*_reason`. ' +
          'Unknown vocabulary → 404 vocabulary_not_found; CPT4 needs a validated key, GPI and MedDRA are never served (403).',
        params: Type.Object({ source_vocabulary: VocabularyParam('Source'), target_vocabulary: VocabularyParam('Target') }),
        querystring: Type.Object({
          include_outliers: flag('Add quality_outliers: lowest and highest rows, domain-crossing rows, weak-signal patterns.'),
          include_trends: flag("Add quality_trends: per year of the mapping rows' valid_start_date."),
          include_recommendations: flag('Add recommendations derived from the figures.'),
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(QualityResultSchema), ...STANDARD_ERRORS, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const { data, meta } = mappingQualityReport(
        request.view,
        request.params.source_vocabulary,
        request.params.target_vocabulary,
        request.query,
      );
      return ok(request, data, meta);
    },
  );

  app.get<{ Querystring: { source_vocabulary: string; target_vocabulary: string; domain_ids?: string } }>(
    '/v1/mappings/coverage',
    {
      schema: {
        tags: ['Mappings'],
        summary: 'Mapping coverage of a source vocabulary into a target vocabulary, by domain',
        description:
          "source_concepts are the valid concepts of the source vocabulary per domain; mapped_concepts those with a valid 'Maps to' " +
          'into the target vocabulary; unmapped_concepts the first 100 unmapped ones by concept_id. Unknown vocabulary → 404 ' +
          'vocabulary_not_found; CPT4 needs a validated key, GPI and MedDRA are never served (403).',
        querystring: Type.Object({
          source_vocabulary: VocabularyParam('Source'),
          target_vocabulary: VocabularyParam('Target'),
          domain_ids: Type.Optional(Type.String({ description: 'Comma-separated source domain ids, e.g. Condition,Procedure (all when absent).' })),
          ...ReleaseQuery,
        }),
        response: { 200: Envelope(CoverageSchema), ...STANDARD_ERRORS, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const { source_vocabulary, target_vocabulary, domain_ids } = request.query;
      const report = mappingCoverage(request.view, {
        source_vocabulary,
        target_vocabulary,
        domain_ids: csvList(domain_ids),
      });
      return ok(request, report);
    },
  );
}
