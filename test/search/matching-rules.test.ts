/** E4 matching rules 1–5 on purpose-built vocabularies (service contract). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concept, ids, openFixtureStore, run, type FixtureStore } from './search-fixture.js';

const MI = concept('Myocardial infarction', { concept_id: 4329847 });
const COPD = concept('Chronic obstructive lung disease', { concept_id: 255573 });
const COPD_LITERAL = concept('COPD exacerbation follow-up', { concept_id: 100001, domain_id: 'Observation' });
const STONE_NAME = concept('Renal stone', { concept_id: 100010 });
const STONE_SYNONYM = concept('Nephrolithiasis', { concept_id: 100011 });
const KIDNEY_NAME = concept('Acute kidney failure', { concept_id: 100020 });
const KIDNEY_SYNONYM = concept('Acute renal insufficiency', { concept_id: 100021 });
const T2DM = concept('Type 2 diabetes mellitus', { concept_id: 201826 });
const T2DM_PHRASE = concept('Diabetes mellitus type 2 in pregnancy', { concept_id: 100030 });
const FEMUR = concept('Closed fracture of shaft of femur', { concept_id: 100040 });
const FEMUR_OTHER = concept('Femur fracture healing', { concept_id: 100041 });
const SINGLE = concept('Thighbone', { concept_id: 100045 });
const STOPWORD_ONLY = concept('Zeta widget', { concept_id: 100050 });
const HEART = concept('Heartburn', { concept_id: 100060 });
// name vs synonym in the prefix and fragment tiers: the synonym-only concept has the shorter name,
// so only the name-before-synonym rule puts it second
const QUIZ_NAME = concept('Quizzical ocular palsy of the left eye', { concept_id: 100070 });
const QUIZ_SYNONYM = concept('Zork palsy', { concept_id: 100071 });

let f: FixtureStore;
beforeAll(async () => {
  f = await openFixtureStore({
    concepts: [
      MI, COPD, COPD_LITERAL, STONE_NAME, STONE_SYNONYM, KIDNEY_NAME, KIDNEY_SYNONYM, T2DM, T2DM_PHRASE, FEMUR, FEMUR_OTHER, SINGLE, STOPWORD_ONLY, HEART,
      QUIZ_NAME, QUIZ_SYNONYM,
    ],
    synonyms: [
      [MI.concept_id, 'Heart attack'],
      [STONE_SYNONYM.concept_id, 'Renal stone'],
      [KIDNEY_SYNONYM.concept_id, 'Acute kidney failure'],
      [T2DM.concept_id, 'Diabetes mellitus type 2'],
      [FEMUR.concept_id, 'Fracture of the femur'],
      [SINGLE.concept_id, 'the femur'],
      [STOPWORD_ONLY.concept_id, 'The'],
      [STOPWORD_ONLY.concept_id, 'of the'],
      [STOPWORD_ONLY.concept_id, '-- / --'],
      [QUIZ_SYNONYM.concept_id, 'Quizzical ocular palsy'],
    ],
  });
});
afterAll(() => f?.close());

describe('E4 matching rules', () => {
  it('E4 matching rule 1: an abbreviation expands only as the entire query (COPD, MI; COPD + another word is literal)', () => {
    const copd = run(f.store, 'COPD');
    expect(ids(copd.items)[0]).toBe(COPD.concept_id);
    expect(copd.query.abbreviation).toBe('COPD');
    expect(ids(copd.items)).not.toContain(COPD_LITERAL.concept_id);

    const literal = run(f.store, 'COPD exacerbation');
    expect(literal.query.abbreviation).toBeNull();
    expect(ids(literal.items)).toEqual([COPD_LITERAL.concept_id]);

    expect(ids(run(f.store, 'MI').items)[0]).toBe(MI.concept_id);
    expect(ids(run(f.store, '  mi ').items)[0]).toBe(MI.concept_id);
  });

  it('E4 matching rule 2: keyword and substring matching, no typo correction', () => {
    expect(ids(run(f.store, 'infarction').items)).toEqual([MI.concept_id]); // keyword
    expect(ids(run(f.store, 'myoc').items)).toEqual([MI.concept_id]); // word prefix
    expect(ids(run(f.store, 'yocardi').items)).toEqual([MI.concept_id]); // substring inside a word
    expect(ids(run(f.store, 'nfarct myocard').items)).toEqual([MI.concept_id]); // every word, any order
    const typo = run(f.store, 'myocardal infarcton');
    expect(typo.items).toEqual([]);
    expect(typo.total).toBe(0);
  });

  it('E4 matching rule 3: every synonym is indexed with the name, and a name match outranks a synonym match of comparable quality', () => {
    // the synonym alone finds the concept
    const heart = run(f.store, 'heart attack');
    expect(ids(heart.items)).toEqual([MI.concept_id]);
    expect(heart.items[0]!.match_type).toBe('exact');
    // exact name before exact synonym
    const stone = run(f.store, 'renal stone');
    expect(ids(stone.items)).toEqual([STONE_NAME.concept_id, STONE_SYNONYM.concept_id]);
    expect(stone.items.map((i) => i.match_type)).toEqual(['exact', 'exact']);
    expect(stone.items[0]!.match_score).toBeGreaterThan(stone.items[1]!.match_score);
    // all words in the name before all words in a synonym
    const kidney = run(f.store, 'kidney failure');
    expect(ids(kidney.items)).toEqual([KIDNEY_NAME.concept_id, KIDNEY_SYNONYM.concept_id]);
  });

  it('E4 matching rule 3: a name match outranks a synonym match in the word-prefix tier', () => {
    for (const q of ['quizz', 'quizz ocul', 'ocul quizzi']) {
      const r = run(f.store, q);
      expect(ids(r.items), q).toEqual([QUIZ_NAME.concept_id, QUIZ_SYNONYM.concept_id]);
      expect(r.items[0]!.match_score, q).toBeGreaterThan(r.items[1]!.match_score);
      expect(r.items.map((i) => i.match_type), q).toEqual(['partial', 'partial']);
    }
  });

  it('E4 matching rule 3: a name match outranks a synonym match in the word-fragment tier', () => {
    for (const q of ['uizzic', 'izzical cular']) {
      const r = run(f.store, q);
      expect(ids(r.items), q).toEqual([QUIZ_NAME.concept_id, QUIZ_SYNONYM.concept_id]);
      expect(r.items[0]!.match_score, q).toBeGreaterThan(r.items[1]!.match_score);
    }
    // both concepts contain "palsy" in the name: the shorter name first (no synonym involved)
    expect(ids(run(f.store, 'palsy').items)).toEqual([QUIZ_SYNONYM.concept_id, QUIZ_NAME.concept_id]);
  });

  it('E4 matching rule 4: a synonym with the same set of words as a multi-word query is an exact synonym match, regardless of order and stop words', () => {
    // order
    const t2dm = run(f.store, 'diabetes mellitus type 2');
    expect(ids(t2dm.items)[0]).toBe(T2DM.concept_id);
    expect(t2dm.items[0]!.match_type).toBe('exact');
    expect(ids(t2dm.items)).toContain(T2DM_PHRASE.concept_id); // a name phrase match ranks after it
    expect(t2dm.items.find((i) => i.concept_id === T2DM_PHRASE.concept_id)!.match_type).toBe('partial');
    // stop words and order: "femur fracture" = {femur, fracture} = "Fracture of the femur"
    const femur = run(f.store, 'femur fracture');
    expect(ids(femur.items)[0]).toBe(FEMUR.concept_id);
    expect(femur.items[0]!.match_type).toBe('exact');
    expect(femur.items.find((i) => i.concept_id === FEMUR_OTHER.concept_id)!.match_type).toBe('partial');
    // exact_match=true keeps the word-set synonym match
    expect(ids(run(f.store, 'femur fracture', { exactMatch: true }).items)).toEqual([FEMUR.concept_id]);
  });

  it('E4 matching rule 4: the word-set rule does not apply to single-word queries', () => {
    // "Thighbone" has the synonym "the femur" (word set {femur}); the one-word query "femur" is not an exact match of it
    const femur = run(f.store, 'femur');
    const single = femur.items.find((i) => i.concept_id === SINGLE.concept_id)!;
    expect(single).toBeDefined();
    expect(single.match_type).toBe('partial');
    expect(ids(run(f.store, 'femur', { exactMatch: true }).items)).toEqual([]);
    // while the two-word query "the femur" equals the synonym
    expect(run(f.store, 'the femur', { exactMatch: true }).items.map((i) => i.concept_id)).toContain(SINGLE.concept_id);
  });

  it('E4 matching rule 5: a synonym made only of stop words or punctuation cannot be found', () => {
    expect(ids(run(f.store, 'the').items)).not.toContain(STOPWORD_ONLY.concept_id);
    expect(ids(run(f.store, 'The', { exactMatch: true }).items)).toEqual([]);
    expect(ids(run(f.store, 'of the').items)).not.toContain(STOPWORD_ONLY.concept_id);
    expect(ids(run(f.store, '-- / --').items)).toEqual([]);
    // the concept itself stays findable by its name
    expect(ids(run(f.store, 'zeta widget').items)).toEqual([STOPWORD_ONLY.concept_id]);
  });
});
