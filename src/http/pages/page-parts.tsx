/**
 * Small pieces the vocabulary, statistics and mapping-quality pages share: number formatting, bounded paging of an
 * in-memory list (a page beyond the last is a 400 naming its parameter), and a pager whose links keep the page's
 * other parameters and the chosen release.
 */
import type { VNode } from 'preact';
import { ServiceError } from '../../services/errors.js';
import type { PageContext, QueryValue } from './page-context.js';

// One formatter each, made once: Number#toLocaleString builds a new Intl.NumberFormat on every call (about 20 µs;
// a statistics page prints hundreds of numbers).
const INTEGER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const TWO_DECIMALS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const FOUR_DECIMALS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

/** A count with thousands separators (1,234,567); a fractional value keeps up to two decimals. */
export const formatNumber = (n: number) => (Number.isInteger(n) ? INTEGER.format(n) : TWO_DECIMALS.format(n));

/** A percentage (0–100) as printed: two decimals at most, or a dash when there is none. */
export const formatPercent = (p: number | null | undefined) => (p === null || p === undefined ? '–' : `${TWO_DECIMALS.format(p)} %`);

/** A score or confidence (0–1), four decimals at most, or a dash. */
export const formatScore = (s: number | null | undefined) => (s === null || s === undefined ? '–' : FOUR_DECIMALS.format(s));

/** Largest page number any page parameter takes (schemas use it as the maximum). */
export const MAX_PAGE = 10_000;

export interface Slice<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
  first: number;
}

/** The `page`-th slice of `size` items; 400 naming `parameter` when the page is past the last one. */
export function sliceOf<T>(all: readonly T[], page: number, size: number, parameter: string): Slice<T> {
  const pages = Math.max(1, Math.ceil(all.length / size));
  if (page > pages) {
    throw new ServiceError(400, 'validation_error', `Invalid query parameter '${parameter}': there ${pages === 1 ? 'is 1 page' : `are ${pages} pages`}.`, {
      parameter,
    });
  }
  const first = (page - 1) * size;
  return { items: all.slice(first, first + size), page, pages, total: all.length, first };
}

/** The page's current query without the release (ctx.link adds it back) and with these changes. */
export function withQuery(ctx: PageContext, changes: Record<string, QueryValue>): Record<string, QueryValue> {
  const kept: Record<string, QueryValue> = {};
  for (const [name, value] of Object.entries(ctx.query)) if (name !== 'vocab_release') kept[name] = value;
  return { ...kept, ...changes };
}

/**
 * A plain link to `href` (plus `#hash`) that htmx, when it runs, turns into a swap of the page's element `#section` by
 * the same element of the answer, pushing the URL: paging one section of a page without reloading the rest.
 */
export function SectionLink({ href, section, hash, rel, children }: { href: string; section: string; hash?: string; rel?: string; children: string }): VNode {
  return (
    <a href={hash ? `${href}#${hash}` : href} rel={rel} hx-get={href} hx-select={`#${section}`} hx-target={`#${section}`} hx-swap="outerHTML" hx-push-url="true">
      {children}
    </a>
  );
}

/**
 * Previous / next links of a paged table; nothing when it fits on one page. `anchor` is the id of the table's section:
 * the links go there, and with htmx they swap only that section (taken from the same page) and push the URL.
 */
export function Pager({ ctx, slice, parameter, anchor, label }: { ctx: PageContext; slice: Slice<unknown>; parameter: string; anchor?: string; label: string }): VNode | null {
  if (slice.pages <= 1) return null;
  const url = (page: number) => ctx.link(ctx.path, withQuery(ctx, { [parameter]: page === 1 ? undefined : page }));
  const link = (page: number, rel: string, text: string) =>
    anchor ? (
      <SectionLink href={url(page)} section={anchor} hash={anchor} rel={rel}>
        {text}
      </SectionLink>
    ) : (
      <a href={url(page)} rel={rel}>
        {text}
      </a>
    );
  return (
    <nav class="pager" aria-label={`${label}: pages`}>
      {slice.page > 1 ? link(slice.page - 1, 'prev', 'Previous') : null}
      <span>
        Page {slice.page} of {slice.pages} ({formatNumber(slice.first + 1)}–{formatNumber(slice.first + slice.items.length)} of {formatNumber(slice.total)})
      </span>
      {slice.page < slice.pages ? link(slice.page + 1, 'next', 'Next') : null}
    </nav>
  );
}

/** Path segment or query value naming a vocabulary: 1–20 characters (VOCABULARY.vocabulary_id), no control characters. */
export const VOCABULARY_ID_SCHEMA = { type: 'string', minLength: 1, maxLength: 20, pattern: '^[^\\u0000-\\u001f\\u007f]+$' } as const;

/** An optional vocabulary id in a query; '' (a form's empty choice) counts as absent. 400 naming the parameter otherwise. */
export function optionalVocabularyId(value: unknown, parameter: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ServiceError(400, 'validation_error', `Invalid query parameter '${parameter}': give it once.`, { parameter });
  const v = value.trim();
  if (v === '') return null;
  // eslint-disable-next-line no-control-regex
  if (v.length > 20 || /[\u0000-\u001f\u007f]/.test(v)) {
    throw new ServiceError(400, 'validation_error', `Invalid query parameter '${parameter}': a vocabulary id has 1 to 20 characters and no control characters.`, {
      parameter,
    });
  }
  return v;
}

/** "1 concept", "1,234 concepts": the count with thousands separators and the word in the number it needs. */
export const plural = (count: number, one: string, many = `${one}s`) => `${formatNumber(count)} ${count === 1 ? one : many}`;

/** What a concept's standard_concept flag means, as the pages print it (S, C, anything else: non-standard). */
export const standardLabel = (flag: string | null | undefined) => (flag === 'S' ? 'Standard' : flag === 'C' ? 'Classification' : 'Non-standard');

/** A concept's standard flag as a badge (search rows, concept pages). */
export function StandardBadge({ flag }: { flag: 'S' | 'C' | null }): VNode {
  return <span class={flag === 'S' ? 'badge standard' : flag === 'C' ? 'badge classification' : 'badge'}>{standardLabel(flag)}</span>;
}

/** The chosen release as a hidden field of a GET form, so submitting the form keeps it (nothing for the default). */
export function ReleaseField({ ctx }: { ctx: PageContext }): VNode | null {
  return ctx.chosenRelease ? <input type="hidden" name="vocab_release" value={ctx.chosenRelease} /> : null;
}

/** A chart with the table of its numbers beside it; `caption` stands in for the chart when there is nothing to draw. */
export function Figure({ chart, table, caption }: { chart: VNode | null; table: VNode; caption?: string }): VNode {
  return (
    <div class="chart-pair">
      <div class="chart-box">{chart ?? <p class="hint">{caption ?? 'Nothing to draw.'}</p>}</div>
      <div class="chart-table">{table}</div>
    </div>
  );
}
