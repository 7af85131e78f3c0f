/**
 * The mapping review page in a real browser (issue 24, "Review"; Chromium through playwright-core, on the demo
 * vocabulary): a person uploads a CSV built here from the vocabulary's own names, waits for the job, approves a
 * candidate, searches for another concept and approves it, sees the review progress change, and exports Usagi's CSV
 * whose rows carry those reviews; axe-core finds no serious or critical violation; the keyboard alone approves; the
 * pages work without JavaScript; nothing is asked of another origin and the CSP refuses nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_VOCABULARY_DIR } from '../../src/cli/commands/demo.js';
import { BROWSER_TEST_TIMEOUT_MS, chromiumMissing, describeViolations, launchBrowser, runAxe, signInThroughForm, tabTo, watchedContext, type WatchedContext } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/** Names of demo vocabulary concepts, read from its CONCEPT.csv (the test's reference, not the server's answer). */
function demoNames(ids: number[]): Map<number, string> {
  const rows = parse(readFileSync(join(DEMO_VOCABULARY_DIR, 'CONCEPT.csv')), { delimiter: '\t', columns: true, quote: false }) as Record<string, string>[];
  return new Map(rows.filter((r) => ids.includes(Number(r.concept_id))).map((r) => [Number(r.concept_id), r.concept_name!]));
}

const TYPE_2 = 201826;
const HYPERTENSION = 320128;
const ATRIAL_FIBRILLATION = 313217;
const PNEUMONIA = 255848;
/** A source name that is no concept's name: the reviewer searches for its concept. */
const LOCAL_NAME = 'Chest infection (ward slang)';

interface Term {
  code: string;
  name: string;
  frequency: number;
}

