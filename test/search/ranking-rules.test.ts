/** E4 ranking rules 1–6, the within-class order, the tie-breaks and the demoted classes table. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMOTED_CLASS_GROUPS } from '../../src/search-model/ranking.js';
import type { SearchFilters } from '../../src/services/search/search-filters.js';
import { concept, ids, openFixtureStore, run, type FixtureStore } from './search-fixture.js';

// Rule 1: identifiers
const ICD_E119 = concept('Type 2 diabetes mellitus without complications', {
  concept_id: 45576876, vocabulary_id: 'ICD10CM', concept_class_id: '5-char billing code', standard_concept: null, concept_code: 'E11.9',
});
const ICD10_E119 = concept('Non-insulin-dependent diabetes mellitus without complications', {
  concept_id: 45591072, vocabulary_id: 'ICD10', concept_class_id: 'ICD10 code', standard_concept: null, concept_code: 'E11.9',
});
const T2DM_NO_COMPLICATION = concept('Type 2 diabetes mellitus without complication', { concept_id: 4193704, concept_code: '313436004' });
const NIDDM = concept('Non-insulin dependent diabetes mellitus', { concept_id: 4000001, concept_code: '44054006' });
const TEXT_E119 = concept('Diabetes note E11.9 reference', { concept_id: 4000002, domain_id: 'Observation', concept_code: 'X1' });
const LOINC_GLUCOSE = concept('Glucose [Mass/volume] in Blood', {
  concept_id: 3000963, vocabulary_id: 'LOINC', domain_id: 'Measurement', concept_class_id: 'Lab Test', concept_code: '2339-0',
});
const OTHER_2339 = concept('Unrelated thing coded 2339-0', { concept_id: 4000003, vocabulary_id: 'TESTVOC', standard_concept: null, concept_code: '2339-0' });
const NONSTD_CODE = concept('Zorbid condition', { concept_id: 4000004, vocabulary_id: 'TESTVOC', standard_concept: null, concept_code: 'ZX100' });
const STD_TEXT_CODE = concept('ZX100 zorbid syndrome', { concept_id: 4000005, concept_code: 'Q1' });

// Rules 2–4 (query "gastritis"): the better text match is in the weaker class each time
const GASTRITIS_STD = concept('Chronic superficial gastritis of the antrum with erosions', { concept_id: 5000001 });
const GASTRITIS_CLS = concept('Gastritis and duodenitis classification group', {
  concept_id: 5000002, vocabulary_id: 'ICD10', concept_class_id: 'ICD10 Hierarchy', standard_concept: 'C', concept_code: 'K29',
});
const GASTRITIS_NONSTD = concept('Gastritis', { concept_id: 5000003, vocabulary_id: 'ICD10CM', concept_class_id: '3-char nonbill code', standard_concept: null, concept_code: 'K29.7' });
const GASTRITIS_ANSWER = concept('Gastritis', { concept_id: 5000004, vocabulary_id: 'LOINC', domain_id: 'Meas Value', concept_class_id: 'Answer', concept_code: 'LA1-1' });
const GASTRITIS_INVALID = concept('Gastritis', { concept_id: 5000005, concept_code: '999001', invalid_reason: 'D', standard_concept: null });

// Within a class: core domain first, then text rank, then ties
const CORE_PARTIAL = concept('Pellagra of the skin with long description', { concept_id: 6000001, domain_id: 'Condition' });
const OBS_EXACT = concept('Pellagra', { concept_id: 6000002, domain_id: 'Observation' });
const TIE_SNOMED = concept('Quokka bite', { concept_id: 6000012, vocabulary_id: 'SNOMED' });
const TIE_RXNORM = concept('Quokka bitf', { concept_id: 6000011, vocabulary_id: 'RxNorm', domain_id: 'Condition' });
const TIE_LONGER = concept('Quokka bites', { concept_id: 6000010, vocabulary_id: 'SNOMED' });
const TIE_ID_B = concept('Quokka bitx', { concept_id: 6000014, vocabulary_id: 'SNOMED' });
const TIE_ID_A = concept('Quokka bity', { concept_id: 6000013, vocabulary_id: 'SNOMED' });
const SIM_SHORT = concept('Wombat fever', { concept_id: 6000020 });
const SIM_LONG = concept('Recurrent wombat fever of unknown origin in adults', { concept_id: 6000021 });

// Demoted classes: for each class, an artifact whose name equals the query "glucose"
const GLUCOSE_NONSTD = concept('Glucose measurement, random, non-standard form', {
  concept_id: 7000000, vocabulary_id: 'TESTVOC', domain_id: 'Measurement', concept_class_id: 'Lab Test', standard_concept: null,
});
const demotedClasses = DEMOTED_CLASS_GROUPS.flatMap((g) => g.conceptClassIds);
const ARTIFACTS = demotedClasses.map((cls, i) =>
  concept('Glucose', { concept_id: 7000100 + i, vocabulary_id: 'LOINC', domain_id: cls === 'Answer' ? 'Meas Value' : 'Observation', concept_class_id: cls }),
);
const QUALIFIER = concept('Glucose qualifier', { concept_id: 7000200, domain_id: 'Observation', concept_class_id: 'Qualifier Value' });

// Rule 1 for SNOMED- and LOINC-shaped codes: the source concept, then only its valid standard Maps to target
const SNOMED_SOURCE = concept('Old style bronchitic finding', {
  concept_id: 8000001, vocabulary_id: 'SNOMED', standard_concept: null, concept_code: '190372001',
});
const LOINC_SOURCE = concept('Old style serum marker', {
  concept_id: 8000002, vocabulary_id: 'LOINC', domain_id: 'Measurement', concept_class_id: 'Lab Test', standard_concept: null, concept_code: '12345-6',
});
const MAPS_TO_STANDARD = concept('Current bronchitic finding', { concept_id: 8000010, concept_code: '8000010' });
const MAPS_TO_STANDARD_LAB = concept('Current serum marker', {
  concept_id: 8000011, vocabulary_id: 'LOINC', domain_id: 'Measurement', concept_class_id: 'Lab Test', concept_code: '8000011-1',
});
const MAPS_TO_INVALID = concept('Deprecated bronchitic finding', { concept_id: 8000012, concept_code: '8000012', invalid_reason: 'D', standard_concept: null });
const MAPS_TO_NONSTANDARD = concept('Non-standard bronchitic finding', { concept_id: 8000013, concept_code: '8000013', standard_concept: null });
const MAPS_TO_UPDATED_STANDARD = concept('Updated serum marker', {
  concept_id: 8000014, vocabulary_id: 'LOINC', domain_id: 'Measurement', concept_class_id: 'Lab Test', concept_code: '8000014-1', invalid_reason: 'U',
});
const mapsTo = (from: { concept_id: number }, to: { concept_id: number }) => ({ concept_id_1: from.concept_id, concept_id_2: to.concept_id, relationship_id: 'Maps to' });

// Demotion off (E4, last sentence): a LOINC Answer whose name equals the query "hemoglobin" against
// clinical concepts that only contain the word, an identifier match and an invalid exact match
const HB_ANSWER = concept('Hemoglobin', {
  concept_id: 9000001, vocabulary_id: 'LOINC', domain_id: 'Meas Value', concept_class_id: 'Answer', concept_code: 'LA9000-1',
});
const HB_STANDARD_PARTIAL = concept('Hemoglobin in blood', {
  concept_id: 9000002, vocabulary_id: 'LOINC', domain_id: 'Measurement', concept_class_id: 'Lab Test', concept_code: '9000002-2',
});
const HB_STANDARD_LONG = concept('Hemoglobin measurement in venous blood by automated count', {
  concept_id: 9000003, vocabulary_id: 'LOINC', domain_id: 'Measurement', concept_class_id: 'Lab Test', concept_code: '9000003-3',
});
const HB_NONSTD_EXACT = concept('Hemoglobin', {
  concept_id: 9000004, vocabulary_id: 'TESTVOC', domain_id: 'Measurement', concept_class_id: 'Lab Test', standard_concept: null, concept_code: 'HB1',
});
const HB_IDENTIFIER = concept('Blood pigment level', {
  concept_id: 9000005, vocabulary_id: 'TESTVOC', domain_id: 'Observation', concept_class_id: 'Lab Test', standard_concept: null, concept_code: 'hemoglobin',
});
const HB_INVALID_EXACT = concept('Hemoglobin', {
  concept_id: 9000006, vocabulary_id: 'LOINC', domain_id: 'Measurement', concept_class_id: 'Lab Test', concept_code: '9000006-6', invalid_reason: 'D', standard_concept: null,
});

let f: FixtureStore;
beforeAll(async () => {
  f = await openFixtureStore({
    concepts: [
      ICD_E119, ICD10_E119, T2DM_NO_COMPLICATION, NIDDM, TEXT_E119, LOINC_GLUCOSE, OTHER_2339, NONSTD_CODE, STD_TEXT_CODE,
      GASTRITIS_STD, GASTRITIS_CLS, GASTRITIS_NONSTD, GASTRITIS_ANSWER, GASTRITIS_INVALID,
      CORE_PARTIAL, OBS_EXACT, TIE_SNOMED, TIE_RXNORM, TIE_LONGER, TIE_ID_A, TIE_ID_B, SIM_SHORT, SIM_LONG,
      GLUCOSE_NONSTD, ...ARTIFACTS, QUALIFIER,
      SNOMED_SOURCE, LOINC_SOURCE, MAPS_TO_STANDARD, MAPS_TO_STANDARD_LAB, MAPS_TO_INVALID, MAPS_TO_NONSTANDARD, MAPS_TO_UPDATED_STANDARD,
      HB_ANSWER, HB_STANDARD_PARTIAL, HB_STANDARD_LONG, HB_NONSTD_EXACT, HB_IDENTIFIER, HB_INVALID_EXACT,
    ],
    relationships: [
      mapsTo(SNOMED_SOURCE, MAPS_TO_INVALID),
      mapsTo(SNOMED_SOURCE, MAPS_TO_NONSTANDARD),
      mapsTo(SNOMED_SOURCE, MAPS_TO_STANDARD),
      mapsTo(LOINC_SOURCE, MAPS_TO_UPDATED_STANDARD),
      mapsTo(LOINC_SOURCE, MAPS_TO_STANDARD_LAB),
      { ...mapsTo(LOINC_SOURCE, MAPS_TO_STANDARD), invalid_reason: 'D' }, // a deprecated mapping is not followed
      { concept_id_1: ICD_E119.concept_id, concept_id_2: T2DM_NO_COMPLICATION.concept_id, relationship_id: 'Maps to' },
      { concept_id_1: ICD10_E119.concept_id, concept_id_2: NIDDM.concept_id, relationship_id: 'Maps to' },
    ],
  });
});
afterAll(() => f?.close());

describe('E4 ranking rule 1: exact concept id or code first', () => {
  it('E4 ranking rule 1: an exact code match ranks first whatever its standard status', () => {
    const r = run(f.store, 'ZX100');
    expect(ids(r.items)).toEqual([NONSTD_CODE.concept_id, STD_TEXT_CODE.concept_id]);
    expect(r.items[0]!.match_type).toBe('exact');
    expect(r.items[0]!.match_score).toBe(1);
    expect(r.items[1]!.match_type).toBe('partial');
  });

  it('E4 ranking rule 1: an exact concept_id match ranks first', () => {
    const r = run(f.store, String(GASTRITIS_NONSTD.concept_id));
    expect(ids(r.items)[0]).toBe(GASTRITIS_NONSTD.concept_id);
    expect(r.items[0]!.match_type).toBe('exact');
  });

  it('E4 ranking rule 1: a bare ICD10CM-shaped code: ICD10CM concept first, its valid standard Maps to target second', () => {
    const r = run(f.store, 'E11.9');
    expect(ids(r.items).slice(0, 3)).toEqual([ICD_E119.concept_id, T2DM_NO_COMPLICATION.concept_id, ICD10_E119.concept_id]);
    expect(r.items.map((i) => i.match_score).slice(0, 3)).toEqual([1, 0.99, 0.98]);
    expect(ids(r.items)).toContain(TEXT_E119.concept_id); // the text match follows
    expect(ids(run(f.store, 'e11.9').items)[0]).toBe(ICD_E119.concept_id); // case-insensitive
  });

  it('E4 ranking rule 1: vocabulary_ids selects another code system', () => {
    const r = run(f.store, 'E11.9', { filters: { vocabularyIds: ['ICD10', 'SNOMED'] } });
    expect(ids(r.items).slice(0, 2)).toEqual([ICD10_E119.concept_id, NIDDM.concept_id]);
    expect(ids(r.items)).not.toContain(ICD_E119.concept_id);
  });

  it('E4 ranking rule 1: a LOINC-shaped code puts the LOINC concept first; a SNOMED-shaped code the SNOMED concept', () => {
    expect(ids(run(f.store, '2339-0').items)).toEqual([LOINC_GLUCOSE.concept_id, OTHER_2339.concept_id]);
    expect(ids(run(f.store, '44054006').items)[0]).toBe(NIDDM.concept_id);
  });

  it('E4 ranking rule 1: a SNOMED-shaped code: the SNOMED concept, then only its valid standard Maps to target', () => {
    for (const includeInvalid of [false, true]) {
      const r = run(f.store, '190372001', { filters: { includeInvalid } });
      // the invalid and the non-standard targets are not rule-1 matches (and are no text match either)
      expect(ids(r.items)).toEqual([SNOMED_SOURCE.concept_id, MAPS_TO_STANDARD.concept_id]);
      expect(r.items.map((i) => i.match_score)).toEqual([1, 0.99]);
    }
  });

  it('E4 ranking rule 1: a LOINC-shaped code: the LOINC concept, then only its valid standard Maps to target', () => {
    for (const includeInvalid of [false, true]) {
      const r = run(f.store, '12345-6', { filters: { includeInvalid } });
      // the updated (U) target is invalid, and the deprecated mapping to a standard concept is not followed
      expect(ids(r.items)).toEqual([LOINC_SOURCE.concept_id, MAPS_TO_STANDARD_LAB.concept_id]);
      expect(r.items.map((i) => i.match_score)).toEqual([1, 0.99]);
    }
  });
});

describe('E4 ranking rules 2–6: evidence classes', () => {
  const order = () => ids(run(f.store, 'gastritis', { filters: { includeInvalid: true } }).items);

  it('E4 ranking rule 2: a valid standard clinical concept ranks before the other classes, even with a weaker text match', () => {
    expect(order()[0]).toBe(GASTRITIS_STD.concept_id);
  });

  it('E4 ranking rule 3: a valid classification concept ranks after standard and before non-standard', () => {
    expect(order().indexOf(GASTRITIS_CLS.concept_id)).toBe(1);
  });

  it('E4 ranking rule 4: a valid non-standard clinical concept ranks after classification', () => {
    expect(order().indexOf(GASTRITIS_NONSTD.concept_id)).toBe(2);
  });

  it('E4 ranking rule 5: a non-clinical artifact ranks after relevant clinical concepts and is never excluded', () => {
    expect(order().indexOf(GASTRITIS_ANSWER.concept_id)).toBe(3);
    expect(ids(run(f.store, 'gastritis').items)).toContain(GASTRITIS_ANSWER.concept_id);
  });

  it('E4 ranking rule 6: invalid concepts only with include_invalid=true, after valid text matches', () => {
    expect(ids(run(f.store, 'gastritis').items)).not.toContain(GASTRITIS_INVALID.concept_id);
    expect(order()).toEqual([
      GASTRITIS_STD.concept_id, GASTRITIS_CLS.concept_id, GASTRITIS_NONSTD.concept_id, GASTRITIS_ANSWER.concept_id, GASTRITIS_INVALID.concept_id,
    ]);
  });

  it('E4 ranking rule 6: an invalid concept that is the exact requested identifier ranks first', () => {
    const r = run(f.store, '999001', { filters: { includeInvalid: true } });
    expect(ids(r.items)[0]).toBe(GASTRITIS_INVALID.concept_id);
    expect(ids(run(f.store, '999001').items)).not.toContain(GASTRITIS_INVALID.concept_id);
  });

  it('match_score never increases down the list', () => {
    const scores = run(f.store, 'gastritis', { filters: { includeInvalid: true } }).items.map((i) => i.match_score);
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]!);
    for (const s of scores) expect(s >= 0 && s <= 1).toBe(true);
  });
});

describe('E4 within an evidence class', () => {
  it('core domains rank before others, then full-text rank', () => {
    expect(ids(run(f.store, 'pellagra').items)).toEqual([CORE_PARTIAL.concept_id, OBS_EXACT.concept_id]);
  });

  it('trigram similarity: a shorter containing name ranks first', () => {
    expect(ids(run(f.store, 'wombat fever').items)).toEqual([SIM_SHORT.concept_id, SIM_LONG.concept_id]);
  });

  it('ties are broken by vocabulary authority, then name length, then concept_id', () => {
    expect(ids(run(f.store, 'quokka').items)).toEqual([
      TIE_SNOMED.concept_id, // SNOMED before RxNorm in the authority order; equal SNOMED names by concept_id
      TIE_ID_A.concept_id,
      TIE_ID_B.concept_id,
      TIE_LONGER.concept_id, // 12 characters: longer, but in the same length bucket, after the 11-character SNOMED names
      TIE_RXNORM.concept_id,
    ]);
  });
});

describe('E4 demoted (non-clinical) classes', () => {
  for (const [i, cls] of demotedClasses.entries()) {
    it(`demoted class '${cls}' ranks after a valid non-standard partial match`, () => {
      const r = ids(run(f.store, 'glucose').items);
      const artifact = ARTIFACTS[i]!.concept_id;
      expect(r).toContain(artifact);
      expect(r.indexOf(artifact)).toBeGreaterThan(r.indexOf(GLUCOSE_NONSTD.concept_id));
    });
  }

  it('Qualifier Value concepts are not demoted', () => {
    const r = ids(run(f.store, 'glucose').items);
    expect(r.indexOf(QUALIFIER.concept_id)).toBeLessThan(r.indexOf(GLUCOSE_NONSTD.concept_id));
  });

  it('naming a demoted class in concept_class_ids turns the demotion off', () => {
    const r = ids(run(f.store, 'glucose', { filters: { conceptClassIds: ['Answer', 'Lab Test'] } }).items);
    const answer = ARTIFACTS[demotedClasses.indexOf('Answer')]!.concept_id;
    // the Answer (an exact name match) now ranks on text relevance, before the non-standard partial match
    expect(r.indexOf(answer)).toBeLessThan(r.indexOf(GLUCOSE_NONSTD.concept_id));
  });

  it('naming the domain Meas Value in domain_ids turns the demotion off', () => {
    const r = ids(run(f.store, 'glucose', { filters: { domainIds: ['Meas Value', 'Measurement'] } }).items);
    const answer = ARTIFACTS[demotedClasses.indexOf('Answer')]!.concept_id;
    expect(r.indexOf(answer)).toBeLessThan(r.indexOf(GLUCOSE_NONSTD.concept_id));
  });
});

describe('E4 demotion off: ranks on text relevance alone', () => {
  const order = (filters: SearchFilters) => ids(run(f.store, 'hemoglobin', { filters }).items);

  it('with the demotion on, the exact-name Answer ranks after the clinical partial matches (E4 ranking rule 5)', () => {
    const r = order({});
    expect(r.indexOf(HB_ANSWER.concept_id)).toBeGreaterThan(r.indexOf(HB_STANDARD_LONG.concept_id));
    expect(r.indexOf(HB_NONSTD_EXACT.concept_id)).toBeGreaterThan(r.indexOf(HB_STANDARD_LONG.concept_id));
  });

  it('naming a demoted class in concept_class_ids: exact names first whatever their class or domain, then partial matches', () => {
    expect(order({ conceptClassIds: ['Answer', 'Lab Test'] })).toEqual([
      HB_IDENTIFIER.concept_id, // E4 ranking rule 1 still first
      HB_ANSWER.concept_id, // exact name, non-core domain Meas Value; LOINC before TESTVOC by vocabulary authority
      HB_NONSTD_EXACT.concept_id, // exact name, non-standard
      HB_STANDARD_PARTIAL.concept_id, // standard, core domain, but only contains the word
      HB_STANDARD_LONG.concept_id,
    ]);
  });

  it('naming Meas Value in domain_ids has the same effect', () => {
    expect(order({ domainIds: ['Meas Value', 'Measurement', 'Observation'] })).toEqual([
      HB_IDENTIFIER.concept_id,
      HB_ANSWER.concept_id,
      HB_NONSTD_EXACT.concept_id,
      HB_STANDARD_PARTIAL.concept_id,
      HB_STANDARD_LONG.concept_id,
    ]);
  });

  it('E4 ranking rule 6 still holds: an invalid exact match ranks after every valid match', () => {
    const r = run(f.store, 'hemoglobin', { filters: { conceptClassIds: ['Answer', 'Lab Test'], includeInvalid: true } });
    expect(ids(r.items)).toEqual([
      HB_IDENTIFIER.concept_id,
      HB_ANSWER.concept_id,
      HB_NONSTD_EXACT.concept_id,
      HB_STANDARD_PARTIAL.concept_id,
      HB_STANDARD_LONG.concept_id,
      HB_INVALID_EXACT.concept_id,
    ]);
    const scores = r.items.map((i) => i.match_score);
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]!);
    expect(r.items.map((i) => i.match_type)).toEqual(['exact', 'exact', 'exact', 'partial', 'partial', 'exact']);
    expect(r.total).toBe(6);
  });

  it('paging through a demotion-off result gives the same order as one page', () => {
    const filters = { conceptClassIds: ['Answer', 'Lab Test'], includeInvalid: true };
    const whole = ids(run(f.store, 'hemoglobin', { filters }).items);
    const paged = [1, 2, 3].flatMap((page) => ids(run(f.store, 'hemoglobin', { filters, page, pageSize: 2 }).items));
    expect(paged).toEqual(whole);
  });
});
