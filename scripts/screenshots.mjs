#!/usr/bin/env node
// Screenshots of the browser's main pages for docs/browser.md (docs/images/browser-*.png), taken with Debian's Chromium
// through playwright-core from a running server holding the demo vocabulary:
//
//   npm run build && node dist/cli/main.js demo --data-dir /tmp/omopterm-shots   # another terminal
//   node scripts/screenshots.mjs --url https://127.0.0.1:8443 --data-dir /tmp/omopterm-shots
//
// The key is read from <data-dir>/demo-api-key (or given with --key); the release is the demo's (--release demo).
// Each image is the top 1280 × 900 CSS pixels of its page (the part a person sees first), which keeps it small.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'https://127.0.0.1:8443' },
    'data-dir': { type: 'string' },
    key: { type: 'string' },
    release: { type: 'string', default: 'demo' },
    out: { type: 'string', default: join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'images') },
    chromium: { type: 'string', default: process.env.OMOPTERM_CHROMIUM ?? '/usr/bin/chromium' },
  },
});
const key = values.key ?? (values['data-dir'] ? readFileSync(join(values['data-dir'], 'demo-api-key'), 'utf8').trim() : undefined);
if (!key) {
  console.error('usage: node scripts/screenshots.mjs --url https://HOST:PORT (--data-dir DEMO_DATA_DIR | --key KEY) [--release demo] [--out docs/images]');
  process.exit(2);
}
const base = values.url.replace(/\/$/, '');
const release = values.release;
const at = (path, params = {}) => {
  const url = new URL(path, base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (release) url.searchParams.set('vocab_release', release);
  return url.href;
};

const browser = await chromium.launch({
  executablePath: values.chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
const page = await context.newPage();
mkdirSync(values.out, { recursive: true });

async function shot(name, url, prepare) {
  const response = await page.goto(url, { waitUntil: 'load' });
  if (prepare) await prepare();
  const file = join(values.out, `browser-${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  console.log(`${response?.status() ?? '?'} ${url} -> ${file} (${Math.round(statSync(file).size / 1024)} kB)`);
}

try {
  await shot('sign-in', `${base}/sign-in`);
  await page.locator('#api-key').fill(key);
  await Promise.all([page.waitForURL((u) => u.pathname !== '/sign-in'), page.locator('form[action="/sign-in"] button[type="submit"]').click()]);

  await shot('home', at('/'));
  await shot('search', at('/search', { q: 'type 2 diabetes' }));
  await shot('concept', at('/concepts/201826'));
  // The hierarchy of Diabetes mellitus with its child Type 2 diabetes mellitus opened in place.
  await shot('concept-tree', at('/concepts/201820'), async () => {
    const details = page.locator('#children details[hx-get^="/concepts/201826/"]').first();
    if (await details.count()) {
      await details.locator('summary').click({ position: { x: 2, y: 2 } });
      await details.locator('.children > li').first().waitFor({ timeout: 5000 }).catch(() => undefined);
    }
    await page.locator('#hierarchy-heading').evaluate((h) => h.scrollIntoView({ block: 'start' }));
  });
  await shot('vocabularies', at('/vocabularies'));
  await shot('vocabulary', at('/vocabularies/SNOMED'));
  await shot('mapping-quality', at('/mapping-quality', { source: 'ICD10CM', target: 'SNOMED' }));

  // A small concept set: Diabetes mellitus with its descendants, Type 2 with its mapped source codes.
  for (const [id, flag] of [
    [201820, 'desc'],
    [201826, 'mapped'],
  ]) {
    await page.goto(at(`/concepts/${id}`));
    await page.locator(`#add-${id}-${flag}`).check();
    await Promise.all([page.waitForLoadState('load'), page.locator('form.add-to-set button[type="submit"]').first().click()]);
  }
  await shot('concept-set', at('/concept-set'));
  await page.goto(at('/concept-set'));
  await page.locator('form[action^="/concept-set/clear"] button[type="submit"]').click().catch(() => undefined);

  // A mapping job of a few local source terms, its first term approved; the shot shows the review and the terms.
  await page.goto(at('/mapping'));
  const terms = 'code,name,count\nDM2,Type 2 diabetes,700\nHTN,High blood pressure,1200\nAF,Atrial fibrillation,90\nCHX,Chest infection,300\n';
  await page.locator('#mapping-file').setInputFiles({ name: 'ward-terms.csv', mimeType: 'text/csv', buffer: Buffer.from(terms) });
  await Promise.all([page.waitForURL((u) => /^\/mapping\/[^/]+$/.test(u.pathname)), page.locator('#mapping-upload button[type="submit"]').click()]);
  const job = page.url();
  await page.locator('#job-state', { hasText: 'completed' }).waitFor({ timeout: 60_000 });
  await page.locator('article.term button[value="approve"]').first().click();
  await page.locator('#reviewed-terms', { hasText: '1' }).waitFor();
  await shot('mapping', job, async () => {
    await page.locator('#job-progress-heading').evaluate((h) => h.scrollIntoView({ block: 'start' }));
  });
  await page.locator('form[action$="/delete"] button[type="submit"]').click().catch(() => undefined);
} finally {
  await browser.close();
}
