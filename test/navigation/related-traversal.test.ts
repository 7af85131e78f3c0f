/**
 * The bounded breadth-first walk (src/services/related/concept-traversal.ts, module contract) over
 * an in-memory ConceptGraph: cycles, shortest distances, best score among shortest paths, each
 * budget (depth, links per concept, visited concepts, time) named when it cuts the walk short,
 * exact statistics, licence-hidden concepts neither returned nor walked through, min_score pruning.
 * Expected values are read off the small graphs written here.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetUntil, REQUEST_WALK_TIME_MS, traverseGraph, TRAVERSAL_BUDGET, type TraversalRequest } from '../../src/services/related/concept-traversal.js';
import { RelationshipScorer } from '../../src/services/related/relationship-scoring.js';
import type { ConceptGraph, GraphLink } from '../../src/store/concept-graph.js';
import type { ConceptRecord } from '../../src/store/records.js';

type Edge = [from: number, relationship: string, to: number];

/** A ConceptGraph over an edge list. Counts its reads. */
class FakeGraph implements ConceptGraph {
  reads = 0;
  constructor(private readonly edges: readonly Edge[]) {}
  outgoingLinks(conceptId: number, relationshipIds: readonly string[] | null, limit: number) {
    this.reads++;
    const links: GraphLink[] = this.edges
      .filter(([from, rel]) => from === conceptId && (!relationshipIds || relationshipIds.includes(rel)))
      .map(([, rel, to]) => ({ relationship_id: rel, concept_id: to }))
      .sort((a, b) => (a.relationship_id < b.relationship_id ? -1 : a.relationship_id > b.relationship_id ? 1 : a.concept_id - b.concept_id));
    return { links: links.slice(0, limit), truncated: links.length > limit };
  }
}

const scorer = new RelationshipScorer(new Map());
const seesAll = () => true;

/** Concept records of the fake graphs: vocabulary 'CPT4' for ids 900–998, 'SNOMED' otherwise; id 999 is not a concept. */
const MISSING = 999;
function conceptOf(id: number): ConceptRecord | undefined {
  if (id === MISSING) return undefined;
  return {
    concept_id: id,
    concept_name: `Concept ${id}`,
    domain_id: 'Condition',
    vocabulary_id: id >= 900 ? 'CPT4' : 'SNOMED',
    concept_class_id: 'Clinical Finding',
    standard_concept: 'S',
    concept_code: String(id),
    valid_start_date: '1970-01-01',
    valid_end_date: '2099-12-31',
    invalid_reason: null,
  };
}

function walk(edges: readonly Edge[], request: Partial<TraversalRequest> = {}) {
  const graph = new FakeGraph(edges);
  const outcome = traverseGraph(graph, scorer, { startConceptId: 1, relationshipIds: null, maxDepth: 3, minScore: 0, conceptOf, canSee: seesAll, ...request });
  return { graph, outcome, byId: new Map(outcome.discovered.map((c) => [c.concept.concept_id, c])) };
}

