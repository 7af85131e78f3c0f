/**
 * `GET /mapping-quality?source=&target=`: mapping quality between two vocabularies (E10), from the services behind
 * GET /v1/mappings/quality/{source}/{target} (every section) and GET /v1/mappings/coverage: a form of two selects
 * (the vocabularies this key may see), then the report's figures as tables, with charts of the confidence
 * histogram and of the coverage per source domain. Without both vocabularies the page is the form alone.
 */
import type { FastifyInstance } from 'fastify';
import type { ComponentChildren, VNode } from 'preact';
import { mappingCoverage, type CoverageReport } from '../../services/mapping-quality/coverage-report.js';
import { mappingQualityReport } from '../../services/mapping-quality/quality-report.js';
import { listVocabularies, type VocabularySummary } from '../../services/vocabularies/vocabulary-catalog.js';
import { Histogram, MappedShareBar, PercentBarChart } from './charts.js';
import { sendPage } from './layout.js';
import { pageContext, type PageContext, type PagesOptions } from './page-context.js';
import { Figure, formatNumber as n, formatPercent, formatScore, optionalVocabularyId, plural, ReleaseField } from './page-parts.js';
import { ServiceError } from '../../services/errors.js';

type Band = 'excellent' | 'good' | 'moderate' | 'poor';
const BANDS: Band[] = ['excellent', 'good', 'moderate', 'poor'];
const BAND_LABELS: Record<Band, string> = {
  excellent: 'Excellent (0.9 or above)',
  good: 'Good (0.7 to below 0.9)',
  moderate: 'Moderate (0.5 to below 0.7)',
  poor: 'Poor (below 0.5)',
};
/** Unmapped source concepts listed on the page (the service gives up to 100). */
const UNMAPPED_SHOWN = 25;

interface Example {
  source_concept_id: number;
  source_concept_name: string | null;
  target_concept_id: number;
  target_concept_name: string | null;
  relationship_id: string;
  confidence_score: number;
  name_similarity: number;
  outlier_reason: string;
  potential_issues: string[];
}

/** The figures of one source → target pair in the E10 report. */
interface PairQuality {
  target_vocabulary_name: string;
  median_confidence: number | null;
  confidence_std_dev: number | null;
  equivalence_distribution: { exact: number; unclassified: number; reason: string };
  primary_use_cases: string[];
}

/** The E10 report with every section (src/services/mapping-quality/quality-report.ts builds it). */
interface QualityData {
  source_vocabulary: string;
  target_vocabulary: string;
  quality_overview: {
    total_mappings_analyzed: number;
    overall_average_confidence: number | null;
    overall_quality_rating: Band | null;
    high_quality_percentage: number | null;
  };
  quality_by_vocabulary_pair: Record<
    string,
    {
      vocabulary_name: string;
      target_vocabularies: Record<string, PairQuality>;
    }
  >;
  quality_by_domain: Record<string, { domain_name: string; total_mappings: number; average_confidence: number; quality_distribution: Record<Band, number>; quality_challenges: string[] }>;
  quality_metrics: {
    confidence_score_distribution: {
      histogram_bins: Array<{ range_start: number; range_end: number; count: number }>;
      percentiles: Record<string, number> | null;
      skewness: number | null;
      kurtosis: number | null;
    };
    semantic_similarity_analysis: {
      average_similarity: number | null;
      similarity_confidence_correlation: number | null;
      low_similarity_high_confidence: number;
      high_similarity_low_confidence: number;
    };
    signal_summary: {
      by_relationship: Record<string, number>;
      one_to_one: number;
      one_to_many: number;
      self_maps: number;
      target_status: { valid_standard: number; valid_non_standard: number; invalid: number };
      domain_mismatches: number;
    };
  };
  quality_outliers: {
    low_quality_outliers: Example[];
    high_quality_outliers: Example[];
    inconsistent_mappings: Example[];
    inconsistent_mappings_total: number;
  };
  quality_trends: {
    quality_over_time: Array<{ date: string; new_mappings: number; average_confidence: number; new_mappings_quality: { quality_rating: Band } }>;
    quality_improvement_rate: number | null;
    quality_improvement_rate_reason: string;
  };
  recommendations: Array<{ title: string; description: string; priority: string; expected_improvement: string }>;
  notes: string[];
}

