/** The plain lexical similarity (TF-IDF words + character trigrams): `lexical` of /search/similar and the eval baseline. */
import { describe, expect, it } from 'vitest';
import { createLexicalScorer } from '../../src/services/semantic/lexical-similarity.js';
import { ReleaseLexiconBuilder } from '../../src/search-model/semantic/lexicon/build-release-lexicon.js';
import { UNIFORM_IDF } from '../../src/search-model/semantic/lexicon/sparse-features.js';

const NAMES = ['Type 2 diabetes mellitus', 'Diastolic blood pressure', 'Myocardial infarction', 'Disorder of kidney', 'Disorder of lung'];

function releaseIdf() {
  const builder = new ReleaseLexiconBuilder();
  for (const n of NAMES) builder.addEntryText(n);
  return builder.finish({ glove: null });
}

describe('lexical similarity', () => {
  it('is typo-tolerant: a misspelled query still ranks the intended name first', () => {
    const scorer = createLexicalScorer(releaseIdf());
    for (const [typo, intended] of [
      ['diabetis melitus type 2', 'Type 2 diabetes mellitus'],
      ['myocardail infraction', 'Myocardial infarction'],
      ['diastolc blod presure', 'Diastolic blood pressure'],
    ] as const) {
      const scores = scorer.score(typo, NAMES);
      const best = NAMES[scores.indexOf(Math.max(...scores))];
      expect(best, typo).toBe(intended);
      expect(scores[NAMES.indexOf(intended)], typo).toBeGreaterThan(0.3);
    }
  });

  it('weighs rare words more than common ones (IDF)', () => {
    const scorer = createLexicalScorer(releaseIdf());
    // "disorder" is in two names, "kidney" in one: the query shares one word with each
    const [kidneyName, lungName] = scorer.score('kidney disorder', ['Disorder of kidney', 'Disorder of lung']);
    expect(kidneyName).toBeGreaterThan(lungName!);
    const [viaRare, viaCommon] = scorer.score('kidney', ['Disorder of kidney', 'Disorder of lung']);
    expect(viaCommon).toBe(0);
    expect(viaRare).toBeGreaterThan(0);
  });

  it('is a cosine: 1 for the same words in any case or order, 0 for nothing shared, within 0..1', () => {
    const scorer = createLexicalScorer(UNIFORM_IDF);
    const scores = scorer.score('Blood pressure', ['blood PRESSURE', 'pressure, blood', 'xyz', '', 'Blood sugar']);
    expect(scores[0]).toBeCloseTo(1, 6);
    expect(scores[1]).toBeCloseTo(1, 6);
    expect(scores[2]).toBe(0);
    expect(scores[3]).toBe(0);
    expect(scores[4]).toBeGreaterThan(0);
    expect(scores[4]).toBeLessThan(1);
  });

  it('knows spelling, not meaning: "heart attack" shares nothing with "myocardial infarction"', () => {
    const scorer = createLexicalScorer(releaseIdf());
    expect(scorer.score('heart attack', ['Myocardial infarction'])[0]).toBeLessThan(0.1);
  });
});
