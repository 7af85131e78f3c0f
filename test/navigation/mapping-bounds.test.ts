/**
 * The bounds of mapping reads: the MappingStore contract (scan budget, limit, `complete`) on a
 * fixture, and POST /v1/concepts/map's per-source cap reported in `truncated_sources`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TARGETS_PER_SOURCE } from '../../src/services/mappings/concept-map.js';
import { listReleaseBuilds } from '../../src/store/data-dir.js';
import type { MappingFilter } from '../../src/store/mapping-store.js';
import type { ReleaseStore } from '../../src/store/release-store.js';
import { openSqliteRelease } from '../../src/store/sqlite/open-sqlite-release.js';
import { writeAthenaFixture, type FixtureConcept } from '../helpers/athena-fixture.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const ROOT = 8000000;
/** Descendants of ROOT: ids ROOT+1…ROOT+12, odd ones RxNorm, even ones SNOMED, level = 1 + (i % 3). */
const DESCENDANTS = Array.from({ length: 12 }, (_, i) => ({ id: ROOT + 1 + i, vocabulary: i % 2 === 0 ? 'RxNorm' : 'SNOMED', level: 1 + (i % 3) }));
const HUB_SOURCE = 8100000;
/** More 'Maps to' targets than a source may have in one answer. */
const HUB_TARGETS = Array.from({ length: MAX_TARGETS_PER_SOURCE + 5 }, (_, i) => 8200000 + i);

let t: TestServer;
let store: ReleaseStore;

beforeAll(async () => {
  const concepts: FixtureConcept[] = [
    { concept_id: ROOT, concept_name: 'Root' },
    ...DESCENDANTS.map((d) => ({ concept_id: d.id, concept_name: `Descendant ${d.id}`, vocabulary_id: d.vocabulary })),
    { concept_id: HUB_SOURCE, concept_name: 'Hub source', vocabulary_id: 'ICD10CM', standard_concept: null },
    ...HUB_TARGETS.map((id) => ({ concept_id: id, concept_name: `Target ${id}` })),
  ];
  const dir = writeAthenaFixture({
    concepts,
    relationships: HUB_TARGETS.map((id) => ({ concept_id_1: HUB_SOURCE, concept_id_2: id, relationship_id: 'Maps to' })),
    ancestors: [[ROOT, ROOT, 0, 0], ...DESCENDANTS.map((d) => [ROOT, d.id, d.level, d.level] as [number, number, number, number])],
  });
  t = await startTestServer({ releases: [{ dir, label: '2025.1', makeDefault: true }] });
  store = openSqliteRelease(listReleaseBuilds(t.dataDir).find((b) => b.label === '2025.1')!);
});
afterAll(async () => {
  store?.close();
  await t?.close();
});

const filter = (vocabularies?: string[]): MappingFilter => ({ targetVocabularyIds: vocabularies, hiddenVocabularyIds: [], includeInvalid: false });
const nearestFirst = (items: typeof DESCENDANTS) => [...items].sort((a, b) => a.level - b.level || a.id - b.id).map((d) => d.id);

describe('MappingStore bounds', () => {
  it('descendants: all matches nearest first when the scan covers them, complete', () => {
    const result = store.mappings.descendants(ROOT, filter(['RxNorm']), 100, 100);
    expect(result.items.map((m) => m.concept.concept_id)).toEqual(nearestFirst(DESCENDANTS.filter((d) => d.vocabulary === 'RxNorm')));
    expect(result.items.map((m) => m.min_levels_of_separation)).toEqual(
      nearestFirst(DESCENDANTS.filter((d) => d.vocabulary === 'RxNorm')).map((id) => DESCENDANTS.find((d) => d.id === id)!.level),
    );
    expect(result.complete).toBe(true);
  });

  it('descendants: a scan budget reads only the first descendants by concept_id and says the answer is incomplete', () => {
    const result = store.mappings.descendants(ROOT, filter(['RxNorm']), 100, 5);
    expect(result.items.map((m) => m.concept.concept_id)).toEqual(nearestFirst(DESCENDANTS.slice(0, 5).filter((d) => d.vocabulary === 'RxNorm')));
    expect(result.complete).toBe(false);
    // Exactly as many descendants as the budget: complete.
    expect(store.mappings.descendants(ROOT, filter(), 100, DESCENDANTS.length).complete).toBe(true);
  });

  it('descendants and ancestors: a limit below the matches returns the nearest and says so', () => {
    const limited = store.mappings.descendants(ROOT, filter(), 2, 100);
    expect(limited.items.map((m) => m.concept.concept_id)).toEqual(nearestFirst(DESCENDANTS).slice(0, 2));
    expect(limited.complete).toBe(false);
    const up = store.mappings.ancestors(DESCENDANTS[0]!.id, filter(), 10);
    expect(up.items.map((m) => m.concept.concept_id)).toEqual([ROOT]);
    expect(up.complete).toBe(true);
  });

  it('scan of relationship rows: budget and limit both reported', () => {
    const all = store.mappings.scan(HUB_SOURCE, 'Maps to', filter(), 1000, 1000);
    expect(all.items.map((r) => r.target.concept_id)).toEqual(HUB_TARGETS);
    expect(all.complete).toBe(true);
    const budget = store.mappings.scan(HUB_SOURCE, 'Maps to', filter(), 1000, 10);
    expect(budget.items.map((r) => r.target.concept_id)).toEqual(HUB_TARGETS.slice(0, 10));
    expect(budget.complete).toBe(false);
    const limited = store.mappings.scan(HUB_SOURCE, 'Maps to', filter(), 3, 1000);
    expect(limited.items).toHaveLength(3);
    expect(limited.complete).toBe(false);
    expect(store.mappings.count(HUB_SOURCE, 'Maps to', filter())).toBe(HUB_TARGETS.length);
    expect(store.mappings.count(HUB_SOURCE, 'Maps to', filter(['RxNorm']))).toBe(0);
  });
});

describe('POST /v1/concepts/map per-source cap', () => {
  it(`answers at most ${MAX_TARGETS_PER_SOURCE} targets per source and lists the source in truncated_sources`, async () => {
    const res = await t.request('/v1/concepts/map', { method: 'POST', body: { target_vocabulary: 'SNOMED', source_concepts: [HUB_SOURCE, ROOT] } });
    expect(res.status).toBe(200);
    const hubRows = res.body.data.mappings.filter((m: { source_concept_id: number }) => m.source_concept_id === HUB_SOURCE);
    expect(hubRows.map((m: { target_concept_id: number }) => m.target_concept_id)).toEqual(HUB_TARGETS.slice(0, MAX_TARGETS_PER_SOURCE));
    expect(res.body.data.truncated_sources).toEqual([HUB_SOURCE]);
    // GET pages through all of them with the exact total.
    const page = await t.request(`/v1/concepts/${HUB_SOURCE}/mappings?page=2`);
    expect(page.body.data.total_mappings).toBe(HUB_TARGETS.length);
    expect(page.body.data.mappings.map((m: { target_concept_id: number }) => m.target_concept_id)).toEqual(HUB_TARGETS.slice(100));
  });
});
