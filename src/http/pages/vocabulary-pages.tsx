/**
 * `GET /vocabularies`: the vocabularies of the selected release this key may see (the GET /v1/vocabularies list with
 * its counts, or GET /v1/vocabularies/search when filtered by `q`), paged. `GET /vocabularies/:id`: one vocabulary's
 * E5 statistics (the services behind GET /v1/vocabularies/{id}/stats and /statistics with every section), with
 * server-drawn SVG charts where a person would rather look than read (concept kinds, domains, hierarchy depths,
 * mapping coverage, concepts added per year), each followed by a table of the same numbers. Domain, class and kind
 * rows link to the search page filtered accordingly (`/search?vocabulary=&domain=&concept_class=&standard=&validity=`).
 * A vocabulary the key may not see is the REST API's 403; it is never listed.
 */
import type { FastifyInstance } from 'fastify';
import type { VNode } from 'preact';
import { vocabularyStatistics, type ReleaseCounts } from '../../services/statistics/vocabulary-statistics.js';
import { listVocabularies, type VocabularySort, type VocabularySummary } from '../../services/vocabularies/vocabulary-catalog.js';
import { searchVocabularies } from '../../services/vocabularies/vocabulary-search.js';
import { vocabularyDomainStats, vocabularyStats, type VocabularyDomainStats } from '../../services/vocabularies/vocabulary-stats.js';
import { BarChart, Histogram, MappedShareBar, PercentBarChart, ShareBar } from './charts.js';
import { sendPage } from './layout.js';
import { pageContext, type PageContext, type PagesOptions } from './page-context.js';
import { Figure, formatNumber as n, formatPercent, formatScore, MAX_PAGE, Pager, plural, ReleaseField, sliceOf, VOCABULARY_ID_SCHEMA } from './page-parts.js';

/** Vocabularies per page of the list (a full release has about 150 with concepts). */
export const VOCABULARY_PAGE_SIZE = 100;
/** Rows per page of the concept-class and relationship-type tables of a vocabulary. */
export const STATISTICS_TABLE_PAGE_SIZE = 50;

const PageParam = { type: 'integer', minimum: 1, maximum: MAX_PAGE } as const;

/** The list's orders: the service's, and the largest vocabularies first. */
type ListSort = VocabularySort | 'concepts';

interface ListQuery {
  q?: string;
  sort?: ListSort;
  page?: number;
}

interface StatisticsQuery {
  classes_page?: number;
  relationships_page?: number;
}

/** Path segment naming a domain: DOMAIN.domain_id has the bounds of a vocabulary id (1–20 characters, no control characters). */
const DOMAIN_ID_SCHEMA = VOCABULARY_ID_SCHEMA;

/** The E5 response with every section (src/http/rest/statistics-routes.ts has its schema). */
interface VocabularyStatisticsData {
  vocabulary_id: string;
  vocabulary_name: string;
  vocabulary_version: string | null;
  analysis_date: string;
  vocab_release: string;
  concept_statistics: {
    total_concepts: number;
    standard_concepts: number;
    classification_concepts: number;
    non_standard_concepts: number;
    invalid_concepts: number;
    concept_growth_rate: number | null;
  };
  hierarchy_statistics: {
    hierarchy_concepts: number;
    max_hierarchy_depth: number;
    average_depth: number;
    root_concepts: number;
    leaf_concepts: number;
    depth_distribution: Array<{ depth: number; concept_count: number }>;
  };
  domain_statistics: {
    domains_covered: number;
    domain_distribution: Array<{ domain_id: string; domain_name: string; concept_count: number; percentage: number }>;
  };
  concept_class_statistics: {
    total_concept_classes: number;
    class_distribution: Array<{ concept_class_id: string; concept_class_name: string; concept_count: number; percentage: number }>;
  };
  relationship_statistics: {
    total_relationships: number;
    unique_relationship_types: number;
    relationship_type_distribution: Array<{ relationship_id: string; relationship_name: string; count: number; percentage: number }>;
  };
  mapping_statistics: {
    mapped_concepts: number;
    unmapped_concepts: number;
    mapping_coverage_percentage: number;
    target_vocabularies: Array<{ target_vocabulary_id: string; mapping_count: number; mapped_concepts: number; coverage_percentage: number }>;
  };
  language_statistics: {
    supported_languages: string[];
    primary_language: string;
    multilingual_concepts: number;
    concepts_with_synonyms: number;
    languages: Array<{ language_concept_id: number; language_name: string | null; synonym_count: number; concept_count: number }>;
  };
  quality_metrics: {
    completeness_score: number;
    consistency_score: number;
    accuracy_indicators: { orphaned_concepts: number; duplicate_codes: number; missing_descriptions: number };
    definitions: Record<string, string>;
  };
  trend_data: Array<{ period: string; total_concepts: number; concepts_added: number; concepts_modified: number; concepts_deprecated: number }>;
  release_trend: ReleaseCounts[];
  notes: string[];
}