export function registerMappingQualityPage(app: FastifyInstance, options: PagesOptions): void {
  app.get<{ Querystring: { source?: string; target?: string } }>(
    '/mapping-quality',
    {
      config: { page: 'signed-in' },
      schema: {
        hide: true,
        querystring: { type: 'object', properties: { source: { type: 'string', maxLength: 20 }, target: { type: 'string', maxLength: 20 } } },
      },
    },
    async (request, reply) => {
      const ctx = pageContext(request, options);
      const source = optionalVocabularyId(request.query.source, 'source');
      const target = optionalVocabularyId(request.query.target, 'target');
      if (source && !target && request.query.target !== undefined) {
        throw new ServiceError(400, 'validation_error', "Invalid query parameter 'target': choose the target vocabulary.", { parameter: 'target' });
      }
      if (target && !source) {
        throw new ServiceError(400, 'validation_error', "Invalid query parameter 'source': choose the source vocabulary.", { parameter: 'source' });
      }
      const vocabularies = listVocabularies(request.view, { sort_by: 'id' });
      let report: { quality: QualityData; method: string; coverage: CoverageReport } | null = null;
      if (source && target) {
        // The same calls as GET /v1/mappings/quality/{source}/{target} with every flag, and GET /v1/mappings/coverage.
        const { data, meta } = mappingQualityReport(request.view, source, target, {
          include_outliers: true,
          include_trends: true,
          include_recommendations: true,
        });
        const coverage = mappingCoverage(request.view, { source_vocabulary: source, target_vocabulary: target });
        report = { quality: data as unknown as QualityData, method: String(meta.confidence_calculation_method ?? ''), coverage };
      }
      return sendPage(reply, ctx, {
        title: report ? `Mapping quality ${report.quality.source_vocabulary} → ${report.quality.target_vocabulary}` : 'Mapping quality',
        section: 'mapping-quality',
        body: (
          <div class="mapping-quality">
            <h1>{report ? `Mapping quality: ${report.quality.source_vocabulary} → ${report.quality.target_vocabulary}` : 'Mapping quality'}</h1>
            <PairForm ctx={ctx} vocabularies={vocabularies} source={source} target={target} />
            {report ? <Report ctx={ctx} {...report} /> : <Introduction />}
          </div>
        ),
      });
    },
  );
}

function Introduction(): VNode {
  return (
    <p>
      Choose a source vocabulary and a target vocabulary: the page analyses every valid “Maps to” and “Maps to value” row from the source into the
      target (a heuristic confidence per row, its distribution, the quality per source domain, outliers, trends), and how much of the source is mapped
      into the target. For example, ICD10CM to SNOMED.
    </p>
  );
}

function VocabularySelect({ id, name, label, vocabularies, selected }: { id: string; name: string; label: string; vocabularies: VocabularySummary[]; selected: string | null }): VNode {
  return (
    <span class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name} required>
        <option value="" selected={selected === null}>
          Choose…
        </option>
        {vocabularies.map((v) => (
          <option value={v.vocabulary_id} selected={v.vocabulary_id === selected}>
            {v.vocabulary_id === v.vocabulary_name ? v.vocabulary_id : `${v.vocabulary_id} – ${v.vocabulary_name}`}
          </option>
        ))}
      </select>
    </span>
  );
}

function PairForm({ ctx, vocabularies, source, target }: { ctx: PageContext; vocabularies: VocabularySummary[]; source: string | null; target: string | null }): VNode {
  return (
    <form class="pair-form row" method="get" action="/mapping-quality" aria-label="Vocabulary pair">
      <ReleaseField ctx={ctx} />
      <VocabularySelect id="mq-source" name="source" label="Source vocabulary" vocabularies={vocabularies} selected={source} />
      <VocabularySelect id="mq-target" name="target" label="Target vocabulary" vocabularies={vocabularies} selected={target} />
      <button type="submit" class="primary">
        Analyse
      </button>
      {source && target ? <a href={ctx.link('/mapping-quality', { source: target, target: source })}>Other direction</a> : null}
    </form>
  );
}

