/**
 * The resolver's contract with the event loop and its cap, on a stub store: a hierarchy read in many pages lets other
 * work run between pages (and reports its longest slice); the ids-only answer above its cap is 422 too_costly naming
 * the limit; items subsumed by another one are not read for ids only, and the ids are the same.
 */
import { describe, expect, it } from 'vitest';
import { resolveConceptSetIds, resolveConceptSetPage } from '../../src/services/concept-sets/concept-set-operations.js';
import { readExpression } from '../../src/services/concept-sets/expression-formats.js';
import { DESCENDANT_PAGE, resolveExpression, type ConceptSetScope } from '../../src/services/concept-sets/resolve.js';
import { ReleaseView } from '../../src/services/release-view.js';
import type { ConceptSetStore, DescendantCursor } from '../../src/store/concept-set-store.js';
import type { ConceptRecord } from '../../src/store/records.js';
import type { ReleaseStore } from '../../src/store/release-store.js';

const ROOT = 1;
const MIDDLE = 2;
/** ROOT has descendants 2 … N (valid), MIDDLE has 3 … 1000. */
const N = DESCENDANT_PAGE * 3 + 17;

function concept(id: number): ConceptRecord {
  return {
    concept_id: id,
    concept_name: `c${id}`,
    domain_id: 'Condition',
    vocabulary_id: 'SNOMED',
    concept_class_id: 'Clinical Finding',
    standard_concept: 'S',
    concept_code: String(id),
    valid_start_date: '1970-01-01',
    valid_end_date: '2099-12-31',
    invalid_reason: null,
  };
}

function stubScope(reads: number[]): ConceptSetScope {
  const descendants = new Map<number, number[]>([
    [ROOT, Array.from({ length: N - 1 }, (_, i) => i + 2)],
    [MIDDLE, Array.from({ length: 998 }, (_, i) => i + 3)],
  ]);
  const conceptSets: ConceptSetStore = {
    descendantIds(ancestorId: number, after: DescendantCursor | undefined, limit: number) {
      reads.push(ancestorId);
      const all = descendants.get(ancestorId) ?? [];
      const start = after ? all.indexOf(after.id) + 1 : 0;
      const ids = Int32Array.from(all.slice(start, start + limit));
      return { ids, next: start + limit < all.length ? { level: 1, id: ids[ids.length - 1]! } : undefined };
    },
    validConceptIds(afterId: number, limit: number) {
      const first = Math.max(1, afterId + 1);
      const ids = Int32Array.from({ length: Math.max(0, Math.min(limit, N - first + 1)) }, (_, i) => first + i);
      return { ids, next: ids.length === limit ? ids[ids.length - 1] : undefined };
    },
    vocabularyConceptIds: () => new Int32Array(0),
    mapsToInto: () => ({ sources: new Int32Array(0), targets: new Int32Array(0) }),
    facets: (ids: ArrayLike<number>) => ({ ids: Int32Array.from(ids), vocabularyIds: Array.from(ids, () => 'SNOMED'), domainIds: Array.from(ids, () => 'Condition'), standardConcepts: Array.from(ids, () => 'S' as const) }),
  };
  const store = {
    manifest: { label: '2025.2' },
    concepts: { byIds: (ids: readonly number[]) => ids.filter((id) => id >= 1 && id <= N).map(concept) },
    hierarchy: { isAncestor: (a: number, d: number) => a === ROOT && d !== ROOT && d <= N },
    conceptSets,
  } as unknown as ReleaseStore;
  return ReleaseView.of(store, '9999-12-31', '2025.2');
}

const expression = (items: Array<[number, boolean]>) =>
  readExpression({ items: items.map(([id, desc]) => ({ concept: { CONCEPT_ID: id }, includeDescendants: desc })) });

describe('concept-set resolution and the event loop', () => {
  it('a hierarchy of several pages lets other work run between its pages', async () => {
    const scope = stubScope([]);
    let ticks = 0;
    let running = true;
    const tick = () => {
      ticks++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await resolveExpression(scope, expression([[ROOT, true]]));
    running = false;
    expect(result.ids.length).toBe(N);
    // Valid-id index pages (N / 100,000 → 1) plus the descendant pages (4): the loop turned between them.
    expect(ticks).toBeGreaterThanOrEqual(4);
    expect(result.longestSliceMs).toBeGreaterThan(0);
  });

  it('ids_only above the cap is 422 too_costly naming the limit; below it, every id ascending', async () => {
    const scope = stubScope([]);
    await expect(resolveConceptSetIds(scope, expression([[ROOT, true]]), 1000)).rejects.toMatchObject({
      status: 422,
      code: 'too_costly',
      details: { limit: 1000, total: N, parameter: 'ids_only' },
    });
    const ok = await resolveConceptSetIds(scope, expression([[MIDDLE, true]]), 1000);
    expect(ok.concept_ids).toEqual(Array.from({ length: 999 }, (_, i) => i + 2));
  });

  it('for ids only an item subsumed by another is not read, and the ids are those of the full resolution', async () => {
    const readsIds: number[] = [];
    const idsOnly = await resolveConceptSetIds(stubScope(readsIds), expression([[ROOT, true], [MIDDLE, true]]));
    expect(new Set(readsIds)).toEqual(new Set([ROOT]));
    const readsFull: number[] = [];
    const full = await resolveConceptSetPage(stubScope(readsFull), expression([[ROOT, true], [MIDDLE, true]]), { offset: 0, limit: 5 });
    expect(new Set(readsFull)).toEqual(new Set([ROOT, MIDDLE]));
    expect(full.summary.total).toBe(idsOnly.total);
    expect(full.summary.items.map((i) => i.concepts)).toEqual([N, 999]);
  });
});
