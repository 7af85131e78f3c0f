/** E4 `query` rules: 3–500 characters after trimming or a whole-query abbreviation; special characters are safe. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/services/errors.js';
import { concept, ids, openFixtureStore, run, type FixtureStore } from './search-fixture.js';

const UNICODE_RU = concept('Сахарный диабет', { concept_id: 9100001, vocabulary_id: 'TESTVOC', standard_concept: null });
const UNICODE_ZH = concept('糖尿病', { concept_id: 9100002, vocabulary_id: 'TESTVOC', standard_concept: null });
const ACCENT = concept("Sjögren's syndrome", { concept_id: 9100003 });
const PLUS = concept('C++ hypersensitivity & allergy? #1', { concept_id: 9100004 });
// for "FTS syntax is text": each query's words, and only those, decide what is found
const ASTHMA_OR_ALLERGY = concept('Asthma or allergy clinic', { concept_id: 9100010, domain_id: 'Observation' });
const ALLERGY_CLINIC = concept('Allergy clinic', { concept_id: 9100011, domain_id: 'Observation' });
const ASTHMA_CLINIC = concept('Asthma clinic', { concept_id: 9100012, domain_id: 'Observation' });
const ALLERGY_NOT_CONFIRMED = concept('Allergy not confirmed', { concept_id: 9100013 });
const NEAR_VISION = concept('Near vision test', { concept_id: 9100014, domain_id: 'Procedure' });
const DIABETES_INSIPIDUS = concept('Diabetes insipidus', { concept_id: 9100015 });
const COLI_INFECTION = concept('E coli infection', { concept_id: 9100016 });

let f: FixtureStore;
beforeAll(async () => {
  f = await openFixtureStore({
    concepts: [UNICODE_RU, UNICODE_ZH, ACCENT, PLUS, ASTHMA_OR_ALLERGY, ALLERGY_CLINIC, ASTHMA_CLINIC, ALLERGY_NOT_CONFIRMED, NEAR_VISION, DIABETES_INSIPIDUS, COLI_INFECTION],
  });
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
    const longest = run(f.store, `  ${'x'.repeat(500)}  `);
    expect(longest.items).toEqual([]);
    expect(longest.total).toBe(0);
  });

  it('accepts three characters after trimming', () => {
    const r = run(f.store, '  sjo  ');
    expect(r.query.text).toBe('sjo');
    expect(ids(r.items)).toEqual([ACCENT.concept_id]);
  });
});

describe('unicode and special characters', () => {
  const found = (q: string) => ids(run(f.store, q).items).sort((a, b) => a - b);
  const sorted = (...cs: Array<{ concept_id: number }>) => cs.map((c) => c.concept_id).sort((a, b) => a - b);
  const ALLERGY_WORD = [PLUS, ASTHMA_OR_ALLERGY, ALLERGY_CLINIC, ALLERGY_NOT_CONFIRMED];

  it('finds Cyrillic and CJK names', () => {
    expect(ids(run(f.store, 'диабет').items)).toEqual([UNICODE_RU.concept_id]);
    expect(ids(run(f.store, '糖尿病').items)).toEqual([UNICODE_ZH.concept_id]);
  });

  it('ignores accents and case in words', () => {
    expect(ids(run(f.store, 'sjogren syndrome').items)).toEqual([ACCENT.concept_id]);
    expect(ids(run(f.store, 'SJÖGREN').items)).toEqual([ACCENT.concept_id]);
  });

  it('+, &, ? and # in a query are no error', () => {
    for (const q of ['C++', 'hypersensitivity & allergy', '#1 allergy', 'c++ #1']) expect(ids(run(f.store, q).items), q).toEqual([PLUS.concept_id]);
    expect(found('allergy?')).toEqual(sorted(...ALLERGY_WORD));
    // only punctuation, or words no concept has ("b", "d", "e" are whole one-letter words)
    for (const q of ['+++', '&&&', '???', 'a+b&c?d#e']) expect(run(f.store, q).items, q).toEqual([]);
    expect(ids(run(f.store, 'hypersensitivity & allergy?').items)).toEqual([PLUS.concept_id]);
    expect(run(f.store, '###').items).toEqual([]);
  });

  it('FTS syntax in a query is treated as text: quotes, *, ( and ^ are punctuation around the words', () => {
    expect(found('"diab*')).toEqual(sorted(DIABETES_INSIPIDUS)); // "diab" as a word prefix
    expect(found('"diabetes insipidus"')).toEqual(sorted(DIABETES_INSIPIDUS));
    expect(found('allergy*')).toEqual(sorted(...ALLERGY_WORD));
    expect(found('(allergy')).toEqual(sorted(...ALLERGY_WORD));
    expect(found('^allergy')).toEqual(sorted(...ALLERGY_WORD));
  });

  it('FTS syntax in a query is treated as text: NEAR, OR, AND and NOT are words, not operators', () => {
    expect(found('NEAR(')).toEqual(sorted(NEAR_VISION));
    expect(found('NEAR(vision test)')).toEqual(sorted(NEAR_VISION));
    // "or" is a stop word: both other words are required (an OR operator would also find the single-word clinics)
    expect(found('allergy OR asthma')).toEqual(sorted(ASTHMA_OR_ALLERGY));
    expect(found('allergy AND clinic')).toEqual(sorted(ASTHMA_OR_ALLERGY, ALLERGY_CLINIC));
    // "not" is a word (never a stop word): only the concept containing it
    expect(found('NOT allergy')).toEqual(sorted(ALLERGY_NOT_CONFIRMED));
    // a NOT operator would return "Allergy not confirmed" (allergy without clinic); as text no concept has all three words
    expect(found('allergy NOT clinic')).toEqual([]);
  });

  it('FTS syntax in a query is treated as text: a column filter is two words', () => {
    expect(found('coli:infection')).toEqual(sorted(COLI_INFECTION));
    expect(found('coli: infection')).toEqual(sorted(COLI_INFECTION));
    // as a column filter this would search the name column for "allergy"; as text it also needs the word "name"
    expect(found('name: allergy')).toEqual([]);
    expect(found('{name}: allergy')).toEqual([]);
  });
});