describe('cycles and distances', () => {
  it('a cycle 1 → 2 → 3 → 1 ends, each concept once at its shortest distance, the start never discovered', () => {
    const edges: Edge[] = [
      [1, 'Has asso finding', 2],
      [2, 'Has asso finding', 3],
      [3, 'Has asso finding', 1],
    ];
    const { outcome } = walk(edges, { maxDepth: 5 });
    expect(outcome.discovered.map((c) => [c.concept.concept_id, c.distance])).toEqual([
      [2, 1],
      [3, 2],
    ]);
    // Every edge was read once: 1's, 2's and 3's (the last one leads back to the start).
    expect(outcome.relationshipsExplored).toBe(3);
    expect(outcome.maxDepthReached).toBe(2);
    expect(outcome.limitsReached).toEqual([]);
  });

  it('the self row (every standard concept Maps to itself) is explored and ignored', () => {
    const { outcome } = walk([
      [1, 'Maps to', 1],
      [1, 'Is a', 2],
    ]);
    expect(outcome.discovered.map((c) => c.concept.concept_id)).toEqual([2]);
    expect(outcome.relationshipsExplored).toBe(2);
    expect(outcome.relationshipTypes).toEqual(['Is a', 'Maps to']);
  });

  it('a concept reachable by a short and a long path is found at the short distance', () => {
    const { byId } = walk([
      [1, 'Has asso finding', 2],
      [2, 'Has asso finding', 3],
      [3, 'Has asso finding', 4],
      [1, 'Has asso finding', 4],
    ]);
    expect(byId.get(4)!.distance).toBe(1);
  });

  it('of two shortest paths the better-scored one gives score and relationship', () => {
    // 1 -attribute-> 2 -attribute-> 4 (0.5·0.5·0.8 = 0.2) and 1 -Maps to-> 3 -Is a-> 4 (1·0.9·0.8 = 0.72).
    const { byId } = walk([
      [1, 'Has asso finding', 2],
      [1, 'Maps to', 3],
      [2, 'Has asso finding', 4],
      [3, 'Is a', 4],
    ]);
    expect(byId.get(4)).toMatchObject({ distance: 2, relationship_id: 'Is a' });
    expect(byId.get(4)!.score).toBeCloseTo(0.72, 12);
  });

  it('max_depth bounds the distance', () => {
    const chain: Edge[] = [1, 2, 3, 4, 5, 6].map((i) => [i, 'Is a', i + 1]);
    for (const maxDepth of [1, 2, 3, 5]) {
      const { outcome } = walk(chain, { maxDepth });
      expect(outcome.discovered.map((c) => c.concept.concept_id)).toEqual(Array.from({ length: maxDepth }, (_, i) => i + 2));
      expect(outcome.maxDepthReached).toBe(maxDepth);
    }
  });

  it('on random graphs: every concept once, distance = BFS distance, explored = links read from expanded concepts', () => {
    const graphs = fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.constantFrom('Is a', 'Subsumes', 'Maps to', 'Has asso finding'), fc.integer({ min: 1, max: 12 })), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(graphs, fc.integer({ min: 1, max: 4 }), (edges, maxDepth) => {
        const { outcome } = walk(edges as Edge[], { maxDepth });
        // Reference distances by plain BFS over the edge list.
        const distance = new Map<number, number>([[1, 0]]);
        let frontier = [1];
        let explored = 0;
        for (let d = 1; d <= maxDepth && frontier.length; d++) {
          const next: number[] = [];
          for (const from of frontier) {
            for (const [a, , b] of edges) {
              if (a !== from) continue;
              explored++;
              if (!distance.has(b)) {
                distance.set(b, d);
                next.push(b);
              }
            }
          }
          frontier = next;
        }
        const ids = outcome.discovered.map((c) => c.concept.concept_id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(new Map(outcome.discovered.map((c) => [c.concept.concept_id, c.distance]))).toEqual(new Map([...distance].filter(([id]) => id !== 1)));
        expect(outcome.relationshipsExplored).toBe(explored);
      }),
    );
  });
});

describe('budgets', () => {
  it('links per concept: only the first links are read, and the limit is named', () => {
    const hub: Edge[] = Array.from({ length: 30 }, (_, i) => [1, 'Subsumes', 100 + i]);
    const { outcome } = walk(hub, { maxDepth: 1, budget: { ...TRAVERSAL_BUDGET, linksPerConcept: 10 } });
    expect(outcome.discovered).toHaveLength(10);
    expect(outcome.relationshipsExplored).toBe(10);
    expect(outcome.limitsReached).toEqual(['links_per_concept']);
  });

  it('visited concepts: the walk stops at the budget, and the limit is named', () => {
    const tree: Edge[] = [];
    for (let i = 1; i <= 40; i++) tree.push([i, 'Subsumes', 2 * i], [i, 'Subsumes', 2 * i + 1]);
    const { outcome } = walk(tree, { maxDepth: 5, budget: { ...TRAVERSAL_BUDGET, maxConcepts: 7 } });
    expect(outcome.discovered).toHaveLength(7);
    expect(outcome.limitsReached).toEqual(['max_concepts']);
  });

  it('time: no concept is expanded once the budget has passed, and the limit is named', () => {
    const chain: Edge[] = [1, 2, 3, 4, 5, 6].map((i) => [i, 'Is a', i + 1]);
    let clock = 0;
    const now = () => (clock += 10); // every reading of the clock is 10 ms later
    const { outcome, graph } = walk(chain, { maxDepth: 5, now, budget: { ...TRAVERSAL_BUDGET, timeMs: 25 } });
    expect(outcome.limitsReached).toEqual(['time_budget']);
    expect(graph.reads).toBeLessThan(5);
    expect(outcome.discovered.length).toBe(graph.reads);
  });

  it('a request that walks many times gives each walk what is left of its time, never more than a walk\'s own budget', () => {
    expect(budgetUntil(1000, 0)).toEqual({ ...TRAVERSAL_BUDGET, timeMs: TRAVERSAL_BUDGET.timeMs });
    expect(budgetUntil(1000, 990).timeMs).toBe(10);
    expect(budgetUntil(1000, 1200).timeMs).toBe(0);
    expect(REQUEST_WALK_TIME_MS).toBe(1000);
    // With no time left the walk expands nothing and says why.
    const { outcome } = walk([[1, 'Is a', 2]], { budget: budgetUntil(1000, 1200) });
    expect(outcome.discovered).toEqual([]);
    expect(outcome.limitsReached).toEqual(['time_budget']);
  });

  it('the default budgets are the documented ones', () => {
    expect(TRAVERSAL_BUDGET).toEqual({ linksPerConcept: 100, maxConcepts: 100, timeMs: 50 });
  });
});

