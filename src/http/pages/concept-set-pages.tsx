/**
 * The concept-set builder (issue 23): a set kept in the browser session, built from the "Add to set" forms of search
 * results and concept pages (POST /concept-set/items) or imported (ATLAS JSON or CSV), shown with its resolution and
 * exported as ATLAS JSON, CSV or a FHIR ValueSet. Every answer comes from the concept-set services the REST routes
 * call (resolve, optimize, compare, diff, to-valueset) with the request's release view; every control is a plain
 * form (Post/Redirect/Get back to GET /concept-set, keeping vocab_release), so the page works without JavaScript.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { atlasCsvOfExpression } from '../../services/concept-sets/concept-set-export.js';
import { diffConceptSet, type ConceptChange, type ConceptSetDiff } from '../../services/concept-sets/concept-set-diff.js';
import {
  compareConceptSets,
  optimizeConceptSet,
  resolveConceptSetPage,
  type Comparison,
  type Optimization,
  type ResolvedPage,
} from '../../services/concept-sets/concept-set-operations.js';
import { conceptSetValueSet, fhirVersionOf } from '../../services/concept-sets/concept-set-value-set.js';
import { MAX_EXPRESSION_ITEMS, readExpression, toAtlasJson, type ConceptSetExpression, type ConceptSetItem } from '../../services/concept-sets/expression-formats.js';
import { ServiceError, validationError } from '../../services/errors.js';
import type { ReleaseView } from '../../services/release-view.js';
import type { ConceptRecord } from '../../store/records.js';
import type { StateStore } from '../../state/state-store.js';
import { localReturnPath } from '../plumbing/gatekeeper.js';
import { resolveRelease } from '../plumbing/release-resolution.js';
import { ADD_TO_SET_PATH } from './concept-set-controls.js';
import { readBuilderSets, tooLarge, writeBuilderSets } from './concept-set-session.js';
import { CsrfField, sendPage } from './layout.js';
import { badField, checkbox, formOf, textField, type Form } from './form-fields.js';
import { pageContext, type PageContext, type PagesOptions } from './page-context.js';
import { formatNumber as number, ReleaseField, SectionLink, standardLabel } from './page-parts.js';

export const BUILDER_PATH = '/concept-set';
/** Resolved concepts a page lists. */
export const RESOLVED_PAGE_SIZE = 50;
/** Highest page number of the resolved list (50 × 10,000 = 500,000 concepts). */
export const MAX_RESOLVED_PAGE = 10_000;
/** Items the items table shows a page (a set holds at most MAX_EXPRESSION_ITEMS = 10,000: 200 pages). */
export const ITEMS_PAGE_SIZE = 50;
const MAX_ITEMS_PAGE = Math.ceil(MAX_EXPRESSION_ITEMS / ITEMS_PAGE_SIZE);
/** Concepts shown of each part of a comparison, and of the gains and losses of a release diff. */
export const COMPARE_SAMPLE = 10;
export const DIFF_SAMPLE = 20;
/** Removed items the optimise preview lists (the rest are counted). */
export const OPTIMIZE_SAMPLE = 50;
const MAX_RETURN_PATH = 2000;

const expressionOf = (items: ConceptSetItem[]): ConceptSetExpression => ({ format: 'atlas-json', items });






/** The three flags of an item, from its form's checkboxes. */
function itemFlags(form: Form): Omit<ConceptSetItem, 'conceptId'> {
  return { isExcluded: checkbox(form, 'is_excluded'), includeDescendants: checkbox(form, 'include_descendants'), includeMapped: checkbox(form, 'include_mapped') };
}

function conceptIdField(form: Form, name = 'concept_id'): number {
  const value = textField(form, name, 20);
  if (value === undefined || value.trim() === '') throw badField(name, 'required.');
  const text = value.trim();
  const id = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(id) || id > 0x7fffffff) throw badField(name, `must be a concept id (an integer from 0 to 2147483647), got ${JSON.stringify(value.slice(0, 40))}.`);
  return id;
}

function indexField(form: Form, items: readonly ConceptSetItem[]): number {
  const value = textField(form, 'index', 10);
  const index = value !== undefined && /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(index)) throw badField('index', 'must be the item number (an integer from 0).');
  const conceptId = conceptIdField(form);
  if (index >= items.length || items[index]!.conceptId !== conceptId) {
    throw new ServiceError(409, 'conflict', `Item ${index} of the set is no longer concept ${conceptId} (the set changed in another tab?): reload the builder and try again.`);
  }
  return index;
}

