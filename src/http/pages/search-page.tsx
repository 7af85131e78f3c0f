/**
 * `GET /search`: keyword search (E4 ranking, the service behind GET /v1/search/concepts) or semantic search (the
 * service behind GET /v1/search/semantic), with facet counts, paging and the matched words highlighted; the URL holds
 * the whole state. `GET /search/suggest`: the autocomplete fragment (the service behind GET /v1/search/suggest).
 * htmx swaps #search-results (and the form's #search-state) in place; without script every link and the form load
 * the whole page.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ComponentChildren, VNode } from 'preact';
import { Type } from 'typebox';
import { ServiceError } from '../../services/errors.js';
import type { ReleaseView } from '../../services/release-view.js';
import { PAGE_FACET_WINDOW, searchPageWithFacets, type FacetValue, type SearchFacets } from '../../services/search/facets.js';
import { searchConcepts, type ConceptSearchRecord } from '../../services/search/keyword-search.js';
import { MAX_QUERY_LENGTH } from '../../services/search/query-parser.js';
import type { SearchFilters, StandardFlag } from '../../services/search/search-filters.js';
import { suggestConcepts, SUGGEST_MAX_LENGTH, SUGGEST_MIN_LENGTH } from '../../services/search/suggest.js';
import { SEMANTIC_MAX_PAGE_SIZE, type SemanticResult } from '../../services/semantic/semantic-search.js';
import { contentTokens } from '../../search-model/stop-words.js';
import { tokenize } from '../../search-model/text-normalization.js';
import { computeHeavy } from '../plumbing/heavy-work.js';
import { AddToConceptSet } from './concept-set-controls.js';
import { highlight } from './highlight.js';
import { sendFragment, sendPage } from './layout.js';
import { pageContext, type PageContext, type PagesOptions } from './page-context.js';
import { formatNumber as number, ReleaseField, StandardBadge, standardLabel } from './page-parts.js';

export const SEARCH_PATH = '/search';
export const SUGGEST_PATH = '/search/suggest';
export const SEARCH_DEFAULT_PAGE_SIZE = 20;
/** A result row with its add-to-set form is about 1.2 kB: 50 rows keep a page's HTML near 70 kB. */
export const SEARCH_MAX_PAGE_SIZE = 50;
export const SEARCH_PAGE_SIZES = [10, 20, 50] as const;
/** The page shows results up to this depth: (page − 1) × page_size + page_size must not exceed it. */
export const KEYWORD_MAX_DEPTH = 10_000;
/** Semantic search scores a few thousand candidates at most; deeper pages would be empty. */
export const SEMANTIC_MAX_DEPTH = 1_000;
/** Autocomplete suggestions shown while typing. */
export const SUGGESTIONS_SHOWN = 10;
/** Facet values listed before the rest fold into "more"; at most FACET_VALUES_MAX per facet. */
const FACET_VALUES_OPEN = 10;
const FACET_VALUES_MAX = 100;

type Mode = 'keyword' | 'semantic';
type Validity = 'valid' | 'invalid' | 'all';

const StringList = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 });

const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: MAX_QUERY_LENGTH })),
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: SEARCH_MAX_PAGE_SIZE })),
  mode: Type.Optional(Type.Union([Type.Literal('keyword'), Type.Literal('semantic')])),
  domain: Type.Optional(StringList),
  vocabulary: Type.Optional(StringList),
  concept_class: Type.Optional(StringList),
  standard: Type.Optional(Type.Array(Type.Union([Type.Literal('S'), Type.Literal('C'), Type.Literal('N')]), { maxItems: 3 })),
  validity: Type.Optional(Type.Union([Type.Literal('valid'), Type.Literal('invalid'), Type.Literal('all')])),
  vocab_release: Type.Optional(Type.String()),
});

interface SearchQuerystring {
  q?: string;
  page?: number;
  page_size?: number;
  mode?: Mode;
  domain?: string[];
  vocabulary?: string[];
  concept_class?: string[];
  standard?: StandardFlag[];
  validity?: Validity;
}

const SuggestQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: MAX_QUERY_LENGTH })),
  domain: Type.Optional(StringList),
  vocabulary: Type.Optional(StringList),
  concept_class: Type.Optional(StringList),
  standard: Type.Optional(Type.Array(Type.Union([Type.Literal('S'), Type.Literal('C'), Type.Literal('N')]), { maxItems: 3 })),
  vocab_release: Type.Optional(Type.String()),
});

/** The state of a search page: everything its URL says. */
interface SearchState {
  q: string;
  mode: Mode;
  page: number;
  pageSize: number;
  domain: string[];
  vocabulary: string[];
  conceptClass: string[];
  standard: StandardFlag[];
  /** undefined = the default (valid concepts only). */
  validity: Validity | undefined;
}

function stateOf(q: SearchQuerystring): SearchState {
  const distinct = <T,>(values: readonly T[] | undefined) => [...new Set(values ?? [])];
  return {
    q: (q.q ?? '').trim(),
    mode: q.mode ?? 'keyword',
    page: q.page ?? 1,
    pageSize: q.page_size ?? SEARCH_DEFAULT_PAGE_SIZE,
    domain: distinct(q.domain),
    vocabulary: distinct(q.vocabulary),
    conceptClass: distinct(q.concept_class),
    standard: distinct(q.standard),
    validity: q.validity === 'valid' ? undefined : q.validity,
  };
}

/** The URL of a state (defaults left out, so equal states have equal URLs). */
function searchUrl(ctx: PageContext, s: SearchState): string {
  return ctx.link(SEARCH_PATH, {
    q: s.q,
    mode: s.mode === 'keyword' ? undefined : s.mode,
    domain: s.domain,
    vocabulary: s.vocabulary,
    concept_class: s.conceptClass,
    standard: s.standard,
    validity: s.validity,
    page_size: s.pageSize === SEARCH_DEFAULT_PAGE_SIZE ? undefined : s.pageSize,
    page: s.page > 1 ? s.page : undefined,
  });
}

function filtersOf(s: SearchState): SearchFilters {
  return {
    vocabularyIds: s.vocabulary.length ? s.vocabulary : undefined,
    domainIds: s.domain.length ? s.domain : undefined,
    conceptClassIds: s.conceptClass.length ? s.conceptClass : undefined,
    standardConcepts: s.standard.length ? s.standard : undefined,
    includeInvalid: s.validity === 'invalid' || s.validity === 'all',
    invalidOnly: s.validity === 'invalid' ? true : undefined,
  };
}

/** The results a page of this state shows: semantic search serves at most SEMANTIC_MAX_PAGE_SIZE. */
const servedPageSize = (s: SearchState) => (s.mode === 'semantic' ? Math.min(s.pageSize, SEMANTIC_MAX_PAGE_SIZE) : s.pageSize);
/** How deep into the results the pages of this mode go. */
const maxDepth = (s: SearchState) => (s.mode === 'semantic' ? SEMANTIC_MAX_DEPTH : KEYWORD_MAX_DEPTH);

function checkDepth(s: SearchState): void {
  const depth = maxDepth(s);
  const pageSize = servedPageSize(s);
  if ((s.page - 1) * pageSize + pageSize > depth) {
    const last = Math.floor(depth / pageSize);
    throw new ServiceError(
      400,
      'validation_error',
      `Invalid query parameter 'page': ${s.mode} search pages show the best ${depth.toLocaleString('en-US')} results, so with page_size ${pageSize} the last page is ${last} (got ${s.page}). Narrow the search with filters instead.`,
      { parameter: 'page' },
    );
  }
}

/** One result row, whichever search found it. */
interface Row {
  concept: Pick<ConceptSearchRecord, 'concept_id' | 'concept_name' | 'concept_code' | 'vocabulary_id' | 'domain_id' | 'concept_class_id' | 'standard_concept'> & {
    invalid_reason?: ConceptSearchRecord['invalid_reason'];
  };
  /** Semantic search: the score and the name or synonym that matched. */
  similarity?: number;
  matchedText?: string;
}

interface Outcome {
  rows: Row[];
  /** Exact total (keyword), or the results known so far (semantic, `totalIsLowerBound`). */
  total: number;
  totalIsLowerBound: boolean;
  hasNext: boolean;
  words: string[];
  facets: SearchFacets | null;
  /** Facet counts cover this many best results of `facetTotal` (keyword: FACET_WINDOW). */
  facetCounted: number;
  facetTotal: number;
  validityCounts: Record<'valid' | 'invalid', number> | null;
  /** The search text after a whole-query abbreviation was expanded (when it was). */
  expandedTo: string | null;
}

