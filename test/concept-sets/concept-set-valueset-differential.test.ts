/**
 * Issue 22 acceptance: for every expression of the concept-set differential test (same generator, seeds and releases),
 * POST /v1/concept-sets/resolve equals ValueSet/$expand of the ValueSet POST /v1/concept-sets/to-valueset writes, on
 * r4 and r5: the same ids in the same order and the same total, paged through $expand with count 1000.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OMOP_CONCEPT_SYSTEM } from '../../src/services/fhir/code-system-uris.js';
import type { TestServer } from '../helpers/test-server.js';
import { readAthenaFiles, type AthenaFiles } from '../navigation/mapping-athena-files.js';
import { atlas, GIBLEED, generate, haveShared, startDifferentialServer, SYNTHEA, type DifferentialServer, Reference } from './concept-set-generator.js';


let server: DifferentialServer;
let t: TestServer;
let validatedKey: string;
let synthDir: string;
let randomDir: string;
const tally: Record<string, { expressions: number; concepts: number; pagedExpansions: number }> = {};

beforeAll(async () => {
  server = await startDifferentialServer('omopterm-cs-vs-');
  ({ t, validatedKey, synthDir, randomDir } = server);
}, 300_000);
afterAll(async () => {
  await server?.close();
  const total = Object.values(tally).reduce((s, v) => ({ expressions: s.expressions + v.expressions, concepts: s.concepts + v.concepts }), { expressions: 0, concepts: 0 });
  console.log(`resolve = $expand(to-valueset): ${JSON.stringify(tally)}; total ${total.expressions} expressions, ${total.concepts} resolved concepts compared on r4 and r5`);
});

/** Every id of the expansion, paged with count 1000; the total of each page must be the same. */
async function expandAll(version: 'r4' | 'r5', label: string, valueSet: { url: string }, asTxResource: boolean, key: string | undefined): Promise<{ ids: number[]; total: number; pages: number }> {
  const ids: number[] = [];
  let total = -1;
  let pages = 0;
  for (let offset = 0; ; offset += 1000) {
    const parameter = [
      ...(asTxResource ? [{ name: 'url', valueUri: valueSet.url }, { name: 'tx-resource', resource: valueSet }] : [{ name: 'valueSet', resource: valueSet }]),
      { name: 'offset', valueInteger: offset },
      { name: 'count', valueInteger: 1000 },
    ];
    const res = await t.request(`/fhir/${version}/ValueSet/$expand?vocab_release=${label}`, {
      method: 'POST',
      headers: { 'content-type': 'application/fhir+json' },
      body: { resourceType: 'Parameters', parameter },
      key,
    });
    expect(res.status, res.text).toBe(200);
    if (total < 0) total = res.body.expansion.total;
    expect(res.body.expansion.total).toBe(total);
    pages++;
    const contains: Array<{ system: string; code: string }> = res.body.expansion.contains ?? [];
    for (const c of contains) {
      expect(c.system).toBe(OMOP_CONCEPT_SYSTEM);
      ids.push(Number(c.code));
    }
    if (contains.length < 1000 || offset + 1000 >= total) break;
  }
  return { ids, total, pages };
}

async function runComparison(label: string, files: AthenaFiles, count: number, seed: number): Promise<void> {
  const expressions = generate(new Reference(files), count, seed);
  let concepts = 0;
  let pagedExpansions = 0;
  for (const [e, items] of expressions.entries()) {
    const key = e % 2 === 1 ? validatedKey : undefined;
    const expression = atlas(items);
    const resolved = await t.request(`/v1/concept-sets/resolve?ids_only=true&vocab_release=${label}`, { method: 'POST', body: { expression }, key });
    expect(resolved.status, resolved.text).toBe(200);
    const expected: number[] = resolved.body.data.concept_ids;
    for (const version of ['r4', 'r5'] as const) {
      const written = await t.request(`/v1/concept-sets/to-valueset?fhir_version=${version}&vocab_release=${label}`, { method: 'POST', body: { expression }, key });
      expect(written.status, written.text).toBe(200);
      const expansion = await expandAll(version, label, written.body.data, e % 3 === 0, key);
      const context = `${label} expression ${e} on ${version}: ${JSON.stringify(items)}`;
      expect(expansion.total, context).toBe(expected.length);
      expect(expansion.ids, context).toEqual(expected);
      if (expansion.pages > 1) pagedExpansions++;
    }
    concepts += expected.length;
  }
  tally[label] = { expressions: count, concepts, pagedExpansions };
}

describe('resolve = $expand of to-valueset, for every expression of the differential test', () => {
  it('synthetic release: 300 expressions', async () => {
    await runComparison('2030.1', readAthenaFiles(synthDir), 300, 1);
  }, 600_000);

  it('seeded random release (invalid concepts in hierarchies, invalid and licensed maps, dangling rows): 300 expressions', async () => {
    await runComparison('2031.1', readAthenaFiles(randomDir), 300, 4);
  }, 600_000);

  it.skipIf(!haveShared)('eunomia-gibleed-2019 (real ancestors): 200 expressions', async () => {
    await runComparison('2019.1', readAthenaFiles(GIBLEED), 200, 2);
  }, 600_000);

  it.skipIf(!haveShared)("eunomia-synthea27nj (real 'Maps to' rows): 200 expressions", async () => {
    await runComparison('2022.2', readAthenaFiles(SYNTHEA), 200, 3);
  }, 600_000);
});
