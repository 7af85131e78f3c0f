/**
 * The American spellings the candidate step also searches (src/search-model/spelling-variants.ts). Expected words are
 * the US forms of standard dictionaries and of the WHO INN / USAN name lists, written out here by hand.
 */
import { describe, expect, it } from 'vitest';
import { americanSpelling, americanSpellingVariant } from '../../src/search-model/spelling-variants.js';

describe('americanSpelling', () => {
  it.each([
    ['anaemia', 'anemia'],
    ['haemorrhage', 'hemorrhage'],
    ['paediatric', 'pediatric'],
    ['diarrhoea', 'diarrhea'],
    ['foetal', 'fetal'],
    ['coeliac', 'celiac'],
    ['oedema', 'edema'],
    ['oesophagus', 'esophagus'],
    ['aetiology', 'etiology'],
    ['sulphate', 'sulfate'],
    ['aluminium', 'aluminum'],
    ['tumour', 'tumor'],
    ['behaviour', 'behavior'],
    ['centre', 'center'],
    ['litre', 'liter'],
    ['immunisation', 'immunization'],
    ['hospitalised', 'hospitalized'],
    ['paralysed', 'paralyzed'],
    ['analogue', 'analog'],
    ['cefalexin', 'cephalexin'],
    ['paracetamol', 'acetaminophen'],
    ['salbutamol', 'albuterol'],
    ['adrenaline', 'epinephrine'],
    ['norethisterone', 'norethindrone'],
  ])('%s → %s', (british, american) => {
    expect(americanSpelling(british)).toBe(american);
  });

  it.each(['toes', 'shoes', 'four', 'hour', 'your', 'flour', 'arise', 'surprise', 'aerosol', 'cefazolin', 'heart', 'tablet', 'anemia', 'tumor'])(
    '%s needs no change and gets none',
    (word) => {
      expect(americanSpelling(word)).toBe(word);
    },
  );
});

describe('americanSpellingVariant', () => {
  it('rewrites the words that have another spelling and keeps the others, in order', () => {
    expect(americanSpellingVariant(['iron', 'deficiency', 'anaemia'])).toBe('iron deficiency anemia');
    expect(americanSpellingVariant(['paracetamol', '500', 'mg', 'tablet'])).toBe('acetaminophen 500 mg tablet');
  });
  it('"glyceryl trinitrate", one drug in two words, is nitroglycerin', () => {
    expect(americanSpellingVariant(['glyceryl', 'trinitrate', 'rectal'])).toBe('nitroglycerin rectal');
  });
  it('null when nothing changes (no second search)', () => {
    expect(americanSpellingVariant(['myocardial', 'infarction'])).toBeNull();
    expect(americanSpellingVariant([])).toBeNull();
  });
});