describe.skipIf(chromiumMissing())('the mapping review page in Chromium', { timeout: BROWSER_TEST_TIMEOUT_MS }, () => {
  let t: TestServer;
  let browser: Browser;
  let terms: Term[];
  let csv: string;
  const open: WatchedContext[] = [];
  const session = async (options?: { javaScriptEnabled?: boolean }) => {
    const s = await watchedContext(browser, options);
    open.push(s);
    return s;
  };
  const expectClean = (s: WatchedContext) => {
    expect(s.watch.foreignRequests(t.url)).toEqual([]);
    expect(s.watch.problems()).toEqual([]);
  };

  beforeAll(async () => {
    t = await startTestServer({ releases: [{ dir: DEMO_VOCABULARY_DIR, label: '2025.2', makeDefault: true }] });
    browser = await launchBrowser();
    const names = demoNames([TYPE_2, HYPERTENSION, ATRIAL_FIBRILLATION]);
    terms = [
      { code: 'DM2', name: names.get(TYPE_2)!, frequency: 700 },
      { code: 'HTN', name: names.get(HYPERTENSION)!, frequency: 1200 },
      { code: 'AF', name: names.get(ATRIAL_FIBRILLATION)!, frequency: 90 },
      { code: 'CHX', name: LOCAL_NAME, frequency: 300 },
    ];
    csv = ['code,name,count', ...terms.map((x) => `${x.code},"${x.name}",${x.frequency}`)].join('\n');
  }, 120_000);
  afterAll(async () => {
    for (const s of open) await s.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  const term = (page: Page, name: string): Locator => page.locator('article.term', { has: page.locator('.term-name', { hasText: name }) });

  /** Uploads the CSV through the form and waits (the page polls, then reloads) until the job is completed. */
  async function startJob(page: Page): Promise<string> {
    await page.goto(`${t.url}/mapping`);
    await page.locator('#mapping-file').setInputFiles({ name: 'ward-terms.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.locator('#mapping-k').fill('5');
    await Promise.all([page.waitForURL((u) => /^\/mapping\/[^/]+$/.test(u.pathname)), page.locator('#mapping-upload button[type="submit"]').click()]);
    const path = new URL(page.url()).pathname;
    return path;
  }

  async function waitCompleted(page: Page, javaScript = true): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if ((await page.locator('#job-state').textContent()) === 'completed') return;
      if (javaScript) await page.waitForTimeout(200);
      else await Promise.all([page.waitForLoadState('load'), page.locator('#job-progress a', { hasText: 'Refresh' }).click()]);
    }
    throw new Error('the job did not complete');
  }

  it('uploads, waits, approves a candidate, searches and approves another concept, and exports Usagi CSV', async () => {
    const s = await session();
    const { page } = s;
    await signInThroughForm(page, t.url, t.key, '/mapping');
    const path = await startJob(page);
    await waitCompleted(page);

    // The column roles the server used, and the terms by frequency (highest first).
    const roles = await page.locator('#column-roles').textContent();
    for (const header of ['code', 'name', 'count']) expect(roles).toContain(header);
    const shown = await page.locator('article.term .term-name').allTextContents();
    expect(shown).toEqual([...terms].sort((a, b) => b.frequency - a.frequency).map((x) => x.name));
    await expect(page.locator('#reviewed-terms').textContent()).resolves.toBe('0');
    expect(describeViolations(await runAxe(page))).toEqual([]);

    // Approve the pre-selected candidate of the Type 2 term: it is the concept of that name, and the progress moves.
    const type2 = term(page, terms[0]!.name);
    await expect(type2.locator('input[name="concept_id"]:checked').getAttribute('value')).resolves.toBe(String(TYPE_2));
    await type2.locator('button[value="approve"]').click();
    await term(page, terms[0]!.name).locator('.badge.status-approved').waitFor();
    await page.locator('#reviewed-terms', { hasText: '1' }).waitFor();
    const total = terms.reduce((n, x) => n + x.frequency, 0);
    await expect(page.locator('#frequency-covered').textContent()).resolves.toBe(`${((100 * 700) / total).toFixed(2).replace(/\.?0+$/, '')} %`);
    expect(pathOfPage(page)).toBe(path);

    // Search for another concept for the local name, and approve Pneumonia from the results.
    const local = term(page, LOCAL_NAME);
    await local.locator('input[type="search"]').fill('pneumonia');
    await local.locator('input[type="search"]').press('Enter');
    const approvePneumonia = term(page, LOCAL_NAME).locator(`form:has(input[name="concept_id"][value="${PNEUMONIA}"]) button`);
    await approvePneumonia.waitFor();
    expect(describeViolations(await runAxe(page))).toEqual([]);
    await approvePneumonia.click();
    await page.locator('#reviewed-terms', { hasText: '2' }).waitFor();
    const approvedLocal = term(page, LOCAL_NAME);
    await approvedLocal.locator('.badge.status-approved').waitFor();
    await expect(approvedLocal.locator('input[name="concept_id"]:checked').getAttribute('value')).resolves.toBe(String(PNEUMONIA));
    expect(pathOfPage(page)).toBe(path);

    // Export Usagi's CSV: one row per term, the two reviews in it.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#export-links a', { hasText: 'Usagi CSV' }).click()]);
    const rows = parse(readFileSync((await download.path())!), { columns: true, escape: '\\' }) as Record<string, string>[];
    expect(new Set(rows.map((r) => r.sourceName))).toEqual(new Set(terms.map((x) => x.name)));
    const row = (name: string) => rows.find((r) => r.sourceName === name)!;
    expect([row(terms[0]!.name).mappingStatus, row(terms[0]!.name).conceptId]).toEqual(['APPROVED', String(TYPE_2)]);
    expect([row(LOCAL_NAME).mappingStatus, row(LOCAL_NAME).conceptId, row(LOCAL_NAME).sourceFrequency]).toEqual(['APPROVED', String(PNEUMONIA), '300']);
    expect(row(terms[1]!.name).mappingStatus).not.toBe('APPROVED');

    // The term's own page (what the search opens without JavaScript), with results, and the list of jobs.
    await page.goto(`${t.url}${path}/terms/0?q=pneumonia`);
    await expect(page.locator('h1').textContent()).resolves.toBe(terms[0]!.name);
    expect(describeViolations(await runAxe(page))).toEqual([]);
    await page.goto(`${t.url}/mapping`);
    expect(describeViolations(await runAxe(page))).toEqual([]);
    expectClean(s);
  });

  it('lets the keyboard alone approve a term', async () => {
    const s = await session();
    const { page } = s;
    await signInThroughForm(page, t.url, t.key, '/mapping');
    await startJob(page);
    await waitCompleted(page);
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    const button = `#${await term(page, terms[2]!.name).getAttribute('id')} button[value="approve"]`;
    expect(await tabTo(page, button, 200)).toBe(true);
    await page.keyboard.press('Enter');
    await term(page, terms[2]!.name).locator('.badge.status-approved').waitFor();
    await page.locator('#reviewed-terms', { hasText: '1' }).waitFor();
    expectClean(s);
  });

  it('works without JavaScript: upload, refresh until done, approve, search and approve', async () => {
    const s = await session({ javaScriptEnabled: false });
    const { page } = s;
    await signInThroughForm(page, t.url, t.key, '/mapping');
    const path = await startJob(page);
    await waitCompleted(page, false);
    await Promise.all([page.waitForLoadState('load'), term(page, terms[1]!.name).locator('button[value="approve"]').click()]);
    await expect(term(page, terms[1]!.name).locator('.badge.status-approved').count()).resolves.toBe(1);
    // The search leads to the term's own page; approving there comes back to it.
    await term(page, LOCAL_NAME).locator('input[type="search"]').fill('pneumonia');
    await Promise.all([page.waitForURL((u) => u.pathname.startsWith(`${path}/terms/`)), term(page, LOCAL_NAME).locator('input[type="search"]').press('Enter')]);
    await Promise.all([page.waitForLoadState('load'), page.locator(`form:has(input[name="concept_id"][value="${PNEUMONIA}"]) button`).click()]);
    await expect(page.locator('#reviewed-terms').textContent()).resolves.toBe('2');
    expectClean(s);
  });
});

const pathOfPage = (page: Page) => new URL(page.url()).pathname;