function keywordSearch(view: ReleaseView, s: SearchState): Outcome {
  const filters = filtersOf(s);
  const { page: result, facets } = searchPageWithFacets(view, {
    query: s.q,
    filters,
    page: s.page,
    pageSize: s.pageSize,
    queryRules: { parameter: 'q' },
    facetWindow: PAGE_FACET_WINDOW,
  });
  const total = result.total ?? 0;
  // The validity facet: valid and invalid totals with the other filters (one of them is this search's total).
  const countWith = (validity: 'valid' | 'invalid') =>
    searchConcepts(view, { query: s.q, filters: filtersOf({ ...s, validity: validity === 'valid' ? undefined : validity }), page: 1, pageSize: 1 }).total ?? 0;
  const valid = s.validity === undefined ? total : countWith('valid');
  const invalid = s.validity === 'invalid' ? total : countWith('invalid');
  return {
    rows: result.items.map((concept) => ({ concept })),
    total,
    totalIsLowerBound: false,
    hasNext: s.page * s.pageSize < total,
    words: result.query.phrasings.flatMap((p) => p.requiredTokens),
    facets: facets.facets,
    facetCounted: facets.counted_results,
    facetTotal: facets.total_results,
    validityCounts: { valid, invalid },
    expandedTo: result.query.abbreviation ? result.query.phrasings.map((p) => p.text).join(' / ') : null,
  };
}

async function meaningSearch(request: FastifyRequest, s: SearchState): Promise<Outcome> {
  const pageSize = servedPageSize(s);
  const result = await computeHeavy(request, 'semanticSearch', request.view, { query: s.q, filters: filtersOf(s), page: s.page, pageSize, withFacets: true });
  const known = result.totalAboveThreshold;
  const hasNext = known > s.page * pageSize;
  const tokens = tokenize(result.enhancement.enhanced_query);
  const content = contentTokens(tokens);
  return {
    rows: result.results.map((r: SemanticResult) => ({ concept: r, similarity: r.similarity_score, matchedText: r.matched_text })),
    total: known,
    totalIsLowerBound: hasNext,
    hasNext,
    words: content.length ? content : tokens,
    facets: result.facets ?? null,
    facetCounted: known,
    facetTotal: known,
    validityCounts: null,
    expandedTo: result.enhancement.abbreviations_expanded.length ? result.enhancement.enhanced_query : null,
  };
}


/** `reason` undefined: the result does not say (semantic results); `known` then tells whether it is invalid. */
function InvalidBadge({ reason, known }: { reason: 'D' | 'U' | null | undefined; known: boolean }): VNode | null {
  if (reason === 'D') return <span class="badge invalid">Invalid: deprecated</span>;
  if (reason === 'U') return <span class="badge invalid">Invalid: replaced</span>;
  return known ? <span class="badge invalid">Invalid</span> : null;
}

/** How htmx swaps a new page of results in: #search-results taken from the answer, #search-state beside it, the URL pushed. */
const RESULTS_SWAP = {
  'hx-target': '#search-results',
  'hx-select': '#search-results',
  'hx-swap': 'outerHTML',
  'hx-select-oob': '#search-state',
  'hx-push-url': 'true',
};

/** Every link inside #search-results is also an htmx request that swaps the results in place (attributes inherited). */
const swapLink = (href: string) => ({ href, 'hx-get': href });

