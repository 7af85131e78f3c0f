/**
 * Candidates per source term on the demo vocabulary (issue #24 "Candidates", "Review"): Usagi's filters and row hints,
 * the best candidate pre-selected, the auto-approval rules (exact code through Maps to, exact name or synonym, score
 * threshold), and licences: a CPT4 concept is never a candidate for a caller without CPT4 validation, even by code.
 * Expected concepts are read from the demo vocabulary's files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/services/errors.js';
import type { SourceTerm } from '../../src/services/source-mapping/mapping-types.js';
import { checkMappingOptions, mapTerm, mapTermBatch, mappingRankingContext } from '../../src/services/source-mapping/term-mapping.js';
import { demoConcepts, demoMapsTo, openDemoRelease, type DemoConcept, type DemoRelease } from './demo-release.js';

let demo: DemoRelease;
let concepts: DemoConcept[];
const byCode = (vocabulary: string, code: string) => concepts.find((c) => c.vocabulary_id === vocabulary && c.concept_code === code)!;
beforeAll(async () => {
  demo = await openDemoRelease();
  concepts = demoConcepts();
});
afterAll(() => demo?.close());

const term = (source_code: string, source_name: string, extra: Partial<SourceTerm> = {}): SourceTerm => ({
  index: 0,
  line: 2,
  source_code,
  source_name,
  source_frequency: 5,
  additional_info: {},
  ...extra,
});
const NOW = new Date('2026-01-02T03:04:05Z');

describe('candidates of one term', () => {
  it('an ICD10CM code leads to its Maps to target, pre-selected and approved by the exact-code rule', async () => {
    const icd = byCode('ICD10CM', 'E11');
    const [target] = demoMapsTo(icd.concept_id);
    const options = checkMappingOptions({ auto_approve: { exact_code: true } });
    const r = await mapTerm(mappingRankingContext(demo.unlicensed, null), term('E11', 'diabetes type II'), options, NOW);
    expect(r.candidates[0]).toMatchObject({ concept_id: target, via_concept_ids: [icd.concept_id] });
    expect(r.candidates[0]!.reasons).toContain('maps_to');
    expect(r.candidates.length).toBeLessThanOrEqual(10);
    expect(r.candidates.every((c) => c.standard_concept === 'S')).toBe(true);
    expect(r.review).toEqual({
      status: 'approved',
      equivalence: 'UNREVIEWED',
      concept_ids: [target],
      comment: '',
      status_set_by: { kind: 'rule', rule: 'exact_code' },
      status_set_at: NOW.toISOString(),
      assigned_reviewer: '',
    });
  });

  it('the exact-code rule approves the code match even when another candidate ranks first', async () => {
    const [target] = demoMapsTo(byCode('ICD10CM', 'E11').concept_id);
    const ctx = mappingRankingContext(demo.unlicensed, null);
    const r = await mapTerm(ctx, term('E11', 'sugar diabetes'), checkMappingOptions({ auto_approve: { exact_code: true } }), NOW);
    const matched = r.candidates.find((c) => c.concept_id === target)!;
    expect(matched.via_concept_ids).toEqual([byCode('ICD10CM', 'E11').concept_id]);
    expect(r.review).toMatchObject({ status: 'approved', concept_ids: [target], status_set_by: { kind: 'rule', rule: 'exact_code' } });
    // without the rule the best candidate stays pre-selected, whatever it is
    const plain = await mapTerm(ctx, term('E11', 'sugar diabetes'), checkMappingOptions({}), NOW);
    expect(plain.review.concept_ids).toEqual([plain.candidates[0]!.concept_id]);
  });

  it('without rules the best candidate is pre-selected but unchecked; the score rule approves at its threshold only', async () => {
    const ctx = mappingRankingContext(demo.unlicensed, null);
    const plain = await mapTerm(ctx, term('E11', 'diabetes type II'), checkMappingOptions({}), NOW);
    expect(plain.review).toMatchObject({ status: 'unchecked', status_set_by: null, concept_ids: [plain.candidates[0]!.concept_id] });
    const best = plain.candidates[0]!.score;
    const at = await mapTerm(ctx, term('E11', 'diabetes type II'), checkMappingOptions({ auto_approve: { score_at_least: best } }), NOW);
    expect(at.review.status_set_by).toEqual({ kind: 'rule', rule: 'score_threshold' });
    const above = await mapTerm(ctx, term('E11', 'diabetes type II'), checkMappingOptions({ auto_approve: { score_at_least: Math.min(1, best + 0.0001) } }), NOW);
    expect(above.review.status).toBe('unchecked');
  });

  it('the exact-name rule approves a synonym match', async () => {
    const synonymOwner = concepts.find((c) => c.concept_name === 'Myocardial infarction' && c.vocabulary_id === 'SNOMED')!;
    const r = await mapTerm(mappingRankingContext(demo.unlicensed, null), term('', 'Heart Attack'), checkMappingOptions({ auto_approve: { exact_name: true, exact_code: true } }), NOW);
    expect(r.candidates[0]!.concept_id).toBe(synonymOwner.concept_id);
    expect(r.candidates[0]!.reasons).toContain('exact_synonym');
    expect(r.review.status_set_by).toEqual({ kind: 'rule', rule: 'exact_name' });
  });

  it('a CPT4 concept is never a candidate without CPT4 validation, even by exact code; with it, it is', async () => {
    const cpt = byCode('CPT4', '59400');
    const options = checkMappingOptions({ k: 25, auto_approve: { exact_code: true }, filters: { standard_only: false, valid_only: false } });
    const hidden = await mapTerm(mappingRankingContext(demo.unlicensed, null), term('59400', cpt.concept_name), options, NOW);
    expect(hidden.candidates.filter((c) => c.vocabulary_id === 'CPT4')).toEqual([]);
    expect(hidden.review.status).toBe('unchecked');
    const shown = await mapTerm(mappingRankingContext(demo.licensed, null), term('59400', cpt.concept_name), options, NOW);
    expect(shown.candidates[0]!.concept_id).toBe(cpt.concept_id);
    expect(shown.review.status_set_by).toEqual({ kind: 'rule', rule: 'exact_code' });
    // naming CPT4 in the job's filters is a 403; in one row's hint it leaves that row without candidates
    expect(() => checkMappingOptions({ filters: { vocabulary_ids: ['CPT4'] } }, demo.unlicensed)).toThrow(/CPT4/);
    const hinted = await mapTerm(mappingRankingContext(demo.unlicensed, null), term('59400', cpt.concept_name, { hints: { vocabulary_ids: ['CPT4'] } }), options, NOW);
    expect(hinted.candidates).toEqual([]);
  });

  it('filters and row hints narrow the candidates (domain, vocabulary, class, standard, valid)', async () => {
    const ctx = mappingRankingContext(demo.unlicensed, null);
    const name = 'Acute myocardial infarction';
    const icd = byCode('ICD10CM', 'I21');
    const standard = await mapTerm(ctx, term('', name), checkMappingOptions({ k: 25 }), NOW);
    expect(standard.candidates.some((c) => c.concept_id === icd.concept_id)).toBe(false);
    const all = await mapTerm(ctx, term('', name), checkMappingOptions({ k: 25, filters: { standard_only: false } }), NOW);
    expect(all.candidates.some((c) => c.concept_id === icd.concept_id)).toBe(true);
    const byVocabulary = await mapTerm(ctx, term('', name, { hints: { vocabulary_ids: ['ICD10CM'] } }), checkMappingOptions({ k: 25, filters: { standard_only: false } }), NOW);
    expect(byVocabulary.candidates.length).toBeGreaterThan(0);
    expect(byVocabulary.candidates.every((c) => c.vocabulary_id === 'ICD10CM')).toBe(true);
    const byDomain = await mapTerm(ctx, term('', 'positive'), checkMappingOptions({ k: 25, filters: { domain_ids: ['Meas Value'] } }), NOW);
    expect(byDomain.candidates.map((c) => c.concept_id)).toContain(concepts.find((c) => c.concept_name === 'Positive')!.concept_id);
    expect(byDomain.candidates.every((c) => c.domain_id === 'Meas Value')).toBe(true);
    const disjoint = await mapTerm(ctx, term('', 'positive', { hints: { domain_ids: ['Drug'] } }), checkMappingOptions({ filters: { domain_ids: ['Meas Value'] } }), NOW);
    expect(disjoint.candidates).toEqual([]);
    const deprecated = concepts.find((c) => c.concept_name === 'Other Race')!;
    const invalidOff = await mapTerm(ctx, term('', 'Other Race'), checkMappingOptions({ k: 25, filters: { standard_only: false } }), NOW);
    expect(invalidOff.candidates.some((c) => c.concept_id === deprecated.concept_id)).toBe(false);
    const invalidOn = await mapTerm(ctx, term('', 'Other Race'), checkMappingOptions({ k: 25, filters: { standard_only: false, valid_only: false } }), NOW);
    expect(invalidOn.candidates.some((c) => c.concept_id === deprecated.concept_id)).toBe(true);
  });

  it('mapping options are checked field by field (400 naming it)', () => {
    const field = (input: unknown) => {
      try {
        checkMappingOptions(input);
      } catch (err) {
        return [(err as ServiceError).status, (err as ServiceError).details?.parameter];
      }
      return null;
    };
    expect(field({ k: 26 })).toEqual([400, 'k']);
    expect(field({ k: 0 })).toEqual([400, 'k']);
    expect(field({ filters: { standard_only: 'yes' } })).toEqual([400, 'filters.standard_only']);
    expect(field({ filters: { domains: ['x'] } })).toEqual([400, 'filters.domains']);
    expect(field({ auto_approve: { score_at_least: 1.5 } })).toEqual([400, 'auto_approve.score_at_least']);
    expect(checkMappingOptions({})).toEqual({ k: 10, filters: { standard_only: true, valid_only: true }, auto_approve: {} });
  });

  it('a batch maps its terms in order with their own index, and stops when aborted', async () => {
    const ctx = mappingRankingContext(demo.unlicensed, null);
    const terms = [term('E11', 'diabetes type II', { index: 7 }), term('I21', 'Acute myocardial infarction', { index: 8 })];
    const out = await mapTermBatch(ctx, terms, checkMappingOptions({}), { now: NOW });
    expect(out.map((r) => r.index)).toEqual([7, 8]);
    expect(out[1]!.candidates[0]!.concept_id).toBe(demoMapsTo(byCode('ICD10CM', 'I21').concept_id)[0]);
    const abort = new AbortController();
    abort.abort(new Error('stop'));
    await expect(mapTermBatch(ctx, terms, checkMappingOptions({}), { signal: abort.signal })).rejects.toThrow('stop');
  });
});
