/**
 * Versioning rule 3 and reading note 8: a release is chosen by the vocab_release parameter or a
 * header (X-Vocab-Release, and the client aliases X-Vocab-Version / X-Vocabulary-Version), the
 * default one otherwise; latest/default/current are aliases; unknown → 400 naming the releases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { writeCoreFixture } from './fixture-vocabulary.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({
    releases: [
      { dir: writeCoreFixture('v5.0 27-FEB-25'), label: '2025.1' },
      { dir: writeCoreFixture('v5.0 27-AUG-25'), label: '2025.2', makeDefault: true },
    ],
  });
});
afterAll(async () => {
  await t?.close();
});

const releaseOf = async (path: string, headers: Record<string, string> = {}) => {
  const res = await t.request(path, { headers });
  expect(res.status).toBe(200);
  return res.body.meta.vocab_release as string;
};

describe('release selection', () => {
  it('uses the default release when none is asked for', async () => {
    expect(await releaseOf('/v1/concepts/201826')).toBe('2025.2');
  });

  it('selects by the vocab_release query parameter', async () => {
    expect(await releaseOf('/v1/concepts/201826?vocab_release=2025.1')).toBe('2025.1');
  });

  it.each(['X-Vocab-Release', 'X-Vocab-Version', 'X-Vocabulary-Version'])('selects by the %s header', async (header) => {
    expect(await releaseOf('/v1/concepts/201826', { [header]: '2025.1' })).toBe('2025.1');
  });

  it('the query parameter wins over a header', async () => {
    expect(await releaseOf('/v1/concepts/201826?vocab_release=2025.2', { 'X-Vocab-Release': '2025.1' })).toBe('2025.2');
  });

  it.each(['latest', 'default', 'current', 'LATEST'])('%s means the default release', async (alias) => {
    expect(await releaseOf(`/v1/concepts/201826?vocab_release=${alias}`)).toBe('2025.2');
  });

  it('accepts the YYYYvN form', async () => {
    expect(await releaseOf('/v1/concepts/201826?vocab_release=2025v1')).toBe('2025.1');
  });

  it.each([
    ['20250227', '2025.1'],
    ['omop-v20250227', '2025.1'],
    ['OMOP-V20250827', '2025.2'],
  ])('accepts the FHIR code-system version %s (the vocabulary date of %s) on every surface', async (selector, label) => {
    expect(await releaseOf(`/v1/concepts/201826?vocab_release=${selector}`)).toBe(label);
    const lookup = await t.request(`/fhir/r4/CodeSystem/$lookup?system=${encodeURIComponent('https://fhir-terminology.ohdsi.org')}&code=201826`, {
      headers: { 'X-Vocab-Release': selector },
    });
    expect(lookup.status).toBe(200);
    expect(lookup.body.parameter.find((p: { name: string }) => p.name === 'version').valueString).toBe(selector.toLowerCase().replace('omop-v', ''));
  });

  it('FHIR parameters that name a release take the same spellings and get the same message', async () => {
    const omop = encodeURIComponent('https://fhir-terminology.ohdsi.org');
    const diff = await t.request(`/fhir/r4/CodeSystem/$diff?system=${omop}&code=201826&fromVersion=2025v1&toVersion=omop-v20250827`);
    expect(diff.status).toBe(200);
    const value = (name: string) => diff.body.parameter.find((p: { name: string }) => p.name === name).valueString;
    expect([value('fromVersion'), value('toVersion')]).toEqual(['2025.1', '2025.2']);

    const unknownDiff = await t.request(`/fhir/r4/CodeSystem/$diff?system=${omop}&code=201826&fromVersion=2019.1`);
    expect(unknownDiff.status).toBe(404);
    expect(unknownDiff.body.issue[0].details.text).toContain("Parameter 'fromVersion': unknown vocabulary release '2019.1'. Releases on this server: 2025.1, 2025.2");
    const batch = await t.request('/fhir/r4', {
      method: 'POST',
      body: { resourceType: 'Bundle', type: 'batch', entry: [{ request: { method: 'GET', url: 'metadata?vocab_release=2019.1' } }] },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.entry[0].response.status).toMatch(/^404/);
    expect(batch.body.entry[0].response.outcome.issue[0].details.text).toContain("Unknown vocabulary release '2019.1'. Releases on this server: 2025.1, 2025.2");
  });

  it('an unknown release is a 400 naming the releases that exist', async () => {
    const res = await t.request('/v1/concepts/201826?vocab_release=2019.1');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('2019.1');
    expect(res.body.error.message).toContain('2025.1');
    expect(res.body.error.message).toContain('2025.2');
    expect(res.body.error.details.available_releases).toEqual(['2025.1', '2025.2']);
  });

  it('an unknown release on the FHIR surface is an OperationOutcome not-found', async () => {
    const res = await t.request('/fhir/r4/metadata', { headers: { 'X-Vocab-Release': '2019.1' } });
    expect(res.body.resourceType).toBe('OperationOutcome');
    expect(res.body.issue[0].code).toBe('not-found');
    // A path that reaches no route is a plain 404 with no release lookup (gate); once the FHIR route exists the
    // release is looked up and the message lists the releases.
    const routed = (await t.request('/fhir/r4/metadata')).status !== 404;
    if (routed) expect(res.body.issue[0].details.text).toContain('2025.1');
  });

  it('lists the releases, default marked', async () => {
    const res = await t.request('/v1/vocabularies/releases');
    expect(res.status).toBe(200);
    const labels = res.body.data.releases.map((r: { label: string }) => r.label);
    expect(labels).toEqual(['2025.2', '2025.1']);
    expect(res.body.data.default_release).toBe('2025.2');
    const def = res.body.data.releases.find((r: { label: string }) => r.label === '2025.2');
    expect(def).toMatchObject({ is_default: true, release_date: '2025-08-27', source_vocabulary_version: 'v5.0 27-AUG-25' });
    expect(def.concept_count).toBe(8);
    expect(res.body.meta.pagination.total_items).toBe(2);
  });

  it('a release loaded while serving becomes selectable', async () => {
    await t.load(writeCoreFixture('v5.0 27-FEB-26'), '2026.1');
    expect(await releaseOf('/v1/concepts/201826?vocab_release=2026.1')).toBe('2026.1');
    // The default stays the one marked default.
    expect(await releaseOf('/v1/concepts/201826')).toBe('2025.2');
  });
});