describe('licence rules and min_score', () => {
  it('a hidden concept is neither discovered nor walked through, and its links are not counted', () => {
    // 1 → 900 (CPT4) → 2; 1 → 3.
    const edges: Edge[] = [
      [1, 'Has asso finding', 900],
      [900, 'Has asso finding', 2],
      [1, 'Has asso finding', 3],
    ];
    const hidden = walk(edges, { canSee: (v) => v !== 'CPT4' });
    expect(hidden.outcome.discovered.map((c) => c.concept.concept_id)).toEqual([3]);
    expect(hidden.outcome.relationshipsExplored).toBe(1);
    const visible = walk(edges);
    expect(visible.outcome.discovered.map((c) => c.concept.concept_id).sort()).toEqual([2, 3, 900]);
  });

  it('a row pointing at no concept is neither followed nor counted', () => {
    const { outcome } = walk([
      [1, 'Is a', MISSING],
      [1, 'Is a', 2],
    ]);
    expect(outcome.discovered.map((c) => c.concept.concept_id)).toEqual([2]);
    expect(outcome.relationshipsExplored).toBe(1);
  });

  it('reads each concept record once, however many links lead to it', () => {
    const reads = new Map<number, number>();
    const counting = (id: number) => {
      reads.set(id, (reads.get(id) ?? 0) + 1);
      return conceptOf(id);
    };
    walk(
      [
        [1, 'Is a', 2],
        [1, 'Maps to', 2],
        [1, 'Has asso finding', 3],
        [2, 'Subsumes', 1],
        [2, 'Is a', 3],
        [3, 'Is a', 2],
        [1, 'Has asso finding', 900],
        [2, 'Has asso finding', 900],
      ],
      { conceptOf: counting, canSee: (v) => v !== 'CPT4' },
    );
    expect([...reads.values()].every((n) => n === 1)).toBe(true);
    expect([...reads.keys()].sort((a, b) => a - b)).toEqual([2, 3, 900]);
  });

  it('concepts below min_score are not discovered and not walked through', () => {
    // attribute 0.5, then attribute of attribute 0.2; mapping 1.0 then its parent 0.72.
    const edges: Edge[] = [
      [1, 'Has asso finding', 2],
      [2, 'Has asso finding', 3],
      [1, 'Maps to', 4],
      [4, 'Is a', 5],
    ];
    const { outcome } = walk(edges, { minScore: 0.3 });
    expect(outcome.discovered.map((c) => c.concept.concept_id)).toEqual([4, 2, 5]);
    expect(outcome.discovered.every((c) => c.score >= 0.3)).toBe(true);
  });

  it('relationship ids restrict what is followed', () => {
    const { outcome } = walk(
      [
        [1, 'Is a', 2],
        [1, 'Has asso finding', 3],
        [2, 'Is a', 4],
      ],
      { relationshipIds: ['Is a'] },
    );
    expect(outcome.discovered.map((c) => c.concept.concept_id)).toEqual([2, 4]);
    expect(outcome.relationshipTypes).toEqual(['Is a']);
  });
});
