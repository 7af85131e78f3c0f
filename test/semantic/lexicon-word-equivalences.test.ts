/** The word-equivalence learner of the default provider (src/search-model/semantic/lexicon/word-equivalences.ts). */
import { describe, expect, it } from 'vitest';
import {
  MAX_EQUIVALENTS_PER_WORD,
  WordEquivalenceLearner,
  equivalenceWords,
} from '../../src/search-model/semantic/lexicon/word-equivalences.js';

// Name pairs as a release has them: a concept's name and a synonym, or both ends of a `Maps to` row.
const TEACHING_PAIRS: Array<[string, string]> = [
  ['Chronic kidney disease', 'Chronic renal disease'],
  ['Kidney failure', 'Renal failure'],
  ['Cyst of kidney', 'Renal cyst'],
  ['Myocardial infarction', 'Heart attack'],
  ['Acute myocardial infarction', 'Acute heart attack'],
  ['Old myocardial infarction', 'Healed heart attack'],
  ['Neoplasm of lung', 'Tumor of lung'],
  ['Benign neoplasm of skin', 'Benign tumor of skin'],
];

function learn(pairs: Array<[string, string]>, options?: { maxTrackedPairings?: number }) {
  const learner = new WordEquivalenceLearner(options);
  for (const [a, b] of pairs) learner.addNamePair(a, b);
  return learner.finish();
}

const equivalentWords = (eq: ReturnType<typeof learn>, word: string) => (eq.get(word) ?? []).map((e) => e.word);

describe('word equivalence learner', () => {
  it('learns kidney↔renal, attack↔infarction and tumor↔neoplasm from words on one side only', () => {
    const eq = learn(TEACHING_PAIRS);
    expect(equivalentWords(eq, 'kidney')).toContain('renal');
    expect(equivalentWords(eq, 'renal')).toContain('kidney');
    expect(equivalentWords(eq, 'infarction')).toContain('attack');
    expect(equivalentWords(eq, 'attack')).toContain('infarction');
    expect(equivalentWords(eq, 'tumor')).toContain('neoplasm');
  });

  it('learns nothing from words both names share', () => {
    const eq = learn(TEACHING_PAIRS);
    // "chronic", "disease", "lung", "acute" occur on both sides of every pair they are in
    for (const shared of ['chronic', 'disease', 'lung', 'acute', 'benign', 'skin']) expect(eq.has(shared)).toBe(false);
  });

  it('rejects chance pairings: a word seen once beside many different words', () => {
    // "unrelated" is one-sided in four pairs, each time against a different word: Dice 2·1/(4+1) = 0.4 < 0.5
    const noise: Array<[string, string]> = [
      ['Alpha unrelated', 'Alpha bravo'],
      ['Gamma unrelated', 'Gamma delta'],
      ['Echo unrelated', 'Echo foxtrot'],
      ['Golf unrelated', 'Golf hotel'],
    ];
    const eq = learn([...TEACHING_PAIRS, ...noise]);
    expect(eq.has('unrelated')).toBe(false);
    for (const w of ['bravo', 'delta', 'foxtrot', 'hotel']) expect(eq.has(w)).toBe(false);
  });

  it('skips pairs whose one-sided word sets are large (more than 3 words each side)', () => {
    const eq = learn([
      ['Aaa bbb ccc ddd', 'Eee fff ggg hhh'],
      ['Aaa bbb ccc ddd', 'Eee fff ggg hhh'],
    ]);
    expect(eq.size).toBe(0);
  });

  it('weighs a pairing seen twice more than one seen once, and keeps at most the strongest few per word', () => {
    const eq = learn(TEACHING_PAIRS);
    const kidney = eq.get('kidney')!;
    const renal = kidney.find((e) => e.word === 'renal')!;
    // kidney↔renal met 3 times in 3 pairs each: Dice 1, strength 3/4
    expect(renal.strength).toBeCloseTo(0.75, 5);
    // "hub" meets 8 different words twice each: Dice 2·2/(16+2) ≈ 0.22 ≥ 0.2 for all 8, but only the cap is kept
    const spokes = ['alder', 'birch', 'cedar', 'elder', 'hazel', 'larch', 'maple', 'rowan'];
    const many: Array<[string, string]> = spokes.flatMap((s): Array<[string, string]> => [['hub', s], ['hub', s]]);
    const hub = learn(many).get('hub') ?? [];
    expect(hub).toHaveLength(Math.min(spokes.length, MAX_EQUIVALENTS_PER_WORD));
  });

  it('keeps the repeated pairings when its table is pruned (bounded memory)', () => {
    const pairs: Array<[string, string]> = [...TEACHING_PAIRS];
    // 400 one-off pairings between made-up words push the table over its bound of 50 many times
    for (let i = 0; i < 400; i++) pairs.push([`Common w${i}a`, `Common w${i}b`]);
    const eq = learn(pairs, { maxTrackedPairings: 50 });
    expect(equivalentWords(eq, 'kidney')).toContain('renal');
    expect(equivalentWords(eq, 'infarction')).toContain('attack');
  });

  it('considers content words of 3+ characters with a letter', () => {
    expect(equivalenceWords('Pain in the left knee, 25 MG (of IV)')).toEqual(['pain', 'left', 'knee']);
  });
});
