/**
 * Mapping quality (E10) and coverage on real files: the bundled demo vocabulary (TAB) and
 * ../shared/vocab/eunomia-synthea27nj (comma CSV, gzipped CONCEPT_RELATIONSHIP, mostly dangling
 * rows). Every count is checked against CONCEPT and CONCEPT_RELATIONSHIP, read and counted here,
 * for every vocabulary pair the files hold; every percentage is within 0–100 and every fraction 0–1.
 */
import { parse } from 'csv-parse/sync';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { expectBoundedFigures } from './bounded-figures.js';
import { sharedVocabMissing, sharedVocabPath } from '../helpers/shared-vocab.js';

const MISSING_SHARED_VOCAB = sharedVocabMissing('eunomia-synthea27nj');

const DATASETS = [
  { name: 'demo vocabulary', dir: fileURLToPath(new URL('../../examples/demo-vocabulary/', import.meta.url)), delimiter: '\t', quote: false },
  { name: 'eunomia-synthea27nj', dir: sharedVocabPath('eunomia-synthea27nj'), delimiter: ',', quote: true },
] as const;
const LICENSED = new Set(['CPT4', 'GPI', 'MedDRA']);
const FLAGS = 'include_outliers=true&include_trends=true&include_recommendations=true';

function readTable(dataset: (typeof DATASETS)[number], table: string): Array<Record<string, string>> {
  const plain = join(dataset.dir, `${table}.csv`);
  const text = existsSync(plain) ? readFileSync(plain, 'utf8') : gunzipSync(readFileSync(`${plain}.gz`)).toString('utf8');
  return parse(text, { columns: true, delimiter: dataset.delimiter, quote: dataset.quote ? '"' : false, skip_empty_lines: true, relax_column_count: true });
}

interface Concept {
  id: number;
  vocabulary: string;
  domain: string;
  valid: boolean;
}
interface MappingRow {
  from: Concept;
  to: Concept;
  relationship: string;
}

/** What the files say: concepts (first row of a repeated id wins), and the valid mapping rows with both ends present. */
function countFiles(dataset: (typeof DATASETS)[number]) {
  const concepts = new Map<number, Concept>();
  for (const r of readTable(dataset, 'CONCEPT')) {
    const id = Number(r.concept_id);
    if (!concepts.has(id)) concepts.set(id, { id, vocabulary: r.vocabulary_id!, domain: r.domain_id!, valid: !r.invalid_reason });
  }
  const seen = new Set<string>();
  const rows: MappingRow[] = [];
  for (const r of readTable(dataset, 'CONCEPT_RELATIONSHIP')) {
    if ((r.relationship_id !== 'Maps to' && r.relationship_id !== 'Maps to value') || r.invalid_reason) continue;
    const from = concepts.get(Number(r.concept_id_1));
    const to = concepts.get(Number(r.concept_id_2));
    const key = `${r.concept_id_1}/${r.relationship_id}/${r.concept_id_2}`;
    if (!from || !to || seen.has(key)) continue;
    seen.add(key);
    rows.push({ from, to, relationship: r.relationship_id });
  }
  const fanOut = new Map<number, number>();
  for (const r of rows) fanOut.set(r.from.id, (fanOut.get(r.from.id) ?? 0) + 1);
  const pairs = new Map<string, MappingRow[]>();
  for (const r of rows) {
    const key = `${r.from.vocabulary}/${r.to.vocabulary}`;
    if (!pairs.has(key)) pairs.set(key, []);
    pairs.get(key)!.push(r);
  }
  return { concepts, rows, fanOut, pairs };
}

const tally = <T>(items: readonly T[], key: (item: T) => string) => {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
};

describe.each(DATASETS.slice(0, 1))('mapping quality and coverage on $name', qualityAndCoverage);
describe.skipIf(MISSING_SHARED_VOCAB).each(DATASETS.slice(1))('mapping quality and coverage on $name', qualityAndCoverage);