function FacetList({
  ctx,
  state,
  title,
  id,
  values,
  selected,
  toggle,
  label,
}: {
  ctx: PageContext;
  state: SearchState;
  title: string;
  id: string;
  values: FacetValue[] | null;
  selected: readonly string[];
  toggle: (s: SearchState, value: string) => SearchState;
  label?: (v: FacetValue | { value: string }) => string;
}): VNode | null {
  const counted = new Map((values ?? []).map((v) => [v.value, v]));
  // Selected values first (a selected value may have no result left, it must still be removable), then the others.
  const entries: Array<{ value: string; count: number | null; selected: boolean; item: FacetValue | { value: string } }> = [
    ...selected.map((value) => ({ value, count: counted.get(value)?.count ?? (values ? 0 : null), selected: true, item: counted.get(value) ?? { value } })),
    ...(values ?? []).filter((v) => !selected.includes(v.value)).slice(0, FACET_VALUES_MAX).map((v) => ({ value: v.value, count: v.count, selected: false, item: v })),
  ];
  if (entries.length === 0) return null;
  const item = (e: (typeof entries)[number]) => {
    const next = toggle({ ...state, page: 1 }, e.value);
    const text = label ? label(e.item) : e.value;
    return (
      <li class={e.selected ? 'selected' : undefined}>
        <a {...swapLink(searchUrl(ctx, next))} aria-current={e.selected ? 'true' : undefined}>
          {e.selected ? <span class="visually-hidden">Remove filter: </span> : null}
          {text}
        </a>
        {e.count !== null ? <span class="count">{number(e.count)}</span> : null}
      </li>
    );
  };
  const open = entries.slice(0, Math.max(FACET_VALUES_OPEN, selected.length));
  const folded = entries.slice(open.length);
  return (
    <section class="facet" aria-labelledby={`facet-${id}`}>
      <h3 id={`facet-${id}`}>{title}</h3>
      <ul>{open.map(item)}</ul>
      {folded.length ? (
        <details>
          <summary>{`${folded.length} more`}</summary>
          <ul>{folded.map(item)}</ul>
        </details>
      ) : null}
    </section>
  );
}

const toggled = (list: readonly string[], value: string) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

/** The multiple-choice facets, in the order the page lists them: the state field each sets and the facet counts it shows. */
const FACETS = [
  { title: 'Domain', id: 'domain', field: 'domain', counts: 'domains' },
  { title: 'Vocabulary', id: 'vocabulary', field: 'vocabulary', counts: 'vocabularies' },
  { title: 'Concept class', id: 'concept-class', field: 'conceptClass', counts: 'concept_classes' },
  { title: 'Standard', id: 'standard', field: 'standard', counts: 'standard_concepts' },
] as const satisfies ReadonlyArray<{ title: string; id: string; field: keyof SearchState; counts: keyof SearchFacets }>;

function Facets({ ctx, state, outcome }: { ctx: PageContext; state: SearchState; outcome: Outcome }): VNode {
  const f = outcome.facets;
  const anyFilter = state.domain.length + state.vocabulary.length + state.conceptClass.length + state.standard.length > 0 || state.validity !== undefined;
  const validityValues: FacetValue[] | null = outcome.validityCounts
    ? [
        { value: 'valid', count: outcome.validityCounts.valid },
        { value: 'invalid', count: outcome.validityCounts.invalid },
      ]
    : null;
  const currentValidity = state.validity ?? 'valid';
  return (
    <aside class="facets" aria-labelledby="facets-heading">
      <h2 id="facets-heading">Filter</h2>
      {anyFilter ? (
        <p>
          <a {...swapLink(searchUrl(ctx, { ...state, page: 1, domain: [], vocabulary: [], conceptClass: [], standard: [], validity: undefined }))}>Clear all filters</a>
        </p>
      ) : null}
      {f && outcome.facetCounted < outcome.facetTotal ? (
        <p class="hint">Counts cover the best {number(outcome.facetCounted)} of {number(outcome.facetTotal)} results.</p>
      ) : null}
      {outcome.totalIsLowerBound ? <p class="hint">Counts cover the {number(outcome.facetCounted)} results found so far.</p> : null}
      {FACETS.map((facet) => (
        <FacetList
          ctx={ctx}
          state={state}
          title={facet.title}
          id={facet.id}
          values={f?.[facet.counts] ?? null}
          selected={state[facet.field]}
          toggle={(s, v) => ({ ...s, [facet.field]: toggled(s[facet.field], v) })}
          label={facet.field === 'standard' ? (v) => standardLabel(v.value) : undefined}
        />
      ))}
      {/* Validity is one choice: valid (the default), invalid, or both. */}
      <section class="facet" aria-labelledby="facet-validity">
        <h3 id="facet-validity">Validity</h3>
        <ul>
          {(['valid', 'invalid', 'all'] as const).map((v) => {
            const count =
              v === 'all' ? (validityValues ? validityValues[0]!.count + validityValues[1]!.count : null) : (validityValues?.find((x) => x.value === v)?.count ?? null);
            const selected = currentValidity === v;
            return (
              <li class={selected ? 'selected' : undefined}>
                <a {...swapLink(searchUrl(ctx, { ...state, page: 1, validity: v === 'valid' ? undefined : v }))} aria-current={selected ? 'true' : undefined}>
                  {v === 'valid' ? 'Valid' : v === 'invalid' ? 'Invalid' : 'Valid and invalid'}
                </a>
                {count !== null ? <span class="count">{number(count)}</span> : null}
              </li>
            );
          })}
        </ul>
      </section>
    </aside>
  );
}

