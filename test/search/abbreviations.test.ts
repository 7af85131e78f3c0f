/** Reading note 4: each whole-query abbreviation, one by one. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WHOLE_QUERY_ABBREVIATIONS } from '../../src/services/search/abbreviations.js';
import { concept, ids, openFixtureStore, run, type FixtureStore } from './search-fixture.js';

const TARGETS: Record<string, ReturnType<typeof concept>> = {
  // OMOP's preferred name differs from the expansion: the expansion must still find it
  COPD: concept('Chronic obstructive lung disease', { concept_id: 255573 }),
  CHF: concept('Congestive heart failure', { concept_id: 319835 }),
  MI: concept('Myocardial infarction', { concept_id: 4329847 }),
  T2DM: concept('Type 2 diabetes mellitus', { concept_id: 201826 }),
  HTN: concept('Hypertensive disorder', { concept_id: 316866 }),
  CKD: concept('Chronic kidney disease', { concept_id: 46271022 }),
};
const DISTRACTOR = concept('Mild cognitive impairment', { concept_id: 9000001, concept_code: 'MIX' });
// a concept whose code is the abbreviation: the whole-query abbreviation stands for its expansion, not for a code
const CODE_MI = concept('Mile (unit)', { concept_id: 9000003, vocabulary_id: 'TESTVOC', domain_id: 'Unit', standard_concept: null, concept_code: 'mi' });
const LITERAL_CKD = concept('CKD stage 3 registry entry', { concept_id: 9000002, domain_id: 'Observation' });

let f: FixtureStore;
beforeAll(async () => {
  f = await openFixtureStore({ concepts: [...Object.values(TARGETS), DISTRACTOR, LITERAL_CKD, CODE_MI] });
});
afterAll(() => f?.close());

describe('whole-query abbreviations', () => {
  it('covers exactly COPD, CHF, MI, T2DM, HTN, CKD', () => {
    expect(Object.keys(WHOLE_QUERY_ABBREVIATIONS).sort()).toEqual(['CHF', 'CKD', 'COPD', 'HTN', 'MI', 'T2DM']);
  });

  for (const [abbreviation, target] of Object.entries(TARGETS)) {
    it(`${abbreviation} expands to ${target.concept_name}`, () => {
      for (const q of [abbreviation, abbreviation.toLowerCase(), `  ${abbreviation}  `]) {
        const r = run(f.store, q);
        expect(r.query.abbreviation).toBe(abbreviation);
        expect(ids(r.items)[0]).toBe(target.concept_id);
      }
    });
  }

  it('is not looked up as a code', () => {
    expect(ids(run(f.store, 'MI').items)).toEqual([TARGETS.MI!.concept_id]);
  });

  it('is searched literally when followed by another word', () => {
    const r = run(f.store, 'CKD stage');
    expect(r.query.abbreviation).toBeNull();
    expect(ids(r.items)).toEqual([LITERAL_CKD.concept_id]);
  });
});