function ConceptLink({ ctx, id, name }: { ctx: PageContext; id: number; name: string | null }): VNode {
  return (
    <a href={ctx.link(`/concepts/${id}`)}>
      {name ?? `Concept ${id}`} <span class="hint">({id})</span>
    </a>
  );
}

function ExampleTable({ ctx, id, caption, rows }: { ctx: PageContext; id: string; caption: string; rows: Example[] }): VNode {
  return (
    <table class="data" id={id}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Source concept</th>
          <th scope="col">Relationship</th>
          <th scope="col">Target concept</th>
          <th scope="col" class="num">
            Confidence
          </th>
          <th scope="col" class="num">
            Name similarity
          </th>
          <th scope="col">Weak signals</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr>
            <td>
              <ConceptLink ctx={ctx} id={r.source_concept_id} name={r.source_concept_name} />
            </td>
            <td>{r.relationship_id}</td>
            <td>
              <ConceptLink ctx={ctx} id={r.target_concept_id} name={r.target_concept_name} />
            </td>
            <td class="num">{formatScore(r.confidence_score)}</td>
            <td class="num">{formatScore(r.name_similarity)}</td>
            <td>{r.potential_issues.join('; ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The rows of the overview table: what each figure is, and its value as printed. */
function overviewFigures(q: QualityData, pair: PairQuality): Array<[string, ComponentChildren]> {
  const o = q.quality_overview;
  const signals = q.quality_metrics.signal_summary;
  return [
    ['Mapping rows analysed', n(o.total_mappings_analyzed)],
    ['Average confidence', formatScore(o.overall_average_confidence)],
    ['Median confidence', formatScore(pair.median_confidence)],
    ['Standard deviation', formatScore(pair.confidence_std_dev)],
    ['Quality rating', o.overall_quality_rating ?? '–'],
    ['High quality (confidence above 0.8)', formatPercent(o.high_quality_percentage)],
    ['Identical names (exact)', n(pair.equivalence_distribution.exact)],
    ['One-to-one / one-to-many rows', <>{n(signals.one_to_one)} / {n(signals.one_to_many)}</>],
    ['Self-maps', n(signals.self_maps)],
    ['Rows crossing domains', n(signals.domain_mismatches)],
    [
      'Targets: valid standard / valid non-standard / invalid',
      <>
        {n(signals.target_status.valid_standard)} / {n(signals.target_status.valid_non_standard)} / {n(signals.target_status.invalid)}
      </>,
    ],
    ...Object.entries(signals.by_relationship).map(([relationship, count]): [string, ComponentChildren] => [`“${relationship}” rows`, n(count)]),
    ['Average name similarity', formatScore(q.quality_metrics.semantic_similarity_analysis.average_similarity)],
  ];
}

function Report({ ctx, quality: q, method, coverage }: { ctx: PageContext; quality: QualityData; method: string; coverage: CoverageReport }): VNode {
  const source = q.source_vocabulary;
  const target = q.target_vocabulary;
  const pair = q.quality_by_vocabulary_pair[source]!.target_vocabularies[target]!;
  const dist = q.quality_metrics.confidence_score_distribution;
  const domains = Object.entries(q.quality_by_domain);
  const total = q.quality_overview.total_mappings_analyzed;
  const outliers = q.quality_outliers;
  const years = q.quality_trends.quality_over_time;
  const covered = coverage.domain_coverage.filter((d) => d.source_concepts > 0);
  return (
    <>
      <section aria-labelledby="overview-heading" id="overview">
        <h2 id="overview-heading">Overview</h2>
        <table class="data figures" id="overview-table">
          <caption class="visually-hidden">The pair's figures</caption>
          <tbody>
            {overviewFigures(q, pair).map(([label, value]) => (
              <tr>
                <th scope="row">{label}</th>
                <td class="num">{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {pair.primary_use_cases.length ? (
          <p>
            Mostly used for: {pair.primary_use_cases.join('; ')}.
          </p>
        ) : null}
        <details>
          <summary>How the confidence is computed</summary>
          <p>{method}</p>
          <p>{pair.equivalence_distribution.reason}</p>
        </details>
      </section>

      {total > 0 ? (
        <section aria-labelledby="confidence-heading" id="confidence">
          <h2 id="confidence-heading">Confidence distribution</h2>
          <Figure
            chart={
              <Histogram
                id="chart-confidence"
                title={`Confidence of the ${source} to ${target} mappings`}
                description="Columns, one per confidence range of width 0.1 from 0 to 1, tall as the number of mapping rows in the range; the table has the numbers."
                xLabel="Confidence"
                data={dist.histogram_bins.map((b) => ({ label: `${b.range_start.toFixed(1)}–${b.range_end.toFixed(1)}`, value: b.count }))}
              />
            }
            table={
              <table class="data" id="confidence-table">
                <caption>Mapping rows per confidence range</caption>
                <thead>
                  <tr>
                    <th scope="col">Range</th>
                    <th scope="col" class="num">
                      Rows
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {dist.histogram_bins.map((b, i) => (
                    <tr>
                      <th scope="row">
                        {b.range_start.toFixed(1)} to {i === dist.histogram_bins.length - 1 ? `${b.range_end.toFixed(1)} inclusive` : `below ${b.range_end.toFixed(1)}`}
                      </th>
                      <td class="num">{n(b.count)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            }
          />
          {dist.percentiles ? (
            <table class="data" id="percentile-table">
              <caption>Percentiles of the confidence</caption>
              <thead>
                <tr>
                  {Object.keys(dist.percentiles).map((p) => (
                    <th scope="col" class="num">
                      {p}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr>
                  {Object.values(dist.percentiles).map((v) => (
                    <td class="num">{formatScore(v)}</td>
                  ))}
                </tr>
              </tbody>
            </table>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="domain-quality-heading" id="domain-quality">
        <h2 id="domain-quality-heading">Quality per source domain</h2>
        {domains.length ? (
          <table class="data" id="domain-quality-table">
            <caption class="visually-hidden">Mapping rows per source domain, their average confidence and quality bands</caption>
            <thead>
              <tr>
                <th scope="col">Domain</th>
                <th scope="col" class="num">
                  Rows
                </th>
                <th scope="col" class="num">
                  Average confidence
                </th>
                {BANDS.map((b) => (
                  <th scope="col" class="num">
                    {BAND_LABELS[b]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {domains.map(([domainId, d]) => (
                <tr data-domain={domainId}>
                  <th scope="row">
                    <a href={ctx.link('/search', { vocabulary: source, domain: domainId })}>{d.domain_name}</a>
                  </th>
                  <td class="num">{n(d.total_mappings)}</td>
                  <td class="num">{formatScore(d.average_confidence)}</td>
                  {BANDS.map((b) => (
                    <td class="num">{n(d.quality_distribution[b] ?? 0)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>No mapping rows.</p>
        )}
      </section>

      <section aria-labelledby="coverage-heading" id="coverage">
        <h2 id="coverage-heading">
          Coverage of {source} by {target}
        </h2>
        <p>
          {n(coverage.total_mapped_concepts)} of {n(coverage.total_source_concepts)} valid {source} concepts ({formatPercent(coverage.overall_coverage)})
          have a valid “Maps to” into {target}.
        </p>
        {coverage.total_source_concepts > 0 ? (
          <MappedShareBar
            id="chart-pair-coverage"
            title={`Valid ${source} concepts mapped into ${target}`}
            description={`One bar split into the valid ${source} concepts with a “Maps to” into ${target} and those without.`}
            mapped={coverage.total_mapped_concepts}
            unmapped={coverage.total_source_concepts - coverage.total_mapped_concepts}
          />
        ) : null}
        {covered.length ? (
          <Figure
            chart={
              <PercentBarChart
                id="chart-domain-coverage"
                title={`Coverage of ${source} by ${target} per source domain`}
                description={`Horizontal bars, one per domain of ${source}, long as the percentage of its valid concepts mapped into ${target}; the table has the numbers.`}
                data={covered.map((d) => ({ label: d.domain_name, value: d.coverage_percentage ?? 0 }))}
              />
            }
            table={
              <table class="data" id="domain-coverage-table">
                <caption>Valid {source} concepts mapped into {target}, per domain</caption>
                <thead>
                  <tr>
                    <th scope="col">Domain</th>
                    <th scope="col" class="num">
                      Concepts
                    </th>
                    <th scope="col" class="num">
                      Mapped
                    </th>
                    <th scope="col" class="num">
                      Coverage
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {coverage.domain_coverage.map((d) => (
                    <tr data-domain={d.domain_id}>
                      <th scope="row">{d.domain_name}</th>
                      <td class="num">{n(d.source_concepts)}</td>
                      <td class="num">{n(d.mapped_concepts)}</td>
                      <td class="num">{formatPercent(d.coverage_percentage)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            }
          />
        ) : null}
        {coverage.unmapped_concepts.length ? (
          <details>
            <summary>
              Unmapped {source} concepts (the first {Math.min(UNMAPPED_SHOWN, coverage.unmapped_concepts.length)} by concept id)
            </summary>
            <ul id="unmapped-list">
              {coverage.unmapped_concepts.slice(0, UNMAPPED_SHOWN).map((c) => (
                <li>
                  <ConceptLink ctx={ctx} id={c.concept_id} name={c.concept_name} /> <code>{c.concept_code}</code> · {c.domain_id}
                </li>
              ))}
            </ul>
          </details>
        ) : null}
      </section>

      {total > 0 ? (
        <section aria-labelledby="outliers-heading" id="outliers">
          <h2 id="outliers-heading">Outliers</h2>
          {outliers.low_quality_outliers.length ? (
            <ExampleTable ctx={ctx} id="low-outliers" caption="Lowest confidence (poor band)" rows={outliers.low_quality_outliers} />
          ) : (
            <p>No mapping row of the pair is in the poor band.</p>
          )}
          {outliers.inconsistent_mappings.length ? (
            <ExampleTable
              ctx={ctx}
              id="domain-crossing"
              caption={`Rows whose source and target domains differ (${n(outliers.inconsistent_mappings_total)} in all; the first ${outliers.inconsistent_mappings.length})`}
              rows={outliers.inconsistent_mappings}
            />
          ) : null}
          {outliers.high_quality_outliers.length ? (
            <details>
              <summary>Highest confidence (excellent band)</summary>
              <ExampleTable ctx={ctx} id="high-outliers" caption="Highest confidence (excellent band)" rows={outliers.high_quality_outliers} />
            </details>
          ) : null}
        </section>
      ) : null}

      {years.length ? (
        <section aria-labelledby="trends-heading" id="trends">
          <h2 id="trends-heading">Over time</h2>
          <p class="hint">{q.quality_trends.quality_improvement_rate_reason}</p>
          <details>
            <summary>New mapping rows and their average confidence per year ({plural(years.length, 'year')})</summary>
            <table class="data" id="trend-table">
              <caption class="visually-hidden">Mapping rows per year of their valid_start_date</caption>
              <thead>
                <tr>
                  <th scope="col">Year</th>
                  <th scope="col" class="num">
                    New rows
                  </th>
                  <th scope="col" class="num">
                    Average confidence
                  </th>
                  <th scope="col">Rating</th>
                </tr>
              </thead>
              <tbody>
                {years.map((y) => (
                  <tr>
                    <th scope="row">{y.date}</th>
                    <td class="num">{n(y.new_mappings)}</td>
                    <td class="num">{formatScore(y.average_confidence)}</td>
                    <td>{y.new_mappings_quality.quality_rating}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </section>
      ) : null}

      {q.recommendations.length ? (
        <section aria-labelledby="recommendations-heading" id="recommendations">
          <h2 id="recommendations-heading">Recommendations</h2>
          <ul>
            {q.recommendations.map((r) => (
              <li>
                <strong>{r.title}</strong> <span class="badge">{r.priority} priority</span>: {r.description} ({r.expected_improvement})
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="mq-notes-heading" id="mq-notes">
        <h2 id="mq-notes-heading">Notes</h2>
        <ul>
          {q.notes.map((note) => (
            <li>{note}</li>
          ))}
        </ul>
        <p class="hint">
          Programs get the same figures from <code>GET /v1/mappings/quality/{source}/{target}</code> and{' '}
          <code>
            GET /v1/mappings/coverage?source_vocabulary={source}&amp;target_vocabulary={target}
          </code>
          .
        </p>
      </section>
    </>
  );
}