/** A local path to go back to after adding an item (never another origin, no control characters). */
function returnPath(form: Form): string {
  const value = textField(form, 'return_to', MAX_RETURN_PATH);
  if (value === undefined || value === '') return BUILDER_PATH;
  // A Location header holds printable ASCII only (a browser sends its paths percent-encoded).
  if (!/^[\x21-\x7e]+$/.test(value)) throw badField('return_to', 'must be a path on this server (printable ASCII, percent-encoded).');
  return localReturnPath(value);
}

interface BuilderQuery {
  /** Page of the resolved concepts. */
  page: number;
  /** Page of the items table. */
  itemsPage: number;
  optimize: boolean;
  diffTo?: string;
}

/** A link to the builder with the page's state (both pages, optimise preview, diff release) and these changes. */
function builderLink(ctx: PageContext, query: BuilderQuery, changes: Partial<BuilderQuery> = {}): string {
  const q = { ...query, ...changes };
  return ctx.link(BUILDER_PATH, {
    items_page: q.itemsPage > 1 ? q.itemsPage : undefined,
    page: q.page > 1 ? q.page : undefined,
    optimize: q.optimize ? 1 : undefined,
    diff_to: q.diffTo,
  });
}

function queryParameter(request: FastifyRequest, name: string, maxLength: number): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw validationError(`Invalid query parameter '${name}': give it once.`, { parameter: name });
  if (value.length > maxLength) throw validationError(`Invalid query parameter '${name}': at most ${maxLength} characters.`, { parameter: name });
  return value;
}

function pageNumber(request: FastifyRequest, name: string, max: number): number {
  const text = queryParameter(request, name, 12);
  const page = text === undefined || text === '' ? 1 : /^\d{1,6}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(page) || page < 1 || page > max) {
    throw validationError(`Invalid query parameter '${name}': must be an integer from 1 to ${max}, got ${JSON.stringify(text)}.`, { parameter: name });
  }
  return page;
}

function builderQuery(request: FastifyRequest): BuilderQuery {
  const page = pageNumber(request, 'page', MAX_RESOLVED_PAGE);
  const itemsPage = pageNumber(request, 'items_page', MAX_ITEMS_PAGE);
  const optimizeText = queryParameter(request, 'optimize', 10);
  if (optimizeText !== undefined && !['', '1', 'true', '0', 'false'].includes(optimizeText)) {
    throw validationError(`Invalid query parameter 'optimize': must be 1 or true, got ${JSON.stringify(optimizeText)}.`, { parameter: 'optimize' });
  }
  const diffTo = queryParameter(request, 'diff_to', 100)?.trim();
  return { page, itemsPage, optimize: optimizeText === '1' || optimizeText === 'true', diffTo: diffTo || undefined };
}

/** The concepts with these ids that the caller may see, by id. */
function visibleConcepts(view: ReleaseView, ids: readonly number[]): Map<number, ConceptRecord> {
  return new Map(view.concepts([...new Set(ids)]).map((c) => [c.concept_id, c]));
}

/** Previous / next links of a paged section (nothing when it fits on one page); `last` is the last page there is a link to. */
function SectionPager({
  label,
  section,
  page,
  pages,
  last = pages,
  link,
  words,
}: {
  label: string;
  section: string;
  page: number;
  pages: number;
  last?: number;
  link: (page: number) => string;
  words: { previous: string; next: string; page: string };
}): VNode | null {
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label={label}>
      {page > 1 ? (
        <SectionLink href={link(page - 1)} section={section} rel="prev">
          {words.previous}
        </SectionLink>
      ) : null}
      <span>
        {words.page} {number(page)} of {number(pages)}
      </span>
      {page < pages && page < last ? (
        <SectionLink href={link(page + 1)} section={section} rel="next">
          {words.next}
        </SectionLink>
      ) : null}
    </nav>
  );
}

/** The text box of a pasted expression and the file input that fills it (with JavaScript). */
function ExpressionField({ id, label, rows }: { id: string; label: string; rows: number }): VNode {
  return (
    <>
      <label for={`${id}-expression`}>{label}</label>
      <textarea id={`${id}-expression`} name="expression" required rows={rows} spellcheck={false}></textarea>
      <label for={`${id}-file`}>…or read it from a file (fills the box above; needs JavaScript)</label>
      <input type="file" id={`${id}-file`} accept=".json,.csv,application/json,text/csv" data-fill={`${id}-expression`} />
    </>
  );
}

