/**
 * The TF-IDF baseline column of the evaluation scores every entry through
 * LexicalScorer.against (features of the entries computed once): it must give exactly what score()
 * gives for each query.
 */
import { describe, expect, it } from 'vitest';
import { createLexicalScorer } from '../../src/services/semantic/lexical-similarity.js';
import { ReleaseLexiconBuilder } from '../../src/search-model/semantic/lexicon/build-release-lexicon.js';

const TEXTS = ['Myocardial infarction', 'Heart attack', 'Acute myocardial infarction', 'Renal failure', 'Kidney disease', 'atenolol 25 MG Oral Tablet'];

describe('LexicalScorer.against', () => {
  const builder = new ReleaseLexiconBuilder();
  for (const t of TEXTS) builder.addEntryText(t);
  const scorer = createLexicalScorer(builder.finish({ glove: null }));
  const prepared = scorer.against(TEXTS);

  it('scores every query like score() does, text by text', () => {
    for (const query of ['myocardal infarcton', 'heart attack', 'ATENOLOL - atenolol tablet', 'renal', 'zzz']) {
      expect(prepared(query)).toEqual(scorer.score(query, TEXTS));
    }
  });

  it('ranks the right text first for a misspelt query', () => {
    const scores = prepared('myocardal infarcton');
    expect(scores.indexOf(Math.max(...scores))).toBe(0);
    expect(prepared('zzz').every((s) => s === 0)).toBe(true);
  });
});
