/**
 * Review rules (issue #24 "Review"): a reviewer's change checked field by field, targets any valid concept the caller
 * may see (not only candidates), an automatic approval undone, and the summary of progress counted from the terms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/services/errors.js';
import type { MappedTerm, TermReview } from '../../src/services/source-mapping/mapping-types.js';
import { applyReviewChange, undoAutoApproval } from '../../src/services/source-mapping/review.js';
import { reviewSummaryMarkdown, summarizeReview } from '../../src/services/source-mapping/review-summary.js';
import { uncheckedReview } from '../../src/services/source-mapping/term-mapping.js';
import { demoConcepts, openDemoRelease, type DemoConcept, type DemoRelease } from './demo-release.js';

let demo: DemoRelease;
let concepts: DemoConcept[];
beforeAll(async () => {
  demo = await openDemoRelease();
  concepts = demoConcepts();
});
afterAll(() => demo?.close());

const named = (name: string, vocabulary = 'SNOMED') => concepts.find((c) => c.concept_name === name && c.vocabulary_id === vocabulary)!;
const NOW = new Date('2026-03-04T05:06:07Z');
const error = (f: () => unknown): ServiceError => {
  try {
    f();
  } catch (err) {
    return err as ServiceError;
  }
  throw new Error('no error');
};
const autoApproved = (conceptId: number): TermReview => ({
  ...uncheckedReview([]),
  concept_ids: [conceptId],
  status: 'approved',
  status_set_by: { kind: 'rule', rule: 'exact_name' },
  status_set_at: '2026-01-01T00:00:00.000Z',
});

describe('applyReviewChange', () => {
  it('approves with any visible valid concept, recording who and when', () => {
    const target = named('Acute myocardial infarction');
    const next = applyReviewChange(demo.unlicensed, uncheckedReview([]), { status: 'approved', equivalence: 'EQUAL', concept_ids: [target.concept_id], comment: 'ok', reviewer: 'ana' }, { now: NOW });
    expect(next).toEqual({
      status: 'approved',
      equivalence: 'EQUAL',
      concept_ids: [target.concept_id],
      comment: 'ok',
      status_set_by: { kind: 'reviewer', reviewer: 'ana' },
      status_set_at: NOW.toISOString(),
      assigned_reviewer: '',
    });
    const back = applyReviewChange(demo.unlicensed, next, { status: 'unchecked' });
    expect(back).toMatchObject({ status: 'unchecked', status_set_by: null, status_set_at: null, equivalence: 'EQUAL', concept_ids: [target.concept_id] });
  });

  it('names the field of every invalid change', () => {
    const current = uncheckedReview([]);
    const problem = (change: unknown) => {
      const e = error(() => applyReviewChange(demo.unlicensed, current, change, { now: NOW }));
      return [e.status, e.details?.parameter ?? e.details?.vocabulary_id];
    };
    expect(problem({ status: 'done', reviewer: 'a' })).toEqual([400, 'status']);
    expect(problem({ equivalence: 'SAME' })).toEqual([400, 'equivalence']);
    expect(problem({ concept_ids: [named('Myocardial infarction').concept_id, 999_999_999] })).toEqual([400, 'concept_ids[1]']);
    expect(problem({ concept_ids: ['12'] })).toEqual([400, 'concept_ids[0]']);
    expect(problem({ concept_ids: [named('Other Race', 'Race').concept_id] })).toEqual([400, 'concept_ids[0]']);
    expect(problem({ concept_ids: [concepts.find((c) => c.vocabulary_id === 'CPT4')!.concept_id] })).toEqual([403, 'CPT4']);
    expect(problem({ status: 'approved' })).toEqual([400, 'reviewer']);
    expect(problem({ comment: 3 })).toEqual([400, 'comment']);
    expect(problem({ colour: 'red' })).toEqual([400, 'colour']);
  });

  it('a CPT4 target is accepted for a caller with CPT4 validation', () => {
    const cpt = concepts.find((c) => c.vocabulary_id === 'CPT4' && c.standard_concept === 'S')!;
    const next = applyReviewChange(demo.licensed, uncheckedReview([]), { concept_ids: [cpt.concept_id], status: 'flagged' }, { reviewer: 'bo', now: NOW });
    expect(next).toMatchObject({ status: 'flagged', concept_ids: [cpt.concept_id], status_set_by: { kind: 'reviewer', reviewer: 'bo' } });
  });

  it('other targets for an approved term, without a status, return it to unchecked', () => {
    const a = named('Acute myocardial infarction').concept_id;
    const b = named('Myocardial infarction').concept_id;
    const next = applyReviewChange(demo.unlicensed, autoApproved(a), { concept_ids: [b] });
    expect(next).toMatchObject({ status: 'unchecked', status_set_by: null, concept_ids: [b] });
    const same = applyReviewChange(demo.unlicensed, autoApproved(a), { concept_ids: [a], comment: 'kept' });
    expect(same).toMatchObject({ status: 'approved', comment: 'kept', status_set_by: { kind: 'rule', rule: 'exact_name' } });
  });
});

describe('undoAutoApproval', () => {
  it('undoes a rule approval (targets kept) and refuses a person’s', () => {
    const a = named('Acute myocardial infarction').concept_id;
    expect(undoAutoApproval(autoApproved(a))).toMatchObject({ status: 'unchecked', status_set_by: null, status_set_at: null, concept_ids: [a] });
    const byPerson = applyReviewChange(demo.unlicensed, uncheckedReview([]), { status: 'approved', concept_ids: [a], reviewer: 'ana' });
    expect(error(() => undoAutoApproval(byPerson)).status).toBe(400);
  });
});

describe('summarizeReview', () => {
  it('counts terms, frequency, statuses, equivalences, rules and target domains/vocabularies', () => {
    const ami = named('Acute myocardial infarction');
    const pos = named('Positive');
    const term = (i: number, f: number) => ({ index: i, line: i + 2, source_code: `c${i}`, source_name: `n${i}`, source_frequency: f, additional_info: {} });
    const candidate = { ...ami, standard_concept: 'S', score: 1, matched_text: ami.concept_name, reasons: ['exact_name' as const] };
    const terms: MappedTerm[] = [
      { term: term(0, 100), candidates: [candidate], review: autoApproved(ami.concept_id) },
      { term: term(1, 30), candidates: [], review: { ...uncheckedReview([]), status: 'approved', equivalence: 'EQUAL', concept_ids: [pos.concept_id], status_set_by: { kind: 'reviewer', reviewer: 'x' } } },
      { term: term(2, 20), candidates: [candidate], review: { ...uncheckedReview([candidate]), status: 'ignored', status_set_by: { kind: 'reviewer', reviewer: 'x' } } },
      { term: term(3, 50), candidates: [candidate], review: uncheckedReview([candidate]) },
    ];
    const lookup = (id: number) => concepts.find((c) => c.concept_id === id);
    const s = summarizeReview(terms, lookup);
    expect(s).toMatchObject({
      total_terms: 4,
      reviewed_terms: 3,
      approved_terms: 2,
      total_frequency: 200,
      approved_frequency: 130,
      reviewed_frequency: 150,
      by_status: { unchecked: 1, approved: 2, flagged: 0, ignored: 1 },
      approved_by: { reviewer: 1, exact_code: 0, exact_name: 1, score_threshold: 0 },
      by_target_domain: { Condition: 1, 'Meas Value': 1 },
      by_target_vocabulary: { SNOMED: 2 },
      terms_without_candidates: 1,
    });
    expect(s.by_equivalence.EQUAL).toBe(1);
    expect(s.by_equivalence.UNREVIEWED).toBe(3);
    const md = reviewSummaryMarkdown(s);
    expect(md).toContain('- Approved: 2 (50.0 % of terms, 65.0 % of the frequency)');
    expect(md).toContain('| Meas Value | 1 |');
  });
});
