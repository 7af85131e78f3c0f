/**
 * The acceptance, in a real browser (Chromium through playwright-core): a person signs in, searches, opens a
 * concept, expands the tree, follows a mapping, switches release, builds a concept set with each flag, exports it (the
 * export resolves through `POST /v1/concept-sets/resolve` to the concepts the page shows) and signs out; a key without
 * CPT4 validation never sees the CPT4 concept on any page; axe-core finds no serious or critical violation on any
 * page, and none weighs more than 150 kB of HTML, CSS and JS; the keyboard alone searches, opens a result and expands the tree; a name with markup shows as text; no page
 * asks anything of another origin and the CSP refuses nothing.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startTestServer, type TestServer } from '../helpers/test-server.js';
import { BROWSER_TEST_TIMEOUT_MS, chromiumMissing, describeViolations, launchBrowser, runAxe, signInThroughForm, tabTo, watchedContext, type WatchedContext } from '../helpers/browser.js';
import { CPT4_CODE, CPT4_NAME, IDS, MARKUP_NAME, RENAMED, writeBrowserFixture } from './browser-fixture.js';

/** Concept ids a concept-set table or list on the page links to (`/concepts/<id>` links inside `selector`). */
async function linkedIds(page: Page, selector: string): Promise<number[]> {
  const hrefs = await page.locator(`${selector} a[href^="/concepts/"]`).evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  return [...new Set(hrefs.map((h) => Number(/^\/concepts\/(\d+)/.exec(h)?.[1])).filter((n) => Number.isInteger(n)))];
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

describe.skipIf(chromiumMissing())('the browser, end to end in Chromium', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  let t: TestServer;
  let browser: Browser;
  let cpt4Key: string;
  const open: WatchedContext[] = [];
  const session = async (options?: { javaScriptEnabled?: boolean; permissions?: string[] }) => {
    const s = await watchedContext(browser, options);
    open.push(s);
    return s;
  };
  /** Every page visit in these tests stays on this origin, and the CSP refuses nothing. */
  const expectClean = (s: WatchedContext) => {
    expect(s.watch.foreignRequests(t.url)).toEqual([]);
    expect(s.watch.problems()).toEqual([]);
  };

  beforeAll(async () => {
    t = await startTestServer({
      releases: [
        { dir: writeBrowserFixture('2025.1'), label: '2025.1' },
        { dir: writeBrowserFixture('2025.2'), label: '2025.2', makeDefault: true },
      ],
    });
    cpt4Key = await t.createKey({ name: 'cpt4-validated', cpt4_validated_until: '2999-12-31' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const s of open) await s.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('signs in, searches, opens a concept, expands the tree, follows a mapping, switches release, and signs out', async () => {
    const s = await session();
    const { page } = s;
    await signInThroughForm(page, t.url, t.key);

    // Search from the home page's box: the results page holds the query in its URL.
    await page.locator('#home-q').fill('diabetes mellitus');
    await Promise.all([page.waitForURL((u) => u.pathname === '/search'), page.locator('#home-q').press('Enter')]);
    expect(new URL(page.url()).searchParams.get('q')).toBe('diabetes mellitus');
    const resultNames = await page.locator('table.results tbody th.name > a').allTextContents();
    expect(resultNames).toContain('Diabetes mellitus');
    expect(resultNames).toContain('Type 2 diabetes mellitus');

    // Open a concept.
    await Promise.all([page.waitForURL((u) => u.pathname === `/concepts/${IDS.diabetes}`), page.locator('table.results tbody th.name > a', { hasText: /^Diabetes mellitus$/ }).click()]);
    await expect(page.locator('h1').textContent()).resolves.toContain('Diabetes mellitus');
    await expect(page.locator('#concept-id').textContent()).resolves.toBe(String(IDS.diabetes));

    // Expand the tree: Type 2 is a child; opening it loads its children in place (htmx), without leaving the page.
    const type2 = page.locator(`#children details[hx-get^="/concepts/${IDS.type2}/children"]`);
    await type2.locator('summary').click({ position: { x: 2, y: 2 } });
    await expect(type2.getAttribute('open')).resolves.not.toBeNull();
    const loaded = type2.locator('.children a[href^="/concepts/"]:not([href*="#"])');
    await loaded.filter({ hasText: 'renal complication' }).waitFor();
    const grandchildren = await loaded.allTextContents();
    expect(grandchildren).toEqual(expect.arrayContaining(['Type 2 diabetes mellitus with renal complication', RENAMED.after, MARKUP_NAME, 'Type 2 diabetes mellitus with foot ulcer']));
    expect(pathOf(page)).toBe(`/concepts/${IDS.diabetes}`);

    // Follow the tree down to Type 2, then a mapping: its source code E11.9 maps to it, and maps back.
    await Promise.all([page.waitForURL((u) => u.pathname === `/concepts/${IDS.type2}`), page.locator(`#children a[href^="/concepts/${IDS.type2}"]`).first().click()]);
    await Promise.all([page.waitForURL((u) => u.pathname === `/concepts/${IDS.icd10Type2}`), page.locator(`#mappings a[href^="/concepts/${IDS.icd10Type2}"]`).first().click()]);
    await expect(page.locator('#concept-code').textContent()).resolves.toBe('E11.9');
    await Promise.all([page.waitForURL((u) => u.pathname === `/concepts/${IDS.type2}`), page.locator(`#mappings a[href^="/concepts/${IDS.type2}"]`).first().click()]);

    // Switch release: the concept page of the older release lacks the child added later, and keeps the release in its links.
    await expect(page.locator('#children').textContent()).resolves.toContain('foot ulcer');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('vocab_release') === '2025.1'), page.locator('#release-switcher').selectOption('2025.1')]);
    expect(pathOf(page)).toBe(`/concepts/${IDS.type2}`);
    await expect(page.locator('footer').textContent()).resolves.toContain('release 2025.1');
    const olderChildren = await page.locator('#children').textContent();
    expect(olderChildren).not.toContain('foot ulcer');
    expect(olderChildren).toContain(RENAMED.before);
    const links = await page.locator('#children a[href^="/concepts/"], #mappings a[href^="/concepts/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    expect(links.length).toBeGreaterThan(0);
    for (const href of links) expect(href).toContain('vocab_release=2025.1');

    // Sign out.
    await Promise.all([page.waitForURL((u) => u.pathname === '/sign-in'), page.locator('form.sign-out button[type="submit"]').click()]);
    await page.goto(`${t.url}/concepts/${IDS.type2}`);
    expect(pathOf(page)).toBe('/sign-in');
    expectClean(s);
  });

  it('builds a concept set with each flag; the ATLAS export resolves through POST /v1/concept-sets/resolve to what the page shows', async () => {
    const s = await session();
    const { page } = s;
    await signInThroughForm(page, t.url, t.key);
    const addFromConceptPage = async (id: number, flags: Array<'desc' | 'mapped' | 'excl'>) => {
      await page.goto(`${t.url}/concepts/${id}`);
      for (const flag of flags) await page.locator(`#add-${id}-${flag}`).check();
      await Promise.all([page.waitForURL((u) => u.pathname === `/concepts/${id}`), page.locator(`form.add-to-set button[type="submit"]`).first().click()]);
    };
    // Diabetes mellitus with its descendants, Type 2 with the codes mapped to it, the eye complication excluded.
    await addFromConceptPage(IDS.diabetes, ['desc']);
    await addFromConceptPage(IDS.type2, ['mapped']);
    await addFromConceptPage(IDS.type2Eye, ['excl']);

    await page.goto(`${t.url}/concept-set`);
    await expect(page.locator('#set-items tbody tr').count()).resolves.toBe(3);
    const shownIds = await linkedIds(page, '#resolved-concepts');
    // What the fixture says: the descendants of Diabetes mellitus in 2025.2, plus E11.9 (mapped to Type 2), less the
    // excluded eye complication; the CPT4 code mapped to Type 2 is left out for this key.
    const expected = [IDS.diabetes, IDS.type2, IDS.type2Renal, IDS.markup, IDS.type2Foot, IDS.icd10Type2].sort((a, b) => a - b);
    expect(shownIds.sort((a, b) => a - b)).toEqual(expected);
    await expect(page.locator('#resolved-count').textContent()).resolves.toBe(String(expected.length));

    // Export ATLAS JSON by its download link.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-links a', { hasText: 'ATLAS JSON' }).click()]);
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    const items = (exported.items ?? exported.expression?.items) as Array<{ concept: { CONCEPT_ID: number }; isExcluded: boolean; includeDescendants: boolean; includeMapped: boolean }>;
    expect(items.map((i) => [i.concept.CONCEPT_ID, i.includeDescendants, i.includeMapped, i.isExcluded])).toEqual([
      [IDS.diabetes, true, false, false],
      [IDS.type2, false, true, false],
      [IDS.type2Eye, false, false, true],
    ]);
    const rest = await t.request('/v1/concept-sets/resolve?ids_only=true', { method: 'POST', body: { expression: exported } });
    expect(rest.status).toBe(200);
    expect(rest.body.data.concept_ids).toEqual(expected);

    // The CSV export as well, resolved the same way.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('#export-links a', { hasText: 'CSV' }).click()]);
    const fromCsv = await t.request('/v1/concept-sets/resolve?ids_only=true', { method: 'POST', body: { expression: readFileSync((await csv.path())!, 'utf8') } });
    expect(fromCsv.body.data.concept_ids).toEqual(expected);
    expect(describeViolations(await runAxe(page))).toEqual([]);
    expectClean(s);
  });

  it('never shows the CPT4 concept to a key without CPT4 validation, on any page (a validated key sees it)', async () => {
    const pages = [
      '/',
      // (not its whole name: the page repeats the query asked)
      '/search?q=outpatient',
      `/search?q=${CPT4_CODE}`,
      '/search?q=diabetes',
      `/search/suggest?q=${encodeURIComponent('office')}`,
      `/concepts/${IDS.type2}`,
      `/concepts/${IDS.type2}?rel=${encodeURIComponent('Mapped from')}`,
      `/concepts/${IDS.type2}/relationships?relationship_id=${encodeURIComponent('Mapped from')}`,
      `/concepts/${IDS.diabetes}/children`,
      `/concepts/${IDS.cpt4}`,
      `/concepts/${IDS.cpt4}/fhir-lookup?format=json`,
      '/vocabularies',
      '/vocabularies/CPT4',
      '/vocabularies/CPT4/domains/Observation',
      '/vocabularies/SNOMED/domains/Condition',
      '/mapping-quality',
      '/mapping-quality?source=CPT4&target=SNOMED',
      '/concept-set',
    ];
    const walk = async (key: string) => {
      const s = await session();
      await signInThroughForm(s.page, t.url, key);
      // A set holding the CPT4 concept, imported (the add form refuses it to this key): the builder must not name it.
      await s.page.goto(`${t.url}/concept-set`);
      await s.page.locator('#import-expression').fill(JSON.stringify({ items: [{ concept: { CONCEPT_ID: IDS.cpt4 }, includeDescendants: false, includeMapped: false, isExcluded: false }, { concept: { CONCEPT_ID: IDS.type2 }, includeMapped: true }] }));
      await Promise.all([s.page.waitForLoadState('load'), s.page.locator('form[action^="/concept-set/import"] button[type="submit"]').click()]);
      const seen: Record<string, { status: number; text: string }> = {};
      for (const path of pages) {
        const response = await s.page.goto(`${t.url}${path}`);
        seen[path] = { status: response?.status() ?? 0, text: await s.page.content() };
      }
      return { s, seen };
    };
    const unlicensed = await walk(t.key);
    for (const [path, { status, text }] of Object.entries(unlicensed.seen)) {
      expect(status, path).toBeLessThan(500);
      expect(text, path).not.toContain(CPT4_NAME);
      expect(text, path).not.toContain(`>${CPT4_CODE}<`);
    }
    expect(unlicensed.seen[`/concepts/${IDS.cpt4}`]!.status).toBe(403);
    expect(unlicensed.seen['/vocabularies/CPT4']!.status).toBe(403);
    expectClean(unlicensed.s);

    // The same walk with a validated key does show it: the pages above are where it would appear.
    const licensed = await walk(cpt4Key);
    expect(licensed.seen[`/concepts/${IDS.cpt4}`]!.status).toBe(200);
    expect(licensed.seen[`/concepts/${IDS.cpt4}`]!.text).toContain(CPT4_NAME);
    expect(licensed.seen[`/search?q=${CPT4_CODE}`]!.text).toContain(CPT4_NAME);
    expect(licensed.seen['/search?q=outpatient']!.text).toContain(CPT4_NAME);
    expect(licensed.seen[`/concepts/${IDS.type2}`]!.text).toContain(CPT4_NAME);
    expect(licensed.seen['/vocabularies/CPT4']!.status).toBe(200);
  });

  it('passes axe-core (no serious or critical violation) on every page, each within 150 kB of HTML, CSS and JS', async () => {
    const s = await session();
    const { page } = s;
    const checked: Record<string, string[]> = {};
    const check = async (label: string) => {
      checked[label] = describeViolations(await runAxe(page));
    };
    await page.goto(`${t.url}/sign-in`);
    await check('sign-in');
    await signInThroughForm(page, t.url, t.key);
    const urls = [
      '/',
      '/search',
      '/search?q=diabetes',
      '/search?q=diabetes&mode=semantic',
      '/search?q=nothing-matches-this',
      `/concepts/${IDS.type2}`,
      `/concepts/${IDS.markup}`,
      `/concepts/${IDS.icd10Type2}`,
      `/concepts/${IDS.type2}?rel=${encodeURIComponent('Subsumes')}`,
      '/vocabularies',
      '/vocabularies/SNOMED',
      '/vocabularies/ICD10CM',
      '/vocabularies/SNOMED/domains/Condition',
      '/mapping-quality',
      '/mapping-quality?source=ICD10CM&target=SNOMED',
      '/fhir-metadata',
      '/concept-set',
      `/concepts/${IDS.cpt4}`, // 403 page
      '/concepts/999999999', // 404 page
    ];
    /** HTML + CSS + JS of each page, as decoded (the budget is 150 kB a page). */
    const weights: Record<string, number> = {};
    const assetBytes: Record<string, number> = {};
    for (const url of urls) {
      await page.goto(`${t.url}${url}`);
      await check(url);
      const { html, assets } = await page.evaluate(() => ({
        html: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).decodedBodySize,
        assets: [...document.querySelectorAll('link[rel="stylesheet"], script[src]')].map((e) => (e as HTMLLinkElement).href || (e as HTMLScriptElement).src),
      }));
      let total = html;
      for (const asset of assets) {
        assetBytes[asset] ??= Buffer.byteLength((await rawRequest(asset)).text);
        total += assetBytes[asset]!;
      }
      weights[url] = total;
    }
    // The builder with a set, its optimisation, comparison and release diff shown.
    await page.goto(`${t.url}/concepts/${IDS.diabetes}`);
    await page.locator(`#add-${IDS.diabetes}-desc`).check();
    await Promise.all([page.waitForLoadState('load'), page.locator('form.add-to-set button[type="submit"]').first().click()]);
    await page.goto(`${t.url}/concepts/${IDS.type2}`);
    await Promise.all([page.waitForLoadState('load'), page.locator('form.add-to-set button[type="submit"]').first().click()]);
    await page.goto(`${t.url}/concept-set?optimize=true&diff_to=2025.1`);
    await page.locator('#compare-expression').fill(JSON.stringify({ items: [{ concept: { CONCEPT_ID: IDS.type2 }, includeDescendants: true }] }));
    await Promise.all([page.waitForLoadState('load'), page.locator('form[action^="/concept-set/compare"] button[type="submit"]').click()]);
    await check('concept-set with items and comparison');
    await page.goto(`${t.url}/concept-set?optimize=true&diff_to=2025.1`);
    await check('concept-set optimise and diff');
    // The tree once expanded (content htmx added).
    await page.goto(`${t.url}/concepts/${IDS.diabetes}`);
    const details = page.locator('#children details').first();
    await details.locator('summary').click({ position: { x: 2, y: 2 } });
    await details.locator('.children > li').first().waitFor();
    await check('concept page with the tree expanded');
    // Suggestions shown under the search box.
    await page.goto(`${t.url}/search`);
    await page.locator('#search-q').pressSequentially('diab', { delay: 30 });
    await page.locator('#search-suggestions a').first().waitFor();
    await check('search with suggestions');

    const failing = Object.entries(checked).filter(([, v]) => v.length > 0);
    expect(Object.fromEntries(failing)).toEqual({});
    expect(Object.entries(weights).filter(([, bytes]) => bytes > 150_000 || bytes < 50_000)).toEqual([]);
    expectClean(s);
  });

  it('lets the keyboard alone search, open a result and expand the tree', async () => {
    const s = await session();
    const { page } = s;
    await signInThroughForm(page, t.url, t.key);
    await page.goto(`${t.url}/search`);
    // Reach the search field by Tab, type, Enter.
    expect(await tabTo(page, '#search-q')).toBe(true);
    await page.keyboard.type('diabetes mellitus');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('q') === 'diabetes mellitus'), page.keyboard.press('Enter')]);
    await page.locator('table.results tbody th.name > a').first().waitFor();
    // Tab to the Diabetes mellitus result and open it with Enter.
    expect(await tabTo(page, `table.results th.name > a[href^="/concepts/${IDS.diabetes}"]`, 120)).toBe(true);
    await Promise.all([page.waitForURL((u) => u.pathname === `/concepts/${IDS.diabetes}`), page.keyboard.press('Enter')]);
    // Tab to the Type 2 node of the tree and open it with Enter: its children load.
    expect(await tabTo(page, `#children details[hx-get^="/concepts/${IDS.type2}/children"] > summary`, 200)).toBe(true);
    await page.keyboard.press('Enter');
    const node = page.locator('#children details[open]');
    await node.locator('.children a[href^="/concepts/"]:not([href*="#"])', { hasText: 'renal complication' }).waitFor();
    // And on into the loaded children: Tab reaches them.
    expect(await tabTo(page, '#children details[open] .children summary', 10)).toBe(true);
    expectClean(s);
  });

  it('works without JavaScript: search, open a result, walk the tree by its links, add to the set', async () => {
    const s = await session({ javaScriptEnabled: false });
    const { page } = s;
    await signInThroughForm(page, t.url, t.key);
    await page.goto(`${t.url}/search`);
    await page.locator('#search-q').fill('diabetes');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('q') === 'diabetes'), page.locator('#search-q').press('Enter')]);
    const names = await page.locator('table.results tbody th.name > a').allTextContents();
    expect(names.length).toBeGreaterThan(1);
    await Promise.all([page.waitForURL((u) => u.pathname === `/concepts/${IDS.diabetes}`), page.locator('table.results tbody th.name > a', { hasText: /^Diabetes mellitus$/ }).click()]);
    // The tree without script: opening a node shows a link to that node's own children, on its page.
    const type2 = page.locator(`#children details[hx-get^="/concepts/${IDS.type2}/children"]`);
    await type2.locator('summary').click({ position: { x: 2, y: 2 } });
    await Promise.all([page.waitForURL((u) => u.pathname === `/concepts/${IDS.type2}`), type2.locator(`.children a[href^="/concepts/${IDS.type2}"]`).first().click()]);
    await expect(page.locator('#children').textContent()).resolves.toContain('renal complication');
    // Add to the set with a flag, and see it resolved.
    await page.locator(`#add-${IDS.type2}-desc`).check();
    await Promise.all([page.waitForURL((u) => u.pathname === `/concepts/${IDS.type2}`), page.locator('form.add-to-set button[type="submit"]').first().click()]);
    await page.goto(`${t.url}/concept-set`);
    // Type 2 and its four children in 2025.2.
    await expect(page.locator('#resolved-count').textContent()).resolves.toBe('5');
    expectClean(s);
  });

  it('copies the concept id and code with their buttons, and shows the releases holding the concept with what changed', async () => {
    const s = await session({ permissions: ['clipboard-read', 'clipboard-write'] });
    const { page } = s;
    await signInThroughForm(page, t.url, t.key);
    await page.goto(`${t.url}/concepts/${IDS.type2Eye}`);
    const copyId = page.locator(`button[data-copy="${IDS.type2Eye}"]`);
    await copyId.click();
    await expect.poll(() => copyId.textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(String(IDS.type2Eye));
    await page.locator('button[data-copy="422034002"]').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('422034002');
    // Renamed between the releases: both releases hold it, and the change is named.
    const releases = (await page.locator('#releases').textContent())!;
    expect(releases).toContain('2025.1');
    expect(releases).toContain(RENAMED.before);
    // The concept added in 2025.2 is not in 2025.1.
    await page.goto(`${t.url}/concepts/${IDS.type2Foot}`);
    expect(await page.locator('#releases').textContent()).toContain('2025.1');
    const missing = await page.goto(`${t.url}/concepts/${IDS.type2Foot}?vocab_release=2025.1`);
    expect(missing?.status()).toBe(404);
    expectClean(s);
  });

  it('shows a name with markup as text everywhere it appears', async () => {
    const s = await session();
    const { page } = s;
    await signInThroughForm(page, t.url, t.key);
    await page.goto(`${t.url}/concepts/${IDS.markup}`);
    await expect(page.locator('h1').textContent()).resolves.toContain(MARKUP_NAME);
    await expect(page.locator('main').textContent()).resolves.toContain('Markup <i>synonym</i>');
    // Not one <b> or <i> element came from the data.
    await expect(page.locator('main b, main i').count()).resolves.toBe(0);
    await expect(page.title()).resolves.toContain(MARKUP_NAME);
    await page.goto(`${t.url}/search?q=bold`);
    await expect(page.locator('table.results tbody th.name > a').first().textContent()).resolves.toBe(MARKUP_NAME);
    await expect(page.locator('main table.results b').count()).resolves.toBe(0);
    await page.goto(`${t.url}/concepts/${IDS.type2}`);
    await expect(page.locator('#children').textContent()).resolves.toContain(MARKUP_NAME);
    await expect(page.locator('#children b').count()).resolves.toBe(0);
    expectClean(s);
  });
});