export function registerVocabularyPages(app: FastifyInstance, options: PagesOptions): void {
  app.get<{ Querystring: ListQuery }>(
    '/vocabularies',
    {
      config: { page: 'signed-in' },
      schema: {
        hide: true,
        querystring: {
          type: 'object',
          properties: {
            q: { type: 'string', maxLength: 200 },
            sort: { type: 'string', enum: ['name', 'id', 'priority', 'updated', 'concepts'] },
            page: PageParam,
          },
        },
      },
    },
    async (request, reply) => {
      const ctx = pageContext(request, options);
      const q = (request.query.q ?? '').trim();
      const sort = request.query.sort ?? 'name';
      const all = q
        ? searchVocabularies(request.view, q, { include_stats: true })
        : sort === 'concepts'
          ? listVocabularies(request.view, { include_stats: true, sort_by: 'id' }).sort((a, b) => (b.concept_count ?? 0) - (a.concept_count ?? 0))
          : listVocabularies(request.view, { include_stats: true, sort_by: sort });
      const slice = sliceOf(all, request.query.page ?? 1, VOCABULARY_PAGE_SIZE, 'page');
      return sendPage(reply, ctx, {
        title: q ? `Vocabularies matching “${q}”` : 'Vocabularies',
        section: 'vocabularies',
        body: <VocabularyList ctx={ctx} q={q} sort={sort} slice={slice} />,
      });
    },
  );

  app.get<{ Params: { id: string }; Querystring: StatisticsQuery }>(
    '/vocabularies/:id',
    {
      config: { page: 'signed-in' },
      schema: {
        hide: true,
        params: { type: 'object', properties: { id: VOCABULARY_ID_SCHEMA }, required: ['id'] },
        querystring: { type: 'object', properties: { classes_page: PageParam, relationships_page: PageParam } },
      },
    },
    async (request, reply) => {
      const ctx = pageContext(request, options);
      const id = request.params.id;
      // The same calls as GET /v1/vocabularies/{id}/stats and GET /v1/vocabularies/{id}/statistics (every section).
      const counts = vocabularyStats(request.view, id);
      const releases = options.registry.all().map((r) => request.view.onRelease(r));
      const stats = vocabularyStatistics(
        request.view,
        id,
        { include_hierarchy_stats: true, include_domain_breakdown: true, include_mapping_stats: true, include_trend_data: true },
        releases,
      ) as unknown as VocabularyStatisticsData;
      const classes = sliceOf(stats.concept_class_statistics.class_distribution, request.query.classes_page ?? 1, STATISTICS_TABLE_PAGE_SIZE, 'classes_page');
      const relationships = sliceOf(
        stats.relationship_statistics.relationship_type_distribution,
        request.query.relationships_page ?? 1,
        STATISTICS_TABLE_PAGE_SIZE,
        'relationships_page',
      );
      return sendPage(reply, ctx, {
        title: `${stats.vocabulary_name} (${stats.vocabulary_id})`,
        section: 'vocabularies',
        body: <VocabularyStatisticsPage ctx={ctx} stats={stats} counts={counts} classes={classes} relationships={relationships} />,
      });
    },
  );

  app.get<{ Params: { id: string; domain: string }; Querystring: { classes_page?: number } }>(
    '/vocabularies/:id/domains/:domain',
    {
      config: { page: 'signed-in' },
      schema: {
        hide: true,
        params: { type: 'object', properties: { id: VOCABULARY_ID_SCHEMA, domain: DOMAIN_ID_SCHEMA }, required: ['id', 'domain'] },
        querystring: { type: 'object', properties: { classes_page: PageParam } },
      },
    },
    async (request, reply) => {
      const ctx = pageContext(request, options);
      // The same call as GET /v1/vocabularies/{id}/stats/domains/{domain_id}.
      const stats = vocabularyDomainStats(request.view, request.params.id, request.params.domain);
      const classes = sliceOf(stats.concept_class_breakdown, request.query.classes_page ?? 1, STATISTICS_TABLE_PAGE_SIZE, 'classes_page');
      return sendPage(reply, ctx, {
        title: `${stats.domain.domain_name} concepts of ${stats.vocabulary.vocabulary_id}`,
        section: 'vocabularies',
        body: <VocabularyDomainPage ctx={ctx} stats={stats} classes={classes} />,
      });
    },
  );
}

