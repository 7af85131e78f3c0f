/** The packed static sort key of E4 (length bucket, authority, name length, concept_id) and its named inverse. */
import { describe, expect, it } from 'vitest';
import { lengthBucket, LENGTH_BUCKET_COUNT, sortKeyLengthBucket, staticSortKey, unpackStaticSortKey } from '../../src/search-model/ranking.js';

describe('static sort key', () => {
  // Authority positions counted in the documented order (README "How search ranks": SNOMED, RxNorm, LOINC, …, MeSH, 21
  // vocabularies listed; every other vocabulary after them).
  const cases: Array<{ name: string; nameLength: number; vocabularyId: string; authority: number; conceptId: number }> = [
    { name: 'shortest name, smallest id', nameLength: 1, vocabularyId: 'SNOMED', authority: 0, conceptId: 0 },
    { name: 'a LOINC lab test', nameLength: 31, vocabularyId: 'LOINC', authority: 2, conceptId: 3_000_963 },
    { name: 'the last listed vocabulary', nameLength: 200, vocabularyId: 'MeSH', authority: 20, conceptId: 2_000_000_001 },
    { name: 'an unlisted vocabulary and the largest id', nameLength: 2047, vocabularyId: 'TESTVOC', authority: 21, conceptId: 2 ** 31 - 1 },
  ];
  for (const c of cases) {
    it(`unpacks what it packed: ${c.name}`, () => {
      const key = staticSortKey(c.nameLength, c.vocabularyId, c.conceptId);
      expect(unpackStaticSortKey(key)).toEqual({ lengthBucket: lengthBucket(c.nameLength), authority: c.authority, nameLength: c.nameLength, conceptId: c.conceptId });
      expect(sortKeyLengthBucket(key)).toBe(lengthBucket(c.nameLength));
      expect(Number.isSafeInteger(key)).toBe(true);
    });
  }

  it('clamps a name longer than 2047 characters to 2047 and keeps its length bucket', () => {
    const key = staticSortKey(5000, 'SNOMED', 42);
    expect(unpackStaticSortKey(key)).toEqual({ lengthBucket: lengthBucket(5000), authority: 0, nameLength: 2047, conceptId: 42 });
  });

  it('orders keys by length bucket, then authority, then name length, then concept_id', () => {
    const fields = [
      [3, 'RxNorm', 9], [3, 'RxNorm', 10], [3, 'SNOMED', 99], [4, 'SNOMED', 1], [40, 'SNOMED', 1], [40, 'ICD10CM', 1], [400, 'SNOMED', 1],
    ] as const;
    const keys = fields.map(([len, vocabulary, id]) => staticSortKey(len, vocabulary, id));
    const byFields = [...keys].sort((a, b) => {
      const x = unpackStaticSortKey(a);
      const y = unpackStaticSortKey(b);
      return x.lengthBucket - y.lengthBucket || x.authority - y.authority || x.nameLength - y.nameLength || x.conceptId - y.conceptId;
    });
    expect([...keys].sort((a, b) => a - b)).toEqual(byFields);
  });

  it('gives every length bucket back from the key', () => {
    const seen = new Set<number>();
    for (let len = 1; len < 5000; len++) {
      const bucket = sortKeyLengthBucket(staticSortKey(len, 'SNOMED', 7));
      expect(bucket).toBe(lengthBucket(len));
      seen.add(bucket);
    }
    expect(Math.max(...seen)).toBeLessThan(LENGTH_BUCKET_COUNT);
  });
});
