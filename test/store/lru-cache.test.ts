/**
 * LruCache's contract (src/lru-cache.ts): bounded by entries and, when given, by the estimated bytes of its entries;
 * the least recently used (read or written) entry goes first; an entry estimated above the byte bound is not kept.
 */
import { describe, expect, it } from 'vitest';
import { LruCache, stringBytes } from '../../src/lru-cache.js';

describe('LruCache', () => {
  it('keeps at most its capacity of entries, forgetting the least recently used first (a read counts as a use)', () => {
    const c = new LruCache<number>(2);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1);
    c.set('c', 3);
    expect([c.get('a'), c.get('b'), c.get('c')]).toEqual([1, undefined, 3]);
    expect(c.size).toBe(2);
  });

  it('with a byte bound, never holds more than the bound as sizeOf counts it, evicting the least recently used', () => {
    const c = new LruCache<string>(1000, { maxBytes: 100, sizeOf: (v) => v.length });
    c.set('a', 'x'.repeat(40));
    c.set('b', 'y'.repeat(40));
    expect(c.bytes).toBe(80);
    c.get('a'); // b is now the least recently used
    c.set('c', 'z'.repeat(30));
    expect(c.bytes).toBe(70);
    expect([c.get('a') !== undefined, c.get('b') !== undefined, c.get('c') !== undefined]).toEqual([true, false, true]);
    for (let i = 0; i < 50; i++) {
      c.set(`k${i}`, 'w'.repeat(1 + (i % 37)));
      expect(c.bytes).toBeLessThanOrEqual(100);
    }
  });

  it('replacing a key counts only its new size; an entry larger than the bound is not kept and evicts nothing', () => {
    const c = new LruCache<string>(10, { maxBytes: 50, sizeOf: (v) => v.length });
    c.set('a', 'x'.repeat(30));
    c.set('a', 'x'.repeat(10));
    expect(c.bytes).toBe(10);
    c.set('big', 'x'.repeat(51));
    expect(c.get('big')).toBeUndefined();
    expect(c.get('a')).toBe('x'.repeat(10));
    expect(c.bytes).toBe(10);
    c.clear();
    expect([c.size, c.bytes]).toEqual([0, 0]);
  });

  it('estimates a string at two bytes a character plus its object', () => {
    expect(stringBytes('')).toBe(16);
    expect(stringBytes('abcd')).toBe(24);
  });
});