function qualityAndCoverage(dataset: (typeof DATASETS)[number]) {
  let files: ReturnType<typeof countFiles>;
  let server: TestServer;
  beforeAll(async () => {
    files = countFiles(dataset);
    server = await startTestServer({ releases: [{ dir: dataset.dir, label: '2025.2', makeDefault: true }] });
  }, 120_000);
  afterAll(async () => server?.close());

  it('has mapping pairs to check', () => {
    expect([...files.pairs.keys()].filter((k) => !k.split('/').some((v) => LICENSED.has(v))).length).toBeGreaterThan(1);
  });

  it('counts every pair’s rows, relationships, fan-out, self-maps and domains as the files do', async () => {
    for (const [key, rows] of files.pairs) {
      if (key.split('/').some((v) => LICENSED.has(v))) continue;
      const res = await server.request(`/v1/mappings/quality/${key.split('/').map(encodeURIComponent).join('/')}?${FLAGS}`);
      expect(res.status, key).toBe(200);
      const data = res.body.data;
      expect(data.quality_overview.total_mappings_analyzed, key).toBe(rows.length);
      const signals = data.quality_metrics.signal_summary;
      expect(signals.by_relationship, key).toEqual(tally(rows, (r) => r.relationship));
      expect(signals.one_to_many, key).toBe(rows.filter((r) => files.fanOut.get(r.from.id)! > 1).length);
      expect(signals.self_maps, key).toBe(rows.filter((r) => r.from.id === r.to.id).length);
      expect(signals.domain_mismatches, key).toBe(rows.filter((r) => r.from.domain !== r.to.domain).length);
      const byDomain = tally(rows, (r) => r.from.domain);
      const served = Object.entries(data.quality_by_domain) as Array<[string, { total_mappings: number; quality_distribution: Record<string, number> }]>;
      expect(Object.fromEntries(served.map(([d, v]) => [d, v.total_mappings])), key).toEqual(byDomain);
      for (const [domain, entry] of served) {
        expect(Object.values(entry.quality_distribution).reduce((a, b) => a + b, 0), `${key} ${domain}`).toBe(byDomain[domain]);
      }
      const years = data.quality_trends.quality_over_time as Array<{ new_mappings: number }>;
      expect(years.reduce((n, y) => n + y.new_mappings, 0), key).toBe(rows.length);
      expect(expectBoundedFigures(data, key)).toBeGreaterThan(10);
    }
  });

  it('computes coverage per domain as the files do, for every source vocabulary into each of its targets', async () => {
    for (const key of files.pairs.keys()) {
      const [source, target] = key.split('/') as [string, string];
      if (LICENSED.has(source) || LICENSED.has(target)) continue;
      const sources = [...files.concepts.values()].filter((c) => c.vocabulary === source && c.valid);
      const mappedIds = new Set(files.rows.filter((r) => r.relationship === 'Maps to' && r.to.vocabulary === target).map((r) => r.from.id));
      const res = await server.request(`/v1/mappings/coverage?source_vocabulary=${encodeURIComponent(source)}&target_vocabulary=${encodeURIComponent(target)}`);
      expect(res.status, key).toBe(200);
      const data = res.body.data;
      expect(data.total_source_concepts, key).toBe(sources.length);
      expect(data.total_mapped_concepts, key).toBe(sources.filter((c) => mappedIds.has(c.id)).length);
      expect(data.domain_coverage.map((d: { domain_id: string }) => d.domain_id).sort(), key).toEqual(Object.keys(tally(sources, (c) => c.domain)).sort());
      for (const row of data.domain_coverage) {
        const inDomain = sources.filter((c) => c.domain === row.domain_id);
        expect(row.source_concepts, `${key} ${row.domain_id}`).toBe(inDomain.length);
        expect(row.mapped_concepts, `${key} ${row.domain_id}`).toBe(inDomain.filter((c) => mappedIds.has(c.id)).length);
      }
      const unmapped = sources.filter((c) => !mappedIds.has(c.id)).map((c) => c.id).sort((a, b) => a - b).slice(0, 100);
      expect(data.unmapped_concepts.map((c: { concept_id: number }) => c.concept_id), key).toEqual(unmapped);
      expectBoundedFigures(data, key);
    }
  });
}
