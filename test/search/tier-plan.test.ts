/**
 * The tier planner's contract (src/search-model/tier-plan.ts, its tier table): a pure function from a
 * band's word expansions to the tier's plan, with no store behind it.
 */
import { describe, expect, it } from 'vitest';
import { tierLevels, tierPlan, type BandExpansions, type ExpandedPhrasing, type WordLevels, type WordTerm } from '../../src/search-model/tier-plan.js';

const word = (text: string): WordTerm => ({ text, prefix: false, bands: 1 });
/** A required word whose expansions in the band are W = itself, PF = itself + `starts`, FO = `inside`, F = PF + FO. */
function expanded(text: string, starts: string[] = [], inside: string[] = []): WordLevels {
  const W = [word(text)];
  const PF = [...W, ...starts.map(word)];
  const FO = inside.map(word);
  return { W, PF, FO, F: [...PF, ...FO] };
}
const phrasing = (words: Array<[string, WordLevels]>): ExpandedPhrasing => ({
  tokens: words.map(([t]) => t),
  requiredTokens: words.map(([t]) => t),
  words: words.map(([, w]) => w),
});

describe('tierPlan', () => {
  const heart = expanded('heart', ['hearts'], ['sweetheart']);
  const attack = expanded('attack', [], []);
  const heartAttack: BandExpansions = { phrasings: [phrasing([['heart', heart], ['attack', attack]])], widens: { PF: true, F: true } };
  const W = [[heart.W!, attack.W!]];
  const PF = [[heart.PF!, attack.PF!]];
  const F = [[heart.F!, attack.F!]];

  it('name_phrase: the words in order in the name', () => {
    expect(tierPlan(heartAttack, 'name_phrase')).toEqual({ match: { columns: 'name', phrases: [['heart', 'attack']] }, unless: [] });
  });

  it('name_words: every word in the name, unless the phrase is there', () => {
    expect(tierPlan(heartAttack, 'name_words')).toEqual({
      match: { columns: 'name', words: W },
      unless: [{ columns: 'name', phrases: [['heart', 'attack']] }],
    });
  });

  it('any_prefixes: the words or words they start in name or synonyms, unless the name has them or the words are whole', () => {
    expect(tierPlan(heartAttack, 'any_prefixes')).toEqual({
      match: { columns: 'name_synonyms', words: PF },
      unless: [
        { columns: 'name', words: PF },
        { columns: 'name_synonyms', words: W },
      ],
    });
  });

  it('with several required words a fragment tier matches all of F; with one, only the fragment-only words (FO)', () => {
    expect(tierPlan(heartAttack, 'name_fragments')).toEqual({ match: { columns: 'name', words: F }, unless: [{ columns: 'name_synonyms', words: PF }] });
    const single: BandExpansions = { phrasings: [phrasing([['heart', heart]])], widens: { PF: true, F: true } };
    expect(tierPlan(single, 'name_fragments')).toEqual({
      match: { columns: 'name', words: [[heart.FO!]] },
      unless: [{ columns: 'name_synonyms', words: [[heart.PF!]] }],
    });
  });

  it('a widened tier is empty when no word widens there in any band', () => {
    const narrow: BandExpansions = { ...heartAttack, widens: { PF: false, F: false } };
    expect(tierPlan(narrow, 'name_prefixes')).toBeNull();
    expect(tierPlan(narrow, 'any_fragments')).toBeNull();
    expect(tierPlan(narrow, 'union')).toEqual({ match: { columns: 'name_synonyms', words: F }, unless: [] });
  });

  it('a phrasing with a word absent from the band cannot match there, and drops out of the unless parts', () => {
    const absent: WordLevels = { W: [], PF: [], FO: [], F: [] };
    const twoPhrasings: BandExpansions = {
      phrasings: [phrasing([['heart', heart], ['attack', absent]]), phrasing([['heart', heart]])],
      widens: { PF: true, F: true },
    };
    expect(tierPlan(twoPhrasings, 'name_phrase')).toBeNull();
    expect(tierPlan(twoPhrasings, 'name_words')).toEqual({ match: { columns: 'name', words: [[heart.W!]] }, unless: [] });
    const nothing: BandExpansions = { phrasings: [phrasing([['attack', absent]])], widens: { PF: false, F: false } };
    expect(tierPlan(nothing, 'any_words')).toBeNull();
  });

  it('refuses a plan whose expansions were not looked up at the levels the tier reads', () => {
    const onlyWords: BandExpansions = { phrasings: [phrasing([['heart', { W: heart.W! }]])], widens: { PF: true, F: false } };
    expect(() => tierPlan(onlyWords, 'name_prefixes')).toThrow(/PF expansions/);
  });
});

describe('tierLevels', () => {
  it('asks for the word alone on the word tiers, prefixes on the prefix tiers, everything on the fragment tiers and the union', () => {
    expect(tierLevels('name_words')).toEqual(['W']);
    expect(tierLevels('any_prefixes')).toEqual(['W', 'PF']);
    expect([...tierLevels('any_fragments')].sort()).toEqual(['F', 'FO', 'PF', 'W']);
    expect([...tierLevels('union')].sort()).toEqual(['F', 'FO', 'PF', 'W']);
  });
});
