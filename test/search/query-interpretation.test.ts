/** Pure query interpretation: code shapes (ranking rule 1), tokens, stop words (reading note 5), scores. */
import { describe, expect, it } from 'vitest';
import { codeShapeVocabulary } from '../../src/services/search/code-shapes.js';
import { parseQuery } from '../../src/services/search/query-parser.js';
import { LENGTH_BUCKET_COUNT, MAX_GROUP_COUNT, TEXT_TIER_COUNT, textScore } from '../../src/search-model/ranking.js';
import { contentTokens, STOP_WORDS, wordSetKey } from '../../src/search-model/stop-words.js';
import { exactKey, tokenize } from '../../src/search-model/text-normalization.js';

describe('bare code shapes', () => {
  it('recognises ICD10CM, LOINC and SNOMED codes', () => {
    for (const c of ['E11.9', 'I10', 'J45.909', 'S72.001A', 'e11.9']) expect(codeShapeVocabulary(c)).toBe('ICD10CM');
    for (const c of ['2339-0', '4548-4', 'LP14635-4', 'LA6576-8']) expect(codeShapeVocabulary(c)).toBe('LOINC');
    for (const c of ['44054006', '73211009', '840539006']) expect(codeShapeVocabulary(c)).toBe('SNOMED');
    for (const c of ['diabetes', '12', 'E1', 'ZX100']) expect(codeShapeVocabulary(c)).toBeUndefined();
  });
});

describe('words and stop words', () => {
  it('tokenizes on anything that is not a letter or digit, folding case and accents', () => {
    expect(tokenize("Sjögren's syndrome, COVID-19")).toEqual(['sjogren', 's', 'syndrome', 'covid', '19']);
    expect(tokenize('糖尿病 Сахарный')).toEqual(['糖尿病', 'сахарныи']); // й folds to и, on both sides
    expect(exactKey('  Type  2 Diabetes ')).toBe('type 2 diabetes');
  });

  it('has exactly the function words of reading note 5, never negations or qualifiers', () => {
    expect([...STOP_WORDS].sort()).toEqual(['a', 'an', 'and', 'as', 'at', 'by', 'due', 'for', 'in', 'is', 'of', 'on', 'or', 'the', 'to', 'with'].sort());
    for (const w of ['without', 'no', 'not', 'non']) expect(STOP_WORDS.has(w)).toBe(false);
    expect(contentTokens(tokenize('diabetes without complication'))).toEqual(['diabetes', 'without', 'complication']);
    expect(wordSetKey(tokenize('Fracture of the femur'))).toBe(wordSetKey(tokenize('femur fracture')));
  });

  it('requires every content word; a stop-word-only query keeps its words', () => {
    expect(parseQuery('fracture of the femur').phrasings[0]!.requiredTokens).toEqual(['fracture', 'femur']);
    expect(parseQuery('the').phrasings[0]!.requiredTokens).toEqual(['the']);
    expect(parseQuery('femur').phrasings[0]!.wordSetKey).toBeNull();
  });
});

describe('match_score', () => {
  it('is in [0, 1] and never increases along the sort key (group, tier, length bucket)', () => {
    let previous = 1;
    for (let g = 0; g < MAX_GROUP_COUNT; g++)
      for (let t = 0; t < TEXT_TIER_COUNT; t++)
        for (let b = 0; b < LENGTH_BUCKET_COUNT; b++) {
          const s = textScore(g, t, b);
          expect(s).toBeGreaterThan(0);
          expect(s).toBeLessThanOrEqual(previous);
          previous = s;
        }
  });
});
