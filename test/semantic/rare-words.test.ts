/**
 * The rare-word candidate source of the shared ranking (src/services/semantic/ranked-candidates.ts, issue #24): the
 * words of a text that few concepts hold are keyword-searched alone, rarest first, so that a word which names its
 * concept almost alone ("MCV" in a long LOINC synonym string) brings that concept in.
 */
import { describe, expect, it } from 'vitest';
import { RARE_WORD_DOCS, RARE_WORD_QUERIES, rareWords } from '../../src/services/semantic/ranked-candidates.js';

/** A word index of known document counts; words it does not hold are absent from the answer, as in the store. */
function wordIndex(docs: Record<string, number>) {
  const asked: string[][] = [];
  return {
    asked,
    wordDocCounts(words: readonly string[]) {
      asked.push([...words]);
      return new Map(words.filter((w) => w in docs).map((w) => [w, docs[w]!] as [string, number]));
    },
  };
}

describe('rare words', () => {
  it('are the content words at most RARE_WORD_DOCS concepts hold, rarest first, ties alphabetical', () => {
    const index = wordIndex({ mcv: 3, discocyte: 1, erythrocytes: 40, quantitative: 900, corpusles: 3, red: 5000 });
    expect(rareWords(index, ['Red blood corpusles; MCV; Discocyte; Erythrocytes; Quantitative'], new Set())).toEqual(['discocyte', 'corpusles', 'mcv']);
    // what was asked: the lower-cased content words, each once
    expect(index.asked[0]).toContain('mcv');
    expect(index.asked[0]).not.toContain('MCV');
  });

  it('leave out stop words, one-letter words, words the index does not hold and words already searched alone', () => {
    const index = wordIndex({ the: 1, of: 1, x: 1, mcv: 2, rbc: 2 });
    expect(rareWords(index, ['the X of MCV unknownword RBC'], new Set(['rbc']))).toEqual(['mcv']);
  });

  it(`are at most RARE_WORD_QUERIES (${RARE_WORD_QUERIES}), counted over the text and its other spelling together`, () => {
    const counts: Record<string, number> = {};
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    words.forEach((w, i) => (counts[w] = i + 1));
    counts['anemia'] = RARE_WORD_DOCS; // the limit itself is still rare
    counts['anaemia'] = RARE_WORD_DOCS + 1; // one more is not
    const found = rareWords(wordIndex(counts), [`${words.join(' ')} anaemia`, 'anemia'], new Set());
    expect(found).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
    expect(rareWords(wordIndex(counts), ['anaemia', 'anemia'], new Set())).toEqual(['anemia']);
  });
});
