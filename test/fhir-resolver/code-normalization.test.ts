/**
 * The codes the resolver tries for a code sent with a vocabulary: FHIR's hyphenated NDC forms
 * become OMOP's 11-digit (or 9-digit product) NDC, ICD codes sent without their dot get it, and
 * the code as given is always tried first. Expected values are worked out by hand from the NDC and
 * ICD formats (the two NDC packages are the resolver fixture's, whose 11-digit codes are real).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeCandidates } from '../../src/services/fhir-resolver/code-normalization.js';

describe('codeCandidates: NDC', () => {
  it('turns the 10-digit label forms into the 11-digit code, padding the short segment', () => {
    // 4-4-2: the labeler code gets the leading zero.
    expect(codeCandidates('NDC', '0093-1048-01')).toEqual(['0093-1048-01', '00093104801']);
    // 5-3-2: the product code.
    expect(codeCandidates('NDC', '50580-496-60')).toEqual(['50580-496-60', '50580049660']);
    // 5-4-1: the package code.
    expect(codeCandidates('NDC', '12345-6789-1')).toEqual(['12345-6789-1', '12345678901']);
  });

  it('drops the hyphens of the 11-digit 5-4-2 form and keeps an unhyphenated 11-digit code as is', () => {
    expect(codeCandidates('NDC', '00093-1048-01')).toEqual(['00093-1048-01', '00093104801']);
    expect(codeCandidates('NDC', '00093104801')).toEqual(['00093104801']);
  });

  it('turns two-segment product codes into the 9-digit product NDC', () => {
    expect(codeCandidates('NDC', '0093-1048')).toEqual(['0093-1048', '000931048']);
    expect(codeCandidates('NDC', '50580-496')).toEqual(['50580-496', '505800496']);
    expect(codeCandidates('NDC', '50580-0496')).toEqual(['50580-0496', '505800496']);
  });

  it('tries every padding of an unhyphenated 10-digit code', () => {
    expect(codeCandidates('NDC', '0093104801')).toEqual(['0093104801', '00093104801', '00931004801', '00931048001']);
  });

  it('leaves other shapes alone', () => {
    expect(codeCandidates('NDC', '123-45-6')).toEqual(['123-45-6']);
    expect(codeCandidates('NDC', 'abcd-efgh-ij')).toEqual(['abcd-efgh-ij']);
  });
});

describe('codeCandidates: ICD', () => {
  it('adds the dot after the ICD-10 category, upper-cased', () => {
    expect(codeCandidates('ICD10CM', 'E119')).toEqual(['E119', 'E11.9']);
    expect(codeCandidates('ICD10CM', 'S72001A')).toEqual(['S72001A', 'S72.001A']);
    expect(codeCandidates('ICD10CM', 'e11.9')).toEqual(['e11.9', 'E11.9']);
    expect(codeCandidates('ICD10', 'J459')).toEqual(['J459', 'J45.9']);
    expect(codeCandidates('ICD10GM', 'E1190')).toEqual(['E1190', 'E11.90']);
  });

  it('keeps a 3-character category and a code that already has its dot', () => {
    expect(codeCandidates('ICD10CM', 'I10')).toEqual(['I10']);
    expect(codeCandidates('ICD10CM', 'J45.909')).toEqual(['J45.909']);
  });

  it('places the ICD-9-CM dot by the code shape', () => {
    expect(codeCandidates('ICD9CM', '25000')).toEqual(['25000', '250.00']);
    expect(codeCandidates('ICD9CM', 'V7231')).toEqual(['V7231', 'V72.31']);
    expect(codeCandidates('ICD9CM', 'E8889')).toEqual(['E8889', 'E888.9']);
    expect(codeCandidates('ICD9CM', '401')).toEqual(['401']);
    expect(codeCandidates('ICD9Proc', '8855')).toEqual(['8855', '88.55']);
  });
});

describe('codeCandidates: other vocabularies', () => {
  it('trims and otherwise keeps the code as given', () => {
    expect(codeCandidates('SNOMED', ' 44054006 ')).toEqual(['44054006']);
    expect(codeCandidates('LOINC', '2339-0')).toEqual(['2339-0']);
    expect(codeCandidates('RxNorm', '197696')).toEqual(['197696']);
  });

  it('upper-cases codes of upper-case code systems', () => {
    expect(codeCandidates('HCPCS', 'j0129')).toEqual(['j0129', 'J0129']);
    expect(codeCandidates('ATC', 'a10ba02')).toEqual(['a10ba02', 'A10BA02']);
  });

  it('pads a one-digit CVX code with a zero', () => {
    expect(codeCandidates('CVX', '8')).toEqual(['8', '08']);
    expect(codeCandidates('CVX', '140')).toEqual(['140']);
  });

  it('gives nothing for an empty code', () => {
    expect(codeCandidates('SNOMED', '   ')).toEqual([]);
  });

  it('never throws, tries the trimmed code first and at most four distinct codes', () => {
    const vocabularies = fc.constantFrom('NDC', 'ICD10CM', 'ICD10', 'ICD9CM', 'ICD9Proc', 'CVX', 'HCPCS', 'SNOMED', 'LOINC', 'Nonexistent');
    const codes = fc.oneof(fc.string(), fc.stringMatching(/^[0-9A-Za-z.\- ]{0,14}$/));
    fc.assert(
      fc.property(vocabularies, codes, (vocabularyId, code) => {
        const candidates = codeCandidates(vocabularyId, code);
        if (code.trim() === '') return candidates.length === 0;
        return candidates[0] === code.trim() && candidates.length <= 4 && new Set(candidates).size === candidates.length && candidates.every((c) => c.length > 0);
      }),
    );
  });
});