function ResultTable({ ctx, state, outcome }: { ctx: PageContext; state: SearchState; outcome: Outcome }): VNode {
  const semantic = state.mode === 'semantic';
  const codeMatches = (code: string) => code.toLowerCase() === state.q.toLowerCase();
  return (
    <div class="table-scroll">
      <table class="data results">
        <caption class="visually-hidden">Search results, best first</caption>
        <thead>
          <tr>
            <th scope="col">Concept</th>
            <th scope="col" class="num">
              Concept id
            </th>
            <th scope="col">Code</th>
            <th scope="col">Vocabulary</th>
            <th scope="col">Domain</th>
            <th scope="col">Class</th>
            <th scope="col">Status</th>
            {semantic ? (
              <th scope="col" class="num">
                Similarity
              </th>
            ) : null}
            <th scope="col">Concept set</th>
          </tr>
        </thead>
        <tbody>
          {outcome.rows.map(({ concept: c, similarity, matchedText }) => (
            <tr>
              <th scope="row" class="name">
                <a href={ctx.link(`/concepts/${c.concept_id}`)}>{highlight(c.concept_name, outcome.words)}</a>
                {matchedText !== undefined && matchedText !== c.concept_name ? (
                  <span class="hint matched">
                    {' '}
                    matched: {highlight(matchedText, outcome.words)}
                  </span>
                ) : null}
              </th>
              <td class="num">{c.concept_id}</td>
              <td>
                <code>{codeMatches(c.concept_code) ? <mark>{c.concept_code}</mark> : c.concept_code}</code>
              </td>
              <td>{c.vocabulary_id}</td>
              <td>{c.domain_id}</td>
              <td>{c.concept_class_id}</td>
              <td>
                <StandardBadge flag={c.standard_concept} /> <InvalidBadge reason={c.invalid_reason} known={c.invalid_reason === undefined && state.validity === 'invalid'} />
              </td>
              {semantic ? <td class="num">{similarity?.toFixed(2)}</td> : null}
              <td class="set">
                <AddToConceptSet ctx={ctx} conceptId={c.concept_id} label={c.concept_name} compact />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Pager({ ctx, state, outcome }: { ctx: PageContext; state: SearchState; outcome: Outcome }): VNode {
  const pageSize = servedPageSize(state);
  const lastServed = Math.floor(maxDepth(state) / pageSize);
  const pages = outcome.totalIsLowerBound ? null : Math.max(1, Math.ceil(outcome.total / pageSize));
  const hasNext = outcome.hasNext && state.page < lastServed;
  return (
    <nav class="pager" aria-label="Result pages">
      {state.page > 1 ? (
        <a {...swapLink(searchUrl(ctx, { ...state, page: state.page - 1 }))} rel="prev">
          ← Previous
        </a>
      ) : (
        <span class="hint">← Previous</span>
      )}
      <span>{pages !== null ? `Page ${number(state.page)} of ${number(pages)}` : `Page ${number(state.page)}`}</span>
      {hasNext ? (
        <a {...swapLink(searchUrl(ctx, { ...state, page: state.page + 1 }))} rel="next">
          Next →
        </a>
      ) : (
        <span class="hint">Next →</span>
      )}
    </nav>
  );
}

function Results({ ctx, state, outcome, error }: { ctx: PageContext; state: SearchState; outcome: Outcome | null; error: ServiceError | null }): VNode {
  // The htmx settings every link inside inherits; the form (outside) carries the same ones.
  const swap = { id: 'search-results', ...RESULTS_SWAP };
  if (error) {
    return (
      <div {...swap}>
        <p role="alert" class="error">
          {error.message}
        </p>
        {error.status === 503 && state.mode === 'semantic' ? (
          <p>
            <a {...swapLink(searchUrl(ctx, { ...state, mode: 'keyword', page: 1 }))}>Search by keyword instead</a>
          </p>
        ) : null}
      </div>
    );
  }
  if (!outcome) {
    return (
      <div {...swap}>
        <p class="hint">
          Type words of a name or synonym (every word must match, as a word, its beginning or a part of it), a concept code (E11.9, 44054006) or a concept id. Or
          choose <em>Meaning</em> to find concepts by what they mean ("heart attack" finds Myocardial infarction).
        </p>
      </div>
    );
  }
  const first = (state.page - 1) * servedPageSize(state) + 1;
  const last = first + outcome.rows.length - 1;
  const of = outcome.totalIsLowerBound ? `of at least ${number(outcome.total)}` : `of ${number(outcome.total)}`;
  return (
    <div {...swap}>
      <div class="layout-2">
        <Facets ctx={ctx} state={state} outcome={outcome} />
        <section class="results-section" aria-labelledby="results-heading">
          <h2 id="results-heading">Results</h2>
          <p class="summary" role="status">
            {outcome.rows.length > 0
              ? `Results ${number(first)}–${number(last)} ${of} for “${state.q}”`
              : outcome.total > 0
                ? `No results on page ${number(state.page)}: there are ${number(outcome.total)} results for “${state.q}”.`
                : `No results for “${state.q}”.`}
            {outcome.expandedTo ? ` (searched as “${outcome.expandedTo}”)` : ''}
            {state.mode === 'semantic' ? ' · by meaning' : ''}
          </p>
          {outcome.rows.length > 0 ? <ResultTable ctx={ctx} state={state} outcome={outcome} /> : null}
          {outcome.rows.length === 0 && outcome.total > 0 ? (
            <p>
              <a {...swapLink(searchUrl(ctx, { ...state, page: 1 }))}>First page</a>
            </p>
          ) : null}
          {outcome.hasNext || state.page > 1 ? <Pager ctx={ctx} state={state} outcome={outcome} /> : null}
        </section>
      </div>
    </div>
  );
}

/** The search form: a GET form (bookmarkable), enhanced by htmx; the filters travel in #search-state. */
function SearchForm({ ctx, state }: { ctx: PageContext; state: SearchState }): VNode {
  const suggestUrl = ctx.link(SUGGEST_PATH, { domain: state.domain, vocabulary: state.vocabulary, concept_class: state.conceptClass, standard: state.standard });
  const hidden = (name: string, values: readonly string[]) => values.map((v) => <input type="hidden" name={name} value={v} />);
  return (
    <form
      id="search-form"
      class="search-form"
      method="get"
      action={SEARCH_PATH}
      role="search"
      hx-get={SEARCH_PATH}
      {...RESULTS_SWAP}
      hx-disinherit="*"
    >
      <ReleaseField ctx={ctx} />
      <div class="search-box">
        <label for="search-q">Search for</label>
        <div class="search-q">
          <input
            id="search-q"
            name="q"
            type="search"
            value={state.q}
            maxLength={MAX_QUERY_LENGTH}
            autocomplete="off"
            placeholder="e.g. type 2 diabetes, 44054006, E11.9"
            hx-get={suggestUrl}
            hx-trigger="input changed delay:250ms"
            hx-target="#search-suggestions"
            hx-swap="innerHTML"
            hx-sync="closest form:abort"
          />
          <ul id="search-suggestions" class="suggestions" aria-label="Suggestions"></ul>
        </div>
        <button type="submit" class="primary">
          Search
        </button>
      </div>
      <div id="search-state" class="row search-options">
        {hidden('domain', state.domain)}
        {hidden('vocabulary', state.vocabulary)}
        {hidden('concept_class', state.conceptClass)}
        {hidden('standard', state.standard)}
        {state.validity ? <input type="hidden" name="validity" value={state.validity} /> : null}
        <fieldset class="choice">
          <legend>Match by</legend>
          <input type="radio" id="mode-keyword" name="mode" value="keyword" checked={state.mode === 'keyword'} />
          <label for="mode-keyword">Words and codes</label>
          <input type="radio" id="mode-semantic" name="mode" value="semantic" checked={state.mode === 'semantic'} />
          <label for="mode-semantic">Meaning</label>
        </fieldset>
        <label for="search-page-size">Per page</label>
        <select id="search-page-size" name="page_size">
          {[...new Set([...SEARCH_PAGE_SIZES, state.pageSize])]
            .sort((a, b) => a - b)
            .map((n) => (
              <option value={String(n)} selected={n === state.pageSize}>
                {n}
              </option>
            ))}
        </select>
      </div>
    </form>
  );
}

/** A page-level 400 about the query text: shown on the search page itself, so the text can be corrected there. */
function isQueryError(err: unknown): err is ServiceError {
  return err instanceof ServiceError && err.status === 400 && (err.details?.parameter === 'q' || err.details?.parameter === 'query');
}

export function registerSearchPages(app: FastifyInstance, options: PagesOptions): void {
  app.get<{ Querystring: SearchQuerystring }>(SEARCH_PATH, { config: { page: 'signed-in' }, schema: { hide: true, querystring: SearchQuery } }, async (request, reply) => {
    const ctx = pageContext(request, options);
    const state = stateOf(request.query);
    let outcome: Outcome | null = null;
    let error: ServiceError | null = null;
    if (state.q !== '') {
      checkDepth(state);
      try {
        outcome = state.mode === 'semantic' ? await meaningSearch(request, state) : keywordSearch(request.view, state);
      } catch (err) {
        if (isQueryError(err)) error = new ServiceError(400, 'validation_error', `Invalid query parameter 'q': ${err.message}`, { parameter: 'q' });
        else if (err instanceof ServiceError && err.code === 'semantic_unavailable') error = err;
        else throw err;
      }
    }
    const body: ComponentChildren = [
      <h1>Search concepts</h1>,
      <SearchForm ctx={ctx} state={state} />,
      <Results ctx={ctx} state={state} outcome={outcome} error={error} />,
    ];
    return sendPage(reply, ctx, {
      title: state.q ? `${state.q} · Search` : 'Search',
      section: 'search',
      status: error?.status ?? 200,
      body,
    });
  });

  app.get<{ Querystring: Omit<SearchQuerystring, 'page' | 'page_size' | 'mode' | 'validity'> }>(
    SUGGEST_PATH,
    { config: { page: 'signed-in' }, schema: { hide: true, querystring: SuggestQuery } },
    async (request, reply) => {
      const ctx = pageContext(request, options);
      const state = stateOf(request.query);
      const length = [...state.q].length;
      // Too short or too long to suggest anything: an empty list (the field is still being typed).
      if (length < SUGGEST_MIN_LENGTH || length > SUGGEST_MAX_LENGTH) return sendFragment(reply, <Suggestions ctx={ctx} items={[]} words={[]} />);
      let items: ConceptSearchRecord[] = [];
      let words: string[] = [];
      try {
        const { invalidOnly: _unused, includeInvalid: _valid, ...filters } = filtersOf(state);
        const result = suggestConcepts(request.view, { query: state.q, filters, page: 1, pageSize: SUGGESTIONS_SHOWN });
        items = result.items;
        words = contentTokens(tokenize(state.q));
      } catch (err) {
        if (!isQueryError(err)) throw err;
      }
      return sendFragment(reply, <Suggestions ctx={ctx} items={items} words={words} />);
    },
  );
}

/** The suggestions: list items (htmx puts them into #search-suggestions), each a link to its concept page. */
function Suggestions({ ctx, items, words }: { ctx: PageContext; items: ConceptSearchRecord[]; words: string[] }): VNode {
  return (
    <>
      {items.map((c) => (
        <li>
          <a href={ctx.link(`/concepts/${c.concept_id}`)}>
            {highlight(c.concept_name, words)} <span class="hint">{`${c.vocabulary_id} ${c.concept_code} · ${c.concept_id}`}</span>
          </a>
        </li>
      ))}
    </>
  );
}
