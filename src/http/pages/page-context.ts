/**
 * What every browser page knows about its request: the release view (signed-in pages), the loaded releases for the
 * switcher, who is signed in, the session's CSRF token, and how to build a link that keeps the chosen release, so
 * that a page's URL holds its whole state.
 */
import type { FastifyRequest } from 'fastify';
import type { ReleaseView } from '../../services/release-view.js';
import type { ReleaseRegistry } from '../../store/release-registry.js';

export interface PagesOptions {
  registry: ReleaseRegistry;
  version: string;
  /** The server lets the browser run without a key (anonymous limit and licence rules). */
  anonymousBrowsing: boolean;
}

/** A query value a link may carry: absent values are left out, arrays repeat the parameter. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface PageContext {
  /** The request's release view; null on open pages (sign-in, errors before the gate chose a release). */
  view: ReleaseView | null;
  releases: Array<{ label: string; isDefault: boolean }>;
  /** The release the URL named (`vocab_release`), kept in every link; null when the default is used. */
  chosenRelease: string | null;
  /** The signed-in key's name; null for an anonymous visitor. */
  signedInAs: string | null;
  signedIn: boolean;
  anonymousBrowsing: boolean;
  csrfToken: string | null;
  version: string;
  /** The request's path (no query) and query, for the release switcher and the sign-in return. */
  path: string;
  query: Record<string, string | string[]>;
  /** A link to a page of this server keeping the chosen release. */
  link(path: string, params?: Record<string, QueryValue>): string;
}

/** `path?k=v&…` with every value URL-encoded; null/undefined/'' values are left out. */
export function pageUrl(path: string, params: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === '' || value === false) continue;
    if (Array.isArray(value)) for (const v of value) search.append(name, String(v));
    else search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

function queryOf(request: FastifyRequest): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const raw = request.url.indexOf('?') >= 0 ? request.url.slice(request.url.indexOf('?') + 1) : '';
  for (const [name, value] of new URLSearchParams(raw)) {
    const prior = out[name];
    out[name] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return out;
}

export function pageContext(request: FastifyRequest, options: PagesOptions): PageContext {
  const query = queryOf(request);
  const chosen = typeof query.vocab_release === 'string' && query.vocab_release.trim() !== '' ? query.vocab_release : null;
  const defaultLabel = options.registry.getDefaultLabel();
  const view = (request.view as ReleaseView | null | undefined) ?? null;
  const key = request.caller?.key ?? null;
  return {
    view,
    releases: options.registry.labels().map((label) => ({ label, isDefault: label === defaultLabel })),
    chosenRelease: chosen,
    signedInAs: key?.name ?? null,
    signedIn: request.browserSession !== null && request.browserSession !== undefined,
    anonymousBrowsing: options.anonymousBrowsing,
    csrfToken: request.browserSession?.csrfToken ?? null,
    version: options.version,
    path: request.url.split('?')[0]!,
    query,
    link: (path, params = {}) => pageUrl(path, { ...params, vocab_release: chosen ?? undefined }),
  };
}