function ConceptLink({ ctx, id }: { ctx: PageContext; id: number }): VNode {
  return <a href={ctx.link(`/concepts/${id}`)}>{String(id)}</a>;
}

function Flags({ item }: { item: ConceptSetItem }): VNode {
  const words = [item.isExcluded ? 'excluded' : 'included', item.includeDescendants ? 'with descendants' : '', item.includeMapped ? 'with mapped' : ''].filter(Boolean);
  return <span>{words.join(', ')}</span>;
}

/** The items table: each item's concept, status and contribution, its three flags (editable) and a remove button. */
function ItemsSection({
  ctx,
  query,
  items,
  resolved,
  concepts,
}: {
  ctx: PageContext;
  query: BuilderQuery;
  items: ConceptSetItem[];
  resolved: ResolvedPage;
  concepts: Map<number, ConceptRecord>;
}): VNode {
  const first = (query.itemsPage - 1) * ITEMS_PAGE_SIZE;
  const shown = items.slice(first, first + ITEMS_PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(items.length / ITEMS_PAGE_SIZE));
  return (
    <section aria-labelledby="items-heading" id="items-section">
      <h2 id="items-heading">Items ({number(items.length)})</h2>
      {items.length === 0 ? (
        <p id="empty-set">
          The set is empty. Add concepts with <strong>Add to set</strong> on <a href={ctx.link('/search')}>search results</a> and concept pages, or
          <a href="#import-heading">import</a> an ATLAS expression or CSV.
        </p>
      ) : (
        <table class="data" id="set-items">
          <caption class={pages > 1 ? undefined : 'visually-hidden'}>
            Items {number(first + 1)}–{number(first + shown.length)} of {number(items.length)}, with their flags
          </caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                #
              </th>
              <th scope="col">Concept</th>
              <th scope="col">Name</th>
              <th scope="col">Vocabulary</th>
              <th scope="col" class="num">
                Concepts
              </th>
              <th scope="col">Flags</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((item, at) => {
              const index = first + at;
              const concept = concepts.get(item.conceptId);
              const outcome = resolved.summary.items[index];
              const status = outcome?.status ?? 'resolved';
              const id = (flag: string) => `item-${index}-${flag}`;
              return (
                <tr id={`item-${index}`}>
                  <td class="num">{String(index + 1)}</td>
                  <td>
                    <ConceptLink ctx={ctx} id={item.conceptId} />
                  </td>
                  <td>
                    {concept ? (
                      concept.concept_name
                    ) : status === 'restricted' ? (
                      <em class="hint">not shown: your key may not see this concept's vocabulary (the item is left out)</em>
                    ) : (
                      <em class="hint">not in release {ctx.view!.label} (the item matches nothing)</em>
                    )}
                  </td>
                  <td>{concept?.vocabulary_id ?? ''}</td>
                  <td class="num">
                    {number(outcome?.concepts ?? 0)}
                    {item.isExcluded && outcome?.removed !== undefined ? <span class="hint"> (removes {number(outcome.removed)})</span> : null}
                  </td>
                  <td>
                    <form method="post" action={ctx.link(`${BUILDER_PATH}/items/flags`)} class="row item-flags">
                      <CsrfField ctx={ctx} />
                      <input type="hidden" name="index" value={String(index)} />
                      <input type="hidden" name="concept_id" value={String(item.conceptId)} />
                      <input type="checkbox" id={id('desc')} name="include_descendants" value="true" checked={item.includeDescendants} />
                      <label for={id('desc')}>descendants</label>
                      <input type="checkbox" id={id('mapped')} name="include_mapped" value="true" checked={item.includeMapped} />
                      <label for={id('mapped')}>mapped</label>
                      <input type="checkbox" id={id('excl')} name="is_excluded" value="true" checked={item.isExcluded} />
                      <label for={id('excl')}>exclude</label>
                      <button type="submit" class="small" aria-label={`Update the flags of item ${index + 1}`}>
                        Update
                      </button>
                      <button type="submit" class="small" formaction={ctx.link(`${BUILDER_PATH}/items/remove`)} aria-label={`Remove item ${index + 1}`}>
                        Remove
                      </button>
                    </form>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <SectionPager
        label="Pages of items"
        section="items-section"
        page={query.itemsPage}
        pages={pages}
        link={(itemsPage) => builderLink(ctx, query, { itemsPage })}
        words={{ previous: 'Previous items', next: 'Next items', page: 'Items page' }}
      />
      {items.length > 0 ? (
        <div class="row">
          <form method="post" action={ctx.link(`${BUILDER_PATH}/clear`)}>
            <CsrfField ctx={ctx} />
            <button type="submit">Clear the set</button>
          </form>
        </div>
      ) : null}
    </section>
  );
}

function ConceptRows({ ctx, concepts }: { ctx: PageContext; concepts: ConceptRecord[] }): VNode {
  return (
    <tbody>
      {concepts.map((c) => (
        <tr>
          <td>
            <ConceptLink ctx={ctx} id={c.concept_id} />
          </td>
          <td>
            <code>{c.concept_code}</code>
          </td>
          <td>
            {c.concept_name}
            {c.invalid_reason ? <span class="badge invalid"> invalid ({c.invalid_reason})</span> : null}
          </td>
          <td>{c.domain_id}</td>
          <td>{c.vocabulary_id}</td>
          <td>{c.concept_class_id}</td>
          <td>{standardLabel(c.standard_concept)}</td>
        </tr>
      ))}
    </tbody>
  );
}

function ConceptTableHead(): VNode {
  return (
    <thead>
      <tr>
        <th scope="col">Id</th>
        <th scope="col">Code</th>
        <th scope="col">Name</th>
        <th scope="col">Domain</th>
        <th scope="col">Vocabulary</th>
        <th scope="col">Class</th>
        <th scope="col">Standard</th>
      </tr>
    </thead>
  );
}

function ResolvedSection({ ctx, query, resolved }: { ctx: PageContext; query: BuilderQuery; resolved: ResolvedPage }): VNode {
  const { summary } = resolved;
  const pages = Math.max(1, Math.ceil(summary.total / RESOLVED_PAGE_SIZE));
  const first = (query.page - 1) * RESOLVED_PAGE_SIZE;
  const link = (page: number) => builderLink(ctx, query, { page });
  const byCount = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([name, n]) => `${name} ${number(n)}`)
      .join(', ');
  return (
    <section aria-labelledby="resolved-heading" id="resolved-section">
      <h2 id="resolved-heading">Resolved concepts</h2>
      <p>
        The set resolves to <strong id="resolved-count">{number(summary.total)}</strong> concept{summary.total === 1 ? '' : 's'} in release{' '}
        {ctx.view!.label}
        {summary.total > 0 ? ` (${number(summary.standard)} standard, ${number(summary.classification)} classification, ${number(summary.non_standard)} non-standard)` : ''}
        {summary.excluded_removed > 0 ? `; the exclusions removed ${number(summary.excluded_removed)}` : ''}.
      </p>
      {summary.total > 0 ? (
        <p class="hint">
          Domains: {byCount(summary.by_domain)}. Vocabularies: {byCount(summary.by_vocabulary)}.
        </p>
      ) : null}
      {resolved.restricted_items.length > 0 ? (
        <p class="notice">
          {number(resolved.restricted_items.length)} item{resolved.restricted_items.length === 1 ? ' names' : 's name'} a concept of a vocabulary your key may not see:
          left out of the resolution.
        </p>
      ) : null}
      {summary.total > 0 && resolved.concepts.length === 0 ? (
        <p>
          No concepts on page {query.page}: the list has {pages} page{pages === 1 ? '' : 's'}. <a href={link(1)}>First page</a>
        </p>
      ) : null}
      {resolved.concepts.length > 0 ? (
        <table class="data" id="resolved-concepts">
          <caption>
            Concepts {number(first + 1)}–{number(first + resolved.concepts.length)} of {number(summary.total)}, in concept id order
          </caption>
          <ConceptTableHead />
          <ConceptRows ctx={ctx} concepts={resolved.concepts} />
        </table>
      ) : null}
      <SectionPager
        label="Pages of resolved concepts"
        section="resolved-section"
        page={query.page}
        pages={pages}
        last={MAX_RESOLVED_PAGE}
        link={link}
        words={{ previous: 'Previous', next: 'Next', page: 'Page' }}
      />
    </section>
  );
}

function OptimizeSection({ ctx, query, items, optimization }: { ctx: PageContext; query: BuilderQuery; items: ConceptSetItem[]; optimization?: Optimization }): VNode {
  return (
    <section aria-labelledby="optimize-heading">
      <h2 id="optimize-heading">Optimise</h2>
      {!optimization ? (
        <p>
          Optimising removes the items that add nothing (concepts not in the release, items another item already covers, exclusions that remove
          nothing); the resolution stays the same.{' '}
          {items.length > 0 ? <a href={builderLink(ctx, query, { optimize: true })}>Show what optimising removes</a> : null}
        </p>
      ) : optimization.removed_items.length === 0 ? (
        <p id="optimize-result">Nothing to remove: every item adds to the set.</p>
      ) : (
        <div id="optimize-result">
          <p>
            Optimising removes {number(optimization.removed_items.length)} of {number(items.length)} items and keeps {number(optimization.kept)}; the set still resolves to{' '}
            {number(optimization.total)} concepts.
          </p>
          <table class="data">
            <caption class="visually-hidden">Items optimising removes, with the reason</caption>
            <thead>
              <tr>
                <th scope="col" class="num">
                  #
                </th>
                <th scope="col">Concept</th>
                <th scope="col">Flags</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {optimization.removed_items.slice(0, OPTIMIZE_SAMPLE).map((r) => (
                <tr>
                  <td class="num">{String(r.index + 1)}</td>
                  <td>
                    <ConceptLink ctx={ctx} id={r.concept_id} />
                  </td>
                  <td>
                    <Flags item={items[r.index]!} />
                  </td>
                  <td>{r.reason.replace(/\bitem (\d+)\b/g, (_, i: string) => `item ${Number(i) + 1}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {optimization.removed_items.length > OPTIMIZE_SAMPLE ? (
            <p>…and {number(optimization.removed_items.length - OPTIMIZE_SAMPLE)} more items.</p>
          ) : null}
          <form method="post" action={ctx.link(`${BUILDER_PATH}/optimize`)}>
            <CsrfField ctx={ctx} />
            <button type="submit" class="primary">
              Apply: remove these items
            </button>{' '}
            <a href={builderLink(ctx, query, { optimize: false })}>Cancel</a>
          </form>
        </div>
      )}
    </section>
  );
}

function Samples({ ctx, ids, concepts, label }: { ctx: PageContext; ids: number[]; concepts: Map<number, ConceptRecord>; label: string }): VNode | null {
  if (ids.length === 0) return null;
  return (
    <ul aria-label={label}>
      {ids.map((id) => (
        <li>
          <ConceptLink ctx={ctx} id={id} /> {concepts.get(id)?.concept_name ?? ''}
        </li>
      ))}
    </ul>
  );
}

function CompareSection({ ctx, comparison, concepts, otherItems }: { ctx: PageContext; comparison?: Comparison; concepts: Map<number, ConceptRecord>; otherItems?: number }): VNode {
  return (
    <section aria-labelledby="compare-heading">
      <h2 id="compare-heading">Compare with another set</h2>
      {comparison ? (
        <div id="compare-result">
          <p>
            This set (A, {number(comparison.a.total)} concepts) against the other set (B, {number(otherItems ?? 0)} item{otherItems === 1 ? '' : 's'},{' '}
            {number(comparison.b.total)} concepts) in release{' '}
            {ctx.view!.label}:
          </p>
          <table class="data">
            <caption class="visually-hidden">Concepts only in this set, only in the other set, and in both</caption>
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col" class="num">
                  Concepts
                </th>
                <th scope="col">First {COMPARE_SAMPLE}</th>
              </tr>
            </thead>
            <tbody>
              {(
                [
                  ['only-in-a', 'Only in this set (A)', comparison.only_in_a],
                  ['only-in-b', 'Only in the other set (B)', comparison.only_in_b],
                  ['in-both', 'In both', comparison.in_both],
                ] as const
              ).map(([id, label, part]) => (
                <tr id={id}>
                  <th scope="row">{label}</th>
                  <td class="num">{number(part.count)}</td>
                  <td>
                    <Samples ctx={ctx} ids={part.concept_ids} concepts={concepts} label={label} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {comparison.b.restricted_items.length > 0 || comparison.b.unknown_concepts.length > 0 ? (
            <p class="hint">
              Of the other set, {number(comparison.b.unknown_concepts.length)} item(s) name a concept not in this release and{' '}
              {number(comparison.b.restricted_items.length)} one your key may not see (left out).
            </p>
          ) : null}
          <form method="post" action={ctx.link(`${BUILDER_PATH}/compare/clear`)}>
            <CsrfField ctx={ctx} />
            <button type="submit">Stop comparing</button>
          </form>
        </div>
      ) : null}
      <form method="post" action={ctx.link(`${BUILDER_PATH}/compare`)} class="stack wide">
        <CsrfField ctx={ctx} />
        <ExpressionField id="compare" label="The other set: ATLAS JSON or the ATLAS CSV export" rows={6} />
        <span>
          <button type="submit">Compare</button>
        </span>
      </form>
    </section>
  );
}

function reasonWords(reason: string): string {
  return reason.replace(/_/g, ' ');
}

function ChangeList({ ctx, title, changes, id }: { ctx: PageContext; title: string; changes: ConceptChange[]; id: string }): VNode | null {
  if (changes.length === 0) return null;
  return (
    <table class="data" id={id}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Id</th>
          <th scope="col">Name</th>
          <th scope="col">Vocabulary</th>
          <th scope="col">Reason</th>
        </tr>
      </thead>
      <tbody>
        {changes.map((c) => (
          <tr>
            <td>
              <ConceptLink ctx={ctx} id={c.concept.concept_id} />
            </td>
            <td>{c.concept.concept_name}</td>
            <td>{c.concept.vocabulary_id}</td>
            <td>
              <strong>{reasonWords(c.reason)}</strong>: {c.detail}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function DiffSection({ ctx, query, diff }: { ctx: PageContext; query: BuilderQuery; diff?: ConceptSetDiff }): VNode {
  const current = ctx.view!.label;
  const others = ctx.releases.filter((r) => r.label !== current);
  return (
    <section aria-labelledby="diff-heading">
      <h2 id="diff-heading">What changes in another release</h2>
      {others.length === 0 ? (
        <p>Only one release is loaded on this server.</p>
      ) : (
        <form method="get" action={BUILDER_PATH} class="row">
          <ReleaseField ctx={ctx} />
          <label for="diff-to">From release {current} to</label>
          <select id="diff-to" name="diff_to">
            {others.map((r) => (
              <option value={r.label} selected={r.label === query.diffTo}>
                {r.label}
                {r.isDefault ? ' (default)' : ''}
              </option>
            ))}
          </select>
          <button type="submit">Show the changes</button>
        </form>
      )}
      {diff ? (
        <div id="diff-result">
          <p>
            Release {diff.from_release} → {diff.to_release}: <span id="diff-from-total">{number(diff.summary.from_total)}</span> →{' '}
            <span id="diff-to-total">{number(diff.summary.to_total)}</span> concepts, <span class="added">+{number(diff.summary.gained)} gained</span>,{' '}
            <span class="removed">−{number(diff.summary.lost)} lost</span>, {number(diff.summary.unchanged)} unchanged.
          </p>
          <ChangeList ctx={ctx} id="diff-gained" title={`Gained (first ${Math.min(DIFF_SAMPLE, diff.summary.gained)} of ${number(diff.summary.gained)})`} changes={diff.gained} />
          <ChangeList ctx={ctx} id="diff-lost" title={`Lost (first ${Math.min(DIFF_SAMPLE, diff.summary.lost)} of ${number(diff.summary.lost)})`} changes={diff.lost} />
        </div>
      ) : null}
    </section>
  );
}

function ImportSection({ ctx }: { ctx: PageContext }): VNode {
  return (
    <section aria-labelledby="import-heading">
      <h2 id="import-heading">Import</h2>
      <form method="post" action={ctx.link(`${BUILDER_PATH}/import`)} class="stack wide">
        <CsrfField ctx={ctx} />
        <ExpressionField id="import" label="ATLAS JSON (an expression or a whole concept set) or the ATLAS CSV export" rows={8} />
        <fieldset>
          <legend>The imported items</legend>
          <input type="radio" id="import-replace" name="mode" value="replace" checked />
          <label for="import-replace">replace the set</label>{' '}
          <input type="radio" id="import-append" name="mode" value="append" />
          <label for="import-append">are added to the set</label>
        </fieldset>
        <span>
          <button type="submit">Import</button>
        </span>
      </form>
    </section>
  );
}

function ExportSection({ ctx, items }: { ctx: PageContext; items: ConceptSetItem[] }): VNode {
  const link = (format: string, extra: Record<string, string> = {}) => ctx.link(`${BUILDER_PATH}/export`, { format, ...extra });
  return (
    <section aria-labelledby="export-heading">
      <h2 id="export-heading">Export</h2>
      {items.length === 0 ? (
        <p>Nothing to export yet.</p>
      ) : (
        <ul id="export-links">
          <li>
            <a href={link('atlas')} download="concept-set.json">
              ATLAS JSON
            </a>{' '}
            (the expression ATLAS and WebAPI import)
          </li>
          <li>
            <a href={link('csv')} download="concept-set.csv">
              CSV
            </a>{' '}
            (ATLAS' CSV export columns)
          </li>
          <li>
            FHIR ValueSet:{' '}
            {(['r4', 'r4b', 'r5', 'r6'] as const).map((v, i) => [
              i ? ', ' : '',
              <a href={link('valueset', { fhir_version: v })} download={`concept-set-valueset-${v}.json`}>
                {v.toUpperCase()}
              </a>,
            ])}
          </li>
        </ul>
      )}
    </section>
  );
}

export function registerConceptSetPages(app: FastifyInstance, options: PagesOptions & { state: StateStore }): void {
  const { state } = options;
  const backToBuilder = (request: FastifyRequest, reply: FastifyReply) => reply.redirect(pageContext(request, options).link(BUILDER_PATH), 303);

  app.get(BUILDER_PATH, { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const query = builderQuery(request);
    const ctx = pageContext(request, options);
    const view = request.view;
    const sets = await readBuilderSets(state, request);
    const items = sets.current;
    const expression = expressionOf(items);
    const resolved = await resolveConceptSetPage(view, expression, { offset: (query.page - 1) * RESOLVED_PAGE_SIZE, limit: RESOLVED_PAGE_SIZE });
    const optimization = query.optimize && items.length > 0 ? await optimizeConceptSet(view, expression) : undefined;
    const comparison = sets.compare ? await compareConceptSets(view, expression, expressionOf(sets.compare), { offset: 0, limit: COMPARE_SAMPLE }) : undefined;
    let diff: ConceptSetDiff | undefined;
    if (query.diffTo) {
      const to = view.onRelease(resolveRelease(options.registry, query.diffTo, { surface: 'page', parameter: 'diff_to' }));
      diff = await diffConceptSet(view, to, expression, { offset: 0, limit: DIFF_SAMPLE });
    }
    const concepts = visibleConcepts(view, [
      ...items.slice((query.itemsPage - 1) * ITEMS_PAGE_SIZE, query.itemsPage * ITEMS_PAGE_SIZE).map((i) => i.conceptId),
      ...(comparison ? [comparison.only_in_a, comparison.only_in_b, comparison.in_both].flatMap((p) => p.concept_ids) : []),
    ]);
    return sendPage(reply, ctx, {
      title: 'Concept-set builder',
      section: 'concept-set',
      body: [
        <h1>Concept-set builder</h1>,
        <p class="hint">
          The set lives in this browser session (until you sign out or the session ends): export it to keep it. Resolution follows ATLAS (circe)
          rules, for release {view.label} and your key's licences.
        </p>,
        <ItemsSection ctx={ctx} query={query} items={items} resolved={resolved} concepts={concepts} />,
        <ResolvedSection ctx={ctx} query={query} resolved={resolved} />,
        <ExportSection ctx={ctx} items={items} />,
        <OptimizeSection ctx={ctx} query={query} items={items} optimization={optimization} />,
        <CompareSection ctx={ctx} comparison={comparison} concepts={concepts} otherItems={sets.compare?.length} />,
        <DiffSection ctx={ctx} query={query} diff={diff} />,
        <ImportSection ctx={ctx} />,
      ],
    });
  });

  app.get(`${BUILDER_PATH}/export`, { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const format = queryParameter(request, 'format', 20);
    if (format !== 'atlas' && format !== 'csv' && format !== 'valueset') {
      throw validationError(`Invalid query parameter 'format': must be atlas, csv or valueset, got ${JSON.stringify(format ?? null)}.`, { parameter: 'format' });
    }
    const fhirVersion = fhirVersionOf(queryParameter(request, 'fhir_version', 10));
    const { current } = await readBuilderSets(state, request);
    const expression = expressionOf(current);
    const download = (body: string, type: string, file: string) =>
      reply
        .type(type)
        .header('Content-Disposition', `attachment; filename="${file}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'no-store')
        .send(body);
    if (format === 'atlas') return download(JSON.stringify(toAtlasJson(current)), 'application/json; charset=utf-8', 'concept-set.json');
    if (format === 'csv') return download(atlasCsvOfExpression(request.view, expression), 'text/csv; charset=utf-8', 'concept-set.csv');
    return download(JSON.stringify(conceptSetValueSet(request.view, expression, fhirVersion)), 'application/fhir+json; charset=utf-8', `concept-set-valueset-${fhirVersion}.json`);
  });

  app.post(ADD_TO_SET_PATH, { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const form = formOf(request);
    const conceptId = conceptIdField(form);
    const flags = itemFlags(form);
    const back = returnPath(form);
    // 404 for a concept the release has not, 403 for one the key may not see: nothing is stored.
    request.view.requireConcept(conceptId);
    const sets = await readBuilderSets(state, request);
    const at = sets.current.findIndex((i) => i.conceptId === conceptId);
    const item: ConceptSetItem = { conceptId, ...flags };
    const current = at >= 0 ? sets.current.map((i, n) => (n === at ? item : i)) : [...sets.current, item];
    await writeBuilderSets(state, request, { ...sets, current });
    return reply.redirect(back, 303);
  });

  app.post(`${BUILDER_PATH}/items/flags`, { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const form = formOf(request);
    const sets = await readBuilderSets(state, request);
    const index = indexField(form, sets.current);
    const item: ConceptSetItem = { conceptId: sets.current[index]!.conceptId, ...itemFlags(form) };
    await writeBuilderSets(state, request, { ...sets, current: sets.current.map((i, n) => (n === index ? item : i)) });
    return backToBuilder(request, reply);
  });

  app.post(`${BUILDER_PATH}/items/remove`, { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const sets = await readBuilderSets(state, request);
    const index = indexField(formOf(request), sets.current);
    await writeBuilderSets(state, request, { ...sets, current: sets.current.filter((_, n) => n !== index) });
    return backToBuilder(request, reply);
  });

  app.post(`${BUILDER_PATH}/clear`, { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const sets = await readBuilderSets(state, request);
    await writeBuilderSets(state, request, { ...sets, current: [] });
    return backToBuilder(request, reply);
  });

  /** The items of a form's `expression` field (ATLAS JSON, TAB JSON or ATLAS CSV), flags only; a 400 naming the item or line otherwise. */
  const pastedItems = (form: Form): ConceptSetItem[] => {
    const text = textField(form, 'expression', Number.MAX_SAFE_INTEGER);
    if (text === undefined || text.trim() === '') throw badField('expression', 'paste an ATLAS JSON expression or the ATLAS CSV export (or choose a file).');
    return readExpression(text, 'expression').items.map(({ conceptId, isExcluded, includeDescendants, includeMapped }) => ({ conceptId, isExcluded, includeDescendants, includeMapped }));
  };

  app.post(`${BUILDER_PATH}/import`, { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const form = formOf(request);
    const mode = textField(form, 'mode', 10) ?? 'replace';
    if (mode !== 'replace' && mode !== 'append') throw badField('mode', `must be replace or append, got ${JSON.stringify(mode)}.`);
    const imported = pastedItems(form);
    const sets = await readBuilderSets(state, request);
    const current = mode === 'append' ? [...sets.current, ...imported] : imported;
    if (current.length > MAX_EXPRESSION_ITEMS) {
      throw tooLarge(`The set would have ${number(current.length)} items; a concept set holds at most ${number(MAX_EXPRESSION_ITEMS)}.`);
    }
    await writeBuilderSets(state, request, { ...sets, current });
    return backToBuilder(request, reply);
  });

  app.post(`${BUILDER_PATH}/optimize`, { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const sets = await readBuilderSets(state, request);
    if (sets.current.length > 0) {
      const optimization = await optimizeConceptSet(request.view, expressionOf(sets.current));
      const removed = new Set(optimization.removed_items.map((r) => r.index));
      await writeBuilderSets(state, request, { ...sets, current: sets.current.filter((_, n) => !removed.has(n)) });
    }
    return backToBuilder(request, reply);
  });

  app.post(`${BUILDER_PATH}/compare`, { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const other = pastedItems(formOf(request));
    const sets = await readBuilderSets(state, request);
    await writeBuilderSets(state, request, { ...sets, compare: other });
    return reply.redirect(`${pageContext(request, options).link(BUILDER_PATH)}#compare-heading`, 303);
  });

  app.post(`${BUILDER_PATH}/compare/clear`, { config: { page: 'signed-in' }, schema: { hide: true } }, async (request, reply) => {
    const sets = await readBuilderSets(state, request);
    await writeBuilderSets(state, request, { current: sets.current });
    return backToBuilder(request, reply);
  });
}

