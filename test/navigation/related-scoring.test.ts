/**
 * The scoring model of related concepts (src/services/related/relationship-scoring.ts, module
 * contract): the kinds and weights of its documented table, the documented examples, range, strict
 * decay with distance and the kind order. Expected numbers are the documented table's, written
 * here, not recomputed by the code under test.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RelationshipScorer, roundScore } from '../../src/services/related/relationship-scoring.js';
import type { RelationshipTypeRecord } from '../../src/store/records.js';

/** Rows as Athena's RELATIONSHIP table has them (flags of the 2019 table in ../shared/vocab). */
const TYPES: Array<[id: string, isHierarchical: string, definesAncestry: string, reverse: string]> = [
  ['Maps to', '0', '0', 'Mapped from'],
  ['Mapped from', '0', '0', 'Maps to'],
  ['Is a', '1', '0', 'Subsumes'],
  ['Subsumes', '1', '1', 'Is a'],
  ['Concept replaced by', '0', '0', 'Concept replaces'],
  ['Concept replaces', '0', '0', 'Concept replaced by'],
  ['Concept same_as to', '0', '0', 'Concept same_as from'],
  ['Concept poss_eq from', '0', '0', 'Concept poss_eq to'],
  ['LOINC replaced by', '0', '0', 'LOINC replaces'],
  ['Maps to value', '0', '0', 'Value mapped from'],
  ['Value mapped from', '0', '0', 'Maps to value'],
  ['Maps to unit', '0', '0', 'Unit mapped from'],
  ['RxNorm ing of', '1', '1', 'RxNorm has ing'],
  ['RxNorm has ing', '0', '0', 'RxNorm ing of'],
  ['Has tradename', '0', '1', 'Tradename of'],
  ['Tradename of', '0', '0', 'Has tradename'],
  ['Has finding site', '0', '0', 'Finding site of'],
  ['Finding site of', '0', '0', 'Has finding site'],
  ['Has component', '0', '0', 'Component of'],
];

const scorer = new RelationshipScorer(
  new Map(
    TYPES.map(([id, h, d, reverse], i): [string, RelationshipTypeRecord] => [
      id,
      { relationship_id: id, relationship_name: `${id} (name)`, is_hierarchical: h, defines_ancestry: d, reverse_relationship_id: reverse, relationship_concept_id: 1000 + i },
    ]),
  ),
);

/** The documented table: kind → weight, and the distance decay. */
const WEIGHT = { mapping: 1.0, direct_hierarchy: 0.9, replacement: 0.8, value_mapping: 0.7, other_hierarchy: 0.7, attribute: 0.5 };
const DECAY = 0.8;

/** Score of a path, step by step through the scorer. */
function pathScore(relationshipIds: readonly string[]): number[] {
  const scores: number[] = [];
  let score = 1;
  relationshipIds.forEach((id, i) => {
    score = scorer.extend(score, id, i + 1);
    scores.push(score);
  });
  return scores;
}

describe('relationship kinds (documented table)', () => {
  it.each([
    ['Maps to', 'mapping'],
    ['Mapped from', 'mapping'],
    ['Is a', 'direct_hierarchy'],
    ['Subsumes', 'direct_hierarchy'],
    ['Concept replaced by', 'replacement'],
    ['Concept replaces', 'replacement'],
    ['Concept same_as to', 'replacement'],
    ['Concept poss_eq from', 'replacement'],
    ['LOINC replaced by', 'replacement'],
    ['Maps to value', 'value_mapping'],
    ['Value mapped from', 'value_mapping'],
    ['Maps to unit', 'value_mapping'],
    ['RxNorm ing of', 'other_hierarchy'], // is_hierarchical 1
    ['RxNorm has ing', 'other_hierarchy'], // its reverse is hierarchical
    ['Has tradename', 'other_hierarchy'], // defines_ancestry 1
    ['Tradename of', 'other_hierarchy'],
    ['Has finding site', 'attribute'],
    ['Has component', 'attribute'],
    ['Not in the RELATIONSHIP table', 'attribute'],
  ] as const)('%s is %s with weight from the table', (id, kind) => {
    expect(scorer.kind(id)).toBe(kind);
    expect(scorer.weight(id)).toBe(WEIGHT[kind]);
    expect(scorer.extend(1, id, 1)).toBe(WEIGHT[kind]);
  });

  it('names come from the RELATIONSHIP table, the id when it is not listed', () => {
    expect(scorer.name('Maps to')).toBe('Maps to (name)');
    expect(scorer.name('Unlisted')).toBe('Unlisted');
  });
});

describe('documented examples', () => {
  it('a Maps to target 1.0, a parent 0.9, a sibling 0.648, a direct attribute 0.5, an attribute of an attribute 0.2', () => {
    expect(pathScore(['Maps to'])).toEqual([1]);
    expect(pathScore(['Is a'])).toEqual([0.9]);
    expect(roundScore(pathScore(['Is a', 'Subsumes'])[1]!)).toBe(0.648);
    expect(pathScore(['Has finding site'])).toEqual([0.5]);
    expect(roundScore(pathScore(['Has finding site', 'Has component'])[1]!)).toBe(0.2);
  });

  it('a path of d steps scores the product of its weights times 0.8^(d-1)', () => {
    const path = ['Maps to', 'Is a', 'RxNorm has ing', 'Has component'];
    const expected = [1.0, 1.0 * 0.9 * DECAY, 1.0 * 0.9 * 0.7 * DECAY ** 2, 1.0 * 0.9 * 0.7 * 0.5 * DECAY ** 3];
    pathScore(path).forEach((score, i) => expect(score).toBeCloseTo(expected[i]!, 12));
  });
});

describe('properties', () => {
  const ids = [...TYPES.map(([id]) => id), 'Unknown relationship'];
  const paths = fc.array(fc.constantFrom(...ids), { minLength: 1, maxLength: 8 });

  it('every score is within [0, 1] and strictly falls with every step (monotone decay with distance)', () => {
    fc.assert(
      fc.property(paths, (path) => {
        const scores = pathScore(path);
        let previous = 1;
        scores.forEach((score, i) => {
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(1);
          if (i > 0) expect(score).toBeLessThan(previous);
          previous = score;
        });
      }),
    );
  });

  it('kind order: mapping > direct hierarchy > replacement > value mapping = other hierarchy > attribute, at any distance', () => {
    const order = ['Maps to', 'Is a', 'Concept replaced by', 'Maps to value', 'Has finding site'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ids), { maxLength: 5 }), (prefix) => {
        const base = prefix.length ? pathScore(prefix).at(-1)! : 1;
        const last = order.map((id) => scorer.extend(base, id, prefix.length + 1));
        for (let i = 1; i < last.length; i++) expect(last[i]).toBeLessThan(last[i - 1]!);
        expect(scorer.extend(base, 'Maps to value', prefix.length + 1)).toBe(scorer.extend(base, 'RxNorm has ing', prefix.length + 1));
      }),
    );
  });

  it('scores are sent rounded to 6 decimals', () => {
    expect(roundScore(0.9 * 0.9 * 0.8)).toBe(0.648);
    expect(roundScore(1 / 3)).toBe(0.333333);
  });
});
