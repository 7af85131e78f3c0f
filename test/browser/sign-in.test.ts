/**
 * The browser's front door in a real browser (Chromium through playwright-core): signing in by typing the key (mouse
 * and keyboard alone), the landing page, the release switcher (with and without JavaScript), sign-out; axe-core finds
 * no serious or critical violation on these pages, no request leaves the server's origin and the CSP refuses nothing;
 * with `--browse-without-key` the pages open without signing in, under the anonymous licence rules.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { BROWSER_TEST_TIMEOUT_MS, chromiumMissing, describeViolations, launchBrowser, runAxe, signInThroughForm, tabTo, watchedContext, type WatchedContext } from '../helpers/browser.js';
import { CPT4_CODE, CPT4_NAME, IDS, writeBrowserFixture } from './browser-fixture.js';

describe.skipIf(chromiumMissing())('the browser front door, in Chromium', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  let t: TestServer;
  let browser: Browser;
  const open: WatchedContext[] = [];
  const session = async (options?: { javaScriptEnabled?: boolean }) => {
    const s = await watchedContext(browser, options);
    open.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await startTestServer({
      releases: [
        { dir: writeBrowserFixture('2025.1'), label: '2025.1' },
        { dir: writeBrowserFixture('2025.2'), label: '2025.2', makeDefault: true },
      ],
    });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const s of open) await s.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('sends a visitor without a session to the sign-in form, which passes axe and asks nothing of another origin', async () => {
    const { page, watch } = await session();
    await page.goto(`${t.url}/?vocab_release=2025.1`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/?vocab_release=2025.1');
    await expect(page.locator('h1').textContent()).resolves.toBe('Sign in');
    expect(describeViolations(await runAxe(page))).toEqual([]);
    expect(watch.foreignRequests(t.url)).toEqual([]);
    expect(watch.problems()).toEqual([]);
  });

  it('signs in with the keyboard alone: the key field has focus, typing and Enter lead to where the visitor was going', async () => {
    const { page, watch } = await session();
    await page.goto(`${t.url}/?vocab_release=2025.1`);
    // The key field is focused when the form opens (autofocus); if not, Tab reaches it.
    const focused = await page.evaluate(() => document.activeElement?.id);
    if (focused !== 'api-key') expect(await tabTo(page, '#api-key')).toBe(true);
    await page.keyboard.type(t.key);
    await Promise.all([page.waitForURL((url) => url.pathname === '/'), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).searchParams.get('vocab_release')).toBe('2025.1');
    await expect(page.locator('h1').textContent()).resolves.toBe('OMOP vocabularies');
    await expect(page.locator('footer').textContent()).resolves.toContain('release 2025.1');
    // The session cookie is HttpOnly: page script cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain('omopterm_session');
    const cookie = (await page.context().cookies()).find((c) => c.name === 'omopterm_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });
    expect(cookie.value).not.toContain(t.key);
    expect(watch.foreignRequests(t.url)).toEqual([]);
    expect(watch.problems()).toEqual([]);
  });

  it('refuses a wrong key with a message announced to screen readers, and no session', async () => {
    const { page, context } = await session();
    await page.goto(`${t.url}/sign-in`);
    await page.locator('#api-key').fill('oh_wrong-key-0000000000000000000');
    await Promise.all([page.waitForLoadState('load'), page.locator('form[action="/sign-in"] button[type="submit"]').click()]);
    await expect(page.locator('[role="alert"]').textContent()).resolves.toContain('not valid');
    expect((await context.cookies()).some((c) => c.name === 'omopterm_session')).toBe(false);
    expect(describeViolations(await runAxe(page))).toEqual([]);
  });

  it('shows the landing page with the releases loaded, passing axe, with the skip link first in the tab order', async () => {
    const { page, watch } = await session();
    await signInThroughForm(page, t.url, t.key);
    const rows = await page.locator('table.data tbody tr th[scope="row"]').allTextContents();
    expect(rows.sort()).toEqual(['2025.1', '2025.2 (default)']);
    expect(describeViolations(await runAxe(page))).toEqual([]);
    // Keyboard users: the first Tab lands on the skip link, which moves focus to the main content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    expect(watch.foreignRequests(t.url)).toEqual([]);
    expect(watch.problems()).toEqual([]);
    // Only this origin's own assets were loaded: a stylesheet and two scripts (htmx and app.js).
    const assets = watch.requests.filter((u) => new URL(u).pathname.startsWith('/assets/')).map((u) => new URL(u).pathname.replace(/\?.*$/, ''));
    expect(assets.some((p) => p.endsWith('.css'))).toBe(true);
    expect(new Set(assets.filter((p) => p.endsWith('.js'))).size).toBe(2);
  });

  it('switches release with the switcher: choosing an option is enough with JavaScript', async () => {
    const { page, watch } = await session();
    await signInThroughForm(page, t.url, t.key);
    await expect(page.locator('footer').textContent()).resolves.toContain('release 2025.2');
    await Promise.all([page.waitForURL((url) => url.searchParams.get('vocab_release') === '2025.1'), page.locator('#release-switcher').selectOption('2025.1')]);
    await expect(page.locator('footer').textContent()).resolves.toContain('release 2025.1');
    await expect(page.locator('#release-switcher').inputValue()).resolves.toBe('2025.1');
    // The URL holds the state: a link on the page keeps the release.
    await expect(page.locator('a.brand').getAttribute('href')).resolves.toContain('vocab_release=2025.1');
    expect(watch.problems()).toEqual([]);
  });

  it('switches release without JavaScript too, with the Switch button', async () => {
    const { page, watch } = await session({ javaScriptEnabled: false });
    await signInThroughForm(page, t.url, t.key);
    await page.locator('#release-switcher').selectOption('2025.1');
    expect(page.url()).not.toContain('vocab_release=2025.1'); // nothing happens by itself without script
    await Promise.all([page.waitForURL((url) => url.searchParams.get('vocab_release') === '2025.1'), page.locator('form.release-switcher button[type="submit"]').click()]);
    await expect(page.locator('footer').textContent()).resolves.toContain('release 2025.1');
    expect(watch.problems()).toEqual([]);
  });

  it('shows an unknown release as an HTML error page (400) that passes axe', async () => {
    const { page } = await session();
    await signInThroughForm(page, t.url, t.key);
    const response = await page.goto(`${t.url}/?vocab_release=1999.1`);
    expect(response?.status()).toBe(400);
    await expect(page.locator('main').textContent()).resolves.toContain('1999.1');
    expect(describeViolations(await runAxe(page))).toEqual([]);
  });

  it('would notice CSP violations: inline script and an image from another origin (the watch itself works)', async () => {
    const s = await session();
    await s.page.goto(`${t.url}/sign-in`);
    expect(s.watch.problems()).toEqual([]);
    // Inline script and another origin's image: both refused by the page's CSP, and both seen by the watch.
    await s.page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inline = 1;';
      document.body.append(script);
      const img = document.createElement('img');
      img.src = 'https://example.invalid/x.png';
      img.alt = '';
      document.body.append(img);
    });
    await expect.poll(() => s.watch.cspViolations.length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
    expect(await s.page.evaluate(() => (window as unknown as { __inline?: number }).__inline)).toBeUndefined();
    expect(s.watch.cspViolations.join('\n')).toContain('script-src');
    expect(s.watch.cspViolations.join('\n')).toContain('img-src');
  });

  it('signs out: the session ends, the cookie is gone and the pages ask for the key again', async () => {
    const { page, context, watch } = await session();
    await signInThroughForm(page, t.url, t.key);
    await Promise.all([page.waitForURL((url) => url.pathname === '/sign-in'), page.locator('form.sign-out button[type="submit"]').click()]);
    expect((await context.cookies()).some((c) => c.name === 'omopterm_session')).toBe(false);
    await page.goto(`${t.url}/`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(watch.problems()).toEqual([]);
  });
});

describe.skipIf(chromiumMissing())('browsing without a key (serve --browse-without-key), in Chromium', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  let t: TestServer;
  let browser: Browser;
  let s: WatchedContext | undefined;
  beforeAll(async () => {
    t = await startTestServer({ releases: [{ dir: writeBrowserFixture('2025.2'), label: '2025.2' }], browseWithoutKey: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await s?.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('opens the pages without signing in, under the anonymous licence rules (no CPT4), with a way to sign in', async () => {
    s = await watchedContext(browser);
    const { page, watch } = s;
    await page.goto(`${t.url}/`);
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.locator('h1').textContent()).resolves.toBe('OMOP vocabularies');
    await expect(page.locator('header a[href^="/sign-in"]').textContent()).resolves.toBe('Sign in');
    expect(describeViolations(await runAxe(page))).toEqual([]);
    await page.goto(`${t.url}/search?q=${CPT4_CODE}`);
    expect(await page.content()).not.toContain(CPT4_NAME);
    const denied = await page.goto(`${t.url}/concepts/${IDS.cpt4}`);
    expect(denied?.status()).toBe(403);
    expect(await page.content()).not.toContain(CPT4_NAME);
    expect(watch.foreignRequests(t.url)).toEqual([]);
    expect(watch.problems()).toEqual([]);
  });
});