function VocabularyDomainPage({ ctx, stats, classes }: { ctx: PageContext; stats: VocabularyDomainStats; classes: ReturnType<typeof sliceOf<VocabularyDomainStats['concept_class_breakdown'][number]>> }): VNode {
  const id = stats.vocabulary.vocabulary_id;
  const domain = stats.domain.domain_id;
  const c = stats.statistics;
  const search = (params: Record<string, string>) => ctx.link('/search', { vocabulary: id, domain, ...params });
  return (
    <div class="vocabulary-domain">
      <p class="breadcrumb">
        <a href={ctx.link('/vocabularies')}>Vocabularies</a> › <a href={ctx.link(`/vocabularies/${encodeURIComponent(id)}`)}>{id}</a> › {domain}
      </p>
      <h1 id="vocabulary-domain-heading">
        {stats.domain.domain_name} concepts of {stats.vocabulary.vocabulary_name} <span class="subtitle">({id})</span>
      </h1>
      <p>
        {plural(c.total_concepts, 'concept')}: {n(c.active_concepts)} valid, {n(c.invalid_concepts)} invalid; valid from {c.valid_start_date ?? '–'} (latest
        start {c.last_updated ?? '–'}). <a href={search({})}>Search them</a>.
      </p>
      <KindsTable id="domain-kinds-table" class="data figures" counts={c} search={search} />
      <section aria-labelledby="domain-classes-heading" id="classes">
        <h2 id="domain-classes-heading">Concept classes</h2>
        {classes.total ? (
          <>
            <Figure
              chart={
                <BarChart
                  id="chart-domain-classes"
                  title={`${domain} concepts of ${id} per concept class`}
                  description={`Horizontal bars, one per concept class on this page of the table, largest first, long as the number of ${domain} concepts of ${id} in the class.`}
                  data={classes.items.map((k) => ({ label: k.concept_class_name, value: k.concept_count }))}
                />
              }
              table={
                <table class="data" id="domain-class-table">
                  <caption>Concepts per concept class (each links to a search of them)</caption>
                  <thead>
                    <tr>
                      <th scope="col">Concept class</th>
                      <th scope="col" class="num">
                        Concepts
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {classes.items.map((k) => (
                      <tr>
                        <th scope="row">
                          <a href={search({ concept_class: k.concept_class_id })}>{k.concept_class_name}</a>
                        </th>
                        <td class="num">{n(k.concept_count)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              }
            />
            <Pager ctx={ctx} slice={classes} parameter="classes_page" anchor="classes" label="Concept classes" />
          </>
        ) : (
          <p>No concept of {id} is in this domain.</p>
        )}
      </section>
    </div>
  );
}

function VocabularyList({ ctx, q, sort, slice }: { ctx: PageContext; q: string; sort: ListSort; slice: ReturnType<typeof sliceOf<VocabularySummary>> }): VNode {
  const sortLabels: Record<ListSort, string> = {
    name: 'Name',
    id: 'Id',
    concepts: 'Most concepts first',
    priority: 'Authority (search ranking order)',
    updated: 'Latest concept start date',
  };
  return (
    <div class="vocabulary-list">
      <h1>Vocabularies</h1>
      <p>
        The vocabularies of release <strong>{ctx.view!.label}</strong> that have concepts and that your key may see, with their concept counts. Open one
        for its statistics and charts.
      </p>
      <form class="search-box" method="get" action="/vocabularies" role="search" aria-label="Filter vocabularies">
        <ReleaseField ctx={ctx} />
        <label for="vocabulary-filter">Filter by id or name</label>
        <input id="vocabulary-filter" name="q" type="search" value={q} maxLength={200} placeholder="e.g. ICD, RxNorm" />
        <label for="vocabulary-sort">Order</label>
        <select id="vocabulary-sort" name="sort" disabled={q !== '' ? true : undefined}>
          {(Object.keys(sortLabels) as ListSort[]).map((s) => (
            <option value={s} selected={s === sort}>
              {sortLabels[s]}
            </option>
          ))}
        </select>
        <button type="submit">Filter</button>
        {q ? <a href={ctx.link('/vocabularies')}>Show all</a> : null}
      </form>
      {q ? <p class="hint">Ordered by how well they match: id, then id beginning, then name, then words.</p> : null}
      {slice.total === 0 ? (
        <p id="vocabulary-count">{q ? `No vocabulary matches “${q}”.` : 'This release has no vocabulary with concepts that your key may see.'}</p>
      ) : (
        <>
          <p id="vocabulary-count">
            {plural(slice.total, 'vocabulary', 'vocabularies')}
            {q ? ` match “${q}”` : ''}.
          </p>
          <table class="data" id="vocabulary-table">
            <caption class="visually-hidden">Vocabularies with their version and concept counts</caption>
            <thead>
              <tr>
                <th scope="col">Id</th>
                <th scope="col">Name</th>
                <th scope="col">Version</th>
                <KindCountHeads />
                <th scope="col">Search</th>
              </tr>
            </thead>
            <tbody>
              {slice.items.map((v) => (
                <tr data-vocabulary={v.vocabulary_id}>
                  <th scope="row">
                    <a href={ctx.link(`/vocabularies/${encodeURIComponent(v.vocabulary_id)}`)}>{v.vocabulary_id}</a>
                  </th>
                  <td>{v.vocabulary_name}</td>
                  <td>{v.vocabulary_version ?? ''}</td>
                  <KindCountCells
                    total={v.concept_count ?? 0}
                    standard={v.standard_concept_count ?? 0}
                    classification={v.classification_concept_count ?? 0}
                    invalid={v.invalid_concept_count ?? 0}
                  />
                  <td>
                    <a href={ctx.link('/search', { vocabulary: v.vocabulary_id })} aria-label={`Search the concepts of ${v.vocabulary_id}`}>
                      Concepts
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager ctx={ctx} slice={slice} parameter="page" label="Vocabularies" />
        </>
      )}
    </div>
  );
}

function VocabularyStatisticsPage({
  ctx,
  stats,
  counts,
  classes,
  relationships,
}: {
  ctx: PageContext;
  stats: VocabularyStatisticsData;
  counts: ReturnType<typeof vocabularyStats>;
  classes: ReturnType<typeof sliceOf<VocabularyStatisticsData['concept_class_statistics']['class_distribution'][number]>>;
  relationships: ReturnType<typeof sliceOf<VocabularyStatisticsData['relationship_statistics']['relationship_type_distribution'][number]>>;
}): VNode {
  const id = stats.vocabulary_id;
  const c = stats.concept_statistics;
  const h = stats.hierarchy_statistics;
  const m = stats.mapping_statistics;
  const search = (params: Record<string, string>) => ctx.link('/search', { vocabulary: id, ...params });
  const kinds = conceptKinds(c);
  const domains = stats.domain_statistics.domain_distribution;
  const years = stats.trend_data;
  return (
    <div class="vocabulary-statistics">
      <p class="breadcrumb">
        <a href={ctx.link('/vocabularies')}>Vocabularies</a> › {id}
      </p>
      <h1 id="vocabulary-heading">
        {stats.vocabulary_name} <span class="subtitle">({id})</span>
      </h1>
      <dl class="fields">
        <dt>Vocabulary id</dt>
        <dd>
          <code>{id}</code>
        </dd>
        <dt>Version</dt>
        <dd>{stats.vocabulary_version ?? '–'}</dd>
        <dt>Release</dt>
        <dd>
          {stats.vocab_release} (statistics computed when it was loaded, {stats.analysis_date})
        </dd>
        <dt>Concept start dates</dt>
        <dd>
          {counts.valid_start_date ?? '–'} to {counts.last_updated ?? '–'}
        </dd>
        <dt>Explore</dt>
        <dd>
          <a href={search({})}>Search its concepts</a> · <a href={ctx.link('/mapping-quality', { source: id })}>Mapping quality from {id}</a> · API:{' '}
          <code>GET /v1/vocabularies/{id}/statistics</code>
        </dd>
      </dl>

      <section aria-labelledby="concepts-heading" id="concepts">
        <h2 id="concepts-heading">Concepts</h2>
        <p>
          {plural(c.total_concepts, 'concept')}: {n(counts.active_concepts)} valid, {n(c.invalid_concepts)} invalid (deprecated or replaced).
          {c.concept_growth_rate !== null ? ` ${c.concept_growth_rate >= 0 ? '+' : ''}${formatPercent(c.concept_growth_rate)} since the previous loaded release.` : ''}
        </p>
        <Figure
          chart={
            c.total_concepts > 0 ? (
              <ShareBar
                id="chart-kinds"
                title={`Kinds of the ${id} concepts`}
                description={`One bar split into the standard, classification and non-standard concepts of ${id}; the table beside it has the numbers.`}
                data={kinds}
              />
            ) : null
          }
          caption="No concepts."
          table={
            <KindsTable id="kinds-table" class="data" counts={c} search={search} />
          }
        />
      </section>

      <section aria-labelledby="domains-heading" id="domains">
        <h2 id="domains-heading">Domains</h2>
        <p>
          The concepts of {id} fall in {plural(stats.domain_statistics.domains_covered, 'domain')}.
        </p>
        <Figure
          chart={
            domains.length ? (
              <BarChart
                id="chart-domains"
                title={`Concepts of ${id} per domain`}
                description={`Horizontal bars, one per domain, largest first, long as the number of ${id} concepts in the domain; the table has the numbers.`}
                data={domains.map((d) => ({ label: d.domain_name, value: d.concept_count }))}
              />
            ) : null
          }
          caption="No domains."
          table={
            <table class="data" id="domain-table">
              <caption>Concepts per domain (each domain links to a search of its {id} concepts)</caption>
              <thead>
                <tr>
                  <th scope="col">Domain</th>
                  <th scope="col" class="num">
                    Concepts
                  </th>
                  <th scope="col" class="num">
                    Share
                  </th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {domains.map((d) => (
                  <tr data-domain={d.domain_id}>
                    <th scope="row">
                      <a href={search({ domain: d.domain_id })}>{d.domain_name}</a>
                    </th>
                    <td class="num">{n(d.concept_count)}</td>
                    <td class="num">{formatPercent(d.percentage)}</td>
                    <td>
                      <a
                        href={ctx.link(`/vocabularies/${encodeURIComponent(id)}/domains/${encodeURIComponent(d.domain_id)}`)}
                        aria-label={`Concept classes of the ${d.domain_name} concepts of ${id}`}
                      >
                        Classes
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        />
      </section>

      <section aria-labelledby="hierarchy-heading" id="hierarchy">
        <h2 id="hierarchy-heading">Hierarchy</h2>
        <p>
          {n(h.hierarchy_concepts)} concepts are in the hierarchy (CONCEPT_ANCESTOR): {n(h.root_concepts)} roots, {n(h.leaf_concepts)} leaves, deepest at
          level {n(h.max_hierarchy_depth)}, on average at level {n(h.average_depth)}.
        </p>
        <Figure
          chart={
            h.depth_distribution.length ? (
              <Histogram
                id="chart-depths"
                title={`Depth distribution of the ${id} hierarchy`}
                description={`Columns, one per depth from ${h.depth_distribution[0]!.depth} to ${h.max_hierarchy_depth}, tall as the number of concepts at that depth; the table has the numbers.`}
                xLabel="Depth (levels below a root)"
                data={h.depth_distribution.map((d) => ({ label: String(d.depth), value: d.concept_count }))}
              />
            ) : null
          }
          caption={`No concept of ${id} is in the hierarchy.`}
          table={
            <table class="data" id="depth-table">
              <caption>Concepts per depth</caption>
              <thead>
                <tr>
                  <th scope="col" class="num">
                    Depth
                  </th>
                  <th scope="col" class="num">
                    Concepts
                  </th>
                </tr>
              </thead>
              <tbody>
                {h.depth_distribution.map((d) => (
                  <tr>
                    <th scope="row" class="num">
                      {d.depth}
                    </th>
                    <td class="num">{n(d.concept_count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        />
      </section>

      <section aria-labelledby="mapping-heading" id="mapping">
        <h2 id="mapping-heading">Mapping coverage</h2>
        <p>
          {n(m.mapped_concepts)} of {plural(c.total_concepts, 'concept')} ({formatPercent(m.mapping_coverage_percentage)}) have a valid “Maps to” to another
          concept.
        </p>
        <Figure
          chart={
            c.total_concepts > 0 ? (
              <MappedShareBar
                id="chart-coverage"
                title={`Mapping coverage of ${id}`}
                description={`One bar split into the ${id} concepts mapped to another concept and those not mapped.`}
                mapped={m.mapped_concepts}
                unmapped={m.unmapped_concepts}
              />
            ) : null
          }
          caption="No concepts."
          table={
            <table class="data" id="coverage-table">
              <caption>Mapped and unmapped concepts</caption>
              <thead>
                <tr>
                  <th scope="col">Concepts</th>
                  <th scope="col" class="num">
                    Count
                  </th>
                  <th scope="col" class="num">
                    Share
                  </th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Mapped</th>
                  <td class="num">{n(m.mapped_concepts)}</td>
                  <td class="num">{formatPercent(m.mapping_coverage_percentage)}</td>
                </tr>
                <tr>
                  <th scope="row">Not mapped</th>
                  <td class="num">{n(m.unmapped_concepts)}</td>
                  <td class="num">{formatPercent(pct(m.unmapped_concepts, c.total_concepts))}</td>
                </tr>
              </tbody>
            </table>
          }
        />
        {m.target_vocabularies.length ? (
          <>
            <h3 id="targets-heading">Target vocabularies</h3>
            <Figure
              chart={
                <PercentBarChart
                  id="chart-targets"
                  title={`Share of ${id} concepts mapped into each vocabulary`}
                  description={`Horizontal bars, one per target vocabulary, long as the percentage of the ${id} concepts mapped into it.`}
                  data={m.target_vocabularies.map((t) => ({ label: t.target_vocabulary_id, value: t.coverage_percentage }))}
                />
              }
              table={
                <table class="data" id="target-table">
                  <caption>Mappings per target vocabulary (each links to the mapping quality of the pair)</caption>
                  <thead>
                    <tr>
                      <th scope="col">Target</th>
                      <th scope="col" class="num">
                        Mapping rows
                      </th>
                      <th scope="col" class="num">
                        Mapped concepts
                      </th>
                      <th scope="col" class="num">
                        Coverage
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {m.target_vocabularies.map((t) => (
                      <tr data-target={t.target_vocabulary_id}>
                        <th scope="row">
                          <a href={ctx.link('/mapping-quality', { source: id, target: t.target_vocabulary_id })}>{t.target_vocabulary_id}</a>
                        </th>
                        <td class="num">{n(t.mapping_count)}</td>
                        <td class="num">{n(t.mapped_concepts)}</td>
                        <td class="num">{formatPercent(t.coverage_percentage)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              }
            />
          </>
        ) : null}
      </section>

      <section aria-labelledby="classes-heading" id="classes">
        <h2 id="classes-heading">Concept classes</h2>
        <p>{plural(stats.concept_class_statistics.total_concept_classes, 'concept class', 'concept classes')}, largest first.</p>
        {classes.total ? (
          <>
            <table class="data" id="class-table">
              <caption class="visually-hidden">Concepts per concept class (each links to a search of its {id} concepts)</caption>
              <thead>
                <tr>
                  <th scope="col">Concept class</th>
                  <th scope="col">Id</th>
                  <th scope="col" class="num">
                    Concepts
                  </th>
                  <th scope="col" class="num">
                    Share
                  </th>
                </tr>
              </thead>
              <tbody>
                {classes.items.map((k) => (
                  <tr>
                    <th scope="row">
                      <a href={search({ concept_class: k.concept_class_id })}>{k.concept_class_name}</a>
                    </th>
                    <td>
                      <code>{k.concept_class_id}</code>
                    </td>
                    <td class="num">{n(k.concept_count)}</td>
                    <td class="num">{formatPercent(k.percentage)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager ctx={ctx} slice={classes} parameter="classes_page" anchor="classes" label="Concept classes" />
          </>
        ) : null}
      </section>

      <section aria-labelledby="relationships-heading" id="relationships">
        <h2 id="relationships-heading">Relationships</h2>
        <p>
          {n(stats.relationship_statistics.total_relationships)} valid relationship rows from {id} concepts, of{' '}
          {n(stats.relationship_statistics.unique_relationship_types)} types.
        </p>
        {relationships.total ? (
          <>
            <table class="data" id="relationship-table">
              <caption class="visually-hidden">Relationship rows per relationship type</caption>
              <thead>
                <tr>
                  <th scope="col">Relationship</th>
                  <th scope="col">Name</th>
                  <th scope="col" class="num">
                    Rows
                  </th>
                  <th scope="col" class="num">
                    Share
                  </th>
                </tr>
              </thead>
              <tbody>
                {relationships.items.map((r) => (
                  <tr>
                    <th scope="row">{r.relationship_id}</th>
                    <td>{r.relationship_name}</td>
                    <td class="num">{n(r.count)}</td>
                    <td class="num">{formatPercent(r.percentage)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager ctx={ctx} slice={relationships} parameter="relationships_page" anchor="relationships" label="Relationship types" />
          </>
        ) : null}
      </section>

      <section aria-labelledby="languages-heading" id="languages">
        <h2 id="languages-heading">Synonyms and languages</h2>
        <p>
          {n(stats.language_statistics.concepts_with_synonyms)} concepts have synonyms; {n(stats.language_statistics.multilingual_concepts)} in two or more
          languages. Primary language: {stats.language_statistics.primary_language}.
        </p>
        {stats.language_statistics.languages.length ? (
          <table class="data" id="language-table">
            <caption class="visually-hidden">Synonyms per language</caption>
            <thead>
              <tr>
                <th scope="col">Language</th>
                <th scope="col" class="num">
                  Synonyms
                </th>
                <th scope="col" class="num">
                  Concepts
                </th>
              </tr>
            </thead>
            <tbody>
              {stats.language_statistics.languages.map((l) => (
                <tr>
                  <th scope="row">{l.language_name ?? `Language concept ${l.language_concept_id}`}</th>
                  <td class="num">{n(l.synonym_count)}</td>
                  <td class="num">{n(l.concept_count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </section>

      <section aria-labelledby="quality-heading" id="quality">
        <h2 id="quality-heading">Quality indicators</h2>
        <table class="data" id="quality-table">
          <caption class="visually-hidden">Quality indicators of the vocabulary</caption>
          <thead>
            <tr>
              <th scope="col">Indicator</th>
              <th scope="col" class="num">
                Value
              </th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {(
              [
                ['Completeness score', formatScore(stats.quality_metrics.completeness_score), 'completeness_score'],
                ['Consistency score', formatScore(stats.quality_metrics.consistency_score), 'consistency_score'],
                ['Orphaned concepts', n(stats.quality_metrics.accuracy_indicators.orphaned_concepts), 'orphaned_concepts'],
                ['Duplicate codes', n(stats.quality_metrics.accuracy_indicators.duplicate_codes), 'duplicate_codes'],
                ['Missing descriptions', n(stats.quality_metrics.accuracy_indicators.missing_descriptions), 'missing_descriptions'],
              ] as const
            ).map(([label, value, key]) => (
              <tr>
                <th scope="row">{label}</th>
                <td class="num">{value}</td>
                <td class="hint">{stats.quality_metrics.definitions[key] ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="trend-heading" id="trend">
        <h2 id="trend-heading">Over time</h2>
        <h3 id="releases-trend-heading">Loaded releases</h3>
        <table class="data" id="release-trend-table">
          <caption class="visually-hidden">Concept counts of {id} in each loaded release, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Release</th>
              <th scope="col">Release date</th>
              <KindCountHeads />
              <th scope="col" class="num">
                Change
              </th>
            </tr>
          </thead>
          <tbody>
            {stats.release_trend.map((r) => (
              <tr aria-current={r.vocab_release === stats.vocab_release ? 'true' : undefined}>
                <th scope="row">
                  <a href={`/vocabularies/${encodeURIComponent(id)}?vocab_release=${encodeURIComponent(r.vocab_release)}`}>{r.vocab_release}</a>
                </th>
                <td>{r.release_date ?? ''}</td>
                <KindCountCells total={r.total_concepts} standard={r.standard_concepts} classification={r.classification_concepts} invalid={r.invalid_concepts} />
                <td class="num">{r.change_from_previous === null ? '–' : `${r.change_from_previous > 0 ? '+' : ''}${n(r.change_from_previous)}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3 id="years-heading">Concepts added per year</h3>
        <p class="hint">By the year of the concepts' valid_start_date (Athena dates concepts older than its history 1970-01-01).</p>
        <Figure
          chart={
            years.length ? (
              <Histogram
                id="chart-years"
                title={`Concepts of ${id} added per year`}
                description={`Columns, one per year from ${years[0]!.period} to ${years.at(-1)!.period}, tall as the number of concepts whose validity starts that year.`}
                xLabel="Year"
                data={years.map((y) => ({ label: y.period, value: y.concepts_added, tone: 'alt' }))}
              />
            ) : null
          }
          caption="No dated concepts."
          table={
            <details>
              <summary>Table of the yearly figures ({plural(years.length, 'year')})</summary>
              <table class="data" id="year-table">
                <caption class="visually-hidden">Concepts added, replaced and deprecated per year, and the running total</caption>
                <thead>
                  <tr>
                    <th scope="col">Year</th>
                    <th scope="col" class="num">
                      Added
                    </th>
                    <th scope="col" class="num">
                      Replaced
                    </th>
                    <th scope="col" class="num">
                      Deprecated
                    </th>
                    <th scope="col" class="num">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {years.map((y) => (
                    <tr>
                      <th scope="row">{y.period}</th>
                      <td class="num">{n(y.concepts_added)}</td>
                      <td class="num">{n(y.concepts_modified)}</td>
                      <td class="num">{n(y.concepts_deprecated)}</td>
                      <td class="num">{n(y.total_concepts)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </details>
          }
        />
      </section>

      {stats.notes.length ? (
        <section aria-labelledby="notes-heading" id="notes">
          <h2 id="notes-heading">Notes</h2>
          <ul>
            {stats.notes.map((note) => (
              <li>{note}</li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** part / whole × 100 with two decimals; null without a whole. */
function pct(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 100 : null;
}

/** The concept counts by kind that the vocabulary and the vocabulary-domain pages both print. */
interface KindCounts {
  total_concepts: number;
  standard_concepts: number;
  classification_concepts: number;
  non_standard_concepts: number;
  invalid_concepts: number;
}

/** Standard, classification and non-standard concepts: the share bar's parts and the kinds table's rows, each with its search filter. */
function conceptKinds(c: KindCounts) {
  return [
    { label: 'Standard', value: c.standard_concepts, tone: 'standard', params: { standard: 'S' } },
    { label: 'Classification', value: c.classification_concepts, tone: 'classification', params: { standard: 'C' } },
    { label: 'Non-standard', value: c.non_standard_concepts, tone: 'rest', params: { standard: 'N' } },
  ];
}

/** "Concepts by kind": each kind (and the invalid ones) with its count and share, linked to a search of those concepts. */
function KindsTable({ id, class: className, counts: c, search }: { id: string; class: string; counts: KindCounts; search: (params: Record<string, string>) => string }): VNode {
  return (
    <table class={className} id={id}>
      <caption>Concepts by kind</caption>
      <thead>
        <tr>
          <th scope="col">Kind</th>
          <th scope="col" class="num">
            Concepts
          </th>
          <th scope="col" class="num">
            Share
          </th>
        </tr>
      </thead>
      <tbody>
        {conceptKinds(c).map((k) => (
          <tr>
            <th scope="row">
              <a href={search(k.params)}>{k.label}</a>
            </th>
            <td class="num">{n(k.value)}</td>
            <td class="num">{formatPercent(pct(k.value, c.total_concepts))}</td>
          </tr>
        ))}
        <tr>
          <th scope="row">
            <a href={search({ validity: 'invalid' })}>Invalid (any kind)</a>
          </th>
          <td class="num">{n(c.invalid_concepts)}</td>
          <td class="num">{formatPercent(pct(c.invalid_concepts, c.total_concepts))}</td>
        </tr>
        <tr>
          <th scope="row">Total</th>
          <td class="num">{n(c.total_concepts)}</td>
          <td class="num">{c.total_concepts > 0 ? '100 %' : '–'}</td>
        </tr>
      </tbody>
    </table>
  );
}

/** The column heads of concept counts by kind, in a row of the vocabulary list and of the release trend. */
function KindCountHeads(): VNode {
  return (
    <>
      <th scope="col" class="num">
        Concepts
      </th>
      <th scope="col" class="num">
        Standard
      </th>
      <th scope="col" class="num">
        Classification
      </th>
      <th scope="col" class="num">
        Invalid
      </th>
    </>
  );
}

/** The cells under KindCountHeads. */
function KindCountCells({ total, standard, classification, invalid }: { total: number; standard: number; classification: number; invalid: number }): VNode {
  return (
    <>
      <td class="num">{n(total)}</td>
      <td class="num">{n(standard)}</td>
      <td class="num">{n(classification)}</td>
      <td class="num">{n(invalid)}</td>
    </>
  );
}
