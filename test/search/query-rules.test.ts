/** E4 `query` rules: 3–500 characters after trimming or a whole-query abbreviation; special characters are safe. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/services/errors.js';
import { concept, ids, openFixtureStore, run, type FixtureStore } from './search-fixture.js';

const UNICODE_RU = concept('Сахарный диабет', { concept_id: 9100001, vocabulary_id: 'TESTVOC', standard_concept: null });
const UNICODE_ZH = concept('糖尿病', { concept_id: 9100002, vocabulary_id: 'TESTVOC', standard_concept: null });
const ACCENT = concept("Sjögren's syndrome", { concept_id: 9100003 });
const PLUS = concept('C++ hypersensitivity & allergy? #1', { concept_id: 9100004 });

let f: FixtureStore;
beforeAll(async () => {
  f = await openFixtureStore({ concepts: [UNICODE_RU, UNICODE_ZH, ACCENT, PLUS] });
});
afterAll(() => f?.close());

const error = (fn: () => unknown): ServiceError => {
  try {
    fn();
  } catch (e) {
    return e as ServiceError;
  }
  throw new Error('expected an error');
};

describe('query validation', () => {
  it('rejects one- and two-character queries as too broad (400)', () => {
    for (const q of ['a', 'ab', ' ab ', 'I1']) {
      const e = error(() => run(f.store, q));
      expect(e).toBeInstanceOf(ServiceError);
      expect(e.status).toBe(400);
      expect(e.code).toBe('validation_error');
      expect(e.message).toMatch(/too broad/);
    }
  });

  it('rejects an empty query and one longer than 500 characters', () => {
    expect(error(() => run(f.store, '   ')).status).toBe(400);
    const e = error(() => run(f.store, 'x'.repeat(501)));
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/at most 500/);
    expect(() => run(f.store, `  ${'x'.repeat(500)}  `)).not.toThrow();
  });

  it('accepts three characters after trimming', () => {
    expect(() => run(f.store, '  abc  ')).not.toThrow();
  });
});

describe('unicode and special characters', () => {
  it('finds Cyrillic and CJK names', () => {
    expect(ids(run(f.store, 'диабет').items)).toEqual([UNICODE_RU.concept_id]);
    expect(ids(run(f.store, '糖尿病').items)).toEqual([UNICODE_ZH.concept_id]);
  });

  it('ignores accents and case in words', () => {
    expect(ids(run(f.store, 'sjogren syndrome').items)).toEqual([ACCENT.concept_id]);
    expect(ids(run(f.store, 'SJÖGREN').items)).toEqual([ACCENT.concept_id]);
  });

  it('+, &, ? and # in a query are no error', () => {
    for (const q of ['C++', 'hypersensitivity & allergy', 'allergy?', '#1 allergy', '+++', '&&&', '???', '###', 'a+b&c?d#e']) {
      expect(() => run(f.store, q)).not.toThrow();
    }
    expect(ids(run(f.store, 'hypersensitivity & allergy?').items)).toEqual([PLUS.concept_id]);
    expect(run(f.store, '###').items).toEqual([]);
  });

  it('FTS syntax in a query is treated as text', () => {
    for (const q of ['"unbalanced', 'NOT allergy', 'allergy OR x', 'name: allergy', '{name}: x', 'allergy*', '(allergy']) {
      expect(() => run(f.store, q)).not.toThrow();
    }
  });
});
