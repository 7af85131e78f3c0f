/**
 * The frame of every browser page: skip link, header with the main navigation, the release switcher (a GET form
 * that keeps the page's other parameters), sign-out, footer links; and `sendPage`, which writes a page with the
 * headers every page carries (a Content-Security-Policy that allows this origin's files only, no inline script).
 */
import type { FastifyReply } from 'fastify';
import type { ComponentChildren, VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { CSRF_FIELD } from '../plumbing/browser-session.js';
import { assetUrl } from './assets.js';
import type { PageContext } from './page-context.js';

/** Nothing from another origin, no inline script or style, no framing, forms post only here. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** htmx settings: no eval, no inline script execution, no indicator <style> (the CSP forbids it), requests only here. */
const HTMX_CONFIG = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  selfRequestsOnly: true,
  historyCacheSize: 0,
  // htmx copies these from old to new elements while settling; copying `style` is an inline style the CSP refuses.
  attributesToSettle: ['class', 'width', 'height'],
});

export interface PageContent {
  /** The page's own title (the site name is appended). */
  title: string;
  body: VNode | VNode[] | ComponentChildren;
  /** Which item of the main navigation is current. */
  section?: 'home' | 'search' | 'vocabularies' | 'mapping-quality' | 'concept-set' | 'mapping' | 'sign-in';
  status?: number;
}

/** The hidden CSRF field every state-changing form carries. */
export function CsrfField({ ctx }: { ctx: PageContext }): VNode | null {
  return ctx.csrfToken ? <input type="hidden" name={CSRF_FIELD} value={ctx.csrfToken} /> : null;
}

const NAVIGATION: Array<{ section: NonNullable<PageContent['section']>; path: string; label: string }> = [
  { section: 'search', path: '/search', label: 'Search' },
  { section: 'vocabularies', path: '/vocabularies', label: 'Vocabularies' },
  { section: 'mapping-quality', path: '/mapping-quality', label: 'Mapping quality' },
  { section: 'concept-set', path: '/concept-set', label: 'Concept set' },
  { section: 'mapping', path: '/mapping', label: 'Mapping' },
];

function ReleaseSwitcher({ ctx }: { ctx: PageContext }): VNode | null {
  if (!ctx.view || ctx.releases.length === 0) return null;
  // Paging parameters are dropped: another release may have fewer pages.
  const kept = Object.entries(ctx.query).filter(([name]) => name !== 'vocab_release' && name !== 'page' && !name.endsWith('_page'));
  return (
    <form class="release-switcher" method="get" action={ctx.path}>
      {kept.flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => <input type="hidden" name={name} value={v} />))}
      <label for="release-switcher">Release</label>
      <select id="release-switcher" name="vocab_release" data-auto-submit="">
        {ctx.releases.map((r) => (
          <option value={r.label} selected={r.label === ctx.view!.label}>
            {r.label}
            {r.isDefault ? ' (default)' : ''}
          </option>
        ))}
      </select>
      <button type="submit">Switch</button>
    </form>
  );
}

function Header({ ctx, section }: { ctx: PageContext; section?: PageContent['section'] }): VNode {
  return (
    <header class="site-header">
      <a class="brand" href={ctx.link('/')}>
        omopterm
      </a>
      {ctx.view ? (
        <nav aria-label="Main">
          <ul>
            {NAVIGATION.map((item) => (
              <li>
                <a href={ctx.link(item.path)} aria-current={item.section === section ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <div class="session">
        <ReleaseSwitcher ctx={ctx} />
        {ctx.signedInAs !== null ? (
          <form method="post" action="/sign-out" class="sign-out">
            <CsrfField ctx={ctx} />
            <span class="who">
              Key <strong>{ctx.signedInAs}</strong>
            </span>{' '}
            <button type="submit">Sign out</button>
          </form>
        ) : ctx.view && ctx.anonymousBrowsing ? (
          <a href={`/sign-in?next=${encodeURIComponent(ctx.link(ctx.path))}`}>Sign in</a>
        ) : null}
      </div>
    </header>
  );
}

function Page({ ctx, content }: { ctx: PageContext; content: PageContent }): VNode {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content={HTMX_CONFIG} />
        {ctx.csrfToken ? <meta name="csrf-token" content={ctx.csrfToken} /> : null}
        <title>{`${content.title} · omopterm`}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={assetUrl('app.css')} />
        <script src={assetUrl('htmx.min.js')} defer></script>
        <script src={assetUrl('app.js')} defer></script>
      </head>
      <body hx-boost="false">
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <Header ctx={ctx} section={content.section} />
        <main id="main" tabIndex={-1}>
          {content.body}
        </main>
        <footer class="site-footer">
          <a href="/docs">API reference</a> · <a href="/openapi.json">OpenAPI</a> ·{' '}
          {ctx.view ? <a href={ctx.link('/fhir-metadata')}>FHIR metadata</a> : <code>/fhir/r4/metadata</code>} · <a href="/health">Health</a> ·{' '}
          <span>omopterm {ctx.version}</span>
          {ctx.view ? (
            <span>
              {' '}
              · release <strong>{ctx.view.label}</strong>
            </span>
          ) : null}
        </footer>
      </body>
    </html>
  );
}

/** Renders a whole page (doctype included). */
export function renderPage(ctx: PageContext, content: PageContent): string {
  return `<!doctype html>\n${renderToString(<Page ctx={ctx} content={content} />)}`;
}

/** The headers every page and fragment carries. */
export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', PAGE_CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'same-origin');
}

export function sendPage(reply: FastifyReply, ctx: PageContext, content: PageContent): FastifyReply {
  return pageHeaders(reply)
    .code(content.status ?? 200)
    .send(renderPage(ctx, content));
}

/** Sends a fragment (htmx swaps it into a page): HTML without the frame. */
export function sendFragment(reply: FastifyReply, node: VNode, status = 200): FastifyReply {
  return pageHeaders(reply).code(status).send(renderToString(node));
}
