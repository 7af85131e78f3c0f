/**
 * A real browser for the page tests: Debian's Chromium (/usr/bin/chromium) driven by playwright-core, headless.
 * Every page it opens is watched: the URL of every request it makes (to assert none leaves the server's origin),
 * every console error, page error and Content-Security-Policy violation. `runAxe` checks a page with axe-core, injected
 * through `page.evaluate` (the pages' CSP forbids inline script, so a <script> tag would be refused).
 *
 * Without Chromium the browser suites skip, and the run ends with one notice line (cause 'browser',
 * test/helpers/skip-notice.ts): `describe.skipIf(chromiumMissing())`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { noteSkip } from './skip-notice.js';

/** The Chromium the tests drive (Debian's package; `.ci/run` installs it when missing). */
export const CHROMIUM = process.env.OMOPTERM_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Time one browser test may take: a few page loads each, on a machine whose cores the other test files share. */
export const BROWSER_TEST_TIMEOUT_MS = 240_000;

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** True when there is no Chromium to drive (the calling test file is then noted, and its browser suites skip). */
export function chromiumMissing(): boolean {
  const missing = !existsSync(CHROMIUM);
  if (missing) noteSkip('browser', [CHROMIUM]);
  return missing;
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/** What a watched page did: requests made, console errors, page errors and CSP violations. */
export interface PageWatch {
  requests: string[];
  consoleErrors: string[];
  pageErrors: string[];
  cspViolations: string[];
  /** Responses with status >= 400 (method, status, resource type, URL). */
  failedResponses: string[];
  /** Requests whose origin is not `origin`. */
  foreignRequests(origin: string): string[];
  /**
   * Everything that went wrong: console errors, page errors, CSP violations, and a failed request for anything but a
   * whole page (an asset, an htmx fragment); a page answered 4xx (an error page the test asked for) is not a problem.
   */
  problems(): string[];
  clear(): void;
}

/**
 * Console messages that say nothing more: the favicon Chromium asks for by itself, and "Failed to load resource",
 * which Chromium writes for every 4xx response (failed requests are watched as responses instead).
 */
const IGNORED_CONSOLE = [/favicon\.ico/, /^Failed to load resource: the server responded with a status of 4\d\d/];

export interface WatchedContext {
  context: BrowserContext;
  page: Page;
  watch: PageWatch;
  close(): Promise<void>;
}

/**
 * A fresh context (own cookies; the test server's self-signed certificate accepted) with one page, watched. CSP
 * violations reach the test through an exposed binding that a listener, added before any page script runs, calls.
 */
export async function watchedContext(browser: Browser, options: { javaScriptEnabled?: boolean; permissions?: string[] } = {}): Promise<WatchedContext> {
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    permissions: options.permissions,
    viewport: { width: 1280, height: 900 },
  });
  const watch: PageWatch = {
    requests: [],
    consoleErrors: [],
    pageErrors: [],
    cspViolations: [],
    failedResponses: [],
    foreignRequests: (origin) => watch.requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin),
    problems: () => [
      ...watch.consoleErrors.map((e) => `console: ${e}`),
      ...watch.pageErrors.map((e) => `page error: ${e}`),
      ...watch.cspViolations.map((e) => `CSP: ${e}`),
      ...watch.failedResponses.filter((r) => !r.includes(' document ')).map((r) => `request: ${r}`),
    ],
    clear: () => {
      for (const list of [watch.requests, watch.consoleErrors, watch.pageErrors, watch.cspViolations, watch.failedResponses]) list.length = 0;
    },
  };
  context.on('request', (request) => watch.requests.push(request.url()));
  context.on('response', (response) => {
    if (response.status() >= 400) watch.failedResponses.push(`${response.request().method()} ${response.status()} ${response.request().resourceType()} ${response.url()}`);
  });
  await context.exposeBinding('__reportCspViolation', (_source, text: string) => {
    watch.cspViolations.push(text);
  });
  if (options.javaScriptEnabled ?? true) {
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        (window as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`);
      });
    });
  }
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = `${message.text()} (${message.location().url})`;
    if (IGNORED_CONSOLE.some((re) => re.test(text))) return;
    // Chromium reports a refused resource on the console too: that is a CSP violation.
    if (/Content Security Policy/i.test(text)) watch.cspViolations.push(text);
    else watch.consoleErrors.push(text);
  });
  page.on('pageerror', (error) => watch.pageErrors.push(String(error)));
  return { context, page, watch, close: () => context.close() };
}

/** Signs in through the sign-in form, typing the key as a person would; resolves once the next page has loaded. */
export async function signInThroughForm(page: Page, baseUrl: string, key: string, next = '/'): Promise<void> {
  await page.goto(`${baseUrl}/sign-in?next=${encodeURIComponent(next)}`);
  await page.locator('#api-key').fill(key);
  await Promise.all([page.waitForURL((url) => url.pathname !== '/sign-in'), page.locator('form[action="/sign-in"] button[type="submit"]').click()]);
  await page.waitForLoadState('load');
}

let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core on the page as it is now and returns the violations of impact serious or critical (each with the
 * selectors of the offending elements). The source is evaluated in the page, not added as a script tag: the CSP
 * refuses inline script, and page.evaluate runs outside it.
 */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined');
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, nodes: v.nodes.map((n) => n.target.map(String).join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line per violation, for a readable assertion failure. */
export function describeViolations(violations: AxeViolation[]): string[] {
  return violations.map((v) => `${v.impact} ${v.id}: ${v.help} [${v.nodes.slice(0, 5).join(' | ')}]`);
}

/** Presses Tab until the focused element matches `selector` (at most `limit` presses); true when it got there. */
export async function tabTo(page: Page, selector: string, limit = 60): Promise<boolean> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
  }
  return false;
}
