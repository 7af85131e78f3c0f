/**
 * How a hub's links are shared out under the breadth budget (spreadEvenly in
 * src/store/sqlite/sqlite-concept-graph.ts, module contract): never more than the limit, never more
 * than a relationship id has, everything when it fits, the whole limit when it does not, and
 * max-min fair (a relationship id that is cut short gets at least as much as any other, less one).
 * The behaviour at a real hub is checked through HTTPS in ./related-traverse-http.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spreadEvenly } from '../../src/store/sqlite/sqlite-concept-graph.js';

describe('spreadEvenly', () => {
  it('examples: one Is a beside 150 Subsumes under 100; three equal groups; a remainder', () => {
    expect(spreadEvenly([1, 150], 100)).toEqual([1, 99]);
    expect(spreadEvenly([50, 50, 50], 90)).toEqual([30, 30, 30]);
    expect(spreadEvenly([10, 10, 10], 10)).toEqual([4, 3, 3]);
    expect(spreadEvenly([3, 200, 5, 200], 100)).toEqual([3, 46, 5, 46]);
  });

  it('properties: bounded, complete when it fits, max-min fair', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300 }), { maxLength: 30 }), fc.integer({ min: 1, max: 200 }), (sizes, limit) => {
        const quotas = spreadEvenly(sizes, limit);
        const sum = quotas.reduce((a, b) => a + b, 0);
        const total = sizes.reduce((a, b) => a + b, 0);
        quotas.forEach((q, i) => {
          expect(q).toBeGreaterThanOrEqual(0);
          expect(q).toBeLessThanOrEqual(sizes[i]!);
        });
        if (total <= limit) expect(quotas).toEqual(sizes);
        else expect(sum).toBe(limit);
        quotas.forEach((qi, i) => {
          if (qi < sizes[i]!) quotas.forEach((qj) => expect(qj).toBeLessThanOrEqual(qi + 1));
        });
      }),
    );
  });
});
